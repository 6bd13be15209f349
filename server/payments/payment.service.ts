/**
 * Card payments after the provider boundary, the same for Stripe and the test-payment page:
 * start (or re-use) a session, apply what the provider says a session is (re-read, never trusted
 * from an event's order), settle overdue card orders, and take an abandoned payment back to the cart.
 * Nothing lives in memory: after a restart the webhooks and the expiry job finish every order.
 */
import { and, asc, desc, eq, isNotNull, isNull, lte, not, sql } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { OnlinePaymentMethod } from "#common/online-payment-methods.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, paymentEvents, payments } from "#server/db/schema.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { orderAccessToken, orderPageHref } from "#server/orders/order-access.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import { cancelOrder, expireOrder, holdOrderForPayment, markOrderPaid, restoreOrderToCart } from "#server/orders/order.service.ts";
import { flagPaymentMismatch, hasPaymentMismatch } from "#server/orders/payment-mismatch.service.ts";
import { paymentProviderForMethod, paymentProviderOf, type PaymentProvider, type ProviderSessionState } from "./payment-provider";
import { UnknownStripeSession, verifyStripeWebhook } from "./stripe";
import { recordTestPaymentOutcome } from "./test-payment";

type PaymentServices = Pick<ShopServices, "db" | "env" | "publicUrl"> & { log?: Pick<ShopServices["log"], "warn"> };

/** A session is not offered again when it closes within this margin. */
const reuseMarginMs = 60_000;
/** Stripe accepts expires_at between 30 minutes and 24 hours from creation. */
const minSessionMs = 31 * 60_000;
const maxSessionMs = 23 * 3600_000;

/**
 * How long the shop waits for a payment the provider confirms later, holding the order's stock: SEPA
 * Direct Debit may take up to 14 business days (docs/decisions/0065-online-payment-methods.md).
 */
export const paymentVerificationLimitMs = 21 * 24 * 3600_000;

/**
 * "amount-mismatch": paid, but not the order's amount or currency; the order is flagged, not paid.
 * "processing": the customer paid, the provider confirms later; the order waits with its stock.
 */
export type SessionOutcome = "paid" | "expired" | "waiting" | "processing" | "duplicate" | "ignored" | "amount-mismatch";

/** The shop charges in euro only (Stripe writes currencies in lower case). */
const orderCurrency = "eur";

/** Where the provider sends the customer back: the order page (paid) or the abandon route (cancel). */
export function cardPaymentReturnUrls(services: Pick<ShopServices, "env" | "publicUrl">, orderId: string, locale: Locale) {
  const token = orderAccessToken(resolveAuthSecret(services.env), orderId);
  const orderHref = orderPageHref(locale, orderId, token);
  const paidHref = `${orderHref}&pagamento=ok`;
  const cancelHref = `${localizedHref(`/ordine/${encodeURIComponent(orderId)}/annulla-pagamento`, locale)}?t=${encodeURIComponent(token)}`;
  // Providers that authorize first (Scalapay) send the customer here: the shop captures, then shows the order.
  const confirmHref = `${localizedHref(`/ordine/${encodeURIComponent(orderId)}/conferma-pagamento`, locale)}?t=${encodeURIComponent(token)}`;
  return {
    orderHref,
    paidHref,
    cancelHref,
    confirmHref,
    successUrl: `${services.publicUrl}${paidHref}`,
    cancelUrl: `${services.publicUrl}${cancelHref}`,
    confirmUrl: `${services.publicUrl}${confirmHref}`,
  };
}

function mailLinksOf(services: Pick<ShopServices, "env" | "publicUrl">): OrderMailLinks {
  return { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) };
}

async function findOrder(db: Db, orderId: string) {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.email,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      onlinePaymentMethod: orders.onlinePaymentMethod,
      totalCents: orders.totalCents,
      /** What is still to pay: the total less what a gift card paid. */
      dueCents: sql<number>`${orders.totalCents} - ${orders.giftCardCents}`.mapWith(Number),
      shippingCents: orders.shippingCents,
      paymentFeeCents: orders.paymentFeeCents,
      paymentDueAt: orders.paymentDueAt,
      firstName: orders.firstName,
      lastName: orders.lastName,
      phone: orders.phone,
      street: orders.street,
      houseNumber: orders.houseNumber,
      postcode: orders.postcode,
      city: orders.city,
      country: orders.country,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  return order ?? null;
}

