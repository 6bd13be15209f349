/**
 * Recalls (GPSR articles 35-36): the staff recall a product or some of its variants with a notice in both
 * languages; the variants are no longer sold from that moment (the cart's sale rule reads them, server/cart/
 * cart.ts `isForSale`); every order line that sold them is listed with its buyers (customers, guests, gift-
 * list givers and the lists' owners) and each buyer is sent the notice once, through the mail queue, with a
 * record of who was told and when. The only writer of product_recalls, product_recall_variants and
 * product_recall_notices. docs/decisions/0089-recall-flow.md.
 */
import { and, asc, desc, eq, inArray, notInArray } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import { formatSize, isOneSize } from "#common/sizes.ts";
import { colourName } from "#common/variant-label.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import { isRecalledSql } from "#server/catalog/product-card.ts";
import { isUniqueViolation } from "#server/admin/product-admin.service.ts";
import type { Db } from "#server/db/client.ts";
import {
  giftLists,
  orderLines,
  orders,
  productColours,
  productRecallNotices,
  productRecalls,
  productRecallVariants,
  products,
  productVariants,
  profiles,
  users,
} from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { FieldErrors, RecallInput } from "./product-safety.inputs";

export type RecallResult = { ok: true; recallId: number } | { ok: false; errors: FieldErrors } | { ok: false; notFound: true };

/** Orders that never took the goods: their lines sold nothing to recall. */
const unsoldStatuses = ["cancelled", "expired"] as const;

/**
 * Recalls the variants of `input.variantIds` of the product (none named: all of them). A variant already
 * recalled is refused with a clear message and nothing changes: a recall is made once.
 */
export async function recallProduct(
  db: Db,
  args: { productId: number; input: RecallInput; actorUserId: string | null; now?: Date },
): Promise<RecallResult> {
  const { input } = args;
  try {
    return await db.transaction(async (tx): Promise<RecallResult> => {
      const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, args.productId)).for("update");
      if (!product) return { ok: false, notFound: true };
      const variants = await tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, args.productId));
      const own = new Set(variants.map((variant) => variant.id));
      if (input.variantIds.some((id) => !own.has(id))) return { ok: false, errors: { variantIds: "productSafety.errors.invalid" } };
      const chosen = input.variantIds.length > 0 ? input.variantIds : [...own];
      if (chosen.length === 0) return { ok: false, errors: { variantIds: "productSafety.errors.invalid" } };
      const already = await tx
        .select({ variantId: productRecallVariants.variantId })
        .from(productRecallVariants)
        .where(inArray(productRecallVariants.variantId, chosen));
      if (already.length > 0) return { ok: false, errors: { form: "productSafety.errors.alreadyRecalled" } };
      const { variantIds: _, ...texts } = input;
      const [recall] = await tx
        .insert(productRecalls)
        .values({ productId: args.productId, ...texts, actorUserId: args.actorUserId, ...(args.now ? { createdAt: args.now } : {}) })
        .returning({ id: productRecalls.id });
      await tx.insert(productRecallVariants).values(chosen.map((variantId) => ({ recallId: recall!.id, variantId })));
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "product.recall",
        entity: "product",
        entityId: args.productId,
        details: { recallId: recall!.id, variantIds: chosen },
      });
      return { ok: true, recallId: recall!.id };
    });
  } catch (error) {
    // Two staff recalling the same variant at once: the second finds it recalled.
    if (isUniqueViolation(error)) return { ok: false, errors: { form: "productSafety.errors.alreadyRecalled" } };
    throw error;
  }
}

/** Who bought: the order's own buyer, or, for a gift-list order, the giver and the list's owner who received it. */
export type BuyerKind = "customer" | "guest" | "gift-list-giver" | "gift-list-owner";

export type RecallSaleLine = {
  orderId: string;
  orderNumber: number;
  orderedAt: Date;
  sku: string;
  quantity: number;
  buyerName: string;
  buyerEmail: string;
  buyerKind: BuyerKind;
  /** The list's owner, who received the goods of a gift-list order. */
  owner: { name: string; email: string } | null;
};

