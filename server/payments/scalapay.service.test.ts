/**
 * Scalapay's pay in 3, paid directly at Scalapay (docs/decisions/0104-scalapay.md): offered only when
 * configured and within its limits, the order made at Scalapay with the exact amount, the customer's
 * authorization captured once whatever the reloads, refused or tampered payments never paid, the
 * customer's way back, the expiry job, and refunds through the shop's refund flow. Against
 * tests/peers/local-scalapay-server.ts, on PGlite and PostgreSQL.
 */
import { and, eq, like } from "drizzle-orm";
import { expect, test, vi } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder, stockOf, testPublicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { testOnPostgres } from "#tests/db.ts";
import { paymentsAuthSecret, setOnlinePayments, setUpPayments } from "#tests/online-payments.ts";
import { runAdminOrderAction } from "#server/admin/orders-admin.service.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { orders, orderStatusHistory, payments } from "#server/db/schema.ts";
import { paymentProviderNamed } from "./payment-provider";
import { abandonCardPayment, confirmAuthorizedPayment, settleOverdueCardOrders, startCardPayment } from "./payment.service";

// Each test loads a database, places orders and talks HTTP to a local server: slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const hour = 3600_000;
const scalapayOn = { enabled: true, minCents: 500, maxCents: 200_000 };

type Setup = Awaited<ReturnType<typeof setUpPayments>>;

/** Scalapay turned on; a guest's order of 2 × 24,90 € + 6,90 € shipping = 56,70 € placed with it (stock 5). */
async function placeScalapayOrder(setup: Setup, now = new Date()) {
  await setOnlinePayments(setup.db, { scalapay: scalapayOn });
  const { variantId } = await createProduct(setup.db, { priceCents: 2490, nameIt: "Body in cotone", variants: [{ stock: 5 }] });
  const cartId = await cartWith(setup.db, [{ variantId, quantity: 2 }]);
  const placed = await placeTestOrder(setup.db, {
    cartId,
    input: checkoutInput({ paymentMethod: "scalapay" }),
    now,
    secret: paymentsAuthSecret,
    scalapayPayments: true,
  });
  if (!placed.ok) throw new Error(placed.error);
  return { orderId: placed.orderId, variantId, cartId };
}

/** The order placed and sent to Scalapay: the Scalapay order's token. */
async function startedScalapayOrder(setup: Setup, now = new Date()) {
  const placed = await placeScalapayOrder(setup, now);
  const started = await startCardPayment(setup.services(), { orderId: placed.orderId, locale: "it", now });
  if (!started.ok) throw new Error(started.error);
  return { ...placed, token: started.redirectUrl.split("/checkout/")[1]!, redirectUrl: started.redirectUrl };
}

async function orderOf(db: Db, orderId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

async function timesPaid(db: Db, orderId: string) {
  const rows = await db
    .select()
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.toStatus, "paid")));
  return rows.length;
}

const capturesOf = (setup: Setup) => setup.scalapay!.requests.filter((request) => request.path === "/v2/payments/capture");

test("Scalapay is offered only when configured and within its limits; otherwise the order is refused and nothing reserved", async () => {
  const { db } = await setUpPayments({ stripe: false });
  await setOnlinePayments(db, { scalapay: { enabled: true, minCents: 500, maxCents: 5000 } });
  const { variantId } = await createProduct(db, { priceCents: 2490, variants: [{ stock: 5 }] });
  const one = await cartWith(db, [{ variantId, quantity: 1 }]);
  const now = new Date();

  // Without SCALAPAY_API_KEY the staff's choice offers nothing.
  const unconfigured = await getCheckoutSummary(db, { cartId: one, locale: "it", now, delivery: "standard", payment: "card" });
  expect(unconfigured.onlineMethods.map((offer) => offer.method)).toEqual(["card"]);
  expect(await placeTestOrder(db, { cartId: one, input: checkoutInput({ paymentMethod: "scalapay" }) })).toEqual({
    ok: false,
    error: "online-method-not-offered",
  });

  // 24,90 + 6,90 = 31,80 €: within 5 € – 50 €.
  const configured = await getCheckoutSummary(db, { cartId: one, locale: "it", now, delivery: "standard", payment: "card", scalapayPayments: true });
  expect(configured.onlineMethods.find((offer) => offer.method === "scalapay")).toEqual({
    method: "scalapay",
    available: true,
    reason: null,
    minCents: 500,
    maxCents: 5000,
  });
  // 3 × 24,90 + 6,90 = 81,60 €: above the 50 € set.
  const three = await cartWith(db, [{ variantId, quantity: 3 }]);
  const above = await getCheckoutSummary(db, { cartId: three, locale: "it", now, delivery: "standard", payment: "card", scalapayPayments: true });
  expect(above.onlineMethods.find((offer) => offer.method === "scalapay")).toMatchObject({ available: false, reason: "above-maximum" });
  expect(await placeTestOrder(db, { cartId: three, input: checkoutInput({ paymentMethod: "scalapay" }), scalapayPayments: true })).toEqual({
    ok: false,
    error: "online-method-not-offered",
  });
  expect(await stockOf(db, variantId)).toBe(5);
});

