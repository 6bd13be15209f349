/**
 * Group gifting's use-cases (docs/decisions/0021-group-gifting.md). The owner opens an item to group
 * gifting; guests contribute amounts, each its own card order (one line, no stock), the amount pledged
 * on the item with a conditional UPDATE so the pledges never pass the unit's price; a paid contribution
 * counts once (recordGroupGiftPayment, from markOrderPaid's transaction through the gift lists' order
 * effects, gift-list-order-effects.ts); the payment that completes the price turns the round into one
 * paid order for the list. An expired or cancelled contribution gives its pledge back
 * (releaseGroupGiftContribution, from the orders' door).
 *
 * Lock order, as everywhere an item and its variant are both locked: the order, the variant, the item.
 */
import { and, asc, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import { describeVariants } from "#server/cart/cart-view.service.ts";
import type { Db } from "#server/db/client.ts";
import {
  giftListContributions,
  giftListItems,
  giftListPurchases,
  giftLists,
  orderLines,
  orders,
  productVariants,
  products,
} from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import type { Cents } from "#server/money.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import { giftListDeliveryMethod, paymentDueAt } from "#server/orders/order-methods.ts";
import { addOrderNote, moveOrderStatus } from "#server/orders/order.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { recordTakenStock, takeStock } from "#server/stock/stock-ledger.ts";
import { normaliseGiftListCode, stillNeeded, type GiftListErrorCode } from "./gift-list";
import { checkContributionAmount, giverNamesOf, groupGiftProgress, type ContributionRefusal, type GroupGiftProgress } from "./gift-list-group";
import {
  ContributionTarget,
  contributionInput,
  errorKey,
  GroupGiftSwitchInput,
  parseGiftListForm,
  type GiftListFieldErrors,
} from "./gift-list.inputs";
import { giftListDeliveryFor, giftListOwnerOf, type GiftListDelivery, type PaidOrder } from "./gift-list-orders.service";

type Refused<E extends GiftListErrorCode | "gift-list-item-not-found" | "gift-list-closed" = GiftListErrorCode> = { ok: false; error: E };

// ---------------------------------------------------------------- the owner

/**
 * The owner opens an item to group gifting (its target is one unit at today's price, personalisation
 * included) or closes it. Opening needs a unit still needed, a product for sale and no unpaid order of
 * that item (its payment would take the unit the guests are funding); closing needs an empty round.
 */
export async function switchGroupGift(
  db: Db,
  args: { userId: string; input: unknown; now: Date },
): Promise<{ ok: true; isGroupGift: boolean } | Refused> {
  const parsed = parseGiftListForm(GroupGiftSwitchInput, args.input);
  if (!parsed.ok) return { ok: false, error: "not-found" };
  const open = parsed.value.groupGift === "on";
  return db.transaction(async (tx) => {
    const [item] = await tx
      .select({
        id: giftListItems.id,
        variantId: giftListItems.variantId,
        quantityWished: giftListItems.quantityWished,
        quantityBought: giftListItems.quantityBought,
        isGroupGift: giftListItems.isGroupGift,
        groupPledgedCents: giftListItems.groupPledgedCents,
      })
      .from(giftListItems)
      .where(
        and(
          eq(giftListItems.id, parsed.value.itemId),
          inArray(giftListItems.giftListId, tx.select({ id: giftLists.id }).from(giftLists).where(eq(giftLists.ownerUserId, args.userId))),
        ),
      )
      .for("update");
    if (!item) return { ok: false as const, error: "not-found" as const };
    if (item.isGroupGift === open) return { ok: true as const, isGroupGift: open };
    if (!open) {
      if (item.groupPledgedCents > 0) return { ok: false as const, error: "group-gift-busy" as const };
      await tx.update(giftListItems).set({ isGroupGift: false, groupTargetCents: null, groupFundedCents: 0 }).where(eq(giftListItems.id, item.id));
      return { ok: true as const, isGroupGift: false };
    }
    if (stillNeeded(item) < 1) return { ok: false as const, error: "group-gift-nothing-needed" as const };
    const variant = (await describeVariants(tx, [item.variantId], "it", args.now)).get(item.variantId);
    if (!variant?.isForSale) return { ok: false as const, error: "not-for-sale" as const };
    // A new statement after the row lock: it sees any checkout of this item committed meanwhile (checkout
    // share-locks the items it buys), so no ordinary order can take the unit the guests will fund.
    const [waiting] = await tx
      .select({ id: orders.id })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      // Unpaid and still standing: awaiting payment, or an in-shop order prepared before it is paid.
      .where(and(eq(orderLines.giftListItemId, item.id), isNull(orders.paidAt), notInArray(orders.status, ["cancelled", "expired", "refunded"])))
      .limit(1);
    if (waiting) return { ok: false as const, error: "group-gift-busy" as const };
    await tx
      .update(giftListItems)
      .set({ isGroupGift: true, groupTargetCents: variant.unitCents + variant.personalisationUnitCents, groupPledgedCents: 0, groupFundedCents: 0 })
      .where(eq(giftListItems.id, item.id));
    return { ok: true as const, isGroupGift: true };
  });
}

// ---------------------------------------------------------------- a guest contributes

/** The item a guest contributes to, by the list's code; its amounts are read again by the pledge's conditional UPDATE. */
async function findGroupGiftItem(db: Db, args: { code: string; itemId: string }) {
  const [item] = await db
    .select({
      id: giftListItems.id,
      giftListId: giftListItems.giftListId,
      variantId: giftListItems.variantId,
      quantityWished: giftListItems.quantityWished,
      quantityBought: giftListItems.quantityBought,
      isGroupGift: giftListItems.isGroupGift,
      groupTargetCents: giftListItems.groupTargetCents,
      groupPledgedCents: giftListItems.groupPledgedCents,
      groupFundedCents: giftListItems.groupFundedCents,
      status: giftLists.status,
    })
    .from(giftListItems)
    .innerJoin(giftLists, eq(giftLists.id, giftListItems.giftListId))
    .where(and(eq(giftListItems.id, args.itemId), eq(giftLists.code, args.code)));
  return item ?? null;
}

/**
 * Pledges an amount on a group gift's current round with one conditional UPDATE, like stock: never past
 * the target (two guests cannot both place the last euro), and only while a unit is still needed.
 */
async function pledge(tx: Db, itemId: string, amountCents: number): Promise<boolean> {
  const [pledged] = await tx
    .update(giftListItems)
    .set({ groupPledgedCents: sql`${giftListItems.groupPledgedCents} + ${amountCents}` })
    .where(
      and(
        eq(giftListItems.id, itemId),
        eq(giftListItems.isGroupGift, true),
        sql`${giftListItems.groupPledgedCents} + ${amountCents} <= ${giftListItems.groupTargetCents}`,
        sql`${giftListItems.quantityBought} < ${giftListItems.quantityWished}`,
      ),
    )
    .returning({ id: giftListItems.id });
  return Boolean(pledged);
}

export type ContributeResult =
  | { ok: true; orderId: string; alreadyPlaced: boolean }
  /** A field's problem, each on its field; the range the amount was checked against comes with them. */
  | { ok: false; errors: GiftListFieldErrors; leftCents: Cents; minCents: Cents }
  | (Refused<GiftListErrorCode | "gift-list-item-not-found" | "gift-list-closed"> & { leftCents?: Cents; minCents?: Cents });

class ContributionRollback extends Error {
  constructor(readonly outcome: "already-placed") {
    super(outcome);
  }
}

async function findContributionByKey(db: Db, idempotencyKey: string) {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(giftListContributions, eq(giftListContributions.orderId, orders.id))
    .where(eq(orders.idempotencyKey, idempotencyKey));
  return order ? { ok: true as const, orderId: order.id, alreadyPlaced: true } : null;
}

/** A refused amount, on the amount field, with the range it was checked against. */
function amountRefused(refusal: ContributionRefusal, progress: GroupGiftProgress): ContributeResult {
  const range = { leftCents: progress.leftCents, minCents: progress.minCents };
  return refusal === "group-gift-full" ? { ok: false, error: refusal, ...range } : { ok: false, errors: { amount: errorKey(refusal) }, ...range };
}

/**
 * A guest's contribution: the amount is pledged on the item (refused, never trimmed, when it is more
 * than is left; the answer says how much is left) and a card order for it awaits payment, to be paid
 * through the usual card payment (startCardPayment). The same form sent twice gives one order.
 */
export async function contributeToGroupGift(
  db: Db,
  args: {
    code: string;
    input: unknown;
    locale: Locale;
    now: Date;
    userId: string | null;
    /** False when nobody takes cards (payment-provider.ts takesCardPayments): nothing is pledged then. */
    cardPayments: boolean;
  },
): Promise<ContributeResult> {
  const target = ContributionTarget.safeParse(args.input);
  // Before the amount is checked against what is left: the first send of this form may have taken it.
  const earlier = target.success ? await findContributionByKey(db, target.data.idempotencyKey) : null;
  if (earlier) return earlier;
  // A pledge nobody could pay would hold part of the gift until its order expired.
  if (!args.cardPayments) return { ok: false, error: "group-gift-no-cards" };
  const code = normaliseGiftListCode(args.code);
  const item = code && target.success ? await findGroupGiftItem(db, { code, itemId: target.data.itemId }) : null;
  if (!item) return { ok: false, error: "gift-list-item-not-found" };
  if (item.status !== "open") return { ok: false, error: "gift-list-closed" };
  const progress = groupGiftProgress(item);
  if (!progress) return { ok: false, error: "group-gift-off" };
  if (stillNeeded(item) < 1) return { ok: false, error: "group-gift-nothing-needed" };
  if (progress.leftCents <= 0) return amountRefused("group-gift-full", progress);
  const parsed = parseGiftListForm(contributionInput(progress.leftCents), args.input);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, leftCents: progress.leftCents, minCents: progress.minCents };
  const input = parsed.value;
  try {
    return await db.transaction(async (tx): Promise<ContributeResult> => {
      const variant = (await describeVariants(tx, [item.variantId], args.locale, args.now)).get(item.variantId);
      if (!variant?.isForSale) return { ok: false, error: "not-for-sale" };
      if (!(await pledge(tx, item.id, input.amount))) {
        // Others pledged meanwhile: the answer says what is left now.
        const [current] = await tx.select().from(giftListItems).where(eq(giftListItems.id, item.id));
        const left = current ? groupGiftProgress(current) : null;
        if (!left) return { ok: false, error: "group-gift-off", leftCents: 0, minCents: 0 };
        return amountRefused(checkContributionAmount(input.amount, left.leftCents) ?? "group-gift-full", left);
      }

      // Nothing is shipped for a contribution: "collection" with no address; the list's order ships later.
      const t = getTranslator(args.locale);
      const order = await createOrder(tx, {
        idempotencyKey: input.idempotencyKey,
        userId: args.userId,
        status: "awaiting_payment",
        locale: args.locale,
        email: input.email,
        phone: "",
        firstName: input.giverName,
        lastName: "",
        deliveryMethod: "collection",
        paymentMethod: "card",
        subtotalCents: input.amount,
        totalCents: input.amount,
        paymentDueAt: paymentDueAt("card", args.now, 0),
        giftListId: item.giftListId,
        giverName: input.giverName,
        giftMessage: input.giftMessage || null,
        createdAt: args.now,
        lines: [
          {
            productId: variant.productId,
            // No variant: a contribution takes no stock and goes back to no cart.
            variantId: null,
            sku: "REGALO-DI-GRUPPO",
            name: t("giftLists.group.orderLine", { name: variant.name }),
            colour: variant.colour,
            size: variant.size,
            quantity: 1,
            listPriceCents: input.amount,
            unitPriceCents: input.amount,
            lineTotalCents: input.amount,
          },
        ],
        placed: { note: "group-gift-contribution", actorUserId: args.userId },
      });
      if (!order) throw new ContributionRollback("already-placed");
      await tx.insert(giftListContributions).values({ giftListItemId: item.id, orderId: order.id, amountCents: input.amount, createdAt: args.now });
      return { ok: true, orderId: order.id, alreadyPlaced: false };
    });
  } catch (error) {
    if (!(error instanceof ContributionRollback)) throw error;
    // The same form committed meanwhile; a key that belongs to some other order is simply refused.
    return (
      (await findContributionByKey(db, input.idempotencyKey)) ?? {
        ok: false,
        errors: { form: errorKey("invalid") },
        leftCents: progress.leftCents,
        minCents: progress.minCents,
      }
    );
  }
}

