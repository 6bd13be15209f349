import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, Notice } from "#app/ui/admin-form.tsx";
import { listCoupons } from "#server/coupons/coupon-admin.service.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/discount-codes";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

/** /admin/codici-sconto: the staff's discount codes, with their terms and uses; each opens its form. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const done = url.searchParams.get("done");
  return {
    meta: getPageMetaTexts(locale, "admin.discountCodes"),
    locale,
    done: done && ["created", "saved", "deactivated", "activated"].includes(done) ? done : null,
    codes: (await listCoupons(db)).map((row) => ({
      id: row.id,
      code: row.code,
      note: row.note,
      kind: row.kind,
      percent: row.percent,
      amountCents: row.amountCents,
      validFrom: row.validFrom,
      // The last day it is valid (it ends at the midnight after it).
      validUntil: new Date(row.validUntil.getTime() - 1),
      usedCount: row.usedCount,
      maxUses: row.maxUses,
      isActive: row.isActive,
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminDiscountCodes({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, codes, done } = loaderData;
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">{t("admin.discountCodes.title")}</h1>
        <Link to={localizedHref("/admin/codici-sconto/nuovo", locale)} className="btn-primary">
          {t("admin.discountCodes.new")}
        </Link>
      </div>
      <p className="mt-2">{t("admin.discountCodes.intro")}</p>
      {done && (
        <div className="mt-4">
          <Notice>{t(`admin.discountCodes.done.${done}`)}</Notice>
        </div>
      )}
      {codes.length === 0 ? (
        <p className="mt-6">{t("admin.discountCodes.none")}</p>
      ) : (
        <AdminTable
          label={t("admin.discountCodes.title")}
          className="mt-4"
          minWidth="min-w-[44rem]"
          columns={[
            { label: t("admin.discountCodes.code") },
            { label: t("admin.discountCodes.saving") },
            { label: t("admin.discountCodes.validity") },
            { label: t("admin.discountCodes.uses"), isNumeric: true },
            { label: t("admin.discountCodes.state") },
          ]}
        >
          {codes.map((row) => (
            <tr key={row.id} className="border-b border-brand-100 align-top">
              <td className="p-2">
                <Link to={localizedHref(`/admin/codici-sconto/${row.id}`, locale)} className="font-semibold text-brand-800 underline">
                  {row.code}
                </Link>
                {row.note && <span className="block text-muted">{row.note}</span>}
              </td>
              <td className="p-2 whitespace-nowrap">{row.kind === "percent" ? `${row.percent}%` : formatMoney(row.amountCents ?? 0, locale)}</td>
              <td className="p-2 whitespace-nowrap">
                {t("admin.discountCodes.fromTo", { from: formatDate(row.validFrom, locale), to: formatDate(row.validUntil, locale) })}
              </td>
              <td className="p-2 text-right whitespace-nowrap">
                {row.maxUses === null ? t("admin.discountCodes.usesOpen", { used: row.usedCount }) : `${row.usedCount} / ${row.maxUses}`}
              </td>
              <td className="p-2">{row.isActive ? t("admin.discountCodes.active") : t("admin.discountCodes.inactive")}</td>
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
