/**
 * Refunds: the owner of `refunds`. One refund per received return, by line and amount (and the delivery
 * once the whole order has come back), through the order's way of paying: card through the payment
 * provider, with one idempotency key per refund and retries until it succeeds; cash on delivery and bank
 * transfer as a transfer to the customer's IBAN that the staff mark made. The order keeps its status for a
 * partial refund (a note in its history); the last refund of a whole order moves it to "refunded" through
 * the orders' door. Docs: docs/decisions/0053-refund-routes.md.
 */
import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { isValidIban, normaliseIban } from "#common/iban.ts";
import { afterSalesNote } from "#common/order-history.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, payments, refunds, returnLines, returns } from "#server/db/schema.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import { issueCreditNote } from "#server/invoices/invoice.service.ts";
import { addOrderNote, moveOrderStatus } from "#server/orders/order.service.ts";
import type { PaymentProvider } from "#server/payments/payment-provider.ts";
import { queueRefundMadeMail } from "./after-sales-emails";
import { exchangedLinesOfReturn, exchangedUnitsOfOrder } from "./exchanges.service";
import { markReturnRefunded } from "./returns.service";
import { giveBackToGiftCards } from "#server/gift-cards/gift-card.service.ts";
import { checkRefund, paidPerLine, refundRetryDelayMs, splitRefundByMeans, suggestedRefundCents, type RefundRefusal } from "./refund";

/** `provider(name)`: the provider a payment was made with (its `payments.provider`: Stripe or the test page, or Scalapay). */
export type RefundServices = { db: Db; provider: (name: string) => PaymentProvider; links: OrderMailLinks | null };

type RefundRow = typeof refunds.$inferSelect;

const mailOrderColumns = { id: orders.id, number: orders.number, email: orders.email, locale: orders.locale };

/** What was refunded before on the order: per line, in all, and whether the delivery went back. */
async function refundedSoFar(db: Db, orderId: string) {
  const rows = await db
    .select({ lines: refunds.lines, amountCents: refunds.amountCents, deliveryCents: refunds.deliveryCents, giftCardCents: refunds.giftCardCents })
    .from(refunds)
    .where(eq(refunds.orderId, orderId));
  const perLine = new Map<string, number>();
  for (const row of rows) for (const line of row.lines) perLine.set(line.orderLineId, (perLine.get(line.orderLineId) ?? 0) + line.amountCents);
  return {
    perLine,
    totalCents: rows.reduce((sum, row) => sum + row.amountCents, 0),
    giftCardCents: rows.reduce((sum, row) => sum + row.giftCardCents, 0),
    deliveryRefunded: rows.some((row) => row.deliveryCents > 0),
  };
}

/** Units of each line that came back in received or refunded returns (the one being refunded included). */
async function unitsBack(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ orderLineId: returnLines.orderLineId, quantity: returnLines.quantity })
    .from(returnLines)
    .innerJoin(returns, eq(returns.id, returnLines.returnId))
    .where(and(eq(returns.orderId, orderId), inArray(returns.status, ["received", "refunded"])));
  const units = new Map<string, number>();
  for (const row of rows) units.set(row.orderLineId, (units.get(row.orderLineId) ?? 0) + row.quantity);
  return units;
}

export type RefundProposal = {
  route: "card" | "bank_transfer";
  iban: string | null;
  lines: { orderLineId: string; units: number; maxCents: number; suggestedCents: number }[];
  deliveryRefundable: boolean;
  shippingCents: number;
};

