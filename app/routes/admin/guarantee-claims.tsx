import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminPagination, AdminTable } from "#app/ui/admin-form.tsx";
import { listGuaranteeClaims } from "#server/guarantee/claims.service.ts";
import { claimStatuses, type ClaimStatus } from "#common/guarantee-claims.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/guarantee-claims";

export const handle = { messages: ["guaranteeClaims.admin", "guaranteeClaims.status"] } satisfies MessagesHandle;

/** /admin/garanzia: the customers' guarantee claims, newest first, by status. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const requested = url.searchParams.get("status");
  const status = (claimStatuses as readonly string[]).includes(requested ?? "") ? (requested as ClaimStatus) : null;
  const page = Number(url.searchParams.get("page"));
  const list = await listGuaranteeClaims(db, { status, page: Number.isSafeInteger(page) ? page : 1 });
  return { meta: getPageMetaTexts(locale, "guaranteeClaims.admin"), locale, status, list };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminGuaranteeClaims({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, status, list } = loaderData;
  const hrefFor = (next: { status?: string | null; page?: number }) => {
    const params = new URLSearchParams();
    const chosen = next.status === undefined ? status : next.status;
    if (chosen) params.set("status", chosen);
    if (next.page) params.set("page", String(next.page));
    return `?${params}`;
  };
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("guaranteeClaims.admin.title")}</h1>
      <nav aria-label={t("guaranteeClaims.admin.columns.status")} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {[null, ...claimStatuses].map((each) => (
            <li key={each ?? "all"}>
              <Link
                to={hrefFor({ status: each })}
                aria-current={each === status ? "page" : undefined}
                className={each === status ? "btn-primary" : "btn-secondary"}
              >
                {each ? t(`guaranteeClaims.status.${each}`) : t("guaranteeClaims.admin.all")}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <AdminTable
        label={t("guaranteeClaims.admin.title")}
        className="mt-4"
        minWidth="min-w-[44rem]"
        columns={(["id", "createdAt", "order", "customer", "item", "status"] as const).map((column) => ({
          label: t(`guaranteeClaims.admin.columns.${column}`),
        }))}
      >
        {list.claims.map((claim) => (
          <tr key={claim.id} className="border-b border-brand-100 align-top">
            <td className="p-2">
              <Link to={localizedHref(`/admin/garanzia/${claim.id}`, locale)} className="font-semibold underline">
                {claim.id}
              </Link>
            </td>
            <td className="p-2 whitespace-nowrap">{formatShopDateTime(claim.createdAt, locale)}</td>
            <td className="p-2">
              <Link to={localizedHref(`/admin/ordini/${claim.orderId}`, locale)} className="underline">
                {claim.orderNumber}
              </Link>
            </td>
            <td className="p-2 break-all">{claim.customer}</td>
            <td className="p-2">{claim.item}</td>
            <td className="p-2">{t(`guaranteeClaims.status.${claim.status}`)}</td>
          </tr>
        ))}
      </AdminTable>
      {list.claims.length === 0 && <p className="mt-4">{t("guaranteeClaims.admin.empty")}</p>}
      <AdminPagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => hrefFor({ page })} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
