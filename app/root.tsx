import { useTranslation } from "react-i18next";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import { getSessionUser } from "#server/http/guards.ts";
import { getCategoryNavigation } from "#server/catalog/navigation.service.ts";
import { readCurrencyCookie } from "#server/currency/rates.ts";
import { getDisplayCurrency } from "#server/currency/rates.service.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { personalPagesNotStored } from "#server/http/page-caching.ts";
import { getPageMessages } from "#server/http/page-messages.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { getShownSettings } from "#server/settings/settings.service.ts";
import { htmlLang, localeOfPath, type Locale } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { alternateLinks } from "#common/alternate-links.ts";
import type { Route } from "./+types/root";
import appStylesheet from "./app.css?url";
import { useNonce } from "./lib/nonce";
import { PersonalPartScript } from "./lib/personal-part";
import { readPersonalPart, requestPersonalPart } from "./lib/personal-part.server";
import { useRootData } from "./lib/root-data";
import { useRouteMessages } from "./lib/route-messages";
import { documentTitle } from "./lib/seo";
import { IconSprite } from "./ui/icons";
import { ErrorPage, errorPageKindOf, errorPageTitleKey, type ErrorPageKind } from "./ui/error-page";
import { SiteShell } from "./ui/site-shell";

/** What the shell renders on every page: header, menus, mini cart, footer, error pages (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "account",
    "currency",
    "errors",
    "footer",
    "header",
    "language",
    "loading",
    "loginRequired",
    "meta",
    "miniCart",
    "mobileMenu",
    "nav",
    "notFound",
    "openingHours",
    "scrollTop",
    "search",
    "serviceUnavailable",
    "skipLink",
    "toast",
    "topBar",
    "weekdays",
    "whatsapp",
    // The gift list being filled: its bar, and the add buttons of cards and quick view
    "giftListFilling",
    // The mini cart's lines
    "cart.addToCart",
    "cart.colour",
    "cart.colours",
    "cart.decrease",
    "cart.giftList",
    "cart.increase",
    "cart.lineTotal",
    "cart.notice",
    "cart.personalisationEach",
    "cart.quantity",
    "cart.quantityOf",
    "cart.remove",
    "cart.removeItem",
    "cart.size",
    "cart.unitPrice",
    // The footer's links and contacts, the search box's suggestions
    "contact.emailLabel",
    // The footer's newsletter sign-up
    "newsletter.consent",
    "newsletter.privacyLink",
    "newsletter.sending",
    "newsletter.sent",
    "newsletter.errors",
    "contact.phoneLabel",
    "cookiePolicy.title",
    "privacy.title",
    "helpCentre.title",
    "vouchers.purchase.link",
    "helpCentre.shipping.title",
    "helpCentre.payment.title",
    "helpCentre.withdrawal.title",
    "orderLookup.footerLink",
    "helpCentre.conditions.title",
    "listing.suggestions",
    "listing.suggestionsCount",
    "product.currentPrice",
    "product.oldPrice",
    // The back office's error page when its layout refuses a customer (a route's loaders failed: only the root's came)
    "adminDashboard.forbiddenTitle",
    "adminDashboard.forbiddenText",
    "adminDashboard.home",
    "admin.notFound",
  ],
} satisfies MessagesHandle;

/** Account, cart, order and back-office answers are never stored by a cache (server/http/page-caching.ts). */
export const middleware: Route.MiddlewareFunction[] = [personalPagesNotStored];

/** The same texts for every request in a language: translated once per language and process. */
const fallbackMetaByLocale = new Map<Locale, { description: string; errorTitles: Record<ErrorPageKind, string> }>();

