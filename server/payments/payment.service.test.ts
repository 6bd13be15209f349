/**
 * Card payments end to end below the web pages: the real Stripe SDK talks to tests/peers/local-stripe-server.ts,
 * webhooks arrive signed over HTTP at a tiny endpoint that calls applyStripeWebhook with the raw body.
 */
import { and, asc, eq, like } from "drizzle-orm";
import { expect, test, vi } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { addToCart } from "#server/cart/cart.service.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { checkoutInput, placeTestOrder, stockOf, testPublicUrl as publicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import { orders, orderStatusHistory, outboxEmails, paymentEvents, payments } from "#server/db/schema.ts";
import { formatMoney } from "#common/format.ts";
import { listAdminOrders, parseAdminOrderFilters } from "#server/admin/orders-admin.service.ts";
import { readEnv } from "#server/env.ts";
import { testOnPostgres } from "#tests/db.ts";
import { paymentsAuthSecret, setUpPayments } from "#tests/online-payments.ts";
import { abandonCardPayment, getTestPaymentView, settleOverdueCardOrders, startCardPayment, submitTestPayment } from "./payment.service";

// Each test loads a database, places orders and talks HTTP to two local servers: slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const authSecret = paymentsAuthSecret;
const setUp = setUpPayments;

/** A guest's card order for `quantity` units of a product at 24,90 with stock 5, shipped in Italy. */
async function placeCardOrder(db: Db, options: { quantity?: number; now?: Date; variantId?: number; locale?: "it" | "en" } = {}) {
  const variantId =
    options.variantId ?? (await createProduct(db, { priceCents: 2490, nameIt: "Body in cotone", variants: [{ stock: 5 }] })).variantId;
  const added = await addToCart(db, { cartId: null, variantId, quantity: options.quantity ?? 2, personalisation: {} });
  if (!added.ok) throw new Error(added.error);
  const input = checkoutInput({ firstName: "Anna", lastName: "Esposito", email: "anna@example.it", phone: "3331234567", street: "Via Toledo" });
  const placed = await placeTestOrder(db, {
    cartId: added.cartId,
    locale: options.locale ?? "it",
    input,
    now: options.now ?? new Date(),
    secret: authSecret,
  });
  if (!placed.ok) throw new Error(placed.error);
  return { orderId: placed.orderId, variantId, cartId: added.cartId };
}

async function orderOf(db: Db, orderId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

async function timesBecame(db: Db, orderId: string, status: "paid" | "expired" | "cancelled") {
  const rows = await db
    .select()
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.toStatus, status)));
  return rows.length;
}

function sessionIdOf(redirectUrl: string) {
  return redirectUrl.split("/checkout/")[1]!;
}

test("a card order opens a Stripe Checkout Session in euro cents, and a double click gets the same session", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId } = await placeCardOrder(db);
  const order = await orderOf(db, orderId);

  const [first, second] = await Promise.all([
    startCardPayment(services(), { orderId, locale: "it" }),
    startCardPayment(services(), { orderId, locale: "it" }),
  ]);
  const third = await startCardPayment(services(), { orderId, locale: "it" });
  expect(first.ok && second.ok && third.ok).toBe(true);
  if (!first.ok || !second.ok || !third.ok) return;
  expect(second.redirectUrl).toBe(first.redirectUrl);
  expect(third.redirectUrl).toBe(first.redirectUrl);
  expect(stripe!.sessions.size).toBe(1);

  const session = stripe!.sessions.get(sessionIdOf(first.redirectUrl))!;
  expect(session.currency).toBe("eur");
  expect(session.amount_total).toBe(order.totalCents);
  expect(session.line_items_sent[0]).toEqual({ name: "Body in cotone", unit_amount: 2490, quantity: 2, currency: "eur" });
  expect(session.line_items_sent.find((line) => line.name === "Spedizione")?.unit_amount ?? 0).toBe(order.shippingCents);
  expect(session.customer_email).toBe("anna@example.it");
  expect(session.metadata.orderId).toBe(orderId);
  expect(session.client_reference_id).toBe(orderId);
  expect(session.locale).toBe("it");
  expect(session.success_url).toMatch(new RegExp(`^${publicUrl}/ordine/${orderId}\\?t=[\\w-]+&pagamento=ok$`));
  expect(session.cancel_url).toMatch(new RegExp(`^${publicUrl}/ordine/${orderId}/annulla-pagamento\\?t=`));
  expect(session.expires_at * 1000).toBeGreaterThanOrEqual(order.paymentDueAt!.getTime() - 1000);
  // Every creation carried an idempotency key; the concurrent double click used the same one.
  const creations = stripe!.requests.filter((request) => request.path === "/v1/checkout/sessions");
  expect(new Set(creations.map((request) => request.idempotencyKey)).size).toBe(1);
});

