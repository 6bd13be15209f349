import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import { formatShopDateTime, italianDayOf } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { parseWith } from "#server/accounts/text-rules.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getInvoice } from "#server/invoices/invoice.service.ts";
import { adviceOfErrors, mayResend, openStatuses, resendBy } from "#server/invoices/sdi.ts";
import { CompanyBuyerCorrection, PrivateBuyerCorrection } from "#server/invoices/sdi.inputs.ts";
import { resendCorrectedInvoice } from "#server/invoices/sdi.service.ts";
import { listInvoiceTransmissions, type SdiTransmissionView } from "#server/invoices/sdi-view.service.ts";
import type { Route } from "./+types/sdi-invoice";

export const handle = { messages: ["sdi", "checkoutErrors.fields", "invoices.checkout.errors", "auth.errors"] } satisfies MessagesHandle;

/** /admin/sdi/{invoice}: every file sent for a document, the SDI's answers, what to do, and the corrected resend. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const invoice = await getInvoice(db, params.invoiceId);
  if (!invoice) throw data(null, { status: 404 });
  const locale = localeOfPath(url.pathname);
  const files = await listInvoiceTransmissions(db, invoice.id);
  const latest = files[0] ?? null;
  const today = italianDayOf(new Date());
  const rejectedOn = latest?.outcomeAt ? italianDayOf(latest.outcomeAt) : null;
  return {
    meta: { title: invoice.number, description: "" },
    locale,
    invoice: { id: invoice.id, number: invoice.number, issuedOn: invoice.issuedOn, kind: invoice.kind, orderId: invoice.orderId },
    files,
    canResend: latest !== null && mayResend(latest.status, rejectedOn, today),
    resendBy: latest?.status === "rejected" && rejectedOn ? resendBy(rejectedOn) : null,
    advice: latest && (latest.status === "rejected" || latest.status === "refused") ? adviceOfErrors(latest.errors) : [],
    // Said while the corrected file is on its way; once the SDI answered, its status says it.
    resent: url.searchParams.has("inviata") && latest !== null && openStatuses.includes(latest.status),
  };
}

/** A refusal: the form's message key and each field's, shown on the page again; nothing changed. */
const refusal = (errors: Record<string, string>, status: number) => data({ errors }, { status });

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const invoice = await getInvoice(db, params.invoiceId);
  if (!invoice) throw data(null, { status: 404 });
  const form = formFields(await request.formData());
  const [latest] = await listInvoiceTransmissions(db, invoice.id);
  if (form.intent !== "resend" || !latest) return refusal({ form: "sdi.errors.invalid" }, 400);
  const parsed = latest.buyer.kind === "company" ? parseWith(CompanyBuyerCorrection, form) : parseWith(PrivateBuyerCorrection, form);
  if (!parsed.ok) return refusal({ form: "sdi.correct.fix", ...parsed.errors }, 400);
  const correction =
    latest.buyer.kind === "company"
      ? { kind: "company" as const, ...(parsed.value as CompanyBuyerCorrection) }
      : { kind: "private" as const, ...(parsed.value as PrivateBuyerCorrection) };
  const result = await resendCorrectedInvoice(db, { invoiceId: invoice.id, correction, actorUserId: admin.id, now: new Date() });
  if (!result.ok) return refusal({ form: `sdi.errors.${result.error}` }, result.error === "not-found" ? 404 : 409);
  return redirect(`${localizedHref(`/admin/sdi/${params.invoiceId}`, localeOfPath(url.pathname))}?inviata=1`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminSdiInvoice({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, invoice, files, canResend, resendBy: lastDay, advice, resent } = loaderData;
  const latest = files[0];
  const errors = actionData?.errors ?? {};
  return (
    <section className="space-y-4">
      <Link to={localizedHref("/admin/sdi", locale)} className="link">
        {t("sdi.detail.back")}
      </Link>
      <h1 className="text-3xl font-bold">{t("sdi.detail.title", { number: invoice.number })}</h1>
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <span>{formatDate(invoice.issuedOn, locale)}</span>
        <a className="link" href={localizedHref(`/admin/fatture/${invoice.id}`, locale)} target="_blank" rel="noopener">
          {t("sdi.detail.view")}
        </a>
        <a className="link" href={localizedHref(`/admin/fatture/${invoice.id}/xml`, locale)} download>
          {t("sdi.detail.downloadXml")}
        </a>
      </p>
      {resent && <Notice>{t("sdi.correct.done")}</Notice>}
      {latest ? (
        <div role="status" data-testid="sdi-status" className="rounded-xl border border-brand-100 bg-white p-4">
          <p className="text-lg font-bold">{t(`sdi.status.${latest.status}`)}</p>
          <p className="mt-1">
            {latest.status === "rejected"
              ? canResend
                ? t("sdi.help.rejected", { date: lastDay ? formatDate(lastDay, locale) : "" })
                : t("sdi.help.rejectedLate")
              : t(`sdi.help.${latest.status}`, { time: formatShopDateTime(latest.nextTryAt, locale) })}
          </p>
          {advice.length > 0 && (
            <>
              <h2 className="mt-3 font-bold">{t("sdi.detail.whatToDo")}</h2>
              <ul className="mt-1 list-disc space-y-1 pl-5">
                {advice.map((key) => (
                  <li key={key}>{t(`sdi.advice.${key}`)}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : (
        <p>{t("sdi.detail.noFiles")}</p>
      )}
      {canResend && latest && <CorrectionForm latest={latest} errors={errors} />}
      {!canResend && errors.form && <FormAlert>{t(errors.form)}</FormAlert>}
      {files.length > 0 && (
        <section aria-labelledby="sdi-files" className="space-y-3">
          <h2 id="sdi-files" className="text-xl font-bold">
            {t("sdi.detail.files")}
          </h2>
          {files.map((file) => (
            <FileCard key={file.id} file={file} locale={locale} />
          ))}
        </section>
      )}
    </section>
  );
}

function CorrectionForm({ latest, errors }: { latest: SdiTransmissionView; errors: Record<string, string> }) {
  const { t } = useTranslation();
  const buyer = latest.buyer;
  const error = (name: string) => (errors[name] ? t(errors[name]) : undefined);
  return (
    <Form method="post" className="rounded-xl border border-brand-100 bg-white p-4" aria-labelledby="sdi-correct">
      <h2 id="sdi-correct" className="text-xl font-bold">
        {t("sdi.correct.title")}
      </h2>
      <p className="mt-1">{t("sdi.correct.lead")}</p>
      {errors.form && (
        <div className="mt-3">
          <FormAlert>{t(errors.form)}</FormAlert>
        </div>
      )}
      <input type="hidden" name="intent" value="resend" />
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {buyer.kind === "company" ? (
          <>
            <TextField label={t("sdi.correct.vatNumber")} name="vatNumber" defaultValue={buyer.vatNumber} error={error("vatNumber")} required />
            <TextField
              label={t("sdi.correct.sdiCode")}
              name="sdiCode"
              defaultValue={buyer.sdiCode ?? ""}
              hint={t("sdi.correct.sdiCodeHint")}
              error={error("sdiCode")}
              maxLength={7}
            />
            <TextField label={t("sdi.correct.pec")} name="pec" type="email" defaultValue={buyer.pec ?? ""} error={error("pec")} />
          </>
        ) : (
          <TextField label={t("sdi.correct.fiscalCode")} name="fiscalCode" defaultValue={buyer.fiscalCode} error={error("fiscalCode")} required />
        )}
      </div>
      <button type="submit" className="btn-primary mt-4">
        {t("sdi.correct.submit")}
      </button>
    </Form>
  );
}

function FileCard({ file, locale }: { file: SdiTransmissionView; locale: Locale }) {
  const { t } = useTranslation();
  const buyer =
    file.buyer.kind === "company"
      ? `${file.buyer.name}, P.IVA ${file.buyer.vatNumber}`
      : `${file.buyer.firstName} ${file.buyer.lastName}, CF ${file.buyer.fiscalCode}`;
  return (
    <article className="rounded-xl border border-brand-100 bg-white p-4" aria-label={t("sdi.detail.attempt", { attempt: file.attempt })}>
      <h3 className="font-bold">
        {t("sdi.detail.attempt", { attempt: file.attempt })}: {t(`sdi.status.${file.status}`)}
      </h3>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">{t("sdi.detail.buyer")}</dt>
        <dd className="break-words">{buyer}</dd>
        <dt className="font-semibold">{t("sdi.detail.created")}</dt>
        <dd>{formatShopDateTime(file.createdAt, locale)}</dd>
        {file.sentAt && (
          <>
            <dt className="font-semibold">{t("sdi.detail.sentAt")}</dt>
            <dd>{formatShopDateTime(file.sentAt, locale)}</dd>
          </>
        )}
        {file.outcomeAt && (
          <>
            <dt className="font-semibold">{t("sdi.detail.outcomeAt")}</dt>
            <dd>{formatShopDateTime(file.outcomeAt, locale)}</dd>
          </>
        )}
        {file.sdiId && (
          <>
            <dt className="font-semibold">{t("sdi.detail.sdiId")}</dt>
            <dd>{file.sdiId}</dd>
          </>
        )}
        <dt className="font-semibold">{t("sdi.detail.tries")}</dt>
        <dd>{file.tries}</dd>
        {file.lastError && (
          <>
            <dt className="font-semibold">{t("sdi.detail.lastError")}</dt>
            <dd className="break-words">{file.lastError}</dd>
          </>
        )}
        {file.notifications.length > 0 && (
          <>
            <dt className="font-semibold">{t("sdi.detail.notifications")}</dt>
            <dd>{file.notifications.map((note) => `${note.type} ${formatShopDateTime(note.receivedAt, locale)}`).join(" · ")}</dd>
          </>
        )}
      </dl>
      {file.errors.length > 0 && (
        <>
          <h4 className="mt-2 font-semibold">{t("sdi.detail.errors")}</h4>
          <ul className="mt-1 list-disc pl-5">
            {file.errors.map((error, index) => (
              <li key={index}>
                {error.code && <span className="font-mono">{error.code}</span>} {error.description}
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