// ---------------------------------------------------------------- payment, expiry, funding

type LockedContribution = {
  id: number;
  giftListItemId: string;
  amountCents: number;
  fundedOrderId: string | null;
  releasedAt: Date | null;
};

/** The order's contribution with its item locked (variant first, then item), or null for any other order. */
async function lockContributionOf(tx: Db, orderId: string): Promise<LockedContribution | null> {
  const [row] = await tx
    .select({
      id: giftListContributions.id,
      giftListItemId: giftListContributions.giftListItemId,
      amountCents: giftListContributions.amountCents,
      fundedOrderId: giftListContributions.fundedOrderId,
      releasedAt: giftListContributions.releasedAt,
      variantId: giftListItems.variantId,
    })
    .from(giftListContributions)
    .innerJoin(giftListItems, eq(giftListItems.id, giftListContributions.giftListItemId))
    .where(eq(giftListContributions.orderId, orderId));
  if (!row) return null;
  await tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.id, row.variantId)).for("update");
  await tx.select({ id: giftListItems.id }).from(giftListItems).where(eq(giftListItems.id, row.giftListItemId)).for("update");
  const { variantId: _variant, ...contribution } = row;
  return contribution;
}

/**
 * The contribution's order expired, was cancelled or refunded before its gift was funded: its amount
 * no longer counts (pledged, and funded if it had been paid; a paid one leaves the thank-you tracker).
 * Called by moveOrder in the order's transaction; a funded or already released one is left as it is.
 */
