import { shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { applyStripeWebhook } from "#server/payments/payment.service.ts";
import type { Route } from "./+types/stripe-webhook";

/** Who reads a refusal is the shop's staff, in Stripe's dashboard: the shop's language. */
const t = getTranslator("it");

function refusal(status: number, code: "invalid-signature" | "unknown-session" | "service-unavailable") {
  return Response.json({ received: false, error: { code, message: t(`payments.webhookErrors.${code}`) } }, { status });
}

/**
 * POST /api/payments/stripe/webhook: Stripe's events. Authenticated by the Stripe-Signature header
 * on the raw body only (no cookie, no Origin check: Stripe is a server). 400 with an error code when
 * forged or naming a session Stripe does not know (retrying cannot help); 503 when Stripe could not
 * be asked about the session, so Stripe delivers the event again later.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const services = context.get(shopContext);
  const rawBody = await request.text();
  try {
    const result = await applyStripeWebhook(services, rawBody, request.headers.get("stripe-signature"));
    if (result.status === 400) return refusal(400, result.outcome === "forged" ? "invalid-signature" : "unknown-session");
    return Response.json({ received: true, outcome: result.outcome });
  } catch (error) {
    services.log.warn({ err: error }, "stripe webhook not applied, Stripe will retry");
    return refusal(503, "service-unavailable");
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
