import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { adjustStock } from "#server/admin/product-stock.service.ts";
import { toCsv } from "#server/admin/csv.ts";
import { csvColumns } from "#server/admin/product-csv.ts";
import { importProductsCsv } from "#server/admin/product-csv.service.ts";
import { authoriseReturn, receiveReturn } from "#server/after-sales/returns.service.ts";
import { submitWithdrawal } from "#server/after-sales/withdrawal.service.ts";
import type { Db } from "#server/db/client.ts";
import { outboxEmails, productVariants, returns, stockAlerts } from "#server/db/schema.ts";
import { expireOrder } from "#server/orders/order.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, placeTestOrder, stockOf } from "#tests/fixtures/checkout.fixtures.ts";
import {
  confirmStockAlert,
  countStockAlertsByVariant,
  requestStockAlert,
  unsubscribeFromStockAlert,
  type StockAlertCaller,
} from "./stock-alerts.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const publicUrl = "https://www.bimbifelici.example";
const at = (iso: string) => new Date(iso);
const minutes = (start: Date, n: number) => new Date(start.getTime() + n * 60_000);
const guest = (overrides: Partial<StockAlertCaller> = {}): StockAlertCaller => ({ locale: "it", publicUrl, ...overrides });

async function mailsTo(db: Db, address: string, kind?: string) {
  const rows = await db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address)).orderBy(outboxEmails.id);
  return kind ? rows.filter((row) => row.kind === kind) : rows;
}

