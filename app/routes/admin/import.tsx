import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { readAdminForm } from "#server/admin/admin-request.ts";
import { decodeImportText } from "#server/admin/text-encoding.ts";
import { getImportJob, startImportJob } from "#server/admin/import-jobs.service.ts";
import { importLegacyProducts, maxLegacyBytes, type LegacyImportReport } from "#server/admin/legacy-import.service.ts";
import { csvColumns } from "#server/admin/product-csv.ts";
import { importProductsCsv, maxCsvBytes, maxCsvRows, type CsvImportReport } from "#server/admin/product-csv.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/import";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts): the CSV's safety and specification columns' errors. */
export const handle = { messages: ["productSafety.errors", "productSpecs.errors", "productSpecsCsv.errors"] } satisfies MessagesHandle;

/**
 * /admin/importa: CSV of products and the old back end's JSON. A dry run answers on the spot; a
 * real run continues after the request and /admin/importa/{job} shows its progress (the page
 * refreshes itself, no JavaScript needed) and then its report.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const locale = localeOfPath(url.pathname);
  const meta = getPageMetaTexts(locale, "admin.import");
  if (params.jobId === undefined) return { locale, meta, job: null, columns: csvColumns, maxRows: maxCsvRows };
  const job = await getImportJob(context.get(shopContext).db, { id: params.jobId, now: new Date() });
  if (!job || job.ownerUserId !== admin.id) throw data(null, { status: 404 });
  return {
    locale,
    meta,
    columns: csvColumns,
    maxRows: maxCsvRows,
    job: {
      kind: job.kind,
      done: job.done,
      total: job.total,
      state: job.state,
      csv: job.kind === "csv" ? (job.report as CsvImportReport | null) : null,
      legacy: job.kind === "legacy" ? (job.report as LegacyImportReport | null) : null,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db, log } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const read = await readAdminForm(request, Math.max(maxCsvBytes, maxLegacyBytes) + 64 * 1024);
  if (!read.ok) return data({ kind: "file", error: "admin.import.tooLarge", csv: null, legacy: null, encoding: null }, { status: 400 });
  const form = read.form;
  const kind = form.get("kind") === "legacy" ? "legacy" : "csv";
  const dryRun = form.get("mode") !== "run";
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    return data({ kind, error: "admin.import.noFile", csv: null, legacy: null, encoding: null }, { status: 400 });
  const decoded = decodeImportText(new Uint8Array(await file.arrayBuffer()));
  if (!decoded.ok) return data({ kind, error: "admin.import.notText", csv: null, legacy: null, encoding: null }, { status: 400 });
  const { text, encoding } = decoded;
  const now = new Date();
  if (dryRun) {
    if (kind === "csv") {
      const csv = await importProductsCsv(db, { text, dryRun: true, actorUserId: admin.id, now });
      return data({ kind, error: null, csv, legacy: null, encoding }, { status: csv.ok ? 200 : 400 });
    }
    const legacy = await importLegacyProducts(db, { text, dryRun: true, actorUserId: admin.id, now });
    return data({ kind, error: null, csv: null, legacy, encoding }, { status: legacy.ok ? 200 : 400 });
  }
  const job = await startImportJob<CsvImportReport | LegacyImportReport>(
    db,
    { ownerUserId: admin.id, kind, now },
    (progress) =>
      kind === "csv"
        ? importProductsCsv(db, { text, dryRun: false, actorUserId: admin.id, now, onProgress: progress })
        : importLegacyProducts(db, { text, dryRun: false, actorUserId: admin.id, now }),
    (error) => log.error({ err: error }, "import failed"),
  );
  return redirect(localizedHref(`/admin/importa/${job.id}`, locale));
}

export default function AdminImport({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { job, locale, columns, maxRows } = loaderData;
  if (job) {
    const percent = job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
    return (
      <section className="space-y-6">
        {job.state === "running" && <meta httpEquiv="refresh" content="2" />}
        <h1 className="text-3xl font-bold">{t("admin.import.progressTitle")}</h1>
        {job.state === "failed" || job.state === "interrupted" ? (
          <FormAlert>{t(job.state === "failed" ? "admin.import.failed" : "admin.import.interrupted")}</FormAlert>
        ) : job.state === "finished" ? (
          <>
            <Notice>{t("admin.import.finished")}</Notice>
            {job.csv && <CsvReport report={job.csv} />}
            {job.legacy && <LegacyReport report={job.legacy} />}
          </>
        ) : (
          <div>
            <label htmlFor="import-progress" className="field-label">
              {t("admin.import.progress", { done: job.done, total: job.total })}
            </label>
            <progress id="import-progress" max={100} value={percent} className="h-4 w-full">
              {percent}%
            </progress>
            <p className="mt-2 text-sm text-muted">{t("admin.import.refreshing")}</p>
          </div>
        )}
        <Link to={localizedHref("/admin/importa", locale)} className="btn-secondary">
          {t("admin.import.another")}
        </Link>
      </section>
    );
  }
  return (
    <section className="space-y-8">
      <h1 className="text-3xl font-bold">{t("admin.import.title")}</h1>
      {actionData?.error && <FormAlert>{t(actionData.error)}</FormAlert>}
      {actionData?.encoding === "windows-1252" && <p className="text-sm text-muted">{t("admin.import.readAsWindows1252")}</p>}
      {actionData?.csv && <CsvReport report={actionData.csv} />}
      {actionData?.legacy && <LegacyReport report={actionData.legacy} />}
      <ImportForm
        kind="csv"
        title={t("admin.import.csvTitle")}
        accept=".csv,text/csv"
        hint={t("admin.import.csvHint", { max: maxRows.toLocaleString(locale === "en" ? "en-GB" : "it-IT") })}
      />
      <details className="rounded-xl border border-brand-100 bg-white p-4">
        <summary className="cursor-pointer font-semibold">{t("admin.import.columns")}</summary>
        <p className="mt-2 font-mono text-sm break-all">{columns.join(", ")}</p>
        <p className="mt-2 text-sm">{t("admin.import.columnsHint")}</p>
      </details>
      <ImportForm kind="legacy" title={t("admin.import.legacyTitle")} accept=".json,application/json" hint={t("admin.import.legacyHint")} />
    </section>
  );
}

function ImportForm({ kind, title, accept, hint }: { kind: "csv" | "legacy"; title: string; accept: string; hint: string }) {
  const { t } = useTranslation();
  const id = `import-${kind}`;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="space-y-4 rounded-xl border border-brand-100 bg-white p-4 sm:p-6"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-2xl font-bold">
        {title}
      </h2>
      <input type="hidden" name="kind" value={kind} />
      <div>
        <label htmlFor={`${id}-file`} className="field-label">
          {t("admin.import.file")}
        </label>
        <input
          id={`${id}-file`}
          type="file"
          name="file"
          accept={accept}
          required
          aria-describedby={`${id}-hint`}
          className="block w-full max-w-full"
        />
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="mode" value="dry" className="btn-secondary">
          {t("admin.import.dryRun")}
        </button>
        <button type="submit" name="mode" value="run" className="btn-primary">
          {t("admin.import.run")}
        </button>
      </div>
    </Form>
  );
}

function CsvReport({ report }: { report: CsvImportReport }) {
  const { t } = useTranslation();
  if (!report.ok) {
    if (report.error === "columns")
      return (
        <FormAlert>
          {t("admin.import.wrongColumns", { missing: report.missing.join(", ") || "—", unknown: report.unknown.join(", ") || "—" })}
        </FormAlert>
      );
    if (report.error === "too-many-rows") return <FormAlert>{t("admin.import.tooManyRows", { rows: report.rows, limit: report.limit })}</FormAlert>;
    return <FormAlert>{t(report.error === "empty" ? "admin.import.empty" : "admin.import.tooLarge")}</FormAlert>;
  }
  return (
    <section aria-labelledby="csv-report-title" className="space-y-3 rounded-xl border border-brand-100 bg-white p-4 sm:p-6">
      <h2 id="csv-report-title" className="text-2xl font-bold">
        {report.dryRun ? t("admin.import.dryRunReport") : t("admin.import.runReport")}
      </h2>
      <p role="status">
        {t("admin.import.summary", {
          rows: report.rows,
          valid: report.validRows,
          errors: report.errors.length,
          created: report.productsCreated,
          updated: report.productsUpdated,
          variantsCreated: report.variantsCreated,
          variantsUpdated: report.variantsUpdated,
        })}
      </p>
      {report.errors.length > 0 && (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("admin.import.errorsTitle")}>
          <table className="w-full text-left text-sm">
            <caption className="text-left font-semibold">{t("admin.import.errorsTitle")}</caption>
            <thead>
              <tr className="border-b-2 border-brand-200">
                <th scope="col" className="p-2">
                  {t("admin.import.row")}
                </th>
                <th scope="col" className="p-2">
                  {t("admin.import.column")}
                </th>
                <th scope="col" className="p-2">
                  {t("admin.import.message")}
                </th>
              </tr>
            </thead>
            <tbody>
              {report.errors.slice(0, 500).map((error) => (
                <tr key={`${error.row}-${error.column}`} className="border-b border-brand-100">
                  <td className="p-2">{error.row}</td>
                  <td className="p-2 font-mono">{error.column}</td>
                  <td className="p-2">{t(error.message)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function LegacyReport({ report }: { report: LegacyImportReport }) {
  const { t } = useTranslation();
  if (!report.ok) return <FormAlert>{t(`admin.legacy.${report.error}`)}</FormAlert>;
  return (
    <section aria-labelledby="legacy-report-title" className="space-y-3 rounded-xl border border-brand-100 bg-white p-4 sm:p-6">
      <h2 id="legacy-report-title" className="text-2xl font-bold">
        {report.dryRun ? t("admin.import.dryRunReport") : t("admin.import.runReport")}
      </h2>
      <p role="status">
        {t("admin.legacy.summary", {
          total: report.total,
          imported: report.imported,
          present: report.alreadyPresent.length,
          pictures: report.picturesSkipped,
        })}
      </p>
      {report.duplicates.length > 0 && (
        <div>
          <h3 className="font-bold">{t("admin.legacy.duplicatesTitle")}</h3>
          <ul className="list-disc pl-6">
            {report.duplicates.map((duplicate) => (
              <li key={`${duplicate.sku}-${duplicate.name}`}>
                {t("admin.legacy.duplicate", { sku: duplicate.sku, name: duplicate.name, ids: duplicate.ids.join(", ") })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.issues.length > 0 && (
        <div>
          <h3 className="font-bold">{t("admin.import.errorsTitle")}</h3>
          <ul className="list-disc pl-6">
            {report.issues.map((issue) => (
              <li key={`${issue.index}-${issue.field}`}>
                {t("admin.legacy.issue", { position: issue.index + 1, id: issue.idArticolo ?? "—", field: issue.field })}: {t(issue.message)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
