/**
 * Stripe Checkout behind the PaymentProvider interface. The only file that imports `stripe`.
 * STRIPE_API_URL (tests) points the unmodified SDK at a local Stripe-compatible server.
 */
import Stripe from "stripe";
import type { Env } from "#server/env.ts";
import type { PaymentProvider, ProviderSessionState } from "./payment-provider";

/** A Checkout Session Stripe has never heard of (it answers 404): an event naming it is refused, not retried. */
export class UnknownStripeSession extends Error {
  constructor(readonly ref: string) {
    super(`Stripe does not know the Checkout Session ${ref}`);
  }
}

export type StripeWebhookEvent = { id: string; type: string; sessionRef: string | null };

/**
 * A customer waits on the checkout while the session is created: at most two tries of 8 s (the
 * retry carries the same idempotency key, so Stripe answers the session it may already have made).
 * Past that the order page says the card payment is unavailable and offers "Paga ora" again.
 */
const patience = { maxNetworkRetries: 1, timeout: 8_000 };

function connectionOf(env: Env): ConstructorParameters<typeof Stripe>[1] {
  if (!env.STRIPE_API_URL) return patience;
  const url = new URL(env.STRIPE_API_URL);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? "80" : "443"), protocol, ...patience, telemetry: false };
}

const clients = new WeakMap<Env, Stripe>();

function clientOf(env: Env): Stripe {
  let client = clients.get(env);
  if (!client) {
    if (!env.STRIPE_SECRET_KEY) throw new Error("STRIPE_SECRET_KEY is not set");
    client = new Stripe(env.STRIPE_SECRET_KEY, connectionOf(env));
    clients.set(env, client);
  }
  return client;
}

/**
 * A completed session whose payment_status is still "unpaid" confirms later: its PaymentIntent says whether
 * it is still processing or was refused (Stripe keeps the session "complete" after async_payment_failed).
 */
function stateOf(session: Stripe.Checkout.Session): ProviderSessionState {
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const awaitingMoney = session.status === "complete" && session.payment_status === "unpaid";
  const refused = awaitingMoney && (intent?.status === "requires_payment_method" || intent?.status === "canceled");
  return {
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    isPaid: session.payment_status === "paid",
    isProcessing: awaitingMoney && !refused,
    hasFailed: refused,
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? "",
    orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
    url: session.status === "open" ? session.url : null,
  };
}

export function createStripeProvider(env: Env): PaymentProvider {
  const stripe = clientOf(env);
  return {
    name: "stripe",
    async createSession(args) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          // The customer chose how to pay at checkout: Checkout offers that method only.
          allowed_payment_method_types: [args.method],
          currency: "eur",
          line_items: args.lines.map((line) => ({
            quantity: line.quantity,
            price_data: { currency: "eur", unit_amount: line.unitAmountCents, product_data: { name: line.name } },
          })),
          customer_email: args.email,
          locale: args.locale,
          client_reference_id: args.orderId,
          metadata: { orderId: args.orderId, orderNumber: String(args.orderNumber) },
          payment_intent_data: { metadata: { orderId: args.orderId } },
          expires_at: Math.floor(args.expiresAt.getTime() / 1000),
          success_url: args.successUrl,
          cancel_url: args.cancelUrl,
        },
        { idempotencyKey: args.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe returned session ${session.id} without a url`);
      if (session.amount_total !== null && session.amount_total !== args.totalCents) {
        throw new Error(`Stripe session ${session.id} totals ${session.amount_total} cents, the order ${args.totalCents}`);
      }
      return { ref: session.id, url: session.url, expiresAt: new Date((session.expires_at ?? 0) * 1000) };
    },
    async retrieveSession(ref) {
      try {
        return stateOf(await stripe.checkout.sessions.retrieve(ref, { expand: ["payment_intent"] }));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) throw new UnknownStripeSession(ref);
        throw error;
      }
    },
    async expireSession(ref) {
      try {
        await stripe.checkout.sessions.expire(ref);
      } catch (error) {
        // Stripe refuses to expire a session that is no longer open: that is the state we wanted.
        const session = await stripe.checkout.sessions.retrieve(ref);
        if (session.status === "open") throw error;
      }
    },
    async refund(ref, amountCents, idempotencyKey) {
      const session = await stripe.checkout.sessions.retrieve(ref);
      const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
      if (!paymentIntent) throw new Error(`Stripe session ${ref} has no payment to refund`);
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntent, amount: amountCents },
        { idempotencyKey: idempotencyKey ?? `refund:${ref}:${amountCents}` },
      );
      return { refundRef: refund.id };
    },
  };
}

/**
 * Verifies a webhook delivery on its raw body; null when the signature is missing, wrong or stale
 * (or no webhook secret is configured).
 */
export function verifyStripeWebhook(env: Env, rawBody: string, signature: string | null): StripeWebhookEvent | null {
  if (!env.STRIPE_WEBHOOK_SECRET || !signature) return null;
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, env.STRIPE_WEBHOOK_SECRET);
  } catch {
    return null;
  }
  const object = event.data.object as { object?: string; id?: string };
  return { id: event.id, type: event.type, sessionRef: object.object === "checkout.session" && object.id ? object.id : null };
}

/** The Stripe-Signature header Stripe would send for `payload` (local test server and tests). */
export function signStripeWebhookPayload(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}