test("the order is made at Scalapay with its exact amount, the customer and the way back; a double click opens the same one", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token, redirectUrl } = await startedScalapayOrder(setup);
  expect(redirectUrl).toBe(`${setup.scalapay!.url}/checkout/${token}`);
  const order = await orderOf(setup.db, orderId);
  expect(order).toMatchObject({ paymentMethod: "card", onlinePaymentMethod: "scalapay", status: "awaiting_payment", totalCents: 5670 });

  const made = setup.scalapay!.orders.get(token)!;
  expect(made.totalAmount).toEqual({ amount: "56.70", currency: "EUR" });
  expect(made.merchantReference).toBe(String(order.number));
  expect(made.consumer).toMatchObject({ givenNames: order.firstName, surname: order.lastName, email: order.email });
  expect(made.shipping).toMatchObject({ postcode: order.postcode, countryCode: "IT" });
  expect(made.redirectConfirmUrl).toMatch(new RegExp(`^${testPublicUrl}/ordine/${orderId}/conferma-pagamento\\?t=`));
  expect(made.redirectCancelUrl).toMatch(new RegExp(`^${testPublicUrl}/ordine/${orderId}/annulla-pagamento\\?t=`));
  expect(made.items.reduce((sum, item) => sum + Math.round(Number(item.price.amount) * 100) * item.quantity, 0)).toBe(5670);
  const [row] = await setup.db.select().from(payments).where(eq(payments.orderId, orderId));
  expect(row).toMatchObject({ provider: "scalapay", providerRef: token, status: "pending", amountCents: 5670 });

  const again = await startCardPayment(setup.services(), { orderId, locale: "it" });
  expect(again).toEqual({ ok: true, redirectUrl });
  expect(setup.scalapay!.requests.filter((request) => request.path === "/v2/orders")).toHaveLength(1);
});

test("back from Scalapay: the authorization is captured once and the order paid, however often the page is reloaded", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token } = await startedScalapayOrder(setup);
  // Before the customer said yes nothing is captured: the order page says it waits.
  const early = await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" });
  expect(early).toMatchObject({ ok: true, outcome: "waiting" });
  expect(capturesOf(setup)).toHaveLength(0);

  setup.scalapay!.authorize(token);
  const back = await confirmAuthorizedPayment(setup.services(), { orderId, locale: "en" });
  expect(back).toEqual({ ok: true, outcome: "paid", redirectTo: expect.stringMatching(new RegExp(`^/en/ordine/${orderId}\\?t=.+&pagamento=ok$`)) });
  expect(setup.scalapay!.orders.get(token)!.status).toBe("charged");
  expect(await orderOf(setup.db, orderId)).toMatchObject({ status: "paid" });
  const [row] = await setup.db.select().from(payments).where(eq(payments.providerRef, token));
  expect(row).toMatchObject({ status: "succeeded", amountCents: 5670 });

  // A reload, a double click: nothing is captured again.
  const reload = await confirmAuthorizedPayment(setup.services(), { orderId, locale: "en" });
  expect(reload).toMatchObject({ ok: true, outcome: "ignored" });
  expect(capturesOf(setup)).toHaveLength(1);
  expect(setup.scalapay!.orders.get(token)!.captures).toBe(1);
  expect(await timesPaid(setup.db, orderId)).toBe(1);
});

test("refused by Scalapay: the order is not paid; the customer's way back cancels it, its stock and cart come back", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token, variantId, cartId } = await startedScalapayOrder(setup);
  expect(await stockOf(setup.db, variantId)).toBe(3);
  setup.scalapay!.decline(token);

  expect(await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" })).toMatchObject({ ok: true, outcome: "waiting" });
  expect(capturesOf(setup)).toHaveLength(0);
  expect((await orderOf(setup.db, orderId)).status).toBe("awaiting_payment");

  const back = await abandonCardPayment(setup.services(), { orderId, cartId });
  expect(back).toMatchObject({ ok: true, restored: true });
  expect((await orderOf(setup.db, orderId)).status).toBe("cancelled");
  expect(await stockOf(setup.db, variantId)).toBe(5);
  expect((await getCartView(setup.db, { cartId: back.ok ? back.cartId : null, locale: "it", now: new Date() })).count).toBe(2);
});

test("the customer goes back from Scalapay's page without paying: the order is cancelled and nothing captured", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token, variantId, cartId } = await startedScalapayOrder(setup);
  expect(await abandonCardPayment(setup.services(), { orderId, cartId })).toMatchObject({ ok: true, restored: true });
  expect((await orderOf(setup.db, orderId)).status).toBe("cancelled");
  expect(await stockOf(setup.db, variantId)).toBe(5);
  // Authorized afterwards in another tab: the shop never captures it (the authorization lapses at Scalapay).
  setup.scalapay!.authorize(token);
  expect(await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" })).toMatchObject({ ok: true, outcome: "ignored" });
  expect(await settleOverdueCardOrders(setup.services(), new Date(Date.now() + 48 * hour))).toEqual({ paid: 0, expired: 0, waiting: 0, failed: 0 });
  expect(capturesOf(setup)).toHaveLength(0);
});