test("a paid webhook delivered 5 times marks the order paid once", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId } = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const sessionId = sessionIdOf(started.redirectUrl);

  const delivery = await stripe!.pay(sessionId);
  expect(delivery?.status).toBe(200);
  const event = stripe!.buildEvent("checkout.session.completed", sessionId);
  const again = [await stripe!.deliver(event.payload, event.signature)];
  for (let i = 0; i < 3; i++) again.push(await stripe!.deliver(event.payload, event.signature));
  expect(again).toEqual([200, 200, 200, 200]);

  const order = await orderOf(db, orderId);
  expect(order.status).toBe("paid");
  expect(order.paidAt).not.toBeNull();
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
  expect(await db.select().from(paymentEvents)).toHaveLength(2);
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, orderId));
  expect(payment).toMatchObject({ provider: "stripe", providerRef: sessionId, status: "succeeded", amountCents: order.totalCents });
});

test("events out of order: an expired event for a session that was paid leaves the order paid (the session is re-read)", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId, variantId } = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const sessionId = sessionIdOf(started.redirectUrl);
  const webhookUrl = stripe!.webhookUrl;
  stripe!.webhookUrl = null; // paid at Stripe; its own event is late
  await stripe!.pay(sessionId);
  stripe!.webhookUrl = webhookUrl;

  const expired = stripe!.buildEvent("checkout.session.expired", sessionId);
  expect(await stripe!.deliver(expired.payload, expired.signature)).toBe(200);
  expect((await orderOf(db, orderId)).status).toBe("paid");
  const completed = stripe!.buildEvent("checkout.session.completed", sessionId);
  expect(await stripe!.deliver(completed.payload, completed.signature)).toBe(200);

  expect((await orderOf(db, orderId)).status).toBe("paid");
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
  expect(await timesBecame(db, orderId, "expired")).toBe(0);
  expect(await stockOf(db, variantId)).toBe(3);
});

test("a forged, unsigned or altered webhook is refused with 400 and changes nothing", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId } = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const sessionId = sessionIdOf(started.redirectUrl);
  const webhookUrl = stripe!.webhookUrl;
  stripe!.webhookUrl = null;
  await stripe!.pay(sessionId);
  stripe!.webhookUrl = webhookUrl;

  const event = stripe!.buildEvent("checkout.session.completed", sessionId);
  const { signStripeWebhookPayload } = await import("./stripe");
  const otherSecret = signStripeWebhookPayload(event.payload, "whsec_not_the_shops_secret");
  const altered = event.payload.replace(`"type": "checkout.session.completed"`, `"type": "checkout.session.expired"`);
  expect(await stripe!.deliver(event.payload, otherSecret)).toBe(400);
  expect(await stripe!.deliver(event.payload, null)).toBe(400);
  expect(await stripe!.deliver(altered, event.signature)).toBe(400);
  expect(await stripe!.deliver("not json", event.signature)).toBe(400);

  expect((await orderOf(db, orderId)).status).toBe("awaiting_payment");
  expect(await db.select().from(paymentEvents)).toHaveLength(0);
});

