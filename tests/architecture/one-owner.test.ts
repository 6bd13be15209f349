/**
 * One owner per table (docs/decisions/0047-one-owner-orders-stock.md): orders and their lines are
 * inserted only by server/orders/order-creation.ts; an order's status and its history rows are written
 * only by the door, server/orders/order.service.ts (and createOrder's first history row); product stock
 * and stock movements only by server/stock/stock-ledger.ts; customers' reviews only by
 * server/reviews/review.service.ts (docs/decisions/0059-verified-reviews.md); invoices only by
 * server/invoices/invoice.service.ts, their files to the SDI by server/invoices/sdi.service.ts; withdrawals, returns and refunds only by their modules in
 * server/after-sales/; back-in-stock alerts only by server/stock-alerts/stock-alerts.service.ts; discount codes and their uses only by
 * server/coupons/ (docs/decisions/0066-coupon-codes.md); the newer tables' owners are named with their decisions in
 * `rules` below. Scans the shop's sources, its tests included,
 * for Drizzle calls and raw SQL that write those tables anywhere else.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const scannedFolders = ["app", "server", "tests", "e2e", "bench", "load", "scripts", "config"];

const creation = "server/orders/order-creation.ts";
const door = "server/orders/order.service.ts";
const ledger = "server/stock/stock-ledger.ts";
const reviews = "server/reviews/review.service.ts";
const invoiceService = "server/invoices/invoice.service.ts";
/** Proves that the database itself refuses to change an issued invoice. */
const invoiceImmutabilityTest = "server/invoices/invoice.service.test.ts";
const withdrawalOwner = "server/after-sales/withdrawal.service.ts";
const returnsOwner = "server/after-sales/returns.service.ts";
const refundsOwner = "server/after-sales/refunds.service.ts";
const stockAlertsOwner = "server/stock-alerts/stock-alerts.service.ts";
const coupons = "server/coupons/coupon.service.ts";
const mailChoices = "server/customer-mails/mail-choice.service.ts";
const cartRemindersOwner = "server/customer-mails/cart-reminder.service.ts";
const reviewInvitationsOwner = "server/customer-mails/review-invitation.service.ts";
const guaranteeClaimsOwner = "server/guarantee/claims.service.ts";
const couponsAdmin = "server/coupons/coupon-admin.service.ts";
const productSpecsOwner = "server/catalog/product-specs.service.ts";
/** The seed writes the sample specifications in bulk beside the other sample rows (docs/decisions/0101-product-specifications.md). */
const seed = "server/db/seed.ts";
/** Bundles, their parts and allowed combinations (docs/decisions/0100-bundles.md). */
const bundlesAdmin = "server/bundles/bundle-admin.service.ts";
/** Gift cards and their movements (docs/decisions/0097-gift-cards.md). */
const giftCardsOwner = "server/gift-cards/gift-card.service.ts";
const loyalty = "server/loyalty/loyalty.service.ts";
/** Exchanges of returned lines (docs/decisions/0105-exchanges.md). */
const exchangesOwner = "server/after-sales/exchanges.service.ts";
/** Voucher lines and gift-list funds (docs/decisions/0106-voucher-lines.md, 0098-gift-list-funds.md). */
const vouchersOwner = "server/vouchers/voucher.service.ts";
const fundsOwner = "server/vouchers/gift-list-fund.service.ts";
/** Proves the database itself refuses to change a stored withdrawal statement, with raw SQL. */
const withdrawalTriggerTest = "server/after-sales/withdrawal.service.test.ts";

/**
 * Tools that fill a database in bulk around the shop, as a seed does, not through it: the scale bench's
 * million orders are made by generate_series in SQL (through createOrder they would take hours), and the
 * load test gives its raced variants their stock before the shop starts, with the pg client it reads
 * its ledger with.
 */
const bulkFillers = ["bench/lib/scale-catalogue.ts", "load/lib/load-shop.ts"];

/** The architecture tests themselves: they hold violations as text, to prove their scans catch them. */
const isArchitectureTest = (file: string) => file.startsWith("tests/architecture/");

