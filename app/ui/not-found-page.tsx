import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { SearchBox } from "./search-box";

/** Any unknown address, and a missing product (docs/rules.md#product-page: "404", "OPPS! Pagina o Prodotto non trovato"). */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1>
        <span className="block text-8xl font-extrabold tracking-tight text-brand-700">404</span>
        <span className="mt-4 block text-2xl font-bold">{t("notFound.title")}</span>
      </h1>
      <p className="mt-4 text-muted">{t("notFound.body")}</p>
      <SearchBox locale={locale} className="mt-8" />
      <Link to={localizedHref("/", locale)} className="btn-primary mt-8">
        {t("notFound.home")}
      </Link>
    </div>
  );
}