export async function releaseGroupGiftContribution(tx: Db, args: { orderId: string; wasPaid: boolean; now: Date }): Promise<void> {
  const contribution = await lockContributionOf(tx, args.orderId);
  if (!contribution || contribution.fundedOrderId !== null || contribution.releasedAt !== null) return;
  const paid = args.wasPaid ? contribution.amountCents : 0;
  await tx
    .update(giftListItems)
    .set({
      groupPledgedCents: sql`${giftListItems.groupPledgedCents} - ${contribution.amountCents}`,
      groupFundedCents: sql`${giftListItems.groupFundedCents} - ${paid}`,
    })
    .where(eq(giftListItems.id, contribution.giftListItemId));
  await tx.update(giftListContributions).set({ releasedAt: args.now }).where(eq(giftListContributions.id, contribution.id));
  if (args.wasPaid)
    await tx.delete(giftListPurchases).where(and(eq(giftListPurchases.orderId, args.orderId), eq(giftListPurchases.kind, "contribution")));
}

/**
 * A late payment of a released contribution (its card session was paid after the order expired):
 * pledged again if it still fits the round; false when it does not (markOrderPaid then refunds it).
 * True for any order that is not a released contribution.
 */
export async function retakeGroupGiftPledge(tx: Db, args: { orderId: string }): Promise<boolean> {
  const contribution = await lockContributionOf(tx, args.orderId);
  if (!contribution || contribution.releasedAt === null) return true;
  if (!(await pledge(tx, contribution.giftListItemId, contribution.amountCents))) return false;
  await tx.update(giftListContributions).set({ releasedAt: null }).where(eq(giftListContributions.id, contribution.id));
  return true;
}