test("a paid session for another amount or another currency does not pay the order: flagged for the staff, the shop mailed once, the customer told nothing", async () => {
  const { db, stripe, services } = await setUp();
  const placedAt = new Date();
  const cheaper = await placeCardOrder(db, { now: placedAt });
  const dollars = await placeCardOrder(db, { now: placedAt });
  const sessionOf = async (orderId: string) => {
    const started = await startCardPayment(services(), { orderId, locale: "it", now: placedAt });
    if (!started.ok) throw new Error(started.error);
    return stripe!.sessions.get(sessionIdOf(started.redirectUrl))!;
  };
  const cheaperSession = await sessionOf(cheaper.orderId);
  cheaperSession.amount_total -= 100;
  const dollarSession = await sessionOf(dollars.orderId);
  dollarSession.currency = "usd";

  expect((await stripe!.pay(cheaperSession.id))?.status).toBe(200);
  expect((await stripe!.pay(dollarSession.id))?.status).toBe(200);
  // Stripe's later event for the same session, and the same event again: nothing more.
  const later = stripe!.buildEvent("checkout.session.async_payment_succeeded", cheaperSession.id);
  expect(await stripe!.deliver(later.payload, later.signature)).toBe(200);
  expect(await stripe!.deliver(later.payload, later.signature)).toBe(200);

  for (const { orderId, variantId } of [cheaper, dollars]) {
    const order = await orderOf(db, orderId);
    expect(order).toMatchObject({ status: "awaiting_payment", paidAt: null });
    expect(await timesBecame(db, orderId, "paid")).toBe(0);
    expect(await stockOf(db, variantId)).toBe(3);
    const flags = await db
      .select({ note: orderStatusHistory.note })
      .from(orderStatusHistory)
      .where(and(eq(orderStatusHistory.orderId, orderId), like(orderStatusHistory.note, "payment-mismatch:%")));
    expect(flags).toHaveLength(1);
  }
  const mail = await db.select().from(outboxEmails).orderBy(asc(outboxEmails.id));
  // No "paid" e-mail to the customer; one mail per flagged order to the shop, saying what came and what was due.
  expect(mail.filter((row) => row.toAddress === "anna@example.it")).toEqual([]);
  const toShop = mail.filter((row) => row.kind === "payment-mismatch");
  expect(toShop).toHaveLength(2);
  const cheaperOrder = await orderOf(db, cheaper.orderId);
  expect(toShop[0]!.subject).toBe(`Ordine ${cheaperOrder.number}: pagamento da verificare`);
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
  expect(plain(toShop[0]!.textBody)).toContain(
    plain(`${formatMoney(cheaperOrder.totalCents - 100, "it")}, ma l'ordine totalizza ${formatMoney(cheaperOrder.totalCents, "it")}`),
  );

  // The back office lists both as "to check"; the expiry job leaves them to the staff.
  const listed = await listAdminOrders(db, parseAdminOrderFilters(new URLSearchParams()));
  expect(
    listed.rows
      .filter((row) => row.hasPaymentMismatch)
      .map((row) => row.id)
      .sort(),
  ).toEqual([cheaper.orderId, dollars.orderId].sort());
  const report = await settleOverdueCardOrders(services(), new Date(placedAt.getTime() + 2 * 3600_000));
  expect(report).toEqual({ paid: 0, expired: 0, waiting: 0, failed: 0 });
  expect((await orderOf(db, cheaper.orderId)).status).toBe("awaiting_payment");
});

