import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminPagination, AdminTable, FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { formText } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { parseAdminId } from "#server/admin/admin-request.ts";
import { resendOutboxEmail } from "#server/admin/settings-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { countOutboxByStatus, listOutbox, outboxStatuses, type OutboxStatus } from "#server/mail/delivery.service.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/outbox";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["mail"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const requested = url.searchParams.get("status");
  const status = (outboxStatuses as readonly string[]).includes(requested ?? "") ? (requested as OutboxStatus) : null;
  const page = Number(url.searchParams.get("page")) || 1;
  const [outbox, counts] = await Promise.all([listOutbox(db, { status, page: Number.isSafeInteger(page) ? page : 1 }), countOutboxByStatus(db)]);
  return {
    meta: getPageMetaTexts(locale, "admin.outbox"),
    locale,
    status,
    statuses: outboxStatuses,
    outbox,
    counts,
    resent: url.searchParams.get("resent") === "1",
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const form = await request.formData();
  const id = parseAdminId(formText(form, "id"));
  if (id === null) throw data(null, { status: 404 });
  const result = await resendOutboxEmail(db, { id, actorUserId: admin.id });
  if (!result.ok && result.error === "not-found") throw data(null, { status: 404 });
  if (!result.ok) return data({ error: result.error }, { status: 409 });
  const params = new URLSearchParams(url.search);
  params.set("resent", "1");
  return redirect(`${url.pathname}?${params}`);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminOutbox({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, status, statuses, outbox, counts, resent } = loaderData;
  const dateTime = (at: Date | string) => formatShopDateTime(at, locale);
  const hrefFor = (next: { status?: string | null; page?: number }) => {
    const params = new URLSearchParams();
    const chosen = next.status === undefined ? status : next.status;
    if (chosen) params.set("status", chosen);
    if (next.page) params.set("page", String(next.page));
    return `?${params}`;
  };
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.outbox.title")}</h1>
      <nav aria-label={t("admin.outbox.filter")} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {[null, ...statuses].map((each) => (
            <li key={each ?? "all"}>
              <Link
                to={hrefFor({ status: each })}
                aria-current={each === status ? "page" : undefined}
                className={each === status ? "btn-primary" : "btn-secondary"}
              >
                {each ? `${t(`mail.status.${each}`)} (${counts[each]})` : t("admin.products.all")}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-4 space-y-3">
        {resent && <Notice>{t("admin.outbox.resent")}</Notice>}
        {actionData?.error && <FormAlert>{t(actionData.error)}</FormAlert>}
      </div>
      <AdminTable
        label={t("admin.outbox.title")}
        className="mt-4"
        minWidth="min-w-[44rem]"
        columns={[
          { label: t("admin.outbox.created") },
          { label: t("admin.outbox.to") },
          { label: t("admin.outbox.subject") },
          { label: t("admin.outbox.status") },
          { label: t("admin.outbox.action") },
        ]}
      >
        {outbox.emails.map((mail) => (
          <tr key={mail.id} className="border-b border-brand-100 align-top">
            <td className="p-2 whitespace-nowrap">{dateTime(mail.createdAt)}</td>
            <td className="p-2 break-all">{mail.toAddress}</td>
            <td className="p-2">
              <Link to={localizedHref(`/admin/posta/${mail.id}`, locale)} className="link">
                {mail.subject}
              </Link>
            </td>
            <td className="p-2">
              {t(`mail.status.${mail.status}`)}
              {mail.sentAt && <div className="text-muted">{dateTime(mail.sentAt)}</div>}
              {mail.lastError && <div className="text-coral-700 break-all">{mail.lastError}</div>}
            </td>
            <td className="p-2">
              {(mail.status === "sent" || mail.status === "failed") && (
                <Form method="post">
                  <input type="hidden" name="id" value={mail.id} />
                  <button
                    type="submit"
                    className="btn-secondary"
                    aria-label={t("admin.outbox.resendLabel", { subject: mail.subject, to: mail.toAddress })}
                  >
                    {t("admin.outbox.resend")}
                  </button>
                </Form>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      <AdminPagination page={outbox.page} pageCount={outbox.pageCount} hrefFor={(page) => hrefFor({ page })} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
