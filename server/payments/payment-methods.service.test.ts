/**
 * The ways to pay online below the web pages: which methods checkout offers for a total (and refuses
 * otherwise), the one method sent to Stripe Checkout, and payments that confirm later (processing, then
 * succeeded or failed), with the real Stripe SDK against tests/peers/local-stripe-server.ts and signed
 * webhooks in any order.
 */
import { and, eq } from "drizzle-orm";
import { expect, test, vi } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder, stockOf } from "#tests/fixtures/checkout.fixtures.ts";
import { testOnPostgres } from "#tests/db.ts";
import { paymentsAuthSecret, setOnlinePayments, setUpPayments } from "#tests/online-payments.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { formatDate } from "#common/format.ts";
import { orders, orderStatusHistory, outboxEmails, payments } from "#server/db/schema.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import type { OnlinePaymentMethod } from "#common/online-payment-methods.ts";
import { getTestPaymentView, paymentVerificationLimitMs, settleOverdueCardOrders, startCardPayment } from "./payment.service";

// Each test loads a database, places orders and talks HTTP to two local servers: slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const hour = 3600_000;
const day = 24 * hour;
const on = (minCents: number | null = null, maxCents: number | null = null) => ({ enabled: true, minCents, maxCents });

/** A guest's order of 2 × 24,90 € (stock 5) shipped in Italy, paid online with `method`. */
async function placeOnlineOrder(db: Db, method: OnlinePaymentMethod, now = new Date()) {
  const { variantId } = await createProduct(db, { priceCents: 2490, nameIt: "Body in cotone", variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 2 }]);
  const placed = await placeTestOrder(db, { cartId, input: checkoutInput({ paymentMethod: method }), now, secret: paymentsAuthSecret });
  if (!placed.ok) throw new Error(placed.error);
  return { orderId: placed.orderId, variantId };
}

async function orderOf(db: Db, orderId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

async function timesBecame(db: Db, orderId: string, status: "paid" | "expired") {
  const rows = await db
    .select()
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.toStatus, status)));
  return rows.length;
}

async function mailsOf(db: Db, kind: string) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.kind, kind));
}

/** PayPal turned on, the order placed with it and its Checkout Session opened: the session's id. */
async function paypalSession(setup: Awaited<ReturnType<typeof setUpPayments>>, now = new Date()) {
  await setOnlinePayments(setup.db, { paypal: on() });
  const placed = await placeOnlineOrder(setup.db, "paypal", now);
  const started = await startCardPayment(setup.services(), { orderId: placed.orderId, locale: "it", now });
  if (!started.ok) throw new Error(started.error);
  return { ...placed, sessionId: started.redirectUrl.split("/checkout/")[1]! };
}

test("checkout offers the methods the staff turned on whose limits fit the total, and refuses one that does not fit", async () => {
  const { db } = await setUpPayments({ stripe: false });
  await setOnlinePayments(db, { paypal: on(), klarna: on(10_000, 400_000), satispay: on(null, 4000) });
  const { variantId } = await createProduct(db, { priceCents: 2490, variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 2 }]);

  // 2 × 24,90 + 6,90 shipping = 56,70 €: below Klarna's 100 €, above Satispay's 40 €.
  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now: new Date(), delivery: "standard", payment: "card" });
  expect(summary.totalCents).toBe(5670);
  expect(summary.onlineMethods).toEqual([
    { method: "card", available: true, reason: null, minCents: null, maxCents: null },
    { method: "paypal", available: true, reason: null, minCents: null, maxCents: null },
    { method: "satispay", available: false, reason: "above-maximum", minCents: null, maxCents: 4000 },
    { method: "klarna", available: false, reason: "below-minimum", minCents: 10_000, maxCents: 400_000 },
  ]);

  const klarna = await placeTestOrder(db, { cartId, input: checkoutInput({ paymentMethod: "klarna" }) });
  expect(klarna).toEqual({ ok: false, error: "online-method-not-offered" });
  const sepa = await placeTestOrder(db, { cartId, input: checkoutInput({ paymentMethod: "sepa_debit" }) });
  expect(sepa).toEqual({ ok: false, error: "online-method-not-offered" });
  expect(await stockOf(db, variantId)).toBe(5);

  const paypal = await placeTestOrder(db, { cartId, input: checkoutInput({ paymentMethod: "paypal" }) });
  if (!paypal.ok) throw new Error(paypal.error);
  expect(await orderOf(db, paypal.orderId)).toMatchObject({ paymentMethod: "card", onlinePaymentMethod: "paypal", totalCents: 5670 });
  expect(await stockOf(db, variantId)).toBe(3);
});

test("with no online method turned on, checkout offers none and refuses the card", async () => {
  const { db } = await setUpPayments({ stripe: false });
  await setOnlinePayments(db, { card: { enabled: false, minCents: null, maxCents: null } });
  const { variantId } = await createProduct(db, { priceCents: 2490, variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now: new Date(), delivery: "standard" });
  expect(summary.onlineMethods).toEqual([]);
  expect(summary.allowedPayments).toEqual(["cash_on_delivery", "bank_transfer"]);
  expect(await placeTestOrder(db, { cartId, input: checkoutInput({ paymentMethod: "card" }) })).toEqual({
    ok: false,
    error: "online-method-not-offered",
  });
  const transfer = await placeTestOrder(db, { cartId, input: checkoutInput({ paymentMethod: "bank_transfer" }) });
  expect(transfer.ok).toBe(true);
});