test("a signed event for a Checkout Session Stripe does not know is refused with 400, not retried, and changes nothing", async () => {
  const { db, stripe } = await setUp();
  const { orderId } = await placeCardOrder(db);
  const payload = JSON.stringify({
    id: "evt_for_a_session_nobody_made",
    object: "event",
    type: "checkout.session.completed",
    data: {
      object: {
        id: "cs_test_unknown_to_stripe",
        object: "checkout.session",
        metadata: { orderId },
        client_reference_id: orderId,
        amount_total: 1,
        currency: "eur",
        payment_status: "paid",
        status: "complete",
      },
    },
  });
  const { signStripeWebhookPayload } = await import("./stripe");
  const answer = await fetch(stripe!.webhookUrl!, {
    method: "POST",
    headers: { "Stripe-Signature": signStripeWebhookPayload(payload, stripe!.webhookSecret) },
    body: payload,
  });
  expect(answer.status).toBe(400);
  expect(await answer.text()).toBe("unknown-session");
  expect((await orderOf(db, orderId)).status).toBe("awaiting_payment");
  expect(await db.select().from(paymentEvents)).toHaveLength(0);
});

test("an expired session expires the order and gives its stock back once", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId, variantId } = await placeCardOrder(db);
  expect(await stockOf(db, variantId)).toBe(3);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const sessionId = sessionIdOf(started.redirectUrl);

  expect((await stripe!.expire(sessionId))?.status).toBe(200);
  const event = stripe!.buildEvent("checkout.session.expired", sessionId);
  await stripe!.deliver(event.payload, event.signature);

  expect((await orderOf(db, orderId)).status).toBe("expired");
  expect(await timesBecame(db, orderId, "expired")).toBe(1);
  expect(await stockOf(db, variantId)).toBe(5);
  expect(await startCardPayment(services(), { orderId, locale: "it" })).toEqual({ ok: false, error: "not-payable" });
});

test("after a crash the expiry job asks Stripe: the paid order is paid, the unpaid ones expire with their stock back", async () => {
  const { db, stripe, services, restart } = await setUp();
  const placedAt = new Date();
  const paidOne = await placeCardOrder(db, { now: placedAt });
  const unpaidOne = await placeCardOrder(db, { now: placedAt });
  const neverStarted = await placeCardOrder(db, { now: placedAt });
  for (const { orderId } of [paidOne, unpaidOne]) {
    const started = await startCardPayment(services(), { orderId, locale: "it", now: placedAt });
    if (!started.ok) throw new Error(started.error);
  }
  // Paid at Stripe while the shop was down: the webhook never arrived.
  stripe!.webhookUrl = null;
  const paidSession = [...stripe!.sessions.values()].find((session) => session.metadata.orderId === paidOne.orderId)!;
  await stripe!.pay(paidSession.id);

  // Restart: nothing but the database and Stripe. Two hours later every order is settled.
  const fresh = restart();
  const later = new Date(placedAt.getTime() + 2 * 3600_000);
  const report = await settleOverdueCardOrders(fresh, later);
  expect(report).toEqual({ paid: 1, expired: 2, waiting: 0, failed: 0 });

  expect((await orderOf(db, paidOne.orderId)).status).toBe("paid");
  expect(await stockOf(db, paidOne.variantId)).toBe(3);
  for (const { orderId, variantId } of [unpaidOne, neverStarted]) {
    expect((await orderOf(db, orderId)).status).toBe("expired");
    expect(await stockOf(db, variantId)).toBe(5);
  }
  const unpaidSession = [...stripe!.sessions.values()].find((session) => session.metadata.orderId === unpaidOne.orderId)!;
  expect(unpaidSession.status).toBe("expired");
  // A second run finds nothing left to do.
  expect(await settleOverdueCardOrders(fresh, later)).toEqual({ paid: 0, expired: 0, waiting: 0, failed: 0 });
});

test("the expiry job waits for a session still open, so it can be paid until its end", async () => {
  const { db, services } = await setUp();
  const placedAt = new Date();
  const { orderId } = await placeCardOrder(db, { now: placedAt });
  const started = await startCardPayment(services(), { orderId, locale: "it", now: new Date(placedAt.getTime() + 50 * 60_000) });
  if (!started.ok) throw new Error(started.error);
  // Due at +60 min, but the session opened at +50 min runs 31 minutes.
  const report = await settleOverdueCardOrders(services(), new Date(placedAt.getTime() + 65 * 60_000));
  expect(report.waiting).toBe(1);
  expect((await orderOf(db, orderId)).status).toBe("awaiting_payment");
});