/** What the back office proposes for a received return: each line's amount (its units' share of what was paid) and the delivery. */
export async function proposeRefund(db: Db, returnId: string): Promise<RefundProposal | null> {
  const [row] = await db.select().from(returns).where(eq(returns.id, returnId));
  if (!row || row.status !== "received") return null;
  const facts = await refundFacts(db, row);
  // Exchanged lines are settled by their replacement: nothing to refund on them.
  const lines = (await db.select().from(returnLines).where(eq(returnLines.returnId, row.id))).filter((line) =>
    facts.check.returnLineIds.has(line.orderLineId),
  );
  return {
    route: facts.route,
    iban: row.refundIban,
    lines: lines.map((line) => {
      const orderLine = facts.orderLines.find((candidate) => candidate.id === line.orderLineId)!;
      const maxCents = (facts.check.paid.get(line.orderLineId) ?? 0) - (facts.check.refundedPerLine.get(line.orderLineId) ?? 0);
      return {
        orderLineId: line.orderLineId,
        units: line.quantity,
        maxCents,
        suggestedCents: suggestedRefundCents(facts.check.paid.get(line.orderLineId) ?? 0, orderLine.quantity, line.quantity, maxCents),
      };
    }),
    deliveryRefundable: facts.check.deliveryRefundable,
    shippingCents: facts.check.shippingCents,
  };
}

/**
 * What was paid for each line: its total less its share of a discount code's saving, as stored on the
 * line when the order was placed (server/coupons/coupon.ts). An order placed before the shares were
 * stored has its saving only in the order's totals (a product's offer is already in its line's price):
 * that rest is shared here, as it was then.
 */
function paidOfLines(order: typeof orders.$inferSelect, lines: readonly (typeof orderLines.$inferSelect)[]) {
  const linesCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const codeCents = Math.max(0, linesCents - order.subtotalCents - order.personalisationCents);
  // The loyalty points' discount is stored per line as the code's is: both are out of what was paid.
  const storedCents = lines.reduce((sum, line) => sum + line.codeDiscountCents + line.loyaltyDiscountCents, 0);
  const discounted = lines.map((line) => ({ ...line, lineTotalCents: line.lineTotalCents - line.codeDiscountCents - line.loyaltyDiscountCents }));
  return paidPerLine(discounted, Math.max(0, codeCents - storedCents));
}

/** Card money goes back to the card; money the shop took itself goes back by bank transfer. */
const routeOf = (paymentMethod: string): "card" | "bank_transfer" => (paymentMethod === "card" ? "card" : "bank_transfer");

async function refundFacts(db: Db, row: typeof returns.$inferSelect) {
  const [order] = await db.select().from(orders).where(eq(orders.id, row.orderId));
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, row.orderId)).orderBy(asc(orderLines.id));
  const before = await refundedSoFar(db, row.orderId);
  const back = await unitsBack(db, row.orderId);
  // A unit exchanged did not come back for good (its replacement went out): never refunded, nor the delivery for it.
  const exchanged = await exchangedUnitsOfOrder(db, row.orderId);
  const swapped = await exchangedLinesOfReturn(db, row.id);
  const thisReturn = (
    await db
      .select({ orderLineId: returnLines.orderLineId, quantity: returnLines.quantity })
      .from(returnLines)
      .where(eq(returnLines.returnId, row.id))
  ).filter((line) => !swapped.has(line.orderLineId));
  return {
    order: order!,
    orderLines: lines,
    route: routeOf(order!.paymentMethod),
    unitsOfReturn: new Map(thisReturn.map((line) => [line.orderLineId, line.quantity])),
    refundedToGiftCardCents: before.giftCardCents,
    check: {
      paid: paidOfLines(order!, lines),
      refundedPerLine: before.perLine,
      refundedTotalCents: before.totalCents,
      orderTotalCents: order!.totalCents,
      returnLineIds: new Set(thisReturn.map((line) => line.orderLineId)),
      deliveryRefundable:
        !before.deliveryRefunded && lines.every((line) => (back.get(line.id) ?? 0) - (exchanged.get(line.id) ?? 0) >= line.quantity),
      shippingCents: order!.shippingCents,
    },
  };
}

export type RefundReturnResult =
  | { ok: true; refundId: string; route: "card" | "bank_transfer" | "gift_card"; amountCents: number }
  | { ok: false; error: RefundRefusal | "not-found" | "not-allowed" | "already-refunded" | "not-paid" | "iban" };

/**
 * Refunds a received return, once: the return is locked and moved to refunded in the same transaction as
 * the refund row, whose unique return id stops a second refund even when two staff press at once. A card
 * refund is then asked of the provider (retried by the job until it succeeds); a transfer waits in the
 * staff's "to pay back" list.
 */
