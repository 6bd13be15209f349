import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { ChatIcon, HeartIcon, StoreIcon } from "#app/ui/icons.tsx";
import { OpeningHoursList } from "#app/ui/opening-hours-list.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { postalAddress } from "#common/shop-contacts.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/about";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["about"] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "about") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

const values = [
  { key: "advice", icon: ChatIcon },
  { key: "safety", icon: HeartIcon },
  { key: "nearby", icon: StoreIcon },
] as const;

export default function AboutPage() {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  const { shop, locale } = root;
  return (
    <>
      <PageHeader title={t("about.title")}>
        <p>{t("about.lead", { shop: shop.name, city: shop.city })}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl px-4 py-10">
        <div className="prose-page max-w-3xl">
          <h2>{t("about.storyTitle")}</h2>
          <p>{t("about.story1", { shop: shop.name, city: shop.city })}</p>
          <p>{t("about.story2")}</p>
          <p>{t("about.story3")}</p>
        </div>

        <h2 className="mt-12 mb-6 text-2xl font-bold">{t("about.valuesTitle")}</h2>
        <ul className="grid gap-5 md:grid-cols-3">
          {values.map(({ key, icon: Icon }) => (
            <li key={key} className="rounded-2xl bg-white p-6 shadow-card">
              <span className="grid size-12 place-items-center rounded-full bg-brand-50 text-brand-700">
                <Icon />
              </span>
              <h3 className="mt-4 text-lg font-bold">{t(`about.values.${key}.title`)}</h3>
              <p className="mt-2 text-muted">{t(`about.values.${key}.text`)}</p>
            </li>
          ))}
        </ul>

        <section aria-labelledby="about-visit" className="mt-12 grid gap-6 rounded-3xl bg-sun-50 p-8 md:grid-cols-2">
          <div>
            <h2 id="about-visit" className="text-2xl font-bold">
              {t("about.visitTitle")}
            </h2>
            <p className="mt-3">{t("about.visitText")}</p>
            <p className="mt-3 font-semibold">{postalAddress(shop)}</p>
            <Link to={localizedHref("/contact", locale)} className="btn-primary mt-6">
              {t("about.contactCta")}
            </Link>
          </div>
          <div>
            <h3 className="mb-2 font-bold">{t("openingHours.title")}</h3>
            <OpeningHoursList hours={shop.openingHours} />
          </div>
        </section>
      </div>
    </>
  );
}
