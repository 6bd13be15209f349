import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminPagination, AdminTable, Notice } from "#app/ui/admin-form.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { NewsletterStatus } from "#server/newsletter/newsletter.ts";
import { countNewsletterSubscribers, listNewsletterSubscribers, newsletterStatuses } from "#server/newsletter/newsletter.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/newsletter";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["adminNewsletter"] } satisfies MessagesHandle;

/** /admin/newsletter: the shop's own list by status, with the export of the confirmed addresses. Read only. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const requested = url.searchParams.get("status");
  const status = (newsletterStatuses as readonly string[]).includes(requested ?? "") ? (requested as NewsletterStatus) : null;
  const page = Number(url.searchParams.get("page"));
  const [list, counts, settings] = await Promise.all([
    listNewsletterSubscribers(db, { status, page: Number.isSafeInteger(page) ? page : 1 }),
    countNewsletterSubscribers(db),
    getSettings(db, ["newsletter"]),
  ]);
  return {
    meta: getPageMetaTexts(locale, "adminNewsletter"),
    locale,
    status,
    statuses: newsletterStatuses,
    list,
    counts,
    external: settings.newsletter.url !== null,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminNewsletter({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, status, statuses, list, counts, external } = loaderData;
  const dateTime = (at: Date | string | null) => (at ? formatShopDateTime(at, locale) : "");
  const total = statuses.reduce((sum, each) => sum + counts[each], 0);
  const hrefFor = (next: { status?: string | null; page?: number }) => {
    const params = new URLSearchParams();
    const chosen = next.status === undefined ? status : next.status;
    if (chosen) params.set("status", chosen);
    if (next.page) params.set("page", String(next.page));
    return `?${params}`;
  };
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("adminNewsletter.title")}</h1>
      {external && (
        <div className="mt-4">
          <Notice>{t("adminNewsletter.external")}</Notice>
        </div>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {/* A file download: a plain link, so the browser saves it instead of React Router fetching it. */}
        <a href={localizedHref("/admin/newsletter/iscritti.csv", locale)} className="btn-primary" download>
          {t("adminNewsletter.export")}
        </a>
        <p className="text-sm text-muted">{t("adminNewsletter.exportHint")}</p>
      </div>
      <nav aria-label={t("adminNewsletter.filter")} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {[null, ...statuses].map((each) => (
            <li key={each ?? "all"}>
              <Link
                to={hrefFor({ status: each })}
                aria-current={each === status ? "page" : undefined}
                className={each === status ? "btn-primary" : "btn-secondary"}
              >
                {each ? `${t(`adminNewsletter.status.${each}`)} (${counts[each]})` : t("adminNewsletter.all", { count: total })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <AdminTable
        label={t("adminNewsletter.title")}
        className="mt-4"
        minWidth="min-w-[44rem]"
        columns={[
          { label: t("adminNewsletter.email") },
          { label: t("adminNewsletter.language") },
          { label: t("adminNewsletter.statusColumn") },
          { label: t("adminNewsletter.consent") },
          { label: t("adminNewsletter.confirmedAt") },
          { label: t("adminNewsletter.unsubscribedAt") },
        ]}
      >
        {list.subscribers.map((subscriber) => (
          <tr key={subscriber.id} className="border-b border-brand-100 align-top">
            <td className="p-2 break-all">{subscriber.email}</td>
            <td className="p-2">{t(`adminNewsletter.languages.${subscriber.locale}`)}</td>
            <td className="p-2">{t(`adminNewsletter.status.${subscriber.status}`)}</td>
            <td className="p-2 whitespace-nowrap">
              {dateTime(subscriber.consentAt)} ({subscriber.consentVersion})
            </td>
            <td className="p-2 whitespace-nowrap">{dateTime(subscriber.confirmedAt)}</td>
            <td className="p-2 whitespace-nowrap">{dateTime(subscriber.unsubscribedAt)}</td>
          </tr>
        ))}
      </AdminTable>
      {list.subscribers.length === 0 && <p className="mt-4">{t("adminNewsletter.empty")}</p>}
      <AdminPagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => hrefFor({ page })} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
