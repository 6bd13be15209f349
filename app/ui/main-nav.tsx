import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { MegaMenu, type NavCategory } from "./mega-menu";

/** The main menu (SPEC.md "Header, menu, footer"); the mega menu of categories sits after Shop. */
export const mainNavItems = [
  { path: "/", labelKey: "nav.home" },
  { path: "/shop", labelKey: "nav.shop" },
  { path: "/about", labelKey: "nav.about" },
  { path: "/contact", labelKey: "nav.contact" },
] as const;

const linkClass =
  "block rounded-full px-3 py-2 font-semibold text-ink hover:bg-brand-50 hover:text-brand-800 aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8";

export function MainNav({ categories, locale, className = "" }: { categories: readonly NavCategory[]; locale: Locale; className?: string }) {
  const { t } = useTranslation();
  const [home, shop, ...rest] = mainNavItems;
  const item = ({ path, labelKey }: (typeof mainNavItems)[number]) => (
    <li key={path}>
      <NavLink to={localizedHref(path, locale)} end={path === "/"} className={linkClass}>
        {t(labelKey)}
      </NavLink>
    </li>
  );
  return (
    <nav aria-label={t("nav.label")} className={className}>
      <ul className="flex items-center gap-1">
        {item(home)}
        {item(shop)}
        <li>
          <MegaMenu categories={categories} locale={locale} />
        </li>
        {rest.map(item)}
      </ul>
    </nav>
  );
}
