import { useTranslation } from "react-i18next";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, Notice } from "#app/ui/admin-form.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { listSdiDue } from "#server/invoices/sdi-view.service.ts";
import type { Route } from "./+types/sdi";

export const handle = { messages: ["sdi"] } satisfies MessagesHandle;

/** /admin/sdi: what is due to the SDI, the nearest deadline first (docs/decisions/0091-sdi-intermediary.md). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db, env } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const now = new Date();
  return {
    meta: getPageMetaTexts(locale, "sdi"),
    locale,
    isSending: Boolean(env.ACUBE_EMAIL),
    today: italianDayOf(now),
    due: await listSdiDue(db, now),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminSdi({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, isSending, today, due } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("sdi.title")}</h1>
      <p className="mt-2 max-w-3xl">{t("sdi.lead")}</p>
      {!isSending && (
        <div className="mt-4">
          <Notice>{t("sdi.manual")}</Notice>
        </div>
      )}
      <h2 className="mt-6 text-xl font-bold">{t("sdi.due.title")}</h2>
      {due.length === 0 ? (
        <p className="mt-2">{t("sdi.due.none")}</p>
      ) : (
        <AdminTable
          label={t("sdi.due.title")}
          className="mt-2"
          minWidth="min-w-[40rem]"
          columns={[{ label: t("sdi.due.columns.document") }, { label: t("sdi.due.columns.status") }, { label: t("sdi.due.columns.dueBy") }]}
        >
          {due.map((item) => (
            <tr key={item.kind === "to-issue" ? item.orderId : item.invoiceId} className="border-b border-brand-100">
              <td className="p-2">
                {item.kind === "to-issue" ? (
                  <a className="link" href={localizedHref(`/admin/ordini/${item.orderId}`, locale)}>
                    {t("sdi.due.toIssue", { number: item.orderNumber, date: formatDate(item.paidOn, locale) })}
                  </a>
                ) : (
                  <a className="link" href={localizedHref(`/admin/sdi/${item.invoiceId}`, locale)}>
                    {t(item.documentKind === "invoice" ? "sdi.due.invoice" : "sdi.due.creditNote", { number: item.number })}
                  </a>
                )}
              </td>
              <td className="p-2">{item.kind === "to-issue" ? "" : t(`sdi.status.${item.status ?? "none"}`)}</td>
              <td className={item.dueBy < today ? "p-2 font-semibold text-coral-700" : "p-2"}>
                {formatDate(item.dueBy, locale)}
                {item.dueBy < today && ` (${t("sdi.due.overdue")})`}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