/** The card sessions of an order with this provider, newest first. */
async function sessionRowsOf(db: Db, orderId: string, provider: PaymentProvider["name"]) {
  const rows = await db
    .select({
      ref: payments.providerRef,
      status: payments.status,
      expiresAt: payments.expiresAt,
      amountCents: payments.amountCents,
      processingSince: payments.processingSince,
    })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.provider, provider), isNotNull(payments.providerRef)))
    .orderBy(desc(payments.createdAt));
  // The SQL filter does not narrow the column's type.
  return rows.flatMap(({ ref, ...row }) => (ref === null ? [] : [{ ...row, ref }]));
}

export type StartCardPaymentResult = { ok: true; redirectUrl: string } | { ok: false; error: "payment-unavailable" | "not-found" | "not-payable" };

/** Sends the customer to pay: the order's open session again (a double click), else a new one. */
export async function startCardPayment(
  services: PaymentServices,
  args: { orderId: string; locale: Locale; now?: Date },
): Promise<StartCardPaymentResult> {
  const { db } = services;
  const now = args.now ?? new Date();
  const order = await findOrder(db, args.orderId);
  if (!order) return { ok: false, error: "not-found" };
  const urls = cardPaymentReturnUrls(services, order.id, args.locale);
  if (order.paymentMethod !== "card") return { ok: false, error: "not-payable" };
  if (order.status !== "awaiting_payment") {
    return order.status === "expired" || order.status === "cancelled"
      ? { ok: false, error: "not-payable" }
      : { ok: true, redirectUrl: urls.successUrl };
  }
  const provider = paymentProviderForMethod(services, order.onlinePaymentMethod);
  try {
    const rows = await sessionRowsOf(db, order.id, provider.name);
    for (const row of rows) {
      if (row.status !== "pending" || !row.expiresAt || row.expiresAt.getTime() <= now.getTime() + reuseMarginMs) continue;
      const state = await provider.retrieveSession(row.ref);
      if (state.status === "open" && state.url) return { ok: true, redirectUrl: state.url };
      // Paid and in verification: nothing more to pay; the order page says what is happening.
      if (state.status === "complete" && state.isProcessing) return { ok: true, redirectUrl: `${services.publicUrl}${urls.orderHref}` };
      if (state.status === "complete" && (state.isPaid || state.isAuthorized)) {
        const outcome = await applySessionState(services, provider, { ref: row.ref, state, now });
        return { ok: true, redirectUrl: outcome === "paid" ? urls.successUrl : `${services.publicUrl}${urls.orderHref}` };
      }
    }

    const dueMs = order.paymentDueAt?.getTime() ?? now.getTime();
    const expiresAt = new Date(Math.min(Math.max(dueMs, now.getTime() + minSessionMs), now.getTime() + maxSessionMs));
    const session = await provider.createSession({
      orderId: order.id,
      orderNumber: order.number,
      email: order.email,
      locale: args.locale,
      lines: await sessionLinesOf(db, order, args.locale),
      totalCents: order.dueCents,
      method: order.onlinePaymentMethod ?? "card",
      consumer: {
        givenNames: order.firstName,
        surname: order.lastName,
        phone: order.phone,
        shipping:
          order.street && order.city && order.postcode
            ? {
                line1: [order.street, order.houseNumber].filter(Boolean).join(" "),
                city: order.city,
                postcode: order.postcode,
                countryCode: order.country,
              }
            : null,
      },
      successUrl: provider.capture ? urls.confirmUrl : urls.successUrl,
      cancelUrl: urls.cancelUrl,
      expiresAt,
      // Counting earlier sessions: a double click asks for the same session, a retry after expiry for a new one.
      idempotencyKey: `checkout-session:${order.id}:${rows.length}`,
    });
    await recordSession(db, {
      orderId: order.id,
      provider: provider.name,
      ref: session.ref,
      amountCents: order.dueCents,
      expiresAt: session.expiresAt,
    });
    return { ok: true, redirectUrl: session.url };
  } catch (error) {
    services.log?.warn({ err: error, orderId: order.id, provider: provider.name }, "card payment could not start");
    return { ok: false, error: "payment-unavailable" };
  }
}