export type RecallRecipient = { email: string; name: string; locale: Locale; kinds: BuyerKind[]; orderNumbers: number[]; notifiedAt: Date | null };

/** Every order line that sold a recalled variant of `recallId`, oldest first. */
export async function listRecallSales(db: Db, recallId: number): Promise<RecallSaleLine[]> {
  const rows = await db
    .select({
      orderId: orders.id,
      orderNumber: orders.number,
      orderedAt: orders.createdAt,
      sku: orderLines.sku,
      quantity: orderLines.quantity,
      firstName: orders.firstName,
      lastName: orders.lastName,
      email: orders.email,
      userId: orders.userId,
      giftListId: orders.giftListId,
      giverName: orders.giverName,
      ownerName: users.name,
      ownerEmail: users.email,
    })
    .from(orderLines)
    .innerJoin(productRecallVariants, and(eq(productRecallVariants.variantId, orderLines.variantId), eq(productRecallVariants.recallId, recallId)))
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(giftLists, eq(giftLists.id, orders.giftListId))
    .leftJoin(users, eq(users.id, giftLists.ownerUserId))
    .where(notInArray(orders.status, [...unsoldStatuses]))
    .orderBy(asc(orders.createdAt), asc(orderLines.sku));
  return rows.map((row) => ({
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    orderedAt: row.orderedAt,
    sku: row.sku,
    quantity: row.quantity,
    buyerName: row.giftListId && row.giverName ? row.giverName : `${row.firstName} ${row.lastName}`,
    buyerEmail: row.email.toLowerCase(),
    buyerKind: row.giftListId ? "gift-list-giver" : row.userId ? "customer" : "guest",
    owner: row.ownerEmail ? { name: row.ownerName ?? "", email: row.ownerEmail.toLowerCase() } : null,
  }));
}

/** The people to tell, one per address, with the orders that make them a buyer and when they were told. */
export async function listRecallRecipients(db: Db, recallId: number): Promise<RecallRecipient[]> {
  const sales = await listRecallSales(db, recallId);
  const orderIds = [...new Set(sales.map((sale) => sale.orderId))];
  const localeRows = orderIds.length
    ? await db
        .select({ id: orders.id, locale: orders.locale, ownerLocale: profiles.preferredLocale })
        .from(orders)
        .leftJoin(giftLists, eq(giftLists.id, orders.giftListId))
        .leftJoin(profiles, eq(profiles.userId, giftLists.ownerUserId))
        .where(inArray(orders.id, orderIds))
    : [];
  const localeOf = new Map(localeRows.map((row) => [row.id, row]));
  const asLocale = (value: string | null | undefined): Locale => (value === "en" ? "en" : "it");
  const notices = await db
    .select({ email: productRecallNotices.email, notifiedAt: productRecallNotices.notifiedAt })
    .from(productRecallNotices)
    .where(eq(productRecallNotices.recallId, recallId));
  const toldAt = new Map(notices.map((notice) => [notice.email, notice.notifiedAt]));
  const recipients = new Map<string, RecallRecipient>();
  const add = (email: string, name: string, locale: Locale, kind: BuyerKind, orderNumber: number) => {
    const known = recipients.get(email);
    if (!known) {
      recipients.set(email, { email, name, locale, kinds: [kind], orderNumbers: [orderNumber], notifiedAt: toldAt.get(email) ?? null });
      return;
    }
    if (!known.kinds.includes(kind)) known.kinds.push(kind);
    if (!known.orderNumbers.includes(orderNumber)) known.orderNumbers.push(orderNumber);
  };
  for (const sale of sales) {
    const locales = localeOf.get(sale.orderId);
    add(sale.buyerEmail, sale.buyerName, asLocale(locales?.locale), sale.buyerKind, sale.orderNumber);
    if (sale.owner) add(sale.owner.email, sale.owner.name, asLocale(locales?.ownerLocale), "gift-list-owner", sale.orderNumber);
  }
  return [...recipients.values()];
}

