import { useTranslation } from "react-i18next";
import { Link, useMatches, useParams } from "react-router";
import { localizedHref, localeOfPath } from "#app/lib/locale.ts";
import { useRootData, type RootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { getTranslator } from "#server/i18n/translator.ts";
import type { Route } from "./+types/coming-soon";

/**
 * Stands in for the pages later issues build (routes.ts points them here). The heading comes
 * from the route id (`comingSoon.pages.{id}`); status 200.
 */
export function loader({ url }: Route.LoaderArgs) {
  const t = getTranslator(localeOfPath(url.pathname));
  const titles = t("comingSoon.pages", { returnObjects: true }) as unknown as Record<string, string>;
  return { titles, description: t("comingSoon.text") };
}

type Params = Readonly<Partial<Record<string, string>>>;

/** "Lista nascita", "Carrello"...; a category page is named after its category. */
function pageTitle(routeId: string | undefined, titles: Record<string, string>, params: Params, categories: RootData["categories"] = []) {
  if (routeId === "category") {
    const category = categories.find((candidate) => candidate.slug === params.category);
    if (category) return category.name;
  }
  if (routeId === "subcategory") {
    const subcategory = categories.flatMap((category) => category.subcategories).find((candidate) => candidate.slug === params.subcategory);
    if (subcategory) return subcategory.name;
  }
  return (routeId && titles[routeId]) || titles.default || "";
}

export const meta: Route.MetaFunction = ({ loaderData, matches, params }) => {
  if (!loaderData) return pageMeta(matches, undefined);
  const root = matches.find((match) => match?.id === "root")?.loaderData as RootData | undefined;
  const title = pageTitle(matches.at(-1)?.id, loaderData.titles, params, root?.categories);
  return pageMeta(matches, { title, description: loaderData.description });
};

export default function ComingSoonPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const params = useParams();
  const routeId = useMatches().at(-1)?.id;
  const locale = root?.locale ?? "it";
  return (
    <>
      <PageHeader title={pageTitle(routeId, loaderData.titles, params, root?.categories)} />
      <div className="mx-auto max-w-5xl px-4 py-12">
        <p className="text-lg">{t("comingSoon.text")}</p>
        <p className="mt-2 text-muted">{t("comingSoon.help")}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={localizedHref("/", locale)} className="btn-primary">
            {t("comingSoon.home")}
          </Link>
          <Link to={localizedHref("/contact", locale)} className="btn-secondary">
            {t("nav.contact")}
          </Link>
        </div>
      </div>
    </>
  );
}