/** The token of a link of the mail, as a person would follow it. */
function tokenOf(mail: { textBody: string }, page: "conferma" | "cancellazione"): string {
  return new RegExp(`/avviso-disponibilita/${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail.textBody)![1]!;
}

/** A stroller in blue (M sold out, L in stock) and white (M sold out, a pre-order). */
async function stroller(db: Db) {
  const product = await createProduct(db, {
    nameIt: "Passeggino Vesuvio",
    nameEn: "Vesuvio stroller",
    variants: [
      { colour: "blue", size: "M", stock: 0 },
      { colour: "blue", size: "L", stock: 2 },
      { colour: "white", size: "M", stock: 0, isPreorder: true, preorderDays: 20 },
    ],
  });
  const [soldOut, inStock, preorder] = product.variantIds as [number, number, number];
  return { productId: product.productId, soldOut, inStock, preorder };
}

async function restockBy(db: Db, productId: number, variantId: number, delta: number) {
  const done = await adjustStock(db, { productId, input: { variantId, delta, reason: "Arrivo merce" }, actorUserId: null });
  expect(done).toMatchObject({ ok: true });
}

async function alertOf(db: Db, email: string) {
  const [row] = await db.select().from(stockAlerts).where(eq(stockAlerts.email, email));
  return row;
}

test("a guest's alert waits for the mail's click; restocked from the back office, it sends one Italian mail to the colour and size, then ends", async () => {
  const db = await openDb();
  const { productId, soldOut } = await stroller(db);
  const now = at("2026-11-20T18:00:00Z");

  expect(await requestStockAlert(db, { variantId: String(soldOut), email: " Anna.Esposito@Example.it " }, guest({ now }))).toEqual({
    ok: true,
    confirmed: false,
  });
  expect(await alertOf(db, "anna.esposito@example.it")).toMatchObject({ status: "pending", locale: "it", variantId: soldOut });
  const [confirmation] = await mailsTo(db, "anna.esposito@example.it");
  expect(confirmation).toMatchObject({ kind: "stock-alert-confirmation", locale: "it", subject: "Conferma l'avviso per «Passeggino Vesuvio»" });
  expect(confirmation!.textBody).toContain(`${publicUrl}/avviso-disponibilita/conferma?token=`);
  expect(confirmation!.textBody).toContain("Colore: Blu");
  expect(confirmation!.textBody).toContain("Taglia: M");
  expect(confirmation!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });

  // Not confirmed yet: the stock comes and goes without a word to the address.
  await restockBy(db, productId, soldOut, 1);
  await restockBy(db, productId, soldOut, -1);
  expect(await mailsTo(db, "anna.esposito@example.it", "stock-alert")).toHaveLength(0);

  const token = tokenOf(confirmation!, "conferma");
  expect(await confirmStockAlert(db, token, minutes(now, 5))).toEqual({ ok: true });
  expect(await confirmStockAlert(db, token, minutes(now, 6))).toEqual({ ok: false, error: "stockAlerts.errors.linkInvalid" });
  expect(await alertOf(db, "anna.esposito@example.it")).toMatchObject({ status: "active", confirmedAt: minutes(now, 5) });

  await restockBy(db, productId, soldOut, 3);
  const [back] = await mailsTo(db, "anna.esposito@example.it", "stock-alert");
  expect(back).toMatchObject({ locale: "it", subject: "È tornato disponibile: Passeggino Vesuvio", status: "queued" });
  expect(back!.textBody).toContain(`${publicUrl}/product/${productId}?colour=blue&size=M`);
  expect(back!.htmlBody).toContain(`href="${publicUrl}/product/${productId}?colour=blue&amp;size=M"`);
  const alert = await alertOf(db, "anna.esposito@example.it");
  expect(alert).toMatchObject({ status: "notified" });
  expect(back!.textBody).toContain(`${publicUrl}/avviso-disponibilita/cancellazione?token=${alert!.unsubscribeToken}`);

  // 3 -> 5 is no news; sold out and back again: the alert has ended, no second mail.
  await restockBy(db, productId, soldOut, 2);
  await restockBy(db, productId, soldOut, -5);
  await restockBy(db, productId, soldOut, 1);
  expect(await mailsTo(db, "anna.esposito@example.it", "stock-alert")).toHaveLength(1);
});

test("a signed-in customer's click is the confirmation: no mail round trip, and the English page's alert speaks English", async () => {
  const db = await openDb();
  const { productId, soldOut } = await stroller(db);
  const userId = await createUser(db);
  const user = { id: userId, email: `${userId}@example.com`, emailVerified: true };

  expect(await requestStockAlert(db, { variantId: soldOut }, guest({ locale: "en", user }))).toEqual({ ok: true, confirmed: true });
  expect(await mailsTo(db, user.email)).toHaveLength(0);
  expect(await alertOf(db, user.email)).toMatchObject({ status: "active", userId, locale: "en" });

  await restockBy(db, productId, soldOut, 4);
  const [back] = await mailsTo(db, user.email, "stock-alert");
  expect(back).toMatchObject({ locale: "en", subject: "Back in stock: Vesuvio stroller" });
  expect(back!.textBody).toContain(`${publicUrl}/en/product/${productId}?colour=blue&size=M`);
  expect(back!.textBody).toContain("Colour: Blue");
  expect(back!.textBody).toContain(`${publicUrl}/en/avviso-disponibilita/cancellazione?token=`);
});

test("a signed-in customer whose address is not verified yet confirms by mail like a guest", async () => {
  const db = await openDb();
  const { soldOut } = await stroller(db);
  const user = { id: await createUser(db), email: "Nuovo@Example.com", emailVerified: false };
  expect(await requestStockAlert(db, { variantId: soldOut, email: "someone-else@example.com" }, guest({ user }))).toEqual({
    ok: true,
    confirmed: false,
  });
  expect(await mailsTo(db, "someone-else@example.com")).toHaveLength(0);
  expect(await mailsTo(db, "nuovo@example.com", "stock-alert-confirmation")).toHaveLength(1);
});

test("one open alert per colour, size and address: asking again answers the same and mails once per 10 minutes", async () => {
  const db = await openDb();
  const { soldOut } = await stroller(db);
  const now = at("2026-11-20T18:00:00Z");
  const ask = (when: Date) => requestStockAlert(db, { variantId: soldOut, email: "twice@example.it" }, guest({ now: when }));
  for (const offset of [0, 2, 9]) expect(await ask(minutes(now, offset))).toEqual({ ok: true, confirmed: false });
  expect(await mailsTo(db, "twice@example.it")).toHaveLength(1);
  await ask(minutes(now, 11));
  const mails = await mailsTo(db, "twice@example.it");
  expect(mails).toHaveLength(2);
  expect(await db.select().from(stockAlerts)).toHaveLength(1);
  // The newest link confirms; once active, asking again sends nothing more.
  expect(await confirmStockAlert(db, tokenOf(mails[0]!, "conferma"), minutes(now, 12))).toEqual({
    ok: false,
    error: "stockAlerts.errors.linkInvalid",
  });
  expect(await confirmStockAlert(db, tokenOf(mails[1]!, "conferma"), minutes(now, 12))).toEqual({ ok: true });
  expect(await ask(minutes(now, 60))).toEqual({ ok: true, confirmed: false });
  expect(await mailsTo(db, "twice@example.it")).toHaveLength(2);
  expect(await db.select().from(stockAlerts)).toHaveLength(1);
});

test("refused: bad addresses, a size in stock, a pre-order, a missing or unpublished product; nothing stored", async () => {
  const db = await openDb();
  const { inStock, preorder, soldOut } = await stroller(db);
  const hidden = await createProduct(db, { isPublished: false, variants: [{ stock: 0 }] });
  const cases: [unknown, string][] = [
    [{ variantId: soldOut }, "stockAlerts.errors.emailRequired"],
    [{ variantId: soldOut, email: "   " }, "stockAlerts.errors.emailRequired"],
    [{ variantId: soldOut, email: "maria@" }, "stockAlerts.errors.emailInvalid"],
    [{ variantId: soldOut, email: "maria@example.it\r\nBcc: x@example.com" }, "stockAlerts.errors.emailInvalid"],
    [{ variantId: soldOut, email: `${"a".repeat(250)}@example.it` }, "stockAlerts.errors.emailInvalid"],
    [{ variantId: "abc", email: "maria@example.it" }, "stockAlerts.errors.variantMissing"],
    [{ variantId: "-3", email: "maria@example.it" }, "stockAlerts.errors.variantMissing"],
    [{ variantId: "99999999999", email: "maria@example.it" }, "stockAlerts.errors.variantMissing"],
    [{ variantId: 987654, email: "maria@example.it" }, "stockAlerts.errors.variantMissing"],
    [{ variantId: hidden.variantId, email: "maria@example.it" }, "stockAlerts.errors.variantMissing"],
    [{ variantId: inStock, email: "maria@example.it" }, "stockAlerts.errors.available"],
    [{ variantId: preorder, email: "maria@example.it" }, "stockAlerts.errors.available"],
  ];
  for (const [input, error] of cases) expect(await requestStockAlert(db, input, guest())).toEqual({ ok: false, error });
  expect(await db.select().from(stockAlerts)).toHaveLength(0);
  expect(await db.select().from(outboxEmails)).toHaveLength(0);
});

test("past 20 requests in an hour from one client address the next is refused; an address gets at most 4 confirmation mails a day", async () => {
  const db = await openDb();
  const { soldOut } = await stroller(db);
  const now = at("2026-11-20T08:00:00Z");
  for (let i = 0; i < 20; i++)
    expect(await requestStockAlert(db, { variantId: soldOut, email: `script${i}@example.it` }, guest({ clientIp: "192.0.2.7", now }))).toMatchObject({
      ok: true,
    });
  expect(await requestStockAlert(db, { variantId: soldOut, email: "script20@example.it" }, guest({ clientIp: "192.0.2.7", now }))).toEqual({
    ok: false,
    error: "stockAlerts.errors.tooMany",
    throttled: true,
  });
  expect(await alertOf(db, "script20@example.it")).toBeUndefined();

  for (let i = 0; i < 8; i++)
    await requestStockAlert(
      db,
      { variantId: soldOut, email: "bombed@example.it" },
      guest({ clientIp: `198.51.100.${i}`, now: minutes(now, i * 11) }),
    );
  expect(await mailsTo(db, "bombed@example.it")).toHaveLength(4);
});

test("the unsubscribe link needs no login, works twice, and a cancelled alert sends nothing when the stock returns", async () => {
  const db = await openDb();
  const { productId, soldOut } = await stroller(db);
  const now = at("2026-11-20T18:00:00Z");
  await requestStockAlert(db, { variantId: soldOut, email: "bye@example.it" }, guest({ now }));
  const [mail] = await mailsTo(db, "bye@example.it");
  await confirmStockAlert(db, tokenOf(mail!, "conferma"), now);
  const unsubscribe = tokenOf(mail!, "cancellazione");

  expect(await unsubscribeFromStockAlert(db, unsubscribe, minutes(now, 30))).toEqual({ ok: true });
  expect(await alertOf(db, "bye@example.it")).toMatchObject({ status: "unsubscribed", unsubscribedAt: minutes(now, 30) });
  expect(await unsubscribeFromStockAlert(db, unsubscribe, minutes(now, 31))).toEqual({ ok: true });
  expect((await alertOf(db, "bye@example.it"))!.unsubscribedAt).toEqual(minutes(now, 30));
  for (const bad of ["", "x".repeat(43), "../../etc", null, 42]) {
    expect(await unsubscribeFromStockAlert(db, bad)).toEqual({ ok: false, error: "stockAlerts.errors.linkInvalid" });
  }
  await restockBy(db, productId, soldOut, 2);
  expect(await mailsTo(db, "bye@example.it", "stock-alert")).toHaveLength(0);
});

test("a return received puts the last units back: the alert's mail goes out, once", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const bib = order.bib.variantId;
  const [variant] = await db.select({ productId: productVariants.productId }).from(productVariants).where(eq(productVariants.id, bib));
  await restockBy(db, variant!.productId, bib, -(await stockOf(db, bib)));
  const user = { id: await createUser(db), email: "mamma@example.it", emailVerified: true };
  expect(await requestStockAlert(db, { variantId: bib }, guest({ user }))).toEqual({ ok: true, confirmed: true });

  const done = await submitWithdrawal(db, {
    orderId: order.orderId,
    access: { hasOrderLink: true, userId: null },
    input: { submissionKey: crypto.randomUUID(), name: "Maria Rossi", iban: null, lines: [{ orderLineId: order.bib.id, quantity: 2 }] },
    locale: "it",
    now: new Date(),
    links: afterSalesLinks,
  });
  if (!done.ok) throw new Error(done.error);
  const [opened] = await db.select().from(returns).where(eq(returns.withdrawalId, done.withdrawalId));
  const now = new Date();
  await authoriseReturn(db, { returnId: opened!.id, now, links: null });
  const lines = [{ orderLineId: order.bib.id, restocked: 2, damaged: 0, damageReason: null }];
  expect(await receiveReturn(db, { returnId: opened!.id, lines, actorUserId: null, now })).toEqual({ ok: true });
  expect(await stockOf(db, bib)).toBe(2);
  const mails = await mailsTo(db, "mamma@example.it", "stock-alert");
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe("È tornato disponibile: Bavaglino");
  expect(mails[0]!.textBody).toContain(`${publicUrl}/product/${variant!.productId}\n`);
});

test("an order that expires unpaid gives its last unit back: the alert's mail goes out; an order taking stock sends nothing", async () => {
  const db = await openDb();
  const { productId, inStock } = await stroller(db);
  const cartId = await cartWith(db, [{ variantId: inStock, quantity: 2 }]);
  const placed = await placeTestOrder(db, { cartId });
  if (!placed.ok) throw new Error(placed.error);
  expect(await stockOf(db, inStock)).toBe(0);
  const user = { id: await createUser(db), email: "papa@example.it", emailVerified: true };
  await requestStockAlert(db, { variantId: inStock }, guest({ user, locale: "en" }));

  expect(await expireOrder(db, { orderId: placed.orderId, now: new Date(), reason: "card-payment-expired" })).toEqual({ changed: true });
  expect(await stockOf(db, inStock)).toBe(2);
  const [mail] = await mailsTo(db, "papa@example.it", "stock-alert");
  expect(mail!.textBody).toContain(`${publicUrl}/en/product/${productId}?colour=blue&size=L`);
  expect(await alertOf(db, "papa@example.it")).toMatchObject({ status: "notified" });
});

test(
  "a CSV import that counts new stock for a sold-out size sends its alerts; one that only changes other figures does not",
  { timeout: 90_000 },
  async () => {
    const db = await openDb();
    await seedTaxonomy(db);
    const adminId = await createAdminUser(db);
    const row = (stock: string) => {
      const values: Record<string, string> = {
        product_sku: "CSV-ALERT",
        name_it: "Body cotone",
        name_en: "Cotton bodysuit",
        price: "12,50",
        discount_percent: "0",
        vat_rate_percent: "22",
        is_new: "0",
        is_free_shipping: "0",
        is_on_request: "0",
        is_published: "1",
        category: "abbigliamento",
        subcategory: "Tutine-Body",
        brands: "Chicco",
        personalisation_cost: "0",
        colour: "white",
        size: "M",
        variant_sku: "CSV-ALERT-W-M",
        stock,
        is_preorder: "0",
      };
      return csvColumns.map((column) => values[column] ?? "");
    };
    const importStock = async (stock: string) =>
      expect(
        await importProductsCsv(db, { text: toCsv(csvColumns, [row(stock)]), dryRun: false, actorUserId: adminId, now: new Date() }),
      ).toMatchObject({
        ok: true,
      });
    await importStock("0");
    const [variant] = await db.select().from(productVariants).where(eq(productVariants.sku, "CSV-ALERT-W-M"));
    await requestStockAlert(db, { variantId: variant!.id }, guest({ user: { id: adminId, email: "carla@example.it", emailVerified: true } }));

    await importStock("0");
    expect(await mailsTo(db, "carla@example.it", "stock-alert")).toHaveLength(0);
    await importStock("6");
    const [mail] = await mailsTo(db, "carla@example.it", "stock-alert");
    expect(mail!.textBody).toContain(`/product/${variant!.productId}?colour=white&size=M`);
    await importStock("7");
    expect(await mailsTo(db, "carla@example.it", "stock-alert")).toHaveLength(1);
  },
);

test("the back office counts each variant's alerts: to confirm, waiting, sent", async () => {
  const db = await openDb();
  const { productId, soldOut, inStock } = await stroller(db);
  const verified = async (email: string) => guest({ user: { id: await createUser(db), email, emailVerified: true } });
  await requestStockAlert(db, { variantId: soldOut, email: "uno@example.it" }, guest());
  await requestStockAlert(db, { variantId: soldOut }, await verified("due@example.it"));
  await requestStockAlert(db, { variantId: soldOut }, await verified("tre@example.it"));
  await restockBy(db, productId, inStock, -2);
  await requestStockAlert(db, { variantId: inStock }, await verified("quattro@example.it"));
  await restockBy(db, productId, inStock, 1);

  const counts = await countStockAlertsByVariant(db, productId);
  expect(counts.get(soldOut)).toEqual({ pending: 1, active: 2, notified: 0, unsubscribed: 0 });
  expect(counts.get(inStock)).toEqual({ pending: 0, active: 0, notified: 1, unsubscribed: 0 });
});
