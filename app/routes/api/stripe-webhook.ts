import { shopContext } from "#server/http/context.ts";
import { applyStripeWebhook } from "#server/payments/payment.service.ts";
import type { Route } from "./+types/stripe-webhook";

/**
 * POST /api/payments/stripe/webhook: Stripe's events. Authenticated by the Stripe-Signature header
 * on the raw body only (no cookie, no Origin check: Stripe is a server). 400 when forged; 503 when
 * Stripe could not be asked about the session, so Stripe delivers the event again later.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const services = context.get(shopContext);
  const rawBody = await request.text();
  try {
    const result = await applyStripeWebhook(services, rawBody, request.headers.get("stripe-signature"));
    return Response.json({ received: result.status === 200, outcome: result.outcome }, { status: result.status });
  } catch (error) {
    services.log.warn({ err: error }, "stripe webhook not applied, Stripe will retry");
    return Response.json({ received: false }, { status: 503 });
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
