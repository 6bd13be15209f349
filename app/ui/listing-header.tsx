import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export type Crumb = { name: string; href: string | null };

/** Where the page sits (Home / Shop / A spasso); the last crumb is the page itself. */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("listing.breadcrumbs")} className="mb-3 text-sm">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted">
        {crumbs.map((crumb, index) => (
          <li key={`${crumb.name}-${index}`} className="flex items-center gap-2">
            {index > 0 && <span aria-hidden="true">/</span>}
            {crumb.href ? (
              <Link to={crumb.href} className="link">
                {crumb.name}
              </Link>
            ) : (
              <span aria-current="page" className="font-semibold text-ink">
                {crumb.name}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The heading band of the listings and the brand index: breadcrumbs, title, and what follows it. */
export function ListingHeader({ crumbs, title, children }: { crumbs: readonly Crumb[]; title: string; children?: ReactNode }) {
  return (
    <div className="bg-linear-to-br from-brand-50 to-coral-50">
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10 lg:px-8">
        <Breadcrumbs crumbs={crumbs} />
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
        {children}
      </div>
    </div>
  );
}
