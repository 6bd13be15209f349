import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { parseAdminId } from "#server/admin/admin-request.ts";
import { shopContext } from "#server/http/context.ts";
import { getOutboxEmail } from "#server/mail/delivery.service.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/outbox-email";

export const handle = { messages: ["mail"] } satisfies MessagesHandle;

/** One mail of the outbox as the customer reads it (its plain text), so the staff can check what was sent and follow its links. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const id = parseAdminId(params.id);
  const mail = id === null ? null : await getOutboxEmail(context.get(shopContext).db, id);
  if (!mail) throw data(null, { status: 404 });
  const { toAddress, subject, textBody, status, createdAt, sentAt } = mail;
  return {
    locale: localeOfPath(url.pathname),
    mail: { toAddress, subject, textBody, status, createdAt, sentAt },
    meta: { title: subject, description: "" },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

/** A line of the mail with its web addresses as links. */
function LinkedLine({ line }: { line: string }) {
  return line.split(/(https?:\/\/\S+)/).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part} className="link break-all">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export default function AdminOutboxEmail({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, mail } = loaderData;
  return (
    <section className="space-y-4">
      <Link to={localizedHref("/admin/posta", locale)} className="link">
        {t("admin.outbox.back")}
      </Link>
      <h1 className="text-3xl font-bold">{mail.subject}</h1>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">{t("admin.outbox.to")}</dt>
        <dd className="break-all">{mail.toAddress}</dd>
        <dt className="font-semibold">{t("admin.outbox.created")}</dt>
        <dd>{formatShopDateTime(mail.createdAt, locale)}</dd>
        <dt className="font-semibold">{t("admin.outbox.status")}</dt>
        <dd>
          {t(`mail.status.${mail.status}`)}
          {mail.sentAt && ` · ${formatShopDateTime(mail.sentAt, locale)}`}
        </dd>
      </dl>
      <section aria-labelledby="mail-text" className="rounded-xl border border-brand-100 bg-white p-4 sm:p-6">
        <h2 id="mail-text" className="mb-3 text-xl font-bold">
          {t("admin.outbox.text")}
        </h2>
        {mail.textBody.split("\n").map((line, index) => (
          <p key={index} className="min-h-4 break-words">
            <LinkedLine line={line} />
          </p>
        ))}
      </section>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