export type GroupGiftPaymentOutcome = { kind: "none" } | { kind: "recorded" } | { kind: "funded"; orderId: string; inStock: boolean };

/**
 * A contribution's order was paid (markOrderPaid, in its transaction, on the move to paid): the amount
 * counts once (one thank-you row per order: a repeat changes nothing) and, when it completes the price,
 * the round becomes the list's order.
 */
export async function recordGroupGiftPayment(
  tx: Db,
  args: { order: PaidOrder; now: Date; publicUrl: string | null },
): Promise<GroupGiftPaymentOutcome> {
  const { order } = args;
  if (!order.giftListId) return { kind: "none" };
  const contribution = await lockContributionOf(tx, order.id);
  if (!contribution || contribution.fundedOrderId !== null || contribution.releasedAt !== null) return { kind: "none" };
  const [recorded] = await tx
    .insert(giftListPurchases)
    .values({
      giftListId: order.giftListId,
      giftListItemId: contribution.giftListItemId,
      orderId: order.id,
      kind: "contribution",
      quantity: 0,
      amountCents: contribution.amountCents,
      giverName: order.giverName?.trim() || order.firstName,
      giverEmail: order.email,
      message: order.giftMessage,
      createdAt: args.now,
    })
    .onConflictDoNothing({ target: [giftListPurchases.orderId, giftListPurchases.giftListItemId] })
    .returning({ id: giftListPurchases.id });
  if (!recorded) return { kind: "none" };
  const [item] = await tx
    .update(giftListItems)
    .set({ groupFundedCents: sql`${giftListItems.groupFundedCents} + ${contribution.amountCents}` })
    .where(
      and(
        eq(giftListItems.id, contribution.giftListItemId),
        sql`${giftListItems.groupFundedCents} + ${contribution.amountCents} <= ${giftListItems.groupPledgedCents}`,
      ),
    )
    .returning();
  if (!item) throw new Error(`recordGroupGiftPayment: contribution of order ${order.id} is not pledged`);
  if (item.groupTargetCents === null || item.groupFundedCents < item.groupTargetCents) return { kind: "recorded" };
  return fundGroupGift(tx, { item, giftListId: order.giftListId, now: args.now, publicUrl: args.publicUrl });
}

