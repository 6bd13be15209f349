import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { useSavedItems } from "#app/lib/browser-saved-items.ts";
import { CloseIcon, CompareIcon, HeartIcon, MenuIcon } from "./icons";
import { MainNav } from "./main-nav";
import type { NavCategory } from "./mega-menu";
import { SearchBox } from "./search-box";
import { LanguageSwitch } from "./top-bar";
import { useDisclosure } from "./use-disclosure";

/**
 * The off-canvas menu of the phone layout (docs/rules.md#constants): this is its button, a `<details>` so it
 * opens without JavaScript; when open, its summary becomes the close button at the panel's corner. The
 * panel is not inside it but follows it in the header's row: SiteMenu, shown while this is open
 * (`peer-open/menu`), is also the desktop header's navigation, so the category links are rendered once.
 */
export function MobileMenu() {
  const { t } = useTranslation();
  const { detailsProps, summaryProps, close } = useDisclosure({ closeOnOutside: false });
  return (
    <details {...detailsProps} className="group peer/menu desktop:hidden">
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
    </details>
  );
}

/**
 * On a phone, the off-canvas panel: search, the saved lists, the navigation with the categories, the
 * languages. On a desktop only the navigation shows, in the header's row. A later sibling of MobileMenu.
 */
export function SiteMenu({ categories, locale }: { categories: readonly NavCategory[]; locale: Locale }) {
  const { t } = useTranslation();
  // With `display: contents` (desktop) an element has no box of its own: its position, size, padding and
  // background do nothing there, so only what would reach its children needs the `mobile:` variant.
  return (
    <div className="inset-y-0 left-0 z-50 hidden w-[min(22rem,88vw)] flex-col overflow-y-auto bg-white shadow-card mobile:fixed mobile:peer-open/menu:flex desktop:contents">
      <p className="border-b border-brand-100 px-5 pt-5 pb-4 text-lg font-bold text-brand-800 desktop:hidden">{t("mobileMenu.title")}</p>
      <div className="px-5 py-5 mobile:space-y-6 desktop:contents">
        <SearchBox locale={locale} className="desktop:hidden" />
        <SavedListLinks locale={locale} />
        <MainNav categories={categories} locale={locale} className="desktop:mx-auto" />
        <LanguageSwitch locale={locale} className="border-t border-brand-100 pt-4 desktop:hidden" />
      </div>
    </div>
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
    {
      path: "/wishlist",
      icon: <HeartIcon />,
      label: t("header.wishlist"),
      count: saved.wishlist.length,
      name: t("header.wishlistCount", { count: saved.wishlist.length }),
    },
    {
      path: "/compare",
      icon: <CompareIcon />,
      label: t("header.compare"),
      count: saved.compare.length,
      name: t("header.compareCount", { count: saved.compare.length }),
    },
  ];
  return (
    <ul className="space-y-2 desktop:hidden">
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
