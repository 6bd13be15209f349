import { useTranslation } from "react-i18next";
import type { ComponentProps } from "react";
import { Link, useLocation } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import type { RootData } from "#app/lib/root-data.ts";
import { CategoryIcon } from "./category-icon";
import { ChevronDownIcon } from "./icons";
import { useDisclosure } from "./use-disclosure";

export type NavCategory = RootData["categories"][number];

export const categoryHref = (slug: string, locale: Locale) => localizedHref(`/categoria/${slug}`, locale);
export const subcategoryHref = (slug: string, locale: Locale) => localizedHref(`/sottocategoria/${slug}`, locale);

/**
 * A category menu's link, marked as the current page when it is: every page renders the categories twice
 * (this panel and the phone menu, about 120 links), and NavLink compiles a path pattern per link to compare
 * it with the location (it showed in the server's render profile). Category and subcategory pages have no
 * pages under them, so comparing the paths is enough.
 */
export function CategoryMenuLink({ to, ...props }: ComponentProps<typeof Link> & { to: string }) {
  const { pathname } = useLocation();
  return <Link to={to} aria-current={pathname === to ? "page" : undefined} {...props} />;
}

/**
 * The categories with their subcategories in one panel under the header. A `<details>`: it opens
 * with a click, Enter or Space, also without JavaScript; see useDisclosure for the rest.
 */
export function MegaMenu({ categories, locale }: { categories: readonly NavCategory[]; locale: Locale }) {
  const { t } = useTranslation();
  const { detailsProps, summaryProps } = useDisclosure();
  return (
    <details {...detailsProps} className="group">
      <summary
        {...summaryProps}
        className="flex items-center gap-1 rounded-full px-3 py-2 font-semibold text-ink hover:bg-brand-50 hover:text-brand-800 group-open:bg-brand-50"
      >
        {t("nav.categories")}
        <ChevronDownIcon size={18} className="transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute inset-x-0 top-full z-40 border-t border-brand-100 bg-white shadow-card">
        <ul className="mx-auto grid max-w-7xl grid-cols-4 gap-x-8 gap-y-6 px-6 py-8">
          {categories.map((category) => (
            <li key={category.slug}>
              <CategoryMenuLink
                to={categoryHref(category.slug, locale)}
                className="flex items-center gap-2 font-bold text-brand-800 hover:underline aria-[current=page]:underline"
              >
                <span className="grid size-8 place-items-center rounded-full bg-brand-50 text-brand-700">
                  <CategoryIcon slug={category.slug} size={18} />
                </span>
                {category.name}
              </CategoryMenuLink>
              {category.subcategories.length > 0 && (
                <ul className="mt-2 space-y-1 pl-10 text-sm">
                  {category.subcategories.map((sub) => (
                    <li key={sub.slug}>
                      <CategoryMenuLink
                        to={subcategoryHref(sub.slug, locale)}
                        className="text-muted hover:text-brand-800 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-brand-800"
                      >
                        {sub.name}
                      </CategoryMenuLink>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
        <p className="border-t border-brand-100 bg-brand-50 px-6 py-3 text-center text-sm">
          <Link to={localizedHref("/shop", locale)} className="link">
            {t("nav.allProducts")}
          </Link>
        </p>
      </div>
    </details>
  );
}