type FundedItem = typeof giftListItems.$inferSelect;

/**
 * Every cent of the unit is paid: one paid order for the list (its address, or collection; no payment
 * row of its own, the money is on the contributions' orders), the unit bought, the round closed and its
 * contribution orders completed, the owner told. The unit is taken from stock now; with none left the
 * order still stands (the gift is paid) and is marked for the staff to order it in, like a pre-order.
 */
async function fundGroupGift(
  tx: Db,
  args: { item: FundedItem; giftListId: string; now: Date; publicUrl: string | null },
): Promise<GroupGiftPaymentOutcome> {
  const { item, now } = args;
  const targetCents = item.groupTargetCents!;
  const round = await tx
    .select({ id: giftListContributions.id, orderId: giftListContributions.orderId, giverName: orders.giverName, number: orders.number })
    .from(giftListContributions)
    .innerJoin(orders, eq(orders.id, giftListContributions.orderId))
    .where(
      and(eq(giftListContributions.giftListItemId, item.id), isNull(giftListContributions.fundedOrderId), isNull(giftListContributions.releasedAt)),
    )
    .orderBy(asc(giftListContributions.id));
  const owner = await giftListOwnerOf(tx, args.giftListId);
  if (!owner) throw new Error(`fundGroupGift: list ${args.giftListId} has no owner`);
  const { locale } = owner;
  const delivery = (await giftListDeliveryFor(tx, args.giftListId, { includeClosed: true })) ?? ({ kind: "collection" } as const);
  const { delivery: deliverySettings } = await getSettings(tx, ["delivery"]);
  const variant = (await describeVariants(tx, [item.variantId], locale, now)).get(item.variantId);
  const [facts] = await tx
    .select({ sku: productVariants.sku, vatRatePercent: products.vatRatePercent, productId: productVariants.productId })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, item.variantId));
  if (!variant || !facts) throw new Error(`fundGroupGift: variant ${item.variantId} is gone`);

  const stock = await takeStock(tx, [{ variantId: item.variantId, quantity: 1 }]);
  const inStock = stock.ok;
  // The price was fixed when the group gift opened; personalisation keeps today's share of it.
  const personalisationUnitCents = Math.min(variant.personalisationUnitCents, targetCents);
  const unitCents = targetCents - personalisationUnitCents;
  const names = giverNamesOf(round.map((row) => row.giverName ?? ""));
  const funded = await createOrder(tx, {
    idempotencyKey: `group-gift:${item.id}:${round[0]?.id ?? now.getTime()}`,
    userId: owner.userId,
    status: "paid",
    locale,
    email: owner.email,
    phone: delivery.kind === "address" ? (delivery.phone ?? "") : "",
    firstName: delivery.kind === "address" ? delivery.firstName : owner.name,
    lastName: delivery.kind === "address" ? delivery.lastName : "",
    ...addressColumnsOf(delivery),
    country: delivery.kind === "address" ? delivery.country : "IT",
    deliveryMethod: giftListDeliveryMethod(deliverySettings, delivery.kind === "address" ? delivery.postcode : null),
    paymentMethod: "card",
    subtotalCents: unitCents,
    personalisationCents: personalisationUnitCents,
    totalCents: targetCents,
    giftListId: args.giftListId,
    giverName: names,
    paidAt: now,
    createdAt: now,
    lines: [
      {
        productId: facts.productId,
        variantId: item.variantId,
        sku: facts.sku,
        name: variant.name,
        colour: variant.colour,
        size: variant.size,
        quantity: 1,
        listPriceCents: unitCents,
        unitPriceCents: unitCents,
        personalisation: Object.fromEntries(
          variant.personalisationLabels.flatMap((label, index) => {
            const text = item.personalisation[String(index)];
            return text ? [[label, text]] : [];
          }),
        ),
        personalisationUnitCents,
        lineTotalCents: targetCents,
        vatRatePercent: facts.vatRatePercent,
        isPreorder: variant.isPreorder || !inStock,
        giftListItemId: item.id,
      },
    ],
    // Codes only (the customer's page hides them): the contributions' order numbers, and no stock to ship from.
    placed: { note: `group-gift-funded:${round.map((row) => row.number).join("-")}`, actorUserId: null },
  });
  if (!funded) throw new Error(`fundGroupGift: the round of item ${item.id} has an order already`);
  if (stock.ok) await recordTakenStock(tx, stock.taken, { reason: "group-gift-funded", orderId: funded.id, now });
  else await addOrderNote(tx, { orderId: funded.id, note: "group-gift-out-of-stock", now });

  await tx
    .update(giftListItems)
    .set({
      quantityBought: sql`least(${giftListItems.quantityBought} + 1, ${giftListItems.quantityWished})`,
      groupPledgedCents: sql`${giftListItems.groupPledgedCents} - ${targetCents}`,
      groupFundedCents: sql`${giftListItems.groupFundedCents} - ${targetCents}`,
    })
    .where(eq(giftListItems.id, item.id));
  if (round.length > 0) {
    await tx
      .update(giftListContributions)
      .set({ fundedOrderId: funded.id })
      .where(
        inArray(
          giftListContributions.id,
          round.map((row) => row.id),
        ),
      );
    // Their money became the list's order: nothing is left to do on them (and no cancelling one by mistake).
    for (const row of round) {
      await moveOrderStatus(tx, {
        orderId: row.orderId,
        to: "completed",
        move: "group-gift-funded",
        note: `group-gift-funded:${funded.number}`,
        actorUserId: null,
        now,
      });
    }
  }
  await queueFundedMail(tx, {
    orderId: funded.id,
    owner: { email: owner.email, title: owner.title },
    locale,
    productName: variant.name,
    givers: names,
    publicUrl: args.publicUrl,
  });
  return { kind: "funded", orderId: funded.id, inStock };
}

