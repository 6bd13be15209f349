import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { shownSize } from "#common/sizes.ts";
import { useColourName } from "#app/lib/colour-name.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { getDashboard } from "#server/admin/dashboard.service.ts";
import { getLaunchChecklist } from "#server/admin/launch-checklist.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/dashboard";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["order", "orderStatus", "product", "productPage", "saved", "delivery"] } satisfies MessagesHandle;

/** /admin: the back office's door. Only admins pass (401 logged out, 403 for customers). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const { db, env, publicUrl } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const [dashboard, launchChecks] = await Promise.all([getDashboard(db, { now: new Date(), locale }), getLaunchChecklist(db, { env, publicUrl })]);
  return { meta: getPageMetaTexts(locale, "adminDashboard"), name: admin.name, locale, dashboard, launchCheckCount: launchChecks.length };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, dashboard } = loaderData;
  const href = (path: string) => localizedHref(path, locale);
  const money = (cents: number) => formatMoney(cents, locale);
  const colourName = useColourName();
  const variantText = (colour: string | null, size: string) => [colour ? colourName(colour) : null, shownSize(size)].filter(Boolean).join(" · ");
  const hasSales = dashboard.days.some((day) => day.orders > 0);
  const max = Math.max(1, ...dashboard.days.map((day) => day.revenueCents));
  const barWidth = 20;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("adminDashboard.title")}</h1>
      <p className="mt-3 text-lg">{t("adminDashboard.greeting", { name: loaderData.name })}</p>
      {loaderData.launchCheckCount > 0 && (
        <p className="mt-4 rounded-xl border-l-4 border-amber-500 bg-sun-50 px-4 py-3">
          <strong>{t("admin.launch.dashboardNotice", { count: loaderData.launchCheckCount })}</strong>{" "}
          <Link to={href("/admin/messa-online")} className="link">
            {t("admin.launch.dashboardLink")}
          </Link>
        </p>
      )}
      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        {(["today", "month"] as const).map((period) => (
          <div key={period} className="rounded-xl border border-brand-100 bg-white p-4">
            <dt className="font-semibold">{t(`admin.dashboard.${period}`)}</dt>
            <dd className="mt-1 text-2xl font-bold">{money(dashboard[period].revenueCents)}</dd>
            <dd>{t("admin.dashboard.orders", { count: dashboard[period].orders })}</dd>
          </div>
        ))}
      </dl>

      <h2 className="mt-8 text-xl font-bold">{t("admin.dashboard.chart")}</h2>
      {/* An empty box says nothing: with no sale in the 30 days, say so in words. */}
      {hasSales ? (
        <>
          <svg
            viewBox={`0 0 ${dashboard.days.length * barWidth} 100`}
            className="mt-2 h-40 w-full rounded-xl border border-brand-100 bg-white"
            preserveAspectRatio="none"
            aria-hidden="true"
            focusable="false"
          >
            {dashboard.days.map((day, index) => {
              const height = Math.round((day.revenueCents / max) * 95);
              return <rect key={day.day} x={index * barWidth + 3} y={100 - height} width={barWidth - 6} height={height} className="fill-brand-600" />;
            })}
          </svg>
          <details className="mt-2">
            <summary className="cursor-pointer font-semibold">{t("admin.dashboard.chartTable")}</summary>
            <table className="mt-2 w-full border-collapse text-left text-sm">
              <caption className="sr-only">{t("admin.dashboard.chart")}</caption>
              <thead>
                <tr className="border-b-2 border-brand-200">
                  <th scope="col" className="p-2">
                    {t("admin.orders.date")}
                  </th>
                  <th scope="col" className="p-2 text-right">
                    {t("admin.nav.orders")}
                  </th>
                  <th scope="col" className="p-2 text-right">
                    {t("admin.dashboard.revenue")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {dashboard.days.map((day) => (
                  <tr key={day.day} className="border-b border-brand-100">
                    <th scope="row" className="p-2 font-normal">
                      {formatDate(day.day, locale)}
                    </th>
                    <td className="p-2 text-right">{day.orders}</td>
                    <td className="p-2 text-right">{money(day.revenueCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      ) : (
        <p className="mt-2 rounded-xl border border-brand-100 bg-white p-4">{t("admin.dashboard.noSales")}</p>
      )}

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <div>
          <h2 className="text-xl font-bold">{t("admin.dashboard.toPrepare")}</h2>
          {dashboard.toPrepare.length === 0 ? (
            <p className="mt-2">{t("admin.dashboard.none")}</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {dashboard.toPrepare.map((order) => (
                <li key={order.id}>
                  <Link to={href(`/admin/ordini/${order.id}`)} className="font-semibold text-brand-800 underline">
                    {t("admin.orders.numberLink", { number: order.number })}
                  </Link>{" "}
                  · {order.customer} · {t(`orderStatus.${order.status}`)} · {t(`order.delivery.${order.deliveryMethod}`)}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h2 className="text-xl font-bold">{t("admin.dashboard.lowStock")}</h2>
          {dashboard.lowStock.length === 0 ? (
            <p className="mt-2">{t("admin.dashboard.none")}</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {dashboard.lowStock.map((variant) => (
                <li key={variant.sku}>
                  <Link to={href(`/admin/prodotti/${variant.productId}`)} className="font-semibold text-brand-800 underline">
                    {variant.name}
                  </Link>
                  {[variantText(variant.colour, variant.size), t("admin.dashboard.left", { count: variant.stock })]
                    .filter(Boolean)
                    .map((part) => ` · ${part}`)}
                </li>
              ))}
            </ul>
          )}
          {dashboard.lowStock.length > 0 && (
            <Link to={href("/admin/prodotti?lowStock=1")} className="btn-secondary mt-3">
              {t("admin.dashboard.allLowStock")}
            </Link>
          )}
        </div>
        <div>
          <h2 className="text-xl font-bold">{t("admin.dashboard.giftLists")}</h2>
          {dashboard.upcomingGiftLists.length === 0 ? (
            <p className="mt-2">{t("admin.dashboard.none")}</p>
          ) : (
            <ul className="mt-2 space-y-2">
              {dashboard.upcomingGiftLists.map((list) => (
                <li key={list.id}>
                  <strong>{list.title}</strong> · {list.owner} · {formatDate(list.eventDate, locale)} · <span className="font-mono">{list.code}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