/** The argument of the first `.set(` after `from` (balanced parentheses), or "" when there is none. */
function setArgumentAfter(source: string, from: number): string {
  const start = source.indexOf(".set(", from);
  if (start === -1) return "";
  let depth = 0;
  for (let index = start + ".set".length; index < source.length; index += 1) {
    if (source[index] === "(") depth += 1;
    else if (source[index] === ")" && --depth === 0) return source.slice(start + ".set(".length, index);
  }
  return "";
}

/** Drizzle `.update(table)` calls whose `.set(...)` names `column`. */
function updatesColumn(table: string, column: string) {
  const call = new RegExp(String.raw`\.update\(\s*${table}\s*\)`, "g");
  return (source: string) =>
    [...source.matchAll(call)].some((match) => new RegExp(String.raw`\b${column}\b`).test(setArgumentAfter(source, match.index)));
}

const matches = (pattern: RegExp) => (source: string) => pattern.test(source);

/** Any Drizzle insert, update or delete of `table`, or raw SQL writing `sqlName`. */
const writesTable = (table: string, sqlName: string) =>
  matches(new RegExp(String.raw`\.(insert|update|delete)\(\s*${table}\s*\)|(insert\s+into|update|delete\s+from)\s+"?${sqlName}"?\s`, "i"));

type Rule = { what: string; owners: readonly string[]; finds: (source: string) => boolean };

