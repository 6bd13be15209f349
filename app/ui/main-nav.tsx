import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { MegaMenu, type NavCategory } from "./mega-menu";

/** The main menu (docs/rules.md#storefront); the mega menu of categories sits after Shop. */
export const mainNavItems = [
  { path: "/", labelKey: "nav.home" },
  { path: "/shop", labelKey: "nav.shop" },
  { path: "/about", labelKey: "nav.about" },
  { path: "/contact", labelKey: "nav.contact" },
] as const;

const linkClass =
  "block rounded-lg px-3 py-2 font-semibold hover:bg-brand-50 aria-[current=page]:text-brand-800 mobile:aria-[current=page]:bg-brand-50 desktop:rounded-full desktop:hover:text-brand-800 desktop:aria-[current=page]:underline desktop:aria-[current=page]:decoration-2 desktop:aria-[current=page]:underline-offset-8";

/**
 * The site's one navigation: a row in the desktop header, a column in the phone menu's panel (with the gift
 * lists too). See MegaMenu for the categories in it. The phone menu lists the other pages before the
 * categories, the desktop row after them: those two links are written twice, each copy shown in one layout,
 * so the focus order follows what is seen in both; the categories' 50 links are written once.
 */
export function MainNav({ categories, locale, className = "" }: { categories: readonly NavCategory[]; locale: Locale; className?: string }) {
  const { t } = useTranslation();
  const [home, shop, ...rest] = mainNavItems;
  const item = ({ path, labelKey }: (typeof mainNavItems)[number], layoutClass = "") => (
    <li key={`${path} ${layoutClass}`} className={layoutClass || undefined}>
      <NavLink to={localizedHref(path, locale)} end={path === "/"} className={linkClass}>
        {t(labelKey)}
      </NavLink>
    </li>
  );
  return (
    <nav aria-label={t("nav.label")} className={className}>
      <ul className="space-y-1 desktop:flex desktop:items-center desktop:gap-1 desktop:space-y-0">
        {item(home)}
        {item(shop)}
        {rest.map((page) => item(page, "desktop:hidden"))}
        <li className="desktop:hidden">
          <NavLink
            to={localizedHref("/lista-nascita", locale)}
            className="block rounded-lg px-3 py-2 font-semibold hover:bg-brand-50 aria-[current=page]:bg-brand-50"
          >
            {t("nav.giftList")}
          </NavLink>
        </li>
        <MegaMenu categories={categories} locale={locale} />
        {rest.map((page) => item(page, "mobile:hidden"))}
      </ul>
    </nav>
  );
}