/**
 * What the provider shows the customer: one line per order line, plus shipping and the payment fee,
 * in cents. When they do not add up to the order total (a discount), one line for the whole order.
 */
async function sessionLinesOf(db: Db, order: NonNullable<Awaited<ReturnType<typeof findOrder>>>, locale: Locale) {
  const t = getTranslator(locale);
  const rows = await db
    .select({
      name: orderLines.name,
      quantity: orderLines.quantity,
      unit: orderLines.unitPriceCents,
      personalisation: orderLines.personalisationUnitCents,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.name));
  const lines = rows.map((row) => ({ name: row.name, unitAmountCents: row.unit + row.personalisation, quantity: row.quantity }));
  if (order.shippingCents > 0) lines.push({ name: t("payments.lineShipping"), unitAmountCents: order.shippingCents, quantity: 1 });
  if (order.paymentFeeCents > 0) lines.push({ name: t("payments.linePaymentFee"), unitAmountCents: order.paymentFeeCents, quantity: 1 });
  const sum = lines.reduce((total, line) => total + line.unitAmountCents * line.quantity, 0);
  return sum === order.dueCents && lines.length > 0
    ? lines
    : [{ name: t("payments.lineOrder", { number: order.number }), unitAmountCents: order.dueCents, quantity: 1 }];
}

/** The session becomes the order's payment row: checkout's pending row when it has no session yet, else a new one. */
async function recordSession(db: Db, args: { orderId: string; provider: string; ref: string; amountCents: number; expiresAt: Date }) {
  const values = { provider: args.provider, providerRef: args.ref, amountCents: args.amountCents, expiresAt: args.expiresAt };
  const claimed = await db
    .update(payments)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(payments.orderId, args.orderId), isNull(payments.providerRef), eq(payments.status, "pending")))
    .returning({ id: payments.id });
  if (claimed.length === 0) {
    await db
      .insert(payments)
      .values({ orderId: args.orderId, status: "pending", ...values })
      .onConflictDoNothing({ target: payments.providerRef });
  }
}

/**
 * Acts on a session as the provider says it is now. Paid: the order is paid (or, if it had already
 * expired, the money goes back). Expired or failed: the order expires and its stock returns, unless
 * another session of the same order is still open (the customer tried again).
 * `eventId`: a provider event applied at most once, recorded in the same transaction.
 */
