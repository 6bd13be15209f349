import { data } from "react-router";
import { recordAudit } from "#server/admin/audit.service.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { isExportMonth } from "#server/invoices/monthly-export.ts";
import { takingsCsv } from "#server/invoices/takings.ts";
import { listTakingsOfMonth } from "#server/invoices/takings.service.ts";
import type { Route } from "./+types/takings-export";

/** /admin/corrispettivi/esporta/2026-11: the month's register of daily takings as CSV, for the accountant. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  if (!isExportMonth(params.month)) throw data(null, { status: 404 });
  const { db } = context.get(shopContext);
  const rows = await listTakingsOfMonth(db, params.month);
  await db.transaction((tx) =>
    recordAudit(tx, { actorUserId: admin.id, action: "export.csv", entity: "takings", entityId: params.month, details: { rows: rows.length } }),
  );
  return new Response(takingsCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="corrispettivi-${params.month}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
