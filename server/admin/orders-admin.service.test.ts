import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import { auditLog, orders, outboxEmails, productVariants } from "#server/db/schema.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import type { PaymentProvider } from "#server/payments/payment-provider.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { getDashboard } from "./dashboard.service";
import { getAdminOrder, listAdminOrders, parseAdminOrderFilters, runAdminOrderAction } from "./orders-admin.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

async function anOrder(db: Db, fields: Record<string, string> = {}, stock = 5) {
  const { variantId } = await createProduct(db, { priceCents: 1500, variants: [{ stock }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 2 }]);
  const result = await placeTestOrder(db, { cartId, input: checkoutInput(fields), now: new Date() });
  if (!result.ok) throw new Error(result.error);
  return { orderId: result.orderId, variantId };
}

const refunds: string[] = [];
const provider = {
  refund: async (ref: string, cents: number) => (refunds.push(`${ref}:${cents}`), { refundRef: `re_${ref}` }),
} as unknown as PaymentProvider;

function ctx(db: Db, actorUserId: string) {
  return { db, actorUserId, now: new Date(), links: { publicUrl: testPublicUrl, secret: testSecret }, provider: () => provider };
}

async function stockOf(db: Db, variantId: number) {
  const [row] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
  return row!.stock;
}

test("a bank-transfer order: marked paid by the admin, prepared, shipped with the carrier in the customer's mail, each step audited", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const { orderId } = await anOrder(db, { paymentMethod: "bank_transfer" });
  expect((await runAdminOrderAction(ctx(db, admin), orderId, { intent: "status", to: "shipped" })).ok).toBe(false);
  expect(await runAdminOrderAction(ctx(db, admin), orderId, { intent: "mark-paid" })).toEqual({ ok: true, done: "mark-paid" });
  expect(await runAdminOrderAction(ctx(db, admin), orderId, { intent: "mark-paid" })).toMatchObject({ ok: false });
  expect(await runAdminOrderAction(ctx(db, admin), orderId, { intent: "status", to: "preparing" })).toEqual({ ok: true, done: "status" });
  expect(await runAdminOrderAction(ctx(db, admin), orderId, { intent: "status", to: "shipped" })).toEqual({
    ok: false,
    error: "admin.orders.errors.carrier-required",
  });
  // "Other" courier needs its name.
  expect(await runAdminOrderAction(ctx(db, admin), orderId, { intent: "status", to: "shipped", carrier: "other", carrierName: " " })).toEqual({
    ok: false,
    error: "admin.orders.errors.carrier-required",
  });
  expect(await runAdminOrderAction(ctx(db, admin), orderId, { intent: "status", to: "shipped", carrier: "brt", trackingNumber: "0591 234" })).toEqual(
    {
      ok: true,
      done: "status",
    },
  );
  const detail = await getAdminOrder(db, { orderId, locale: "it" });
  expect(detail!.order.status).toBe("shipped");
  expect(detail!.order.delivery.carrier).toBe("BRT");
  expect(detail!.order.delivery.trackingUrl).toBe("https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz=0591%20234");
  expect(detail!.moves).toEqual(["completed"]);
  const [shipped] = await db
    .select({ text: outboxEmails.textBody, html: outboxEmails.htmlBody })
    .from(outboxEmails)
    .where(eq(outboxEmails.kind, "order-shipped"));
  expect(shipped!.text).toContain("Numero di tracciamento: 0591 234");
  expect(shipped!.text).toContain(
    "Segui la spedizione sul sito di BRT:\nhttps://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz=0591%20234",
  );
  expect(shipped!.html).toContain('href="https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&amp;Nspediz=0591%20234"');
  const audit = await db.select({ action: auditLog.action, actor: auditLog.actorUserId }).from(auditLog).orderBy(asc(auditLog.id));
  expect(audit.map((row) => row.action)).toEqual(["order.mark-paid", "order.status", "order.status"]);
  expect(audit.every((row) => row.actor === admin)).toBe(true);
});

