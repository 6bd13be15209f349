import { data } from "react-router";
import { recordAudit } from "#server/admin/audit.service.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { listInvoicesOfMonth } from "#server/invoices/invoice.service.ts";
import { isExportMonth, monthlyArchive, monthlyCsv } from "#server/invoices/monthly-export.ts";
import type { Route } from "./+types/invoices-export";

/** /admin/fatture/esporta/2026-11: the month's FatturaPA files and CSV summary as a zip (`?formato=csv`: the CSV alone). */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  if (!isExportMonth(params.month)) throw data(null, { status: 404 });
  const { db } = context.get(shopContext);
  const documents = await listInvoicesOfMonth(db, params.month);
  const csvOnly = url.searchParams.get("formato") === "csv";
  const body = csvOnly ? Buffer.from(monthlyCsv(documents), "utf8") : monthlyArchive(params.month, documents, new Date());
  await db.transaction((tx) =>
    recordAudit(tx, {
      actorUserId: admin.id,
      action: csvOnly ? "export.csv" : "export.zip",
      entity: "invoices",
      entityId: params.month,
      details: { documents: documents.length },
    }),
  );
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": csvOnly ? "text/csv; charset=utf-8" : "application/zip",
      "Content-Disposition": `attachment; filename="fatture-${params.month}.${csvOnly ? "csv" : "zip"}"`,
      "Cache-Control": "no-store",
    },
  });
}