test("Stripe Checkout is asked for the one method the customer chose", async () => {
  const setup = await setUpPayments();
  const { sessionId } = await paypalSession(setup);
  const creation = setup.stripe!.requests.find((request) => request.path === "/v1/checkout/sessions")!;
  expect(creation.body.allowed_payment_method_types).toEqual(["paypal"]);
  expect(setup.stripe!.sessions.get(sessionId)!.payment_method_types).toEqual(["paypal"]);
});

test("without Stripe keys the labelled test page stands in for the method chosen", async () => {
  const { db, services } = await setUpPayments({ stripe: false });
  await setOnlinePayments(db, { satispay: on() });
  const { orderId } = await placeOnlineOrder(db, "satispay");
  const started = await startCardPayment(services(), { orderId, locale: "en" });
  if (!started.ok) throw new Error(started.error);
  const view = await getTestPaymentView(services(), { ref: started.redirectUrl.split("/").pop()!, locale: "en" });
  expect(view).toMatchObject({ orderId, method: "satispay", status: "open" });
});

test("a payment that confirms later keeps the order waiting with its stock past its hour, then the provider's success pays it once", async () => {
  const setup = await setUpPayments();
  const { db, stripe, services } = setup;
  const { orderId, variantId, sessionId } = await paypalSession(setup);

  expect((await stripe!.payLater(sessionId))?.status).toBe(200);
  const waiting = await orderOf(db, orderId);
  expect(waiting.status).toBe("awaiting_payment");
  expect(waiting.paymentDueAt!.getTime()).toBeGreaterThan(Date.now() + paymentVerificationLimitMs - hour);
  expect(await stockOf(db, variantId)).toBe(3);
  expect((await getOrderView(db, { orderId, locale: "it" }))!.payment).toMatchObject({ status: "processing", onlineMethod: "paypal" });
  // One mail says the payment is being verified, with the method and the day the items are held until.
  const [verifying] = await mailsOf(db, "order-paymentProcessing");
  expect(verifying!.subject).toContain("pagamento in verifica");
  expect(verifying!.textBody).toContain("con PayPal è stato avviato");
  expect(verifying!.textBody).toContain(`riservati per te fino al ${formatDate(waiting.paymentDueAt!, "it")}`);
  const redelivered = stripe!.buildEvent("checkout.session.completed", sessionId);
  expect(await stripe!.deliver(redelivered.payload, redelivered.signature)).toBe(200);
  expect(await mailsOf(db, "order-paymentProcessing")).toHaveLength(1);
  // "Paga ora" opens no second session: the order page says the payment is being verified.
  const again = await startCardPayment(services(), { orderId, locale: "it" });
  expect(again).toEqual({ ok: true, redirectUrl: expect.stringMatching(new RegExp(`/ordine/${orderId}\\?t=[\\w-]+$`)) });
  expect(stripe!.sessions.size).toBe(1);

  // Hours later the expiry job leaves it alone.
  expect(await settleOverdueCardOrders(services(), new Date(Date.now() + 3 * hour))).toEqual({ paid: 0, expired: 0, waiting: 0, failed: 0 });
  expect(await settleOverdueCardOrders(services(), new Date(Date.now() + 3 * day))).toEqual({ paid: 0, expired: 0, waiting: 0, failed: 0 });

  expect((await stripe!.settleLater(sessionId, "succeeded"))?.status).toBe(200);
  const duplicate = stripe!.deliveries.at(-1)!;
  const event = stripe!.buildEvent("checkout.session.async_payment_succeeded", sessionId);
  expect(await stripe!.deliver(event.payload, event.signature)).toBe(200);
  expect(duplicate.type).toBe("checkout.session.async_payment_succeeded");

  const paid = await orderOf(db, orderId);
  expect(paid.status).toBe("paid");
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
  expect(await stockOf(db, variantId)).toBe(3);
  expect(await mailsOf(db, "order-paid")).toHaveLength(1);
  expect((await getOrderView(db, { orderId, locale: "it" }))!.payment.status).toBe("succeeded");
});

test("a payment refused later expires the order through the door, gives the stock back and tells the customer once", async () => {
  const setup = await setUpPayments();
  const { db, stripe } = setup;
  const { orderId, variantId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId);

  expect((await stripe!.settleLater(sessionId, "failed"))?.status).toBe(200);
  const failed = stripe!.buildEvent("checkout.session.async_payment_failed", sessionId);
  expect(await stripe!.deliver(failed.payload, failed.signature)).toBe(200);

  expect((await orderOf(db, orderId)).status).toBe("expired");
  expect(await timesBecame(db, orderId, "expired")).toBe(1);
  expect(await stockOf(db, variantId)).toBe(5);
  const [mail] = await mailsOf(db, "order-paymentFailed");
  expect(mail).toBeDefined();
  expect(await mailsOf(db, "order-paymentFailed")).toHaveLength(1);
  expect(mail!.subject).toContain("pagamento non riuscito");
  const view = (await getOrderView(db, { orderId, locale: "it" }))!;
  expect(view.payment.status).toBe("failed");
  expect(view.history.at(-1)!.note).toBe("online-payment-failed");
});