test("an amount or currency that is not the order's is never captured: the order is flagged for the staff, not paid", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token } = await startedScalapayOrder(setup);
  setup.scalapay!.authorize(token);
  setup.scalapay!.setAmount(token, { amount: "5.67", currency: "EUR" });

  expect(await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" })).toMatchObject({ ok: true, outcome: "amount-mismatch" });
  expect(capturesOf(setup)).toHaveLength(0);
  expect((await orderOf(setup.db, orderId)).status).toBe("awaiting_payment");
  const notes = await setup.db
    .select({ note: orderStatusHistory.note })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, orderId), like(orderStatusHistory.note, "payment-mismatch:%")));
  expect(notes).toEqual([{ note: `payment-mismatch:scalapay:567:eur:${token}` }]);

  setup.scalapay!.setAmount(token, { amount: "56.70", currency: "GBP" });
  expect(await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" })).toMatchObject({ outcome: "amount-mismatch" });
  expect(capturesOf(setup)).toHaveLength(0);
});

test("Scalapay down at capture: the order waits; the expiry job captures the authorization later, once", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const now = new Date();
  const { orderId, token } = await startedScalapayOrder(setup, now);
  setup.scalapay!.authorize(token);
  setup.scalapay!.failCaptures = true;
  const back = await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" });
  expect(back).toMatchObject({ ok: true, outcome: "waiting", redirectTo: expect.not.stringContaining("pagamento=ok") });
  expect((await orderOf(setup.db, orderId)).status).toBe("awaiting_payment");

  setup.scalapay!.failCaptures = false;
  const later = new Date(now.getTime() + 2 * hour);
  expect(await settleOverdueCardOrders(setup.services(), later)).toMatchObject({ paid: 1, failed: 0 });
  expect(await orderOf(setup.db, orderId)).toMatchObject({ status: "paid" });
  expect(setup.scalapay!.orders.get(token)!.captures).toBe(1);
});

test("never authorized: the expiry job expires the order as for a card, and its stock returns", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const now = new Date();
  const { orderId, token, variantId } = await startedScalapayOrder(setup, now);
  // Scalapay's page closes when the shop stops waiting (it was asked to expire the order then).
  setup.scalapay!.orders.get(token)!.expiresAt = Date.now() - 1;
  expect(await settleOverdueCardOrders(setup.services(), new Date(now.getTime() + 2 * hour))).toMatchObject({ expired: 1 });
  expect((await orderOf(setup.db, orderId)).status).toBe("expired");
  expect(await stockOf(setup.db, variantId)).toBe(5);
  expect(capturesOf(setup)).toHaveLength(0);
});

test("refunds go back through Scalapay: the staff's refund of the order, and a retried refund refunds once", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token } = await startedScalapayOrder(setup);
  setup.scalapay!.authorize(token);
  expect(await confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" })).toMatchObject({ outcome: "paid" });

  const admin = await createAdminUser(setup.db);
  const ctx = {
    db: setup.db,
    actorUserId: admin,
    now: new Date(),
    links: null,
    provider: (name: string) => paymentProviderNamed(setup.services(), name),
  };
  expect(await runAdminOrderAction(ctx, orderId, { intent: "refund" })).toEqual({ ok: true, done: "refund" });
  expect((await orderOf(setup.db, orderId)).status).toBe("refunded");
  const refunds = setup.scalapay!.requests.filter((request) => request.path === `/v2/payments/${token}/refund`);
  expect(refunds).toHaveLength(1);
  expect(refunds[0]!.body).toMatchObject({ refundAmount: { amount: "56.70", currency: "EUR" } });
  expect(setup.scalapay!.orders.get(token)!.status).toBe("refunded");

  // The same refund asked again (a retry after a lost answer) is the same refund at Scalapay.
  const provider = paymentProviderNamed(setup.services(), "scalapay");
  const first = setup.scalapay!.orders.get(token)!.refunds[0]!.refundToken;
  expect(await provider.refund(token, 5670)).toEqual({ refundRef: first });
  expect(setup.scalapay!.orders.get(token)!.refunds).toHaveLength(1);
});

// Two returns at once (two tabs, a double click): PostgreSQL only, where they truly run side by side.
testOnPostgres("two returns at the same moment capture once and pay the order once", async () => {
  const setup = await setUpPayments({ stripe: false, scalapay: true });
  const { orderId, token } = await startedScalapayOrder(setup);
  setup.scalapay!.authorize(token);
  const [first, second] = await Promise.all([
    confirmAuthorizedPayment(setup.services(), { orderId, locale: "it" }),
    confirmAuthorizedPayment(setup.restart(), { orderId, locale: "it" }),
    settleOverdueCardOrders(setup.services(), new Date(Date.now() + 48 * hour)),
  ]);
  expect(first.ok && second.ok).toBe(true);
  expect(setup.scalapay!.orders.get(token)!.captures).toBe(1);
  expect(await orderOf(setup.db, orderId)).toMatchObject({ status: "paid" });
  expect(await timesPaid(setup.db, orderId)).toBe(1);
});
