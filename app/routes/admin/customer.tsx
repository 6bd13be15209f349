import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AddressLines } from "#app/ui/address-lines.tsx";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import type { MessagesHandle } from "#common/messages.ts";
import { AdminGiftListsTable } from "./gift-lists-table";
import { AdminOrdersTable } from "./orders-table";
import { requireAdmin } from "#server/http/guards.ts";
import { getAdminCustomer } from "#server/admin/customers-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/customer";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["giftLists", "order", "orderStatus"] } satisfies MessagesHandle;

/**
 * /admin/clienti/{id}: what the shop holds for one account: profile, addresses, orders, gift lists.
 * Read only, and nothing about the password: a customer who forgot it resets it themselves by e-mail.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const customer = await getAdminCustomer(db, params.userId);
  if (!customer) throw data(null, { status: 404 });
  return { meta: getPageMetaTexts(locale, "admin.customer"), locale, customer };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminCustomer({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, customer } = loaderData;
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{customer.name}</h1>
        <Link to={localizedHref("/admin/clienti", locale)} className="btn-secondary">
          {t("admin.customer.back")}
        </Link>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("admin.customer.profile")}</h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="font-semibold">{t("admin.customer.email")}</dt>
            <dd>
              <a className="underline break-all" href={`mailto:${customer.email}`}>
                {customer.email}
              </a>{" "}
              · {customer.emailVerified ? t("admin.customer.verified") : t("admin.customer.notVerified")}
            </dd>
            <dt className="font-semibold">{t("admin.customer.phone")}</dt>
            <dd>{customer.phone ?? "—"}</dd>
            <dt className="font-semibold">{t("admin.customer.fiscalCode")}</dt>
            <dd className="font-mono">{customer.fiscalCode ?? "—"}</dd>
            <dt className="font-semibold">{t("admin.customer.language")}</dt>
            <dd>{t(`admin.customer.languages.${customer.preferredLocale === "en" ? "en" : "it"}`)}</dd>
            <dt className="font-semibold">{t("admin.customer.since")}</dt>
            <dd>{formatDate(customer.createdAt, locale)}</dd>
            <dt className="font-semibold">{t("admin.customer.role")}</dt>
            <dd>{customer.isAdmin ? t("admin.customers.admin") : t("admin.customer.customer")}</dd>
          </dl>
        </div>
        <div className="rounded-xl border border-brand-100 bg-white p-4">
          <h2 className="text-xl font-bold">{t("admin.customer.addresses")}</h2>
          {customer.addresses.length === 0 ? (
            <p className="mt-2">{t("admin.customer.noAddresses")}</p>
          ) : (
            <ul className="mt-2 space-y-3">
              {customer.addresses.map((address) => (
                <li key={address.id}>
                  {(address.label || address.isDefault) && (
                    <p>
                      {address.label && <strong>{address.label}</strong>}
                      {address.label && address.isDefault && " · "}
                      {address.isDefault && <span className="text-muted">{t("admin.customer.defaultAddress")}</span>}
                    </p>
                  )}
                  <AddressLines address={address} withCountry />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>

      <h2 className="mt-8 text-xl font-bold">{t("admin.customer.orders")}</h2>
      <p className="mt-2">
        {t("admin.orders.count", { count: customer.orderCount })} ·{" "}
        <Link to={`${localizedHref("/admin/ordini", locale)}?q=${encodeURIComponent(customer.email)}`} className="text-brand-800 underline">
          {t("admin.customer.ordersByEmail")}
        </Link>
      </p>
      {customer.orders.length > 0 && <AdminOrdersTable label={t("admin.customer.orders")} rows={customer.orders} locale={locale} />}

      <h2 className="mt-8 text-xl font-bold">{t("admin.customer.giftLists")}</h2>
      <p className="mt-2">{t("admin.giftLists.count", { count: customer.giftListCount })}</p>
      {customer.giftLists.length > 0 && <AdminGiftListsTable label={t("admin.customer.giftLists")} rows={customer.giftLists} locale={locale} />}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