function addressColumnsOf(delivery: GiftListDelivery) {
  if (delivery.kind === "collection") return {};
  const { street, houseNumber, postcode, city, province } = delivery;
  return { street, houseNumber, postcode, city, province };
}

async function queueFundedMail(
  tx: Db,
  args: { orderId: string; owner: { email: string; title: string }; locale: Locale; productName: string; givers: string; publicUrl: string | null },
) {
  const t = getTranslator(args.locale);
  const { shop } = await getSettings(tx, ["shop"]);
  await queueEmail(tx, {
    to: args.owner.email,
    kind: "gift-list-group-funded",
    locale: args.locale,
    dedupeKey: `gift-list-group-funded:${args.orderId}`,
    ...renderEmail({
      locale: args.locale,
      shop,
      siteUrl: args.publicUrl ?? undefined,
      subject: t("giftLists.mail.groupFunded.subject", { item: args.productName, title: args.owner.title }),
      heading: t("giftLists.mail.groupFunded.heading"),
      paragraphs: [t("giftLists.mail.groupFunded.intro", { item: args.productName, givers: args.givers }), t("giftLists.mail.groupFunded.delivery")],
      ...(args.publicUrl
        ? { action: { label: t("giftLists.mail.purchase.action"), url: `${args.publicUrl}${localizedHref("/crea-lista-nascita", args.locale)}` } }
        : {}),
    }),
  });
}

/** The code of the list a contribution's order was for; null for any other order (the payment pages send it back there). */
export async function contributionListCodeOf(db: Db, orderId: string): Promise<string | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return null;
  const [row] = await db
    .select({ code: giftLists.code })
    .from(giftListContributions)
    .innerJoin(orders, eq(orders.id, giftListContributions.orderId))
    .innerJoin(giftLists, eq(giftLists.id, orders.giftListId))
    .where(eq(giftListContributions.orderId, orderId));
  return row?.code ?? null;
}
