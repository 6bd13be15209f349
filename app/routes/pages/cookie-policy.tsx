import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { savedItemsCookieName } from "#common/saved-items.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { TranslatedList } from "#app/ui/prose.tsx";
import { cartCookieName, flashCookieName } from "#server/cart/cart-cookie.ts";
import { currencyCookieName } from "#server/currency/rates.ts";
import { shopContext } from "#server/http/context.ts";
import { jsCookieName, personalVersionCookieName } from "#server/http/page-caching.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/cookie-policy";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["cookiePolicy"] } satisfies MessagesHandle;

/**
 * Every cookie the shop sets, named as the browser shows them (better-auth's names come from its own
 * settings, "__Secure-" prefixed on https). Technical cookies only (no analytics, advertising or
 * third-party tracking): no consent banner is needed (docs/decisions/0007).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const auth = await context.get(shopContext).auth.$context;
  const cookies = [
    { key: "session", name: auth.authCookies.sessionToken.name },
    { key: "oidcState", name: auth.createAuthCookie("state").name },
    { key: "cart", name: cartCookieName },
    { key: "cartFlash", name: flashCookieName },
    { key: "savedItems", name: savedItemsCookieName },
    { key: "currency", name: currencyCookieName },
    { key: "scripts", name: jsCookieName },
    { key: "personalVersion", name: personalVersionCookieName },
  ] as const;
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "cookiePolicy"),
    cookies,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function CookiePolicyPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  const { shop, locale } = root;
  return (
    <>
      <PageHeader title={t("cookiePolicy.title")}>
        <p>{t("cookiePolicy.lead", { shop: shop.name })}</p>
      </PageHeader>
      <div className="prose-page mx-auto max-w-3xl px-4 py-10">
        <h2>{t("cookiePolicy.whatTitle")}</h2>
        <p>{t("cookiePolicy.what")}</p>
        <h2>{t("cookiePolicy.usedTitle")}</h2>
        <p>{t("cookiePolicy.used")}</p>
        {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */}
        <div role="region" aria-label={t("cookiePolicy.tableCaption")} tabIndex={0} className="mb-6 overflow-x-auto rounded-xl bg-white shadow-card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t("cookiePolicy.tableCaption")}</caption>
            <thead className="bg-brand-50 text-brand-900">
              <tr>
                <th scope="col" className="px-4 py-3">
                  {t("cookiePolicy.columns.cookie")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("cookiePolicy.columns.name")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("cookiePolicy.columns.purpose")}
                </th>
                <th scope="col" className="px-4 py-3">
                  {t("cookiePolicy.columns.duration")}
                </th>
              </tr>
            </thead>
            <tbody>
              {loaderData.cookies.map(({ key, name }) => (
                <tr key={key} className="border-t border-brand-100 align-top">
                  <th scope="row" className="px-4 py-3 font-semibold">
                    {t(`cookiePolicy.cookies.${key}.name`)}
                  </th>
                  <td className="px-4 py-3">
                    <code className="break-all">{name}</code>
                  </td>
                  <td className="px-4 py-3">{t(`cookiePolicy.cookies.${key}.purpose`)}</td>
                  <td className="px-4 py-3">{t(`cookiePolicy.cookies.${key}.duration`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h2>{t("cookiePolicy.noTrackingTitle")}</h2>
        <p>{t("cookiePolicy.noTracking")}</p>
        <h2>{t("cookiePolicy.externalTitle")}</h2>
        <TranslatedList messageKey="cookiePolicy.external" />
        <h2>{t("cookiePolicy.manageTitle")}</h2>
        <p>{t("cookiePolicy.manage")}</p>
        <p>
          {t("cookiePolicy.contact", { email: shop.email })} <Link to={localizedHref("/privacy", locale)}>{t("privacy.title")}</Link>
        </p>
      </div>
    </>
  );
}