export async function refundReturn(
  services: RefundServices,
  args: {
    returnId: string;
    lines: readonly { orderLineId: string; amountCents: number }[];
    includeDelivery: boolean;
    iban?: string | null;
    actorUserId: string | null;
    now: Date;
  },
): Promise<RefundReturnResult> {
  const issued = await services.db.transaction(async (tx): Promise<RefundReturnResult> => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(args.returnId)) return { ok: false, error: "not-found" };
    const [row] = await tx.select().from(returns).where(eq(returns.id, args.returnId)).for("update");
    if (!row) return { ok: false, error: "not-found" };
    if (row.status === "refunded") return { ok: false, error: "already-refunded" };
    if (row.status !== "received") return { ok: false, error: "not-allowed" };
    const facts = await refundFacts(tx, row);
    if (!facts.order.paidAt) return { ok: false, error: "not-paid" };
    const checked = checkRefund(facts.check, { lines: args.lines, includeDelivery: args.includeDelivery });
    if (!checked.ok) return checked;
    const means = splitRefundByMeans({
      amountCents: checked.amountCents,
      orderTotalCents: facts.order.totalCents,
      orderGiftCardCents: facts.order.giftCardCents,
      refundedCents: facts.check.refundedTotalCents,
      refundedToGiftCardCents: facts.refundedToGiftCardCents,
    });
    // All of it back on the gift card: nothing for the provider or a transfer, so no IBAN either.
    const route = means.otherCents > 0 ? facts.route : "gift_card";
    const iban = route === "bank_transfer" ? normaliseIban(args.iban || row.refundIban || "") : null;
    if (iban !== null && !isValidIban(iban)) return { ok: false, error: "iban" };
    const id = crypto.randomUUID();
    const inserted = await tx
      .insert(refunds)
      .values({
        id,
        orderId: row.orderId,
        returnId: row.id,
        route,
        status: route === "card" ? "pending" : route === "bank_transfer" ? "to_pay_back" : "succeeded",
        amountCents: checked.amountCents,
        deliveryCents: checked.deliveryCents,
        giftCardCents: means.giftCardCents,
        lines: checked.lines.map((line) => ({ ...line, quantity: facts.unitsOfReturn.get(line.orderLineId) ?? 0 })),
        iban,
        idempotencyKey: `refund:${id}`,
        nextAttemptAt: route === "card" ? args.now : null,
        doneAt: route === "gift_card" ? args.now : null,
        actorUserId: args.actorUserId,
        createdAt: args.now,
        updatedAt: args.now,
      })
      .onConflictDoNothing({ target: refunds.returnId })
      .returning({ id: refunds.id });
    if (inserted.length === 0 || !(await markReturnRefunded(tx, { returnId: row.id, now: args.now })))
      return { ok: false, error: "already-refunded" };
    await addOrderNote(tx, {
      orderId: row.orderId,
      note: afterSalesNote("refund-issued", row.number, { route, amountCents: checked.amountCents }),
      now: args.now,
    });
    if (means.giftCardCents > 0) await refundToGiftCard(tx, { refundId: id, links: services.links, now: args.now });
    // The whole order came back with its delivery: the order itself is refunded (its stock came back with the returns).
    if (checked.deliveryCents > 0) {
      await moveOrderStatus(tx, {
        orderId: row.orderId,
        to: "refunded",
        move: "workflow",
        note: `refund:${facts.order.paymentMethod}`,
        actorUserId: args.actorUserId,
        now: args.now,
      });
    }
    return { ok: true, refundId: id, route, amountCents: checked.amountCents };
  });
  if (issued.ok && issued.route === "card") await attemptCardRefund(services, { refundId: issued.refundId, now: args.now });
  return issued;
}

