import { count, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { invoices, orders, outboxEmails, payments, refunds } from "#server/db/schema.ts";
import { issueInvoice } from "#server/invoices/invoice.service.ts";
import { getAdminOrder, runAdminOrderAction } from "#server/admin/orders-admin.service.ts";
import { readEnv } from "#server/env.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { createStripeProvider } from "#server/payments/stripe.ts";
import { createTestPaymentProvider } from "#server/payments/test-payment.ts";
import { afterSalesLinks, deliveredOrder, receivedReturn } from "#tests/fixtures/after-sales.fixtures.ts";
import { createUser } from "#tests/fixtures/cart.fixtures.ts";
import { testPublicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { startLocalStripeServer } from "#tests/peers/local-stripe-server.ts";
import { attemptCardRefund, listRefundsToPayBack, markRefundPaidBack, proposeRefund, refundReturn, retryDueRefunds } from "./refunds.service";

async function openDb(poolSize?: number) {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

function testServices(db: Db) {
  const provider = createTestPaymentProvider(db, testPublicUrl);
  return { db, provider: () => provider, links: afterSalesLinks };
}

async function mailsOf(db: Db, kind: string) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.kind, kind));
}

test("a partial card refund by line goes through the provider, is mailed and noted; the order keeps its status", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const returnId = await receivedReturn(db, order, [
    { orderLineId: order.bib.id, quantity: 1 },
    { orderLineId: order.blanket.id, quantity: 1 },
  ]);
  const proposal = await proposeRefund(db, returnId);
  expect(proposal!.route).toBe("card");
  expect(proposal!.deliveryRefundable).toBe(false);
  expect(new Map(proposal!.lines.map((line) => [line.orderLineId, [line.suggestedCents, line.maxCents]]))).toEqual(
    new Map([
      [order.bib.id, [1000, 2000]],
      [order.blanket.id, [2500, 2500]],
    ]),
  );
  const services = testServices(db);
  const now = new Date();
  const ask = (lines: { orderLineId: string; amountCents: number }[], includeDelivery = false) =>
    refundReturn(services, { returnId, lines, includeDelivery, actorUserId: null, now });
  // more than was paid for the line, the delivery while part of the order stays, nothing at all
  expect(await ask([{ orderLineId: order.blanket.id, amountCents: 2501 }])).toEqual({ ok: false, error: "over-paid" });
  expect(await ask([{ orderLineId: order.blanket.id, amountCents: 2500 }], true)).toEqual({ ok: false, error: "delivery-not-allowed" });
  expect(await ask([{ orderLineId: order.blanket.id, amountCents: 0 }])).toEqual({ ok: false, error: "nothing-to-refund" });
  expect(await ask([{ orderLineId: order.towel.id, amountCents: 100 }])).toEqual({ ok: false, error: "bad-quantities" });
  expect(await db.select({ n: count() }).from(refunds)).toEqual([{ n: 0 }]);

  const done = await ask([
    { orderLineId: order.bib.id, amountCents: 1000 },
    { orderLineId: order.blanket.id, amountCents: 2000 },
  ]);
  expect(done).toMatchObject({ ok: true, route: "card", amountCents: 3000 });
  expect(await ask([{ orderLineId: order.bib.id, amountCents: 1000 }])).toEqual({ ok: false, error: "already-refunded" });
  const [refund] = await db.select().from(refunds);
  expect(refund).toMatchObject({ status: "succeeded", amountCents: 3000, attempts: 1 });
  expect(refund!.providerRef).toMatch(/^test_refund_/);
  const mails = await mailsOf(db, "refund-made");
  expect(mails).toHaveLength(1);
  expect(mails[0]!.textBody.replace(/[\u00a0\u202f]/g, " ")).toContain("Abbiamo rimborsato 30,00 €");
  const view = await getOrderView(db, { orderId: order.orderId, locale: null });
  expect(view!.status).toBe("completed");
  expect(view!.history.slice(-2).map((entry) => entry.note)).toEqual([
    expect.stringMatching(/^refund-issued:\d+:card:3000$/),
    expect.stringMatching(/^refund-made:\d+:card:3000$/),
  ]);
});