test("cancelling gives the stock back; refunding a card order asks the provider once and records it", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const cancelled = await anOrder(db, { paymentMethod: "bank_transfer" }, 5);
  expect(await stockOf(db, cancelled.variantId)).toBe(3);
  expect(await runAdminOrderAction(ctx(db, admin), cancelled.orderId, { intent: "cancel" })).toEqual({ ok: true, done: "cancel" });
  expect(await stockOf(db, cancelled.variantId)).toBe(5);
  expect(await runAdminOrderAction(ctx(db, admin), cancelled.orderId, { intent: "refund" })).toMatchObject({ ok: false });

  const card = await anOrder(db, {}, 5);
  const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, card.orderId));
  await markOrderPaid(db, { orderId: card.orderId, provider: "test", providerRef: "test_abc", amountCents: order!.totalCents, now: new Date() });
  refunds.length = 0;
  expect(await runAdminOrderAction(ctx(db, admin), card.orderId, { intent: "refund" })).toEqual({ ok: true, done: "refund" });
  expect(refunds).toEqual([`test_abc:${order!.totalCents}`]);
  expect(await stockOf(db, card.variantId)).toBe(5);
  const detail = await getAdminOrder(db, { orderId: card.orderId, locale: "en" });
  expect(detail!.order.status).toBe("refunded");
  expect(detail!.refundedCents).toBe(order!.totalCents);
  // The payment reads "refunded", not "received", for staff and customer alike.
  expect(detail!.order.payment.status).toBe("refunded");
  expect(await runAdminOrderAction(ctx(db, admin), card.orderId, { intent: "refund" })).toMatchObject({ ok: false });
  expect(refunds).toHaveLength(1);
});

test("refunding a whole order mails the customer the refund, as a return's refund does: once, in the order's language", async () => {
  const db = await openDb();
  const admin = await createAdminUser(db);
  const refundMails = () =>
    db
      .select({ to: outboxEmails.toAddress, subject: outboxEmails.subject, text: outboxEmails.textBody })
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "refund-made"))
      .orderBy(asc(outboxEmails.id));
  const card = await anOrder(db, { email: "giulia@example.it" });
  const [order] = await db.select({ number: orders.number, totalCents: orders.totalCents }).from(orders).where(eq(orders.id, card.orderId));
  await markOrderPaid(db, { orderId: card.orderId, provider: "test", providerRef: "test_whole", amountCents: order!.totalCents, now: new Date() });
  expect(await refundMails()).toEqual([]);
  expect(await runAdminOrderAction(ctx(db, admin), card.orderId, { intent: "refund" })).toEqual({ ok: true, done: "refund" });
  const [mail] = await refundMails();
  expect(mail).toMatchObject({ to: "giulia@example.it", subject: `Rimborso eseguito: ordine n. ${order!.number}` });
  // 2 × 15 € and standard delivery, back on the card.
  expect(mail!.text.replace(/[\u00a0\u202f]/g, " ")).toContain(
    `Abbiamo rimborsato 36,90 € sulla carta con cui hai pagato l'ordine n. ${order!.number}.`,
  );

  const cash = await anOrder(db, { paymentMethod: "cash_on_delivery", email: "sam@example.com" });
  await db.update(orders).set({ locale: "en" }).where(eq(orders.id, cash.orderId));
  expect(await runAdminOrderAction(ctx(db, admin), cash.orderId, { intent: "mark-paid" })).toMatchObject({ ok: true });
  expect(await runAdminOrderAction(ctx(db, admin), cash.orderId, { intent: "refund" })).toEqual({ ok: true, done: "refund" });
  const mails = await refundMails();
  expect(mails).toHaveLength(2);
  expect(mails[1]!.to).toBe("sam@example.com");
  expect(mails[1]!.text.replace(/[\u00a0\u202f]/g, " ")).toMatch(/We have recorded a refund of €39\.90 for order no\. \d+\./);
});

test("the list filters by status, payment and number or e-mail; the dashboard counts confirmed sales and orders to prepare", async () => {
  const db = await openDb();
  const cod = await anOrder(db, { paymentMethod: "cash_on_delivery", email: "lucia@example.it" });
  await anOrder(db, { paymentMethod: "bank_transfer" });
  const all = await listAdminOrders(db, parseAdminOrderFilters(new URLSearchParams()));
  expect(all.total).toBe(2);
  const byMail = await listAdminOrders(db, parseAdminOrderFilters(new URLSearchParams({ q: "LUCIA@" })));
  expect(byMail.rows.map((row) => row.id)).toEqual([cod.orderId]);
  const byNumber = await listAdminOrders(db, parseAdminOrderFilters(new URLSearchParams({ q: `#${all.rows[0]!.number}` })));
  expect(byNumber.total).toBe(1);
  expect((await listAdminOrders(db, parseAdminOrderFilters(new URLSearchParams({ payment: "bank_transfer", status: "nonsense" })))).total).toBe(1);
  const dashboard = await getDashboard(db, { now: new Date(), locale: "it" });
  expect(dashboard.today.orders).toBe(1);
  expect(dashboard.days).toHaveLength(30);
  expect(dashboard.days.at(-1)!.orders).toBe(1);
  expect(dashboard.toPrepare.map((row) => row.id)).toEqual([cod.orderId]);
});
