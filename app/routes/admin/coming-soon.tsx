import { useTranslation } from "react-i18next";
import { localeOfPath } from "#app/lib/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { requireAdmin } from "#server/accounts/guards.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/coming-soon";

/** Back-office sections a later issue fills (orders, gift lists, customers, settings). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "admin.comingSoon") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminComingSoon() {
  const { t } = useTranslation();
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.comingSoon.metaTitle")}</h1>
      <p className="mt-4">{t("admin.comingSoon.text")}</p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