test("coming back from the cancel link cancels the order, returns the stock and puts the lines back in the cart", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId, variantId, cartId } = await placeCardOrder(db, { quantity: 2 });
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  expect((await getCartView(db, { cartId, locale: "it", now: new Date() })).count).toBe(0);

  const result = await abandonCardPayment(services(), { orderId, cartId });
  expect(result).toEqual({ ok: true, cartId, restored: true });
  expect((await orderOf(db, orderId)).status).toBe("cancelled");
  expect(await stockOf(db, variantId)).toBe(5);
  expect(stripe!.sessions.get(sessionIdOf(started.redirectUrl))!.status).toBe("expired");
  const cart = await getCartView(db, { cartId, locale: "it", now: new Date() });
  expect(cart.lines.map((line) => [line.variantId, line.quantity])).toEqual([[variantId, 2]]);

  // The link again: nothing more happens.
  expect(await abandonCardPayment(services(), { orderId, cartId })).toEqual({ ok: true, cartId, restored: false });
  expect((await getCartView(db, { cartId, locale: "it", now: new Date() })).count).toBe(2);
});

test("the cancel link of an order paid meanwhile undoes nothing", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId, cartId } = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  stripe!.webhookUrl = null;
  await stripe!.pay(sessionIdOf(started.redirectUrl));

  expect(await abandonCardPayment(services(), { orderId, cartId })).toEqual({ ok: false, reason: "paid" });
  expect((await orderOf(db, orderId)).status).toBe("paid");
});

test("Stripe unreachable: the customer is told card payment is unavailable, the order keeps waiting", async () => {
  const { db } = await setUp({ stripe: false });
  const { orderId } = await placeCardOrder(db);
  const env = readEnv({
    NODE_ENV: "test",
    AUTH_SECRET: authSecret,
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
    STRIPE_API_URL: "http://127.0.0.1:9",
  });
  const result = await startCardPayment({ db, env, publicUrl }, { orderId, locale: "en" });
  expect(result).toEqual({ ok: false, error: "payment-unavailable" });
  expect((await orderOf(db, orderId)).status).toBe("awaiting_payment");
});

test("without Stripe keys the labelled test-payment page takes the same path: pay marks the order paid", async () => {
  const { db, services } = await setUp({ stripe: false });
  const { orderId } = await placeCardOrder(db, { locale: "en" });
  const started = await startCardPayment(services(), { orderId, locale: "en" });
  const again = await startCardPayment(services(), { orderId, locale: "en" });
  if (!started.ok) throw new Error(started.error);
  expect(started.redirectUrl).toMatch(new RegExp(`^${publicUrl}/en/pagamento-di-prova/test_\\w+$`));
  expect(again).toEqual(started);
  const ref = started.redirectUrl.split("/").pop()!;

  const paid = await submitTestPayment(services(), { ref, intent: "pay", locale: "en" });
  expect(paid).toEqual({ ok: true, redirectTo: expect.stringMatching(new RegExp(`^/en/ordine/${orderId}\\?t=[\\w-]+&pagamento=ok$`)) });
  expect((await orderOf(db, orderId)).status).toBe("paid");
  // Pressing it again (back button) changes nothing.
  await submitTestPayment(services(), { ref, intent: "pay", locale: "en" });
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
});