test("out of order: the success arriving before the completed event pays the order; the late completed event changes nothing", async () => {
  const setup = await setUpPayments();
  const { db, stripe } = setup;
  const { orderId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId, { deliver: false });
  const completed = stripe!.buildEvent("checkout.session.completed", sessionId);

  expect((await stripe!.settleLater(sessionId, "succeeded"))?.status).toBe(200);
  expect((await orderOf(db, orderId)).status).toBe("paid");
  expect(await stripe!.deliver(completed.payload, completed.signature)).toBe(200);

  const order = await orderOf(db, orderId);
  expect(order.status).toBe("paid");
  expect(order.paymentDueAt).toBeNull();
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
});

test("out of order: the failure arriving before the completed event expires the order once; the late completed event does not revive it", async () => {
  const setup = await setUpPayments();
  const { db, stripe } = setup;
  const { orderId, variantId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId, { deliver: false });
  const completed = stripe!.buildEvent("checkout.session.completed", sessionId);

  expect((await stripe!.settleLater(sessionId, "failed"))?.status).toBe(200);
  expect(await stripe!.deliver(completed.payload, completed.signature)).toBe(200);

  expect((await orderOf(db, orderId)).status).toBe("expired");
  expect(await timesBecame(db, orderId, "expired")).toBe(1);
  expect(await stockOf(db, variantId)).toBe(5);
});

test("a lost completed event: the expiry job finds the payment in verification and starts the wait instead of expiring", async () => {
  const setup = await setUpPayments();
  const { db, stripe, services } = setup;
  const { orderId, variantId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId, { deliver: false });

  const late = new Date(Date.now() + 2 * hour);
  expect(await settleOverdueCardOrders(services(), late)).toEqual({ paid: 0, expired: 0, waiting: 1, failed: 0 });
  const order = await orderOf(db, orderId);
  expect(order.status).toBe("awaiting_payment");
  expect(order.paymentDueAt!.getTime()).toBe(late.getTime() + paymentVerificationLimitMs);
  expect(await stockOf(db, variantId)).toBe(3);
});

test("a payment still in verification past the limit expires the order, and money arriving after that goes back", async () => {
  const setup = await setUpPayments();
  const { db, stripe, services } = setup;
  const { orderId, variantId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId);

  const pastLimit = new Date(Date.now() + paymentVerificationLimitMs + hour);
  expect(await settleOverdueCardOrders(services(), pastLimit)).toEqual({ paid: 0, expired: 1, waiting: 0, failed: 0 });
  expect((await orderOf(db, orderId)).status).toBe("expired");
  expect(await stockOf(db, variantId)).toBe(5);

  // The provider confirms days later: the stock is taken again if it is still there (late money, decision 0014).
  expect((await stripe!.settleLater(sessionId, "succeeded"))?.status).toBe(200);
  expect((await orderOf(db, orderId)).status).toBe("paid");
  expect(await stockOf(db, variantId)).toBe(3);
});

test("a payment confirmed later for another amount is flagged for the staff, not paid", async () => {
  const setup = await setUpPayments();
  const { db, stripe } = setup;
  const { orderId, variantId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId);
  stripe!.sessions.get(sessionId)!.amount_total -= 500;

  expect((await stripe!.settleLater(sessionId, "succeeded"))?.status).toBe(200);
  expect((await orderOf(db, orderId)).status).toBe("awaiting_payment");
  expect(await stockOf(db, variantId)).toBe(3);
  const [row] = await db.select().from(payments).where(eq(payments.providerRef, sessionId));
  expect(row!.status).toBe("pending");
  const notes = await db.select({ note: orderStatusHistory.note }).from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId));
  expect(notes.map((row) => row.note)).toContainEqual(expect.stringMatching(/^payment-mismatch:stripe:/));
});

testOnPostgres("concurrent deliveries of the completed and succeeded events of a payment confirmed later pay the order once", async () => {
  const setup = await setUpPayments();
  const { db, stripe } = setup;
  const { orderId, sessionId } = await paypalSession(setup);
  await stripe!.payLater(sessionId, { deliver: false });
  const completed = stripe!.buildEvent("checkout.session.completed", sessionId);
  await stripe!.settleLater(sessionId, "succeeded", { deliver: false });
  const succeeded = stripe!.buildEvent("checkout.session.async_payment_succeeded", sessionId);

  const statuses = await Promise.all([
    ...Array.from({ length: 3 }, () => stripe!.deliver(completed.payload, completed.signature)),
    ...Array.from({ length: 3 }, () => stripe!.deliver(succeeded.payload, succeeded.signature)),
  ]);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  expect((await orderOf(db, orderId)).status).toBe("paid");
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
  expect(await mailsOf(db, "order-paid")).toHaveLength(1);
});