test("cash on delivery: the whole order back with its delivery goes to the 'to pay back' list, then the order is refunded", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { paymentMethod: "cash_on_delivery" });
  const [placed] = await db.select().from(orders).where(eq(orders.id, order.orderId));
  const iban = "IT60X0542811101000000123456";
  const first = await receivedReturn(
    db,
    order,
    [
      { orderLineId: order.bib.id, quantity: 2 },
      { orderLineId: order.blanket.id, quantity: 1 },
    ],
    { iban },
  );
  const services = testServices(db);
  const now = new Date();
  expect(
    await refundReturn(services, {
      returnId: first,
      lines: [
        { orderLineId: order.bib.id, amountCents: 2000 },
        { orderLineId: order.blanket.id, amountCents: 2500 },
      ],
      includeDelivery: false,
      actorUserId: null,
      now,
    }),
  ).toMatchObject({
    ok: true,
    route: "bank_transfer",
  });
  // the personalised towel comes back as faulty, with a wrong IBAN first
  const second = await receivedReturn(db, order, [{ orderLineId: order.towel.id, quantity: 1 }], { faulty: true });
  expect((await proposeRefund(db, second))!.deliveryRefundable).toBe(true);
  const towelPaid = order.towel.lineTotalCents;
  const towelAsk = {
    returnId: second,
    lines: [{ orderLineId: order.towel.id, amountCents: towelPaid }],
    includeDelivery: true,
    actorUserId: null,
    now,
  };
  expect(await refundReturn(services, { ...towelAsk, iban: "IT60X0542811101000000123457" })).toEqual({ ok: false, error: "iban" });
  expect(await refundReturn(services, { ...towelAsk, iban })).toMatchObject({ ok: true, amountCents: towelPaid + placed!.shippingCents });

  const toPay = await listRefundsToPayBack(db);
  expect(toPay.map((row) => [row.orderNumber, row.iban])).toEqual([
    [order.orderNumber, iban],
    [order.orderNumber, iban],
  ]);
  expect(await mailsOf(db, "refund-made")).toHaveLength(0);
  for (const row of toPay)
    expect(await markRefundPaidBack(db, { refundId: row.id, actorUserId: null, now, links: afterSalesLinks })).toEqual({ ok: true });
  expect(await markRefundPaidBack(db, { refundId: toPay[0]!.id, actorUserId: null, now, links: afterSalesLinks })).toEqual({ ok: false });
  expect(await listRefundsToPayBack(db)).toEqual([]);
  expect(await mailsOf(db, "refund-made")).toHaveLength(2);
  const [refunded] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.orderId));
  expect(refunded!.status).toBe("refunded");
  const total = (await db.select({ amount: refunds.amountCents }).from(refunds)).reduce((sum, row) => sum + row.amount, 0);
  // everything but the cash-on-delivery fee, which paid for a service already given
  expect(total).toBe(placed!.totalCents - placed!.paymentFeeCents);
});

test("a card refund that fails is retried with the same idempotency key until the provider makes it, once", async () => {
  const db = await openDb();
  const stripe = await startLocalStripeServer();
  onTestFinished(() => stripe.close());
  const env = readEnv({ NODE_ENV: "test", AUTH_SECRET: "x".repeat(32), STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: stripe.url });
  const provider = createStripeProvider(env);
  const order = await deliveredOrder(db);
  // the order paid through a real (local) Stripe session
  const [placed] = await db.select().from(orders).where(eq(orders.id, order.orderId));
  const session = await provider.createSession({
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    email: placed!.email,
    locale: "it",
    lines: [{ name: "Ordine", unitAmountCents: placed!.totalCents, quantity: 1 }],
    totalCents: placed!.totalCents,
    method: "card",
    successUrl: `${testPublicUrl}/ok`,
    cancelUrl: `${testPublicUrl}/ko`,
    expiresAt: new Date(Date.now() + 3_600_000),
    idempotencyKey: crypto.randomUUID(),
  });
  await stripe.pay(session.ref).catch(() => null);
  await db.update(payments).set({ provider: "stripe", providerRef: session.ref }).where(eq(payments.orderId, order.orderId));
  expect(
    (
      await markOrderPaid(db, {
        orderId: order.orderId,
        provider: "stripe",
        providerRef: session.ref,
        amountCents: placed!.totalCents,
        now: new Date(),
      })
    ).changed,
  ).toBe(false);

  const returnId = await receivedReturn(db, order, [{ orderLineId: order.blanket.id, quantity: 1 }]);
  // Stripe unreachable: the refund waits, nothing is lost
  const down = createStripeProvider(
    readEnv({ NODE_ENV: "test", AUTH_SECRET: "x".repeat(32), STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: "http://127.0.0.1:9" }),
  );
  const now = new Date();
  const issued = await refundReturn(
    { db, provider: () => down, links: afterSalesLinks },
    { returnId, lines: [{ orderLineId: order.blanket.id, amountCents: 2500 }], includeDelivery: false, actorUserId: null, now },
  );
  expect(issued).toMatchObject({ ok: true });
  const [pending] = await db.select().from(refunds);
  expect(pending).toMatchObject({ status: "pending", attempts: 1 });
  expect(pending!.lastError).toBeTruthy();
  expect(await mailsOf(db, "refund-made")).toHaveLength(0);

  const up = { db, provider: () => provider, links: afterSalesLinks };
  expect(await retryDueRefunds(up, now)).toBe(0);
  const later = new Date(now.getTime() + 61_000);
  expect(await retryDueRefunds(up, later)).toBe(1);
  expect(await retryDueRefunds(up, new Date(later.getTime() + 3_600_000))).toBe(0);
  expect(await attemptCardRefund(up, { refundId: pending!.id, now: later })).toBe("skipped");
  const [made] = await db.select().from(refunds);
  expect(made).toMatchObject({ status: "succeeded", attempts: 2 });
  const refundCalls = stripe.requests.filter((request) => request.path === "/v1/refunds");
  expect(refundCalls.map((call) => [call.idempotencyKey, call.body.amount])).toEqual([[pending!.idempotencyKey, "2500"]]);
  expect(made!.providerRef).toMatch(/^re_/);
  expect(await mailsOf(db, "refund-made")).toHaveLength(1);
});