/** The card payment a refund goes back to (the provider's session). */
async function cardPaymentRef(db: Db, orderId: string): Promise<{ ref: string; provider: string } | null> {
  const [row] = await db
    .select({ providerRef: payments.providerRef, provider: payments.provider })
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orderId),
        inArray(payments.provider, ["stripe", "test", "scalapay"]),
        inArray(payments.status, ["succeeded", "refunded"]),
        isNotNull(payments.providerRef),
      ),
    )
    .limit(1);
  return row?.providerRef ? { ref: row.providerRef, provider: row.provider } : null;
}

/**
 * Asks the provider for a pending card refund, with the refund's own idempotency key (a retry after a
 * lost answer refunds once). Success: the refund is made, noted and mailed. Failure: tried again later.
 */
export async function attemptCardRefund(
  services: RefundServices,
  args: { refundId: string; now: Date },
): Promise<"succeeded" | "failed" | "skipped"> {
  const [refund] = await services.db.select().from(refunds).where(eq(refunds.id, args.refundId));
  if (!refund || refund.status !== "pending") return "skipped";
  let refundRef: string;
  try {
    const session = await cardPaymentRef(services.db, refund.orderId);
    if (!session) throw new Error("the order has no card payment to refund");
    const cents = refund.amountCents - refund.giftCardCents;
    refundRef = (await services.provider(session.provider).refund(session.ref, cents, refund.idempotencyKey)).refundRef;
  } catch (error) {
    const attempts = refund.attempts + 1;
    await services.db
      .update(refunds)
      .set({
        attempts,
        lastError: (error as Error).message.slice(0, 500),
        nextAttemptAt: new Date(args.now.getTime() + refundRetryDelayMs(attempts)),
        updatedAt: args.now,
      })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")));
    return "failed";
  }
  await services.db.transaction(async (tx) => {
    const done = await tx
      .update(refunds)
      .set({
        status: "succeeded",
        providerRef: refundRef,
        attempts: refund.attempts + 1,
        lastError: null,
        nextAttemptAt: null,
        doneAt: args.now,
        updatedAt: args.now,
      })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
      .returning({ id: refunds.id });
    if (done.length > 0) await noteRefundMade(tx, refund, services.links, args.now);
  });
  return "succeeded";
}

/**
 * Once the money is back: the order's history, the customer's mail and, for an invoiced order, its credit
 * note (TD04) for what this refund gave back, keyed by the refund so a retry issues it once.
 */
async function noteRefundMade(tx: Db, refund: RefundRow, links: OrderMailLinks | null, now: Date) {
  const creditNote = await issueCreditNote(tx, {
    orderId: refund.orderId,
    refund: { lines: refund.lines, deliveryCents: refund.deliveryCents },
    sourceKey: `refund:${refund.id}`,
    actorUserId: refund.actorUserId,
    now,
  });
  // The refund's caps (never above what was paid per line) keep it within the invoice: anything else is a defect.
  if (!creditNote.ok && creditNote.error !== "not-invoiced") throw new Error(`credit note for refund ${refund.id} refused: ${creditNote.error}`);
  // The gift card's share was noted and mailed when it went back (refundToGiftCard).
  const amountCents = refund.amountCents - refund.giftCardCents;
  if (amountCents === 0) return;
  const [row] = await tx.select({ number: returns.number }).from(returns).where(eq(returns.id, refund.returnId));
  const route = refund.route === "card" ? "card" : "bank_transfer";
  await addOrderNote(tx, { orderId: refund.orderId, note: afterSalesNote("refund-made", row!.number, { route, amountCents }), now });
  const [order] = await tx.select(mailOrderColumns).from(orders).where(eq(orders.id, refund.orderId));
  await queueRefundMadeMail(tx, { order: order!, refundKey: refund.id, amountCents, route, links });
}

/**
 * A refund's gift-card share goes back on the card at once, in the refund's transaction, through the gift-card
 * service (its one writer); noted and mailed. A refund all on the card is made here too (its credit note).
 */
