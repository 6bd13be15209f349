import { requireAdmin } from "#server/http/guards.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { shopContext } from "#server/http/context.ts";
import { exportNewsletterSubscribersCsv } from "#server/newsletter/newsletter.service.ts";
import type { Route } from "./+types/newsletter-export";

/** The confirmed newsletter addresses as CSV for a mailing tool (columns: server/newsletter/newsletter.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const csv = await exportNewsletterSubscribersCsv(db);
  await db.transaction((tx) =>
    recordAudit(tx, { actorUserId: admin.id, action: "export.csv", entity: "newsletter", entityId: null, details: { bytes: csv.length } }),
  );
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="newsletter-${italianDayOf(new Date())}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
