import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { TranslatedList } from "#app/ui/prose.tsx";
import { postalAddress } from "#common/shop-contacts.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/privacy";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["privacy", "customerMails.privacy"] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "privacy") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

/** The privacy notice (GDPR art. 13): one heading per topic, texts in messages/*.json. */
const topics = ["data", "purposes", "recipients", "transfers", "retention", "rights", "minors"] as const;

export default function PrivacyPage() {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  const { shop, locale } = root;
  return (
    <>
      <PageHeader title={t("privacy.title")}>
        <p>{t("privacy.lead", { shop: shop.name })}</p>
      </PageHeader>
      <div className="prose-page mx-auto max-w-3xl px-4 py-10">
        <h2>{t("privacy.controllerTitle")}</h2>
        <p>
          {t("privacy.controller", {
            legalName: shop.legalName,
            address: postalAddress(shop),
            vatNumber: shop.vatNumber,
            email: shop.email,
            phone: shop.phone,
          })}
        </p>
        {topics.map((topic) => (
          <section key={topic} aria-labelledby={`privacy-${topic}`}>
            <h2 id={`privacy-${topic}`}>{t(`privacy.${topic}.title`)}</h2>
            <p>{t(`privacy.${topic}.intro`, { email: shop.email })}</p>
            <TranslatedList messageKey={`privacy.${topic}.items`} />
          </section>
        ))}
        <section aria-labelledby="privacy-customer-mails">
          <h2 id="privacy-customer-mails">{t("customerMails.privacy.title")}</h2>
          <p>{t("customerMails.privacy.text")}</p>
        </section>
        <h2>{t("privacy.contactTitle")}</h2>
        <p>{t("privacy.contact", { email: shop.email })}</p>
        <p>
          {t("privacy.cookiesNote")} <Link to={localizedHref("/cookie-policy", locale)}>{t("cookiePolicy.title")}</Link>
        </p>
      </div>
    </>
  );
}
