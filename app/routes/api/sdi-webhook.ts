import { publicUrlOf } from "#server/env.ts";
import { shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { receiveSdiCallback } from "#server/invoices/sdi.service.ts";
import type { Route } from "./+types/sdi-webhook";

/** Who reads a refusal is the shop's staff, in A-Cube's dashboard: the shop's language. */
const t = getTranslator("it");

const statusOf = { "not-configured": 404, "invalid-signature": 401, "invalid-payload": 400, "unknown-file": 404 } as const;

/**
 * POST /api/sdi/notifiche: the SDI's notifications (RC, MC, NS...) of the files sent through A-Cube
 * (docs/decisions/0091-sdi-intermediary.md). Authenticated by A-Cube's HTTP signature over the raw body
 * and the shop's public address of this callback; no cookie. A refusal is a 4xx with a code; a failure of
 * the shop a 503, so A-Cube delivers it again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  const services = context.get(shopContext);
  const body = await request.text();
  const url = new URL(request.url);
  const targetUri = `${publicUrlOf(services.env)}${url.pathname}${url.search}`;
  try {
    const result = await receiveSdiCallback(services.db, services.env, {
      method: request.method,
      targetUri,
      headers: request.headers,
      body,
      now: new Date(),
    });
    if (!result.ok) {
      return Response.json(
        { received: false, error: { code: result.error, message: t(`sdi.callbackErrors.${result.error}`) } },
        { status: statusOf[result.error] },
      );
    }
    return Response.json({ received: true, outcome: result.outcome });
  } catch (error) {
    services.log.warn({ err: error }, "SDI notification not recorded, A-Cube will deliver it again");
    return Response.json(
      { received: false, error: { code: "service-unavailable", message: t("sdi.callbackErrors.service-unavailable") } },
      { status: 503 },
    );
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