export async function applySessionState(
  services: PaymentServices,
  provider: PaymentProvider,
  args: { ref: string; state: ProviderSessionState; now: Date; eventId?: string; eventType?: string },
): Promise<SessionOutcome> {
  const { ref, now } = args;
  let { state } = args;
  const [row] = await services.db.select({ orderId: payments.orderId }).from(payments).where(eq(payments.providerRef, ref));
  const orderId = row?.orderId ?? state.orderId;
  if (orderId && row && state.status === "complete" && state.isAuthorized)
    state = await captureAuthorized(services, provider, { ref, state, orderId });
  let refund = 0;
  const outcome = await services.db.transaction(async (tx): Promise<SessionOutcome> => {
    if (args.eventId) {
      const fresh = await tx
        .insert(paymentEvents)
        .values({ id: args.eventId, provider: provider.name, type: args.eventType ?? "unknown", orderId: orderId && row ? orderId : null })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (fresh.length === 0) return "duplicate";
    }
    if (!orderId || !row) return "ignored";

    if (state.status === "complete" && (state.isPaid || state.isAuthorized)) {
      // Only the order's own amount in the order's currency pays it; anything else goes to the staff.
      const [order] = await tx
        .select({ dueCents: sql<number>`${orders.totalCents} - ${orders.giftCardCents}`.mapWith(Number) })
        .from(orders)
        .where(eq(orders.id, orderId));
      if (!order || state.amountCents !== order.dueCents || state.currency.toLowerCase() !== orderCurrency) {
        await flagPaymentMismatch(tx, {
          orderId,
          provider: provider.name,
          providerRef: ref,
          amountCents: state.amountCents,
          currency: state.currency.toLowerCase(),
          now,
          publicUrl: services.publicUrl,
        });
        return "amount-mismatch";
      }
      // Authorized and not captured (the capture did not answer): the next look captures.
      if (!state.isPaid) return "waiting";
      const paid = await markOrderPaid(tx, {
        orderId,
        provider: provider.name,
        providerRef: ref,
        amountCents: state.amountCents,
        now,
        links: mailLinksOf(services),
      });
      await tx
        .update(payments)
        .set({ status: "succeeded", updatedAt: now })
        .where(and(eq(payments.providerRef, ref), eq(payments.status, "pending")));
      if (paid.needsRefund) refund = state.amountCents;
      return "paid";
    }
    if (state.status === "complete" && state.isProcessing) {
      // Held from the first word that it is processing, never longer than the limit from then.
      const [session] = await tx
        .update(payments)
        .set({ processingSince: now, expiresAt: new Date(now.getTime() + paymentVerificationLimitMs), updatedAt: now })
        .where(and(eq(payments.providerRef, ref), eq(payments.status, "pending"), isNull(payments.processingSince)))
        .returning({ expiresAt: payments.expiresAt });
      if (session?.expiresAt) await holdOrderForPayment(tx, { orderId, until: session.expiresAt, now, links: mailLinksOf(services) });
      return "processing";
    }
    if (state.status === "expired" || (state.status === "complete" && state.hasFailed)) {
      await tx
        .update(payments)
        .set({ status: state.status === "expired" ? "expired" : "failed", updatedAt: now })
        .where(and(eq(payments.providerRef, ref), eq(payments.status, "pending")));
      const others = await tx
        .select({ ref: payments.providerRef, expiresAt: payments.expiresAt })
        .from(payments)
        .where(and(eq(payments.orderId, orderId), eq(payments.status, "pending"), isNotNull(payments.providerRef)));
      if (others.some((other) => other.ref !== ref && other.expiresAt !== null && other.expiresAt > now)) return "waiting";
      await expireOrder(tx, {
        orderId,
        now,
        reason: state.hasFailed ? "online-payment-failed" : "card-payment-expired",
        links: mailLinksOf(services),
      });
      return "expired";
    }
    return "waiting";
  });
  if (refund > 0) await refundLatePayment(services, provider, { ref, amountCents: refund, now });
  return outcome;
}

/**
 * A payment the customer authorized (Scalapay) is captured only for the order's own amount in euro and
 * while the order still waits for it; an order that expired or was cancelled meanwhile has its
 * authorization released instead, so no money moves. Returns the provider's word afterwards.
 */
async function captureAuthorized(
  services: PaymentServices,
  provider: PaymentProvider,
  args: { ref: string; state: ProviderSessionState; orderId: string },
): Promise<ProviderSessionState> {
  const [order] = await services.db
    .select({ number: orders.number, status: orders.status, totalCents: orders.totalCents })
    .from(orders)
    .where(eq(orders.id, args.orderId));
  if (!order || !provider.capture) return args.state;
  // A different amount is flagged for the staff by the caller, never captured.
  if (args.state.amountCents !== order.totalCents || args.state.currency.toLowerCase() !== orderCurrency) return args.state;
  if (order.status === "awaiting_payment") await provider.capture(args.ref, String(order.number));
  else await provider.expireSession(args.ref);
  return provider.retrieveSession(args.ref);
}