testOnPostgres("two staff refunding the same return at once refund once", async () => {
  const db = await openDb(4);
  const order = await deliveredOrder(db);
  const returnId = await receivedReturn(db, order, [{ orderLineId: order.blanket.id, quantity: 1 }]);
  let calls = 0;
  const base = createTestPaymentProvider(db, testPublicUrl);
  const counting = { ...base, refund: (ref: string, amount: number, key?: string) => ((calls += 1), base.refund(ref, amount, key)) };
  const services = { db, provider: () => counting, links: null };
  const now = new Date();
  const ask = () =>
    refundReturn(services, {
      returnId,
      lines: [{ orderLineId: order.blanket.id, amountCents: 2500 }],
      includeDelivery: false,
      actorUserId: null,
      now,
    });
  const results = await Promise.all([ask(), ask(), ask()]);
  expect(results.filter((result) => result.ok)).toHaveLength(1);
  expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.error)).toEqual(["already-refunded", "already-refunded"]);
  expect(await db.select({ n: count() }).from(refunds)).toEqual([{ n: 1 }]);
  expect(calls).toBe(1);
});

test("after a partial refund the whole-order refund is refused; the shop's cancel mails the customer", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const returnId = await receivedReturn(db, order, [{ orderLineId: order.blanket.id, quantity: 1 }]);
  const services = testServices(db);
  const now = new Date();
  expect(
    await refundReturn(services, {
      returnId,
      lines: [{ orderLineId: order.blanket.id, amountCents: 2500 }],
      includeDelivery: false,
      actorUserId: null,
      now,
    }),
  ).toMatchObject({ ok: true });
  const staff = await createUser(db);
  const ctx = { db, actorUserId: staff, now, links: afterSalesLinks, provider: services.provider };
  expect((await getAdminOrder(db, { orderId: order.orderId, locale: "it" }))!.canRefund).toBe(false);
  expect(await runAdminOrderAction(ctx, order.orderId, { intent: "refund" })).toEqual({
    ok: false,
    error: "admin.orders.errors.transition-not-allowed",
  });

  const fresh = await deliveredOrder(db, { stage: "preparing" });
  expect(await runAdminOrderAction(ctx, fresh.orderId, { intent: "cancel" })).toEqual({ ok: true, done: "cancel" });
  const [cancelled] = await mailsOf(db, "order-cancelled");
  expect(cancelled!.subject).toBe(`Ordine n. ${fresh.orderNumber} annullato`);
});

test("a refund of an invoiced order issues its credit note for what went back, once", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { invoice: { invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" } });
  const issued = await issueInvoice(db, { orderId: order.orderId, actorUserId: null, now: new Date() });
  if (!issued.ok) throw new Error(issued.error);
  const returnId = await receivedReturn(db, order, [{ orderLineId: order.bib.id, quantity: 1 }]);
  const refunded = await refundReturn(testServices(db), {
    returnId,
    lines: [{ orderLineId: order.bib.id, amountCents: 1000 }],
    includeDelivery: false,
    actorUserId: null,
    now: new Date(),
  });
  expect(refunded).toMatchObject({ ok: true, amountCents: 1000 });
  const notes = await db.select().from(invoices).where(eq(invoices.kind, "credit_note"));
  expect(notes).toHaveLength(1);
  expect(notes[0]).toMatchObject({ orderId: order.orderId, correctsInvoiceId: issued.invoice.id, totalCents: 1000 });
  expect(notes[0]!.number).toMatch(/^NC\d{4}\/0001$/);
  expect(notes[0]!.xml).toContain("<TipoDocumento>TD04</TipoDocumento>");
});

test("the whole-order refund of an invoiced order credits the whole invoice, delivery included", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db, { invoice: { invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" } });
  const issued = await issueInvoice(db, { orderId: order.orderId, actorUserId: null, now: new Date() });
  if (!issued.ok) throw new Error(issued.error);
  const staff = await createUser(db);
  const ctx = { db, actorUserId: staff, now: new Date(), links: afterSalesLinks, provider: testServices(db).provider };
  expect(await runAdminOrderAction(ctx, order.orderId, { intent: "refund" })).toEqual({ ok: true, done: "refund" });
  const notes = await db.select().from(invoices).where(eq(invoices.kind, "credit_note"));
  expect(notes).toHaveLength(1);
  expect(notes[0]).toMatchObject({ correctsInvoiceId: issued.invoice.id, totalCents: issued.invoice.totalCents });
});