async function refundToGiftCard(tx: Db, args: { refundId: string; links: OrderMailLinks | null; now: Date }) {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, args.refundId));
  const given = await giveBackToGiftCards(tx, {
    orderId: refund!.orderId,
    kind: "refund",
    upToCents: refund!.giftCardCents,
    actorUserId: refund!.actorUserId,
    now: args.now,
  });
  // The split never asks more of the card than the order took from it: anything else is a defect.
  if (given !== refund!.giftCardCents) throw new Error(`refund ${refund!.id}: the gift card held ${given} of ${refund!.giftCardCents} cents`);
  const [row] = await tx.select({ number: returns.number }).from(returns).where(eq(returns.id, refund!.returnId));
  await addOrderNote(tx, {
    orderId: refund!.orderId,
    note: afterSalesNote("refund-made", row!.number, { route: "gift_card", amountCents: given }),
    now: args.now,
  });
  const [order] = await tx.select(mailOrderColumns).from(orders).where(eq(orders.id, refund!.orderId));
  await queueRefundMadeMail(tx, { order: order!, refundKey: `${refund!.id}:gift-card`, amountCents: given, route: "gift_card", links: args.links });
  if (refund!.route === "gift_card") await noteRefundMade(tx, refund!, args.links, args.now);
}

/** The retry job's round: card refunds still pending whose time has come. */
export async function retryDueRefunds(services: RefundServices, now: Date): Promise<number> {
  const due = await services.db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, "pending"), lte(refunds.nextAttemptAt, now)))
    .orderBy(asc(refunds.nextAttemptAt))
    .limit(50);
  let made = 0;
  for (const { id } of due) if ((await attemptCardRefund(services, { refundId: id, now })) === "succeeded") made += 1;
  return made;
}

/** The staff made the transfer to the customer's IBAN: the refund is made, noted, mailed and audited, once. */
export async function markRefundPaidBack(
  db: Db,
  args: { refundId: string; actorUserId: string | null; now: Date; links: OrderMailLinks | null },
): Promise<{ ok: boolean }> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(args.refundId)) return { ok: false };
  return db.transaction(async (tx) => {
    const [refund] = await tx
      .update(refunds)
      .set({ status: "paid_back", doneAt: args.now, updatedAt: args.now })
      .where(and(eq(refunds.id, args.refundId), eq(refunds.status, "to_pay_back")))
      .returning();
    if (!refund) return { ok: false };
    await noteRefundMade(tx, refund, args.links, args.now);
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "order.refund-paid-back",
      entity: "order",
      entityId: refund.orderId,
      details: { refundId: refund.id },
    });
    return { ok: true };
  });
}

export type RefundView = Pick<
  RefundRow,
  "id" | "returnId" | "route" | "status" | "amountCents" | "deliveryCents" | "iban" | "attempts" | "doneAt" | "createdAt"
>;

export async function listRefundsOfOrder(db: Db, orderId: string): Promise<RefundView[]> {
  return db
    .select({
      id: refunds.id,
      returnId: refunds.returnId,
      route: refunds.route,
      status: refunds.status,
      amountCents: refunds.amountCents,
      deliveryCents: refunds.deliveryCents,
      iban: refunds.iban,
      attempts: refunds.attempts,
      doneAt: refunds.doneAt,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .where(eq(refunds.orderId, orderId))
    .orderBy(asc(refunds.createdAt));
}

/** The staff's "to pay back" list: transfers still to make, oldest first. */
export async function listRefundsToPayBack(db: Db) {
  return db
    .select({
      id: refunds.id,
      orderId: refunds.orderId,
      orderNumber: orders.number,
      // What the transfer gives: a gift card's share went back on the card.
      amountCents: sql<number>`${refunds.amountCents} - ${refunds.giftCardCents}`.mapWith(Number),
      iban: refunds.iban,
      createdAt: refunds.createdAt,
      customer: sql<string>`${orders.firstName} || ' ' || ${orders.lastName}`,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.status, "to_pay_back"))
    .orderBy(asc(refunds.createdAt))
    .limit(200);
}

/** Some of the order's money already went back through a return: the back office's whole-order refund would pay it twice. */
export async function hasReturnRefunds(db: Db, orderId: string): Promise<boolean> {
  const [row] = await db.select({ id: refunds.id }).from(refunds).where(eq(refunds.orderId, orderId)).limit(1);
  return row !== undefined;
}