/** Money that arrived after the order gave its stock back goes back to the customer, once. */
async function refundLatePayment(services: PaymentServices, provider: PaymentProvider, args: { ref: string; amountCents: number; now: Date }) {
  const claimed = await services.db
    .update(payments)
    .set({ status: "refunded", refundedCents: args.amountCents, updatedAt: args.now })
    .where(and(eq(payments.providerRef, args.ref), eq(payments.status, "succeeded"), eq(payments.refundedCents, 0)))
    .returning({ id: payments.id });
  if (claimed.length > 0) await provider.refund(args.ref, args.amountCents);
}

const handledStripeEvents = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

/** A delivery taken (whatever it changed), or refused with a code: "forged" (signature) or "unknown-session" (Stripe does not know it). */
export type WebhookResult = { status: 200; outcome: SessionOutcome } | { status: 400; outcome: "forged" | "unknown-session" };

/**
 * A Stripe webhook delivery: the signature is checked on the raw body (anything else: 400 and
 * nothing changes); the event id is kept with the state change (a repeat is a no-op); the session is
 * re-read from Stripe, so events may come in any order. A session Stripe says it does not know is
 * refused (400: retrying cannot help). Other provider errors throw: Stripe retries.
 */
export async function applyStripeWebhook(
  services: PaymentServices,
  rawBody: string,
  signature: string | null,
  now = new Date(),
): Promise<WebhookResult> {
  const event = verifyStripeWebhook(services.env, rawBody, signature);
  if (!event) return { status: 400, outcome: "forged" };
  const provider = paymentProviderOf(services);
  if (!handledStripeEvents.has(event.type) || !event.sessionRef || provider.name !== "stripe") return { status: 200, outcome: "ignored" };
  let state: ProviderSessionState;
  try {
    state = await provider.retrieveSession(event.sessionRef);
  } catch (error) {
    if (error instanceof UnknownStripeSession) return { status: 400, outcome: "unknown-session" };
    throw error;
  }
  const outcome = await applySessionState(services, provider, {
    ref: event.sessionRef,
    state,
    now,
    eventId: event.id,
    eventType: event.type,
  });
  return { status: 200, outcome };
}

/**
 * A card order whose time to pay is over: ask the provider first. Paid: the order is paid. A session
 * still open: wait for it (the order holds its stock until the session's end). Otherwise close the
 * sessions and let the order expire.
 */
export async function settleCardOrder(services: PaymentServices, args: { orderId: string; now: Date }): Promise<SessionOutcome> {
  const order = await findOrder(services.db, args.orderId);
  const provider = paymentProviderForMethod(services, order?.onlinePaymentMethod ?? null);
  const rows = await sessionRowsOf(services.db, args.orderId, provider.name);
  const read = async () => Promise.all(rows.map(async (row) => ({ row, state: await provider.retrieveSession(row.ref) })));
  let sessions = await read();
  // Authorized and never captured (the customer closed the tab on the way back): captured now.
  const paid = sessions.find(({ state }) => state.status === "complete" && (state.isPaid || state.isAuthorized));
  if (paid) return applySessionState(services, provider, { ref: paid.row.ref, state: paid.state, now: args.now });
  // In verification and not known as such yet (a lost webhook): start the wait now.
  const processing = sessions.find(({ row, state }) => state.isProcessing && row.processingSince === null);
  if (processing) return applySessionState(services, provider, { ref: processing.row.ref, state: processing.state, now: args.now });
  const failed = sessions.find(({ row, state }) => state.hasFailed && row.status === "pending");
  if (failed && !sessions.some(({ state }) => state.status === "open" || state.isProcessing)) {
    return applySessionState(services, provider, { ref: failed.row.ref, state: failed.state, now: args.now });
  }
  if (sessions.some(({ row, state }) => (state.status === "open" || state.isProcessing) && row.expiresAt !== null && row.expiresAt > args.now)) {
    return "waiting";
  }

  const open = sessions.filter(({ state }) => state.status === "open");
  if (open.length > 0) {
    for (const { row } of open) await provider.expireSession(row.ref);
    // Paid in the last moment (the provider refused to expire a completed session)?
    sessions = await read();
    const late = sessions.find(({ state }) => state.status === "complete" && (state.isPaid || state.isAuthorized));
    if (late) return applySessionState(services, provider, { ref: late.row.ref, state: late.state, now: args.now });
  }
  await services.db.transaction(async (tx) => {
    await tx
      .update(payments)
      .set({ status: "expired", updatedAt: args.now })
      .where(and(eq(payments.orderId, args.orderId), eq(payments.status, "pending")));
    await expireOrder(tx, { orderId: args.orderId, now: args.now, reason: "card-payment-expired", links: mailLinksOf(services) });
  });
  return "expired";
}

