import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { useSavedItems } from "#app/lib/saved-items.ts";
import { ChevronDownIcon, CloseIcon, CompareIcon, HeartIcon, MenuIcon } from "./icons";
import { CategoryMenuLink, categoryHref, subcategoryHref, type NavCategory } from "./mega-menu";
import { SearchBox } from "./search-box";
import { mainNavItems } from "./main-nav";
import { LanguageSwitch } from "./top-bar";
import { useDisclosure } from "./use-disclosure";

/**
 * The off-canvas menu of the mobile layout (SPEC.md section 9): navigation, categories, search,
 * languages. A `<details>` so it opens without JavaScript; when open, its summary becomes the
 * close button at the panel's corner.
 */
export function MobileMenu({ categories, locale }: { categories: readonly NavCategory[]; locale: Locale }) {
  const { t } = useTranslation();
  const { detailsProps, summaryProps, close } = useDisclosure({ closeOnOutside: false });
  return (
    <details {...detailsProps} className="group">
      <summary
        {...summaryProps}
        className="relative z-[60] grid size-11 place-items-center rounded-full text-ink hover:bg-brand-50 group-open:fixed group-open:top-2 group-open:left-[calc(min(22rem,88vw)-3.25rem)] group-open:bg-white"
      >
        <MenuIcon className="group-open:hidden" />
        <CloseIcon className="hidden group-open:block" />
        <span className="sr-only group-open:hidden">{t("mobileMenu.open")}</span>
        <span className="sr-only hidden group-open:inline">{t("mobileMenu.close")}</span>
      </summary>
      <div aria-hidden="true" className="fixed inset-0 z-50 bg-ink/50" onClick={() => close()} />
      <div className="fixed inset-y-0 left-0 z-50 flex w-[min(22rem,88vw)] flex-col overflow-y-auto bg-white shadow-card">
        <p className="border-b border-brand-100 px-5 pt-5 pb-4 text-lg font-bold text-brand-800">{t("mobileMenu.title")}</p>
        <div className="space-y-6 px-5 py-5">
          <SearchBox locale={locale} />
          <SavedListLinks locale={locale} />
          <nav aria-label={t("mobileMenu.navLabel")}>
            <ul className="space-y-1">
              {mainNavItems.map((item) => (
                <li key={item.path}>
                  <NavLink
                    to={localizedHref(item.path, locale)}
                    end={item.path === "/"}
                    className="block rounded-lg px-3 py-2 font-semibold hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800"
                  >
                    {t(item.labelKey)}
                  </NavLink>
                </li>
              ))}
              <li>
                <NavLink
                  to={localizedHref("/lista-nascita", locale)}
                  className="block rounded-lg px-3 py-2 font-semibold hover:bg-brand-50 aria-[current=page]:bg-brand-50"
                >
                  {t("nav.giftList")}
                </NavLink>
              </li>
            </ul>
            <p className="mt-5 mb-2 px-3 text-sm font-bold tracking-wide text-muted uppercase">{t("nav.categories")}</p>
            <ul className="space-y-1">
              {categories.map((category) => (
                <li key={category.slug}>
                  {category.subcategories.length === 0 ? (
                    <CategoryMenuLink to={categoryHref(category.slug, locale)} className="block rounded-lg px-3 py-2 hover:bg-brand-50">
                      {category.name}
                    </CategoryMenuLink>
                  ) : (
                    <details className="group/category">
                      <summary className="flex items-center justify-between rounded-lg px-3 py-2 hover:bg-brand-50">
                        {category.name}
                        <ChevronDownIcon size={18} className="transition-transform group-open/category:rotate-180" />
                      </summary>
                      <ul className="mb-2 ml-3 border-l-2 border-brand-100 pl-3 text-sm">
                        <li>
                          <Link to={categoryHref(category.slug, locale)} className="block py-1.5 font-semibold text-brand-800">
                            {t("nav.allOfCategory", { category: category.name })}
                          </Link>
                        </li>
                        {category.subcategories.map((sub) => (
                          <li key={sub.slug}>
                            <CategoryMenuLink to={subcategoryHref(sub.slug, locale)} className="block py-1.5 hover:underline">
                              {sub.name}
                            </CategoryMenuLink>
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <LanguageSwitch locale={locale} className="border-t border-brand-100 pt-4" />
        </div>
      </div>
    </details>
  );
}

/**
 * The wishlist and the compare list with their counts: on a phone the header has no room for their
 * icons, so they live here, near the top of the menu.
 */
function SavedListLinks({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const saved = useSavedItems();
  const links = [
    { path: "/wishlist", icon: <HeartIcon />, label: t("header.wishlist"), count: saved.wishlist.length, name: t("header.wishlistCount", { count: saved.wishlist.length }) },
    { path: "/compare", icon: <CompareIcon />, label: t("header.compare"), count: saved.compare.length, name: t("header.compareCount", { count: saved.compare.length }) },
  ];
  return (
    <ul className="space-y-2">
      {links.map((link) => (
        <li key={link.path}>
          <NavLink
            to={localizedHref(link.path, locale)}
            className="flex min-h-11 items-center gap-2 rounded-xl border border-brand-100 px-3 py-2 text-sm font-semibold hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-800"
          >
            {link.icon}
            {/* Named by its content, not aria-label, so the words a person sees are the name (WCAG 2.5.3). */}
            <span aria-hidden="true" className="min-w-0 flex-1">
              {link.label}
            </span>
            <span className="sr-only">{link.name}</span>
            <span
              aria-hidden="true"
              className={`grid h-6 min-w-6 shrink-0 place-items-center rounded-full px-1.5 text-xs font-bold ${link.count > 0 ? "bg-coral-600 text-white" : "bg-brand-50 text-brand-800"}`}
            >
              {link.count}
            </span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
