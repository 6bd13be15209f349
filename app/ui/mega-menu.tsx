import { useTranslation } from "react-i18next";
import { useRef, type ComponentProps } from "react";
import { Link, useLocation } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { RootData } from "#app/lib/root-data.ts";
import { CategoryIcon } from "./category-icon";
import { ChevronDownIcon } from "./icons";
import { useDisclosure } from "./use-disclosure";
import { useSharedTexts } from "./use-shared-texts";

export type NavCategory = RootData["categories"][number];

export const categoryHref = (slug: string, locale: Locale) => localizedHref(`/categoria/${slug}`, locale);
export const subcategoryHref = (slug: string, locale: Locale) => localizedHref(`/sottocategoria/${slug}`, locale);

/**
 * A category menu's link, marked as the current page when it is: NavLink compiles a path pattern per link
 * to compare it with the location (it showed in the server's render profile). Category and subcategory
 * pages have no pages under them, so comparing the paths is enough.
 */
export function CategoryMenuLink({ to, ...props }: ComponentProps<typeof Link> & { to: string }) {
  const { pathname } = useLocation();
  return <Link to={to} aria-current={pathname === to ? "page" : undefined} {...props} />;
}

const categoryLinkClass =
  "desktop:flex desktop:items-center desktop:gap-2 desktop:font-bold desktop:text-brand-800 desktop:hover:underline desktop:aria-[current=page]:underline";

/**
 * One category: on a desktop its link (with its pictogram) over its subcategories, always shown; in the phone
 * menu an accordion, whose summary names the category and opens "Tutto in <category>" and the subcategories.
 * The accordion's `<details>` holds only its summary and opens the next sibling (`peer-open/category`), so the
 * links are the same elements in both layouts.
 */
function CategoryItem({ category, locale }: { category: NavCategory; locale: Locale }) {
  const { textAround } = useSharedTexts();
  const icon = (
    <span className="grid size-8 place-items-center rounded-full bg-brand-50 text-brand-700 mobile:hidden">
      <CategoryIcon slug={category.slug} size={18} />
    </span>
  );
  if (category.subcategories.length === 0) {
    return (
      <li>
        <CategoryMenuLink
          to={categoryHref(category.slug, locale)}
          className={`mobile:block mobile:rounded-lg mobile:px-3 mobile:py-2 mobile:hover:bg-brand-50 ${categoryLinkClass}`}
        >
          {icon}
          {category.name}
        </CategoryMenuLink>
      </li>
    );
  }
  return (
    <li>
      <details className="group/category peer/category desktop:hidden">
        <summary className="flex items-center justify-between rounded-lg px-3 py-2 hover:bg-brand-50">
          {category.name}
          <ChevronDownIcon size={18} className="transition-transform group-open/category:rotate-180" />
        </summary>
      </details>
      <div className="mobile:mb-2 mobile:ml-3 mobile:hidden mobile:border-l-2 mobile:border-brand-100 mobile:pl-3 mobile:text-sm mobile:peer-open/category:block">
        <CategoryMenuLink
          to={categoryHref(category.slug, locale)}
          className={`mobile:block mobile:py-1.5 mobile:font-semibold mobile:text-brand-800 ${categoryLinkClass}`}
        >
          {icon}
          <span className="mobile:hidden">{category.name}</span>
          <span className="desktop:hidden">{textAround("nav.allOfCategory", "category", category.name)}</span>
        </CategoryMenuLink>
        <ul className="subcategory-links desktop:mt-2 desktop:space-y-1 desktop:pl-10 desktop:text-sm">
          {category.subcategories.map((sub) => (
            <li key={sub.slug}>
              <CategoryMenuLink to={subcategoryHref(sub.slug, locale)}>{sub.name}</CategoryMenuLink>
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

/**
 * The categories with their subcategories, rendered once for both layouts (decision 0030; a copy per layout
 * was some 120 links and 15 KB of every page's HTML). On a desktop: "Categorie", a `<details>` that opens the
 * panel under the header with a click, Enter or Space, also without JavaScript (see useDisclosure for the
 * rest); the panel is the `<details>`' next sibling, shown by CSS while it is open (`peer-open/mega`),
 * because in the phone menu the same list is always shown, under a heading.
 */
export function MegaMenu({ categories, locale }: { categories: readonly NavCategory[]; locale: Locale }) {
  const { t } = useTranslation();
  const itemRef = useRef<HTMLLIElement>(null);
  const { detailsProps, summaryProps } = useDisclosure({ insideRef: itemRef });
  return (
    <li ref={itemRef}>
      <details {...detailsProps} className="group peer/mega mobile:hidden">
        <summary
          {...summaryProps}
          className="flex items-center gap-1 rounded-full px-3 py-2 font-semibold text-ink hover:bg-brand-50 hover:text-brand-800 group-open:bg-brand-50"
        >
          {t("nav.categories")}
          <ChevronDownIcon size={18} className="transition-transform group-open:rotate-180" />
        </summary>
      </details>
      <p className="mt-5 mb-2 px-3 text-sm font-bold tracking-wide text-muted uppercase desktop:hidden">{t("nav.categories")}</p>
      <div className="desktop:absolute desktop:inset-x-0 desktop:top-full desktop:z-40 desktop:hidden desktop:border-t desktop:border-brand-100 desktop:bg-white desktop:shadow-card desktop:peer-open/mega:block">
        <ul className="space-y-1 desktop:mx-auto desktop:grid desktop:max-w-7xl desktop:grid-cols-4 desktop:gap-x-8 desktop:gap-y-6 desktop:space-y-0 desktop:px-6 desktop:py-8">
          {categories.map((category) => (
            <CategoryItem key={category.slug} category={category} locale={locale} />
          ))}
        </ul>
        <p className="border-t border-brand-100 bg-brand-50 px-6 py-3 text-center text-sm mobile:hidden">
          <Link to={localizedHref("/shop", locale)} className="link">
            {t("nav.allProducts")}
          </Link>
        </p>
      </div>
    </li>
  );
}