test("in production without Stripe keys the test page refuses unless ALLOW_TEST_PAYMENTS, and card orders are not taken", async () => {
  const { db, services } = await setUp({ stripe: false });
  const { orderId } = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const ref = started.redirectUrl.split("/").pop()!;

  // The same shop started for real (NODE_ENV=production), no keys, the setting off: the page is gone.
  const live = { db, env: readEnv({ NODE_ENV: "production", AUTH_SECRET: authSecret }), publicUrl };
  expect(await getTestPaymentView(live, { ref, locale: "it" })).toBeNull();
  expect(await submitTestPayment(live, { ref, intent: "pay", locale: "it" })).toEqual({ ok: false, error: "not-found" });
  expect((await orderOf(db, orderId)).status).toBe("awaiting_payment");
  expect(await startCardPayment(live, { orderId, locale: "it" })).toEqual({ ok: false, error: "payment-unavailable" });
  // No card at the checkout: the order is refused before anything is reserved.
  const variantId = (await createProduct(db, { priceCents: 1000, variants: [{ stock: 3 }] })).variantId;
  const added = await addToCart(db, { cartId: null, variantId, quantity: 1, personalisation: {} });
  if (!added.ok) throw new Error(added.error);
  const refused = await placeTestOrder(db, {
    cartId: added.cartId,
    input: checkoutInput(),
    now: new Date(),
    secret: authSecret,
    cardPayments: false,
  });
  expect(refused).toMatchObject({ ok: false, error: "payment-not-allowed" });
  expect(await stockOf(db, variantId)).toBe(3);

  // Explicitly allowed by its name: the labelled page works in production too.
  const tryOut = { db, env: readEnv({ NODE_ENV: "production", AUTH_SECRET: authSecret, ALLOW_TEST_PAYMENTS: "true" }), publicUrl };
  expect(await submitTestPayment(tryOut, { ref, intent: "pay", locale: "it" })).toMatchObject({ ok: true });
  expect((await orderOf(db, orderId)).status).toBe("paid");
});

test("on the test-payment page a declined payment expires the order and cancel goes to the cancel link", async () => {
  const { db, services } = await setUp({ stripe: false });
  const declined = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId: declined.orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const ref = started.redirectUrl.split("/").pop()!;
  const result = await submitTestPayment(services(), { ref, intent: "fail", locale: "it" });
  expect(result).toEqual({ ok: true, redirectTo: expect.stringMatching(new RegExp(`^/ordine/${declined.orderId}\\?t=[\\w-]+$`)) });
  expect((await orderOf(db, declined.orderId)).status).toBe("expired");
  expect(await stockOf(db, declined.variantId)).toBe(5);

  const cancelled = await placeCardOrder(db);
  const second = await startCardPayment(services(), { orderId: cancelled.orderId, locale: "it" });
  if (!second.ok) throw new Error(second.error);
  const cancel = await submitTestPayment(services(), { ref: second.redirectUrl.split("/").pop()!, intent: "cancel", locale: "it" });
  expect(cancel).toEqual({ ok: true, redirectTo: expect.stringMatching(new RegExp(`^/ordine/${cancelled.orderId}/annulla-pagamento\\?t=`)) });
  expect(await submitTestPayment(services(), { ref: "test_unknown", intent: "pay", locale: "it" })).toEqual({ ok: false, error: "not-found" });
});

testOnPostgres("concurrent duplicate deliveries of one event, and two different events at once, change the order once", async () => {
  const { db, stripe, services } = await setUp();
  const { orderId } = await placeCardOrder(db);
  const started = await startCardPayment(services(), { orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const sessionId = sessionIdOf(started.redirectUrl);
  const webhookUrl = stripe!.webhookUrl;
  stripe!.webhookUrl = null;
  await stripe!.pay(sessionId);
  stripe!.webhookUrl = webhookUrl;

  const completed = stripe!.buildEvent("checkout.session.completed", sessionId);
  const succeeded = stripe!.buildEvent("checkout.session.async_payment_succeeded", sessionId);
  const statuses = await Promise.all([
    ...Array.from({ length: 6 }, () => stripe!.deliver(completed.payload, completed.signature)),
    ...Array.from({ length: 3 }, () => stripe!.deliver(succeeded.payload, succeeded.signature)),
  ]);
  expect(statuses.every((status) => status === 200)).toBe(true);
  expect((await orderOf(db, orderId)).status).toBe("paid");
  expect(await timesBecame(db, orderId, "paid")).toBe(1);
  expect((await db.select().from(paymentEvents)).map((row) => row.id).sort()).toEqual([completed.id, succeeded.id].sort());
});