/** The expiry job's run: every card order still awaiting payment past its due time. */
export async function settleOverdueCardOrders(services: PaymentServices, now: Date, limit = 50) {
  const due = await services.db
    .select({ id: orders.id })
    .from(orders)
    // A flagged order waits for the staff: asking Stripe again would only find the same payment.
    .where(
      and(
        eq(orders.paymentMethod, "card"),
        eq(orders.status, "awaiting_payment"),
        lte(orders.paymentDueAt, now),
        not(hasPaymentMismatch(services.db)),
      ),
    )
    .orderBy(asc(orders.paymentDueAt))
    .limit(limit);
  const report = { paid: 0, expired: 0, waiting: 0, failed: 0 };
  for (const { id } of due) {
    try {
      const outcome = await settleCardOrder(services, { orderId: id, now });
      if (outcome === "paid" || outcome === "expired" || outcome === "waiting") report[outcome] += 1;
      if (outcome === "processing") report.waiting += 1;
    } catch (error) {
      // The provider did not answer: the next run asks again.
      report.failed += 1;
      services.log?.warn({ err: error, orderId: id }, "card order could not be settled");
    }
  }
  return report;
}

export type AbandonCardPaymentResult =
  { ok: true; cartId: string | null; restored: boolean } | { ok: false; reason: "not-found" | "paid" | "not-awaiting-payment" };

/**
 * The customer came back through the provider's cancel link: the sessions are closed, the order is
 * cancelled (stock back) and its lines go back into the cart. Paid meanwhile: nothing is undone.
 */
export async function abandonCardPayment(
  services: PaymentServices,
  args: { orderId: string; cartId: string | null; now?: Date },
): Promise<AbandonCardPaymentResult> {
  const now = args.now ?? new Date();
  const order = await findOrder(services.db, args.orderId);
  if (!order || order.paymentMethod !== "card") return { ok: false, reason: "not-found" };
  if (order.status !== "awaiting_payment" && order.status !== "cancelled") {
    return { ok: false, reason: order.status === "expired" ? "not-awaiting-payment" : "paid" };
  }
  if (order.status === "cancelled") return { ok: true, cartId: args.cartId, restored: false };

  const provider = paymentProviderForMethod(services, order.onlinePaymentMethod);
  const rows = await sessionRowsOf(services.db, order.id, provider.name);
  for (const row of rows) await provider.expireSession(row.ref);
  for (const row of rows) {
    const state = await provider.retrieveSession(row.ref);
    if (state.status === "complete" && (state.isPaid || state.isProcessing)) {
      await applySessionState(services, provider, { ref: row.ref, state, now });
      return { ok: false, reason: "paid" };
    }
  }
  const cancelled = await services.db.transaction(async (tx) => {
    await tx
      .update(payments)
      .set({ status: "expired", updatedAt: now })
      .where(and(eq(payments.orderId, order.id), eq(payments.status, "pending")));
    return cancelOrder(tx, { orderId: order.id, now, actorUserId: null, note: "card-payment-abandoned" });
  });
  if (!cancelled.changed) return { ok: true, cartId: args.cartId, restored: false };
  const { cartId } = await restoreOrderToCart(services.db, { orderId: order.id, cartId: args.cartId });
  return { ok: true, cartId, restored: true };
}

export type ConfirmPaymentResult = { ok: true; redirectTo: string; outcome: SessionOutcome } | { ok: false; error: "not-found" };

/**
 * The customer is back from a provider that authorizes first (Scalapay's confirm link): the payment is
 * re-read from the provider (the link's query is never trusted), checked and captured once, however
 * often the page is reloaded; then the order page says how it went.
 */