export type RecallNotice = {
  id: number;
  productId: number;
  productName: string;
  modelNumber: string | null;
  hazard: string;
  whatToDo: string;
  remedy: string;
  createdAt: Date;
  /** The recalled variants as the buyer knows them: SKU, colour, size, barcode. */
  variants: { id: number; sku: string; colour: string | null; size: string | null; gtin: string | null }[];
};

/** The recalls of a product, newest first, their texts in `locale`. */
export async function listProductRecalls(db: Db, productId: number, locale: Locale): Promise<RecallNotice[]> {
  const recalls = await db
    .select({ recall: productRecalls, productName: locale === "en" ? products.nameEn : products.nameIt, modelNumber: products.modelNumber })
    .from(productRecalls)
    .innerJoin(products, eq(products.id, productRecalls.productId))
    .where(eq(productRecalls.productId, productId))
    .orderBy(desc(productRecalls.createdAt), desc(productRecalls.id));
  if (recalls.length === 0) return [];
  const variants = await db
    .select({
      recallId: productRecallVariants.recallId,
      id: productVariants.id,
      sku: productVariants.sku,
      colour: productColours.colour,
      size: productVariants.size,
      gtin: productVariants.gtin,
    })
    .from(productRecallVariants)
    .innerJoin(productVariants, eq(productVariants.id, productRecallVariants.variantId))
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(
      inArray(
        productRecallVariants.recallId,
        recalls.map(({ recall }) => recall.id),
      ),
    )
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return recalls.map(({ recall, productName, modelNumber }) => ({
    id: recall.id,
    productId: recall.productId,
    productName,
    modelNumber,
    hazard: locale === "en" ? recall.hazardEn : recall.hazardIt,
    whatToDo: locale === "en" ? recall.whatToDoEn : recall.whatToDoIt,
    remedy: locale === "en" ? recall.remedyEn : recall.remedyIt,
    createdAt: recall.createdAt,
    variants: variants
      .filter((variant) => variant.recallId === recall.id)
      .map((variant) => ({
        id: variant.id,
        sku: variant.sku,
        colour: variant.colour,
        size: isOneSize(variant.size) ? null : variant.size,
        gtin: variant.gtin,
      })),
  }));
}

async function getRecallNotice(db: Db, recallId: number, locale: Locale): Promise<RecallNotice | null> {
  const [row] = await db.select({ productId: productRecalls.productId }).from(productRecalls).where(eq(productRecalls.id, recallId));
  if (!row) return null;
  return (await listProductRecalls(db, row.productId, locale)).find((recall) => recall.id === recallId) ?? null;
}