const rules: Rule[] = [
  { what: "inserts orders", owners: [creation], finds: matches(/\.insert\(\s*orders\s*\)|insert\s+into\s+"?orders"?[\s(]/i) },
  { what: "inserts order lines", owners: [creation], finds: matches(/\.insert\(\s*orderLines\s*\)|insert\s+into\s+"?order_lines"?[\s(]/i) },
  {
    what: "writes order status history",
    owners: [creation, door],
    finds: matches(/\.(insert|update|delete)\(\s*orderStatusHistory\s*\)|(insert\s+into|update|delete\s+from)\s+"?order_status_history"?\s/i),
  },
  {
    what: "changes an order's status",
    owners: [door],
    finds: (source) => updatesColumn("orders", "status")(source) || /update\s+"?orders"?\s+set\b[^;`]*\bstatus\b/i.test(source),
  },
  {
    what: "writes product stock",
    owners: [ledger],
    finds: (source) => updatesColumn("productVariants", "stock")(source) || /update\s+"?product_variants"?\s+set\b[^;`]*\bstock\b/i.test(source),
  },
  {
    what: "writes stock movements",
    owners: [ledger],
    finds: matches(/\.(insert|update|delete)\(\s*stockMovements\s*\)|(insert\s+into|update|delete\s+from)\s+"?stock_movements"?\s/i),
  },
  {
    what: "writes product reviews",
    owners: [reviews],
    finds: matches(/\.(insert|update|delete)\(\s*productReviews\s*\)|(insert\s+into|update|delete\s+from)\s+"?product_reviews"?\s/i),
  },
  {
    what: "writes invoices or their numbers",
    owners: [invoiceService, invoiceImmutabilityTest],
    finds: matches(
      /\.(insert|update|delete)\(\s*(invoices|invoiceCounters)\s*\)|(insert\s+into|update|delete\s+from)\s+"?(invoices|invoice_counters)"?[\s(]/i,
    ),
  },
  {
    what: "writes SDI transmissions or notifications",
    owners: ["server/invoices/sdi.service.ts"],
    finds: matches(
      /\.(insert|update|delete)\(\s*(sdiTransmissions|sdiNotifications)\s*\)|(insert\s+into|update|delete\s+from)\s+"?(sdi_transmissions|sdi_notifications)"?[\s(]/i,
    ),
  },
  { what: "writes withdrawal statements", owners: [withdrawalOwner, withdrawalTriggerTest], finds: writesTable("withdrawals", "withdrawals") },
  { what: "writes returns", owners: [returnsOwner], finds: writesTable("returns", "returns") },
  { what: "writes return lines", owners: [returnsOwner], finds: writesTable("returnLines", "return_lines") },
  { what: "writes refunds", owners: [refundsOwner], finds: writesTable("refunds", "refunds") },
  { what: "writes stock alerts", owners: [stockAlertsOwner], finds: writesTable("stockAlerts", "stock_alerts") },
  { what: "writes discount codes", owners: [coupons, couponsAdmin], finds: writesTable("discountCodes", "discount_codes") },
  {
    what: "writes a discount code's limits",
    owners: [couponsAdmin],
    finds: matches(
      /\.(insert|update|delete)\(\s*(discountCodeCategories|discountCodeBrands)\s*\)|(insert\s+into|update|delete\s+from)\s+"?discount_code_(categories|brands)"?\s/i,
    ),
  },
  { what: "writes discount code uses", owners: [coupons], finds: writesTable("discountCodeUses", "discount_code_uses") },
  { what: "writes product specifications", owners: [productSpecsOwner, seed], finds: writesTable("productSpecs", "product_specs") },
  {
    what: "writes bundles",
    owners: [bundlesAdmin],
    finds: matches(
      /\.(insert|update|delete)\(\s*(bundles|bundleParts|bundleOptionParts)\s*\)|(insert\s+into|update|delete\s+from)\s+"?bundle(s|_parts|_option_parts)"?\s/i,
    ),
  },
  { what: "writes customers' mail choices", owners: [mailChoices], finds: writesTable("customerMailChoices", "customer_mail_choices") },
  { what: "writes cart reminders", owners: [cartRemindersOwner], finds: writesTable("cartReminders", "cart_reminders") },
  { what: "writes review invitations", owners: [reviewInvitationsOwner], finds: writesTable("reviewInvitations", "review_invitations") },
  {
    what: "writes guarantee claims, their photos or their history",
    owners: [guaranteeClaimsOwner],
    finds: matches(
      /\.(insert|update|delete)\(\s*(guaranteeClaims|guaranteeClaimPhotos|guaranteeClaimEvents)\s*\)|(insert\s+into|update|delete\s+from)\s+"?guarantee_claim(s|_photos|_events)"?[\s(]/i,
    ),
  },
  { what: "writes gift cards", owners: [giftCardsOwner], finds: writesTable("giftCards", "gift_cards") },
  { what: "writes gift card movements", owners: [giftCardsOwner], finds: writesTable("giftCardMovements", "gift_card_movements") },
  { what: "writes loyalty cards", owners: [loyalty], finds: writesTable("loyaltyCards", "loyalty_cards") },
  { what: "writes cart voucher lines", owners: [vouchersOwner], finds: writesTable("cartVouchers", "cart_vouchers") },
  {
    what: "writes order voucher lines",
    owners: [vouchersOwner],
    finds: writesTable("orderVouchers", "order_vouchers"),
  },
  { what: "writes gift-list funds", owners: [fundsOwner], finds: writesTable("giftListFunds", "gift_list_funds") },
  { what: "writes loyalty entries", owners: [loyalty], finds: writesTable("loyaltyEntries", "loyalty_entries") },
  { what: "writes loyalty expiry notices", owners: [loyalty], finds: writesTable("loyaltyExpiryNotices", "loyalty_expiry_notices") },
  { what: "writes return exchanges", owners: [exchangesOwner], finds: writesTable("returnExchanges", "return_exchanges") },
];

export type SourceFile = { file: string; source: string };

/** "file: what" for every rule a file breaks that it does not own. */
export function findOwnerViolations(files: readonly SourceFile[]): string[] {
  return files.flatMap(({ file, source }) =>
    rules.filter((rule) => !rule.owners.includes(file) && rule.finds(source)).map((rule) => `${file}: ${rule.what}`),
  );
}

function shopSources(): SourceFile[] {
  return scannedFolders.flatMap((folder) =>
    fs
      .globSync(`${folder}/**/*.{ts,tsx,js,mjs}`, { cwd: root, exclude: (name) => name === "node_modules" || name === "build" })
      .filter((file) => !isArchitectureTest(file) && !bulkFillers.includes(file))
      .map((file) => ({ file, source: fs.readFileSync(path.join(root, file), "utf8") })),
  );
}

test("only the owners insert orders, move their status and write stock", () => {
  const sources = shopSources();
  expect(sources.length).toBeGreaterThan(300);
  expect(findOwnerViolations(sources)).toEqual([]);
});

test("the scan catches a write outside its owner, in Drizzle or raw SQL, and lets the owner write", () => {
  const stockWrite = "await tx.update(productVariants).set({ stock: sql`${productVariants.stock} - 1` }).where(eq(productVariants.id, id));";
  const orderInsert = "const [order] = await db\n  .insert(orders)\n  .values(draft)\n  .returning();";
  const rawStatus = "await db.execute(sql`UPDATE orders SET status = 'completed' WHERE id = ${id}`);";
  const rawMovement = "await db.execute(sql`insert into stock_movements (variant_id, delta, reason) values (1, -1, 'x')`);";
  const reviewPublish = "await tx.update(productReviews).set({ status: 'published' }).where(eq(productReviews.id, id));";
  const invoiceRenumber = "await db.execute(sql`update invoice_counters set last_number = 0`);";
  expect(
    findOwnerViolations([
      { file: "server/cart/sneaky.ts", source: stockWrite },
      { file: "server/gift-lists/sneaky.ts", source: orderInsert },
      { file: "server/admin/sneaky.ts", source: rawStatus },
      { file: "tests/sneaky.ts", source: rawMovement },
      { file: "server/admin/sneaky-reviews.ts", source: reviewPublish },
      { file: "server/orders/sneaky.ts", source: invoiceRenumber },
      { file: "server/admin/sneaky-invoice.ts", source: "await db.update(invoices).set({ totalCents: 0 });" },
      { file: "server/admin/refund-sneaky.ts", source: "await tx.update(refunds).set({ status: 'succeeded' });" },
      { file: "server/admin/return-sneaky.ts", source: "await db.execute(sql`update returns set status = 'refunded'`);" },
      { file: "server/admin/statement-sneaky.ts", source: "await db.delete(withdrawals);" },
      { file: "server/stock/alert-sneaky.ts", source: "await tx.update(stockAlerts).set({ status: 'notified' });" },
      { file: "server/checkout/code-sneaky.ts", source: "await tx.update(discountCodes).set({ usedCount: 0 });" },
      { file: "server/gift-lists/use-sneaky.ts", source: "await db.execute(sql`delete from discount_code_uses where order_id = ${id}`);" },
      { file: "server/admin/specs-sneaky.ts", source: "await tx.update(productSpecs).set({ hasIsofix: true });" },
    ]),
  ).toEqual([
    "server/cart/sneaky.ts: writes product stock",
    "server/gift-lists/sneaky.ts: inserts orders",
    "server/admin/sneaky.ts: changes an order's status",
    "tests/sneaky.ts: writes stock movements",
    "server/admin/sneaky-reviews.ts: writes product reviews",
    "server/orders/sneaky.ts: writes invoices or their numbers",
    "server/admin/sneaky-invoice.ts: writes invoices or their numbers",
    "server/admin/refund-sneaky.ts: writes refunds",
    "server/admin/return-sneaky.ts: writes returns",
    "server/admin/statement-sneaky.ts: writes withdrawal statements",
    "server/stock/alert-sneaky.ts: writes stock alerts",
    "server/checkout/code-sneaky.ts: writes discount codes",
    "server/gift-lists/use-sneaky.ts: writes discount code uses",
    "server/admin/specs-sneaky.ts: writes product specifications",
  ]);
  expect(
    findOwnerViolations([
      { file: ledger, source: stockWrite },
      { file: creation, source: orderInsert },
      { file: reviews, source: reviewPublish },
      { file: "server/admin/sku.ts", source: "await tx.update(productVariants).set({ sku: input.sku }).where(eq(productVariants.id, id));" },
    ]),
  ).toEqual([]);
});