function fallbackMetaOf(locale: Locale) {
  let meta = fallbackMetaByLocale.get(locale);
  if (!meta) {
    const t = getTranslator(locale);
    meta = {
      description: t("meta.description"),
      errorTitles: Object.fromEntries(Object.entries(errorPageTitleKey).map(([kind, key]) => [kind, t(key)])) as Record<ErrorPageKind, string>,
    };
    fallbackMetaByLocale.set(locale, meta);
  }
  return meta;
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const { db, publicUrl } = services;
  // `url` is normalised (no ".data" suffix on client navigations), so "/en.data" still reads "en".
  const locale = localeOfPath(url.pathname);
  const [categories, settings, currency, personal] = await Promise.all([
    getCategoryNavigation(db, locale),
    getShownSettings(db, ["shop", "newsletter"]),
    getDisplayCurrency(db, readCurrencyCookie(request.headers.get("Cookie"))),
    readPersonalPart(services, request, locale, () => getSessionUser(context, request)),
  ]);
  // A page's loader data is the same for everyone who sees it; its personal part goes into the page on its own
  // (app/lib/personal-part.tsx). A client navigation gets it here.
  const isDataRequest = new URL(request.url).pathname.endsWith(".data");
  if (!isDataRequest) context.set(requestPersonalPart, personal.part);
  return data(
    {
      locale,
      publicUrl,
      categories,
      shop: settings.shop,
      newsletterUrl: settings.newsletter.url,
      /** Display currency: the visitor's choice (cookie) and its stored rate per 1 EUR. */
      currency,
      /** For pages without their own meta, and for error pages. */
      fallbackMeta: fallbackMetaOf(locale),
      personal: isDataRequest ? personal.part : undefined,
      /**
       * A client navigation's answer rendered as a visitor's to keep: its part is a visitor's, whoever is given it
       * (decision 0095). Not in a document's data, which is the same for everyone (its part may be hers, filled in).
       */
      personalShared: isDataRequest ? context.get(requestContext).sharedPage === true : undefined,
      // The shell's texts come with the first page only: the language never changes without a page load.
      messages: isDataRequest ? undefined : getPageMessages(locale, handle),
    },
    { headers: personal.headers },
  );
}

export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  // Without the root's data the root's error page writes its own <title> (RootErrorPage).
  if (!loaderData) return [];
  const { shop, fallbackMeta } = loaderData;
  const title = error ? documentTitle(fallbackMeta.errorTitles[errorPageKindOf(error)], shop.name) : shop.name;
  return [{ title }, { name: "description", content: fallbackMeta.description }];
};

/** The shop's mark as the tab icon, inline, so no request is made for /favicon.ico. */
const faviconSvg =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'><path d='M20 35S5 26.5 5 15.5C5 10.5 8.7 7 13 7c3 0 5.5 1.6 7 4 1.5-2.4 4-4 7-4 4.3 0 8 3.5 8 8.5C35 26.5 20 35 20 35Z' fill='%23f08a6c'/><circle cx='15' cy='17' r='2' fill='%230e554e'/><circle cx='25' cy='17' r='2' fill='%230e554e'/><path d='M14.5 22.5c1.5 2 3.3 3 5.5 3s4-1 5.5-3' fill='none' stroke='%230e554e' stroke-width='2.2' stroke-linecap='round'/></svg>";

export const links: Route.LinksFunction = () => [
  // With a precedence React puts the stylesheet first in <head>, before the script preloads it hoists
  // there: the one file that blocks the first paint is requested first (docs/decisions/0026-lighthouse-budgets.md).
  { rel: "stylesheet", href: appStylesheet, precedence: "default" },
  { rel: "icon", type: "image/svg+xml", href: `data:image/svg+xml,${faviconSvg}` },
];

/** Canonical address and hreflang alternates of every page (docs/rules.md#languages). */
function AlternateLinks({ publicUrl }: { publicUrl: string }) {
  const { pathname } = useLocation();
  const { canonical, alternates } = alternateLinks(publicUrl, pathname);
  return (
    <>
      <link rel="canonical" href={canonical} />
      {alternates.map((alternate) => (
        <link key={alternate.hrefLang} rel="alternate" hrefLang={alternate.hrefLang} href={alternate.href} />
      ))}
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  useRouteMessages();
  // None on a page kept for every visitor (its scripts are allowed by hash).
  const nonce = useNonce() || undefined;
  const { pathname } = useLocation();
  const root = useRootData();
  const locale = localeOfPath(pathname);
  return (
    <html lang={htmlLang[locale]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0e554e" />
        <Meta />
        {root && <AlternateLinks publicUrl={root.publicUrl} />}
        <Links />
      </head>
      <body>
        <IconSprite />
        {children}
        <PersonalPartScript />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <SiteShell>
      <Outlet />
    </SiteShell>
  );
}

/**
 * Errors of the root itself (its loader, the shell's render); every page's own errors are caught below it,
 * inside the shell (routes/pages/page-errors.tsx). Without the root's data, meta has no title to give.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const root = useRootData();
  return (
    <SiteShell>
      {!root && <title>{t(errorPageTitleKey[errorPageKindOf(error)])}</title>}
      <ErrorPage error={error} />
    </SiteShell>
  );
}