/** "CHI-00120-BK-TU (nero), EAN 8001234567890": a recalled variant as its label names it. */
function describeVariant(variant: RecallNotice["variants"][number], locale: Locale): string {
  const t = getTranslator(locale);
  const parts = [
    variant.colour ? colourName(t, variant.colour) : null,
    variant.size ? formatSize(variant.size) : null,
    variant.gtin ? `GTIN ${variant.gtin}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? `${variant.sku} (${parts.join(", ")})` : variant.sku;
}

/**
 * The notice's mail, in the order of the Commission's template (Implementing Regulation (EU) 2024/1435):
 * the product and how to recognise it, the hazard, what to do, the remedy, and whom to contact.
 */
async function queueRecallMail(tx: Db, args: { recipient: RecallRecipient; notice: RecallNotice; publicUrl: string }): Promise<number | null> {
  const { recipient, notice } = args;
  const { locale } = recipient;
  const t = getTranslator(locale);
  const { shop } = await getSettings(tx, ["shop"]);
  const productUrl = `${args.publicUrl}${localizedHref(`/product/${notice.productId}`, locale)}`;
  return queueEmail(tx, {
    to: recipient.email,
    kind: "product-recall",
    locale,
    dedupeKey: `product-recall:${notice.id}:${recipient.email}`,
    ...renderEmail({
      locale,
      shop,
      siteUrl: args.publicUrl,
      subject: t("productSafety.recallMail.subject", { product: notice.productName }),
      preheader: t("productSafety.recallMail.preheader"),
      heading: t("productSafety.recallMail.heading"),
      paragraphs: [
        t("productSafety.recallMail.intro", { name: recipient.name, orders: recipient.orderNumbers.join(", "), product: notice.productName }),
        `${t("productSafety.recall.hazard")}\n${notice.hazard}`,
        `${t("productSafety.recall.whatToDo")}\n${notice.whatToDo}`,
        `${t("productSafety.recall.remedy")}\n${notice.remedy}`,
        t("productSafety.recallMail.contact", { email: shop.email, phone: shop.phone }),
      ],
      detailsTitle: t("productSafety.recall.product"),
      details: [
        [t("productSafety.recall.productName"), notice.productName],
        ...(notice.modelNumber ? [[t("productSafety.section.model"), notice.modelNumber] as [string, string]] : []),
        ...notice.variants.map((variant): [string, string] => [t("productSafety.recall.variant"), describeVariant(variant, locale)]),
      ],
      action: { label: t("productSafety.recallMail.action"), url: productUrl },
    }),
  });
}

export type SendNoticesResult = { ok: true; sent: number; alreadyTold: number } | { ok: false; notFound: true };

/**
 * Queues the notice for every buyer not yet told, one mail per address, and records who and when. Asking
 * again sends nothing to anyone already told: the notices' unique (recall, address) and the mail's dedupe
 * key both hold it, even for two staff sending at once.
 */
export async function sendRecallNotices(
  db: Db,
  args: { recallId: number; publicUrl: string; actorUserId: string | null; now?: Date },
): Promise<SendNoticesResult> {
  return db.transaction(async (tx): Promise<SendNoticesResult> => {
    const [recall] = await tx
      .select({ id: productRecalls.id, productId: productRecalls.productId })
      .from(productRecalls)
      .where(eq(productRecalls.id, args.recallId))
      .for("update");
    if (!recall) return { ok: false, notFound: true };
    const recipients = await listRecallRecipients(tx, recall.id);
    const untold = recipients.filter((recipient) => recipient.notifiedAt === null);
    const notices = new Map<Locale, RecallNotice | null>();
    let sent = 0;
    for (const recipient of untold) {
      const [notice] = await tx
        .insert(productRecallNotices)
        .values({ recallId: recall.id, email: recipient.email, locale: recipient.locale, ...(args.now ? { notifiedAt: args.now } : {}) })
        .onConflictDoNothing()
        .returning({ id: productRecallNotices.id });
      if (!notice) continue;
      if (!notices.has(recipient.locale)) notices.set(recipient.locale, await getRecallNotice(tx, recall.id, recipient.locale));
      const outboxEmailId = await queueRecallMail(tx, { recipient, notice: notices.get(recipient.locale)!, publicUrl: args.publicUrl });
      await tx.update(productRecallNotices).set({ outboxEmailId }).where(eq(productRecallNotices.id, notice.id));
      sent++;
    }
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "product.recall-notices",
      entity: "product",
      entityId: recall.productId,
      details: { recallId: recall.id, sent },
    });
    return { ok: true, sent, alreadyTold: recipients.length - untold.length };
  });
}

export type RecallableVariant = { id: number; sku: string; colour: string | null; size: string | null; isRecalled: boolean };

/** A product's variants for the recall form, each with whether it is recalled already. */
export async function listRecallableVariants(db: Db, productId: number): Promise<RecallableVariant[]> {
  const rows = await db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      colour: productColours.colour,
      size: productVariants.size,
      isRecalled: isRecalledSql(),
    })
    .from(productVariants)
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return rows.map((row) => ({ ...row, size: isOneSize(row.size) ? null : row.size }));
}