export async function confirmAuthorizedPayment(
  services: PaymentServices,
  args: { orderId: string; locale: Locale; now?: Date },
): Promise<ConfirmPaymentResult> {
  const now = args.now ?? new Date();
  const order = await findOrder(services.db, args.orderId);
  if (!order || order.paymentMethod !== "card") return { ok: false, error: "not-found" };
  const urls = cardPaymentReturnUrls(services, order.id, args.locale);
  if (order.status !== "awaiting_payment")
    return { ok: true, redirectTo: order.status === "paid" ? urls.paidHref : urls.orderHref, outcome: "ignored" };
  const provider = paymentProviderForMethod(services, order.onlinePaymentMethod);
  let outcome: SessionOutcome = "waiting";
  try {
    for (const row of await sessionRowsOf(services.db, order.id, provider.name)) {
      const state = await provider.retrieveSession(row.ref);
      if (state.status !== "complete" || !(state.isPaid || state.isAuthorized)) continue;
      outcome = await applySessionState(services, provider, { ref: row.ref, state, now });
      break;
    }
  } catch (error) {
    // The provider did not answer: the order page says it waits; the expiry job captures later.
    services.log?.warn({ err: error, orderId: order.id, provider: provider.name }, "authorized payment could not be captured");
  }
  return { ok: true, redirectTo: outcome === "paid" ? urls.paidHref : urls.orderHref, outcome };
}

// ---------------------------------------------------------------- the test-payment page

export type TestPaymentView = {
  ref: string;
  orderId: string;
  orderNumber: number;
  amountCents: number;
  status: ProviderSessionState["status"];
  isPaid: boolean;
  orderHref: string;
  /** The way to pay online the page stands in for. */
  method: OnlinePaymentMethod;
};

/** The labelled test page's data; null when the shop takes real card payments or the session is unknown. */
export async function getTestPaymentView(services: PaymentServices, args: { ref: string; locale: Locale }): Promise<TestPaymentView | null> {
  const provider = paymentProviderOf(services);
  if (provider.name !== "test") return null;
  const [row] = await services.db
    .select({ orderId: payments.orderId, orderNumber: orders.number, method: orders.onlinePaymentMethod })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.provider, "test"), eq(payments.providerRef, args.ref)));
  if (!row) return null;
  const state = await provider.retrieveSession(args.ref);
  return {
    ref: args.ref,
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    amountCents: state.amountCents,
    status: state.status,
    isPaid: state.isPaid,
    orderHref: cardPaymentReturnUrls(services, row.orderId, args.locale).orderHref,
    method: row.method ?? "card",
  };
}

/**
 * A button of the test page. Pay / fail change the session on the provider's side, then take the
 * same path as a Stripe webhook; cancel goes where Stripe's cancel link goes. Returns where to go next.
 */
export async function submitTestPayment(
  services: PaymentServices,
  args: { ref: string; intent: "pay" | "fail" | "cancel"; locale: Locale; now?: Date },
): Promise<{ ok: true; redirectTo: string } | { ok: false; error: "not-found" }> {
  const now = args.now ?? new Date();
  const view = await getTestPaymentView(services, args);
  if (!view) return { ok: false, error: "not-found" };
  const urls = cardPaymentReturnUrls(services, view.orderId, args.locale);
  if (args.intent === "cancel") return { ok: true, redirectTo: view.status === "open" ? urls.cancelHref : urls.orderHref };
  const provider = paymentProviderOf(services);
  const outcome = args.intent === "pay" ? "paid" : "failed";
  await recordTestPaymentOutcome(services.db, { ref: args.ref, outcome, now });
  const state = await provider.retrieveSession(args.ref);
  await applySessionState(services, provider, {
    ref: args.ref,
    state,
    now,
    eventId: `test:${args.ref}:${outcome}`,
    eventType: `test.payment.${outcome}`,
  });
  return { ok: true, redirectTo: args.intent === "pay" && state.isPaid ? urls.paidHref : urls.orderHref };
}
