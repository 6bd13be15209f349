import { requireAdmin } from "#server/http/guards.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import { exportProductsCsv } from "#server/admin/product-csv.service.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/products-export";

/** The whole catalogue as CSV, one row per size (columns: docs/decisions/0017-back-office.md). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const csv = await exportProductsCsv(db);
  await db.transaction((tx) =>
    recordAudit(tx, { actorUserId: admin.id, action: "export.csv", entity: "import", entityId: null, details: { bytes: csv.length } }),
  );
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="prodotti-${italianDayOf(new Date())}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
