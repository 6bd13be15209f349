import { data } from "react-router";
import { exportAccountData } from "#server/accounts/account-data.service.ts";
import { requireUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/account-data";

/** GET /my-account/data: the signed-in person's data as a JSON file (GDPR access and portability). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const exported = await exportAccountData(context.get(shopContext).db, user.id);
  if (!exported) throw data(null, { status: 401 });
  const day = exported.exportedAt.slice(0, 10);
  return new Response(JSON.stringify(exported, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="i-miei-dati-${day}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
