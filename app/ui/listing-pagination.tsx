import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ChevronDownIcon } from "./icons";

export type PaginationView = {
  page: number;
  pageCount: number;
  previousHref: string | null;
  nextHref: string | null;
  items: ({ kind: "page"; page: number; href: string; current: boolean } | { kind: "gap" })[];
};

const stepClass = "inline-flex h-11 items-center gap-1 rounded-full px-3 text-sm font-semibold";

/** Page links that keep sort, group, filters and search (the loader builds every address). */
export function ListingPagination({ pagination }: { pagination: PaginationView }) {
  const { t } = useTranslation();
  if (pagination.pageCount <= 1) return null;
  return (
    <nav aria-label={t("listing.pagination")} className="mt-10 flex flex-col items-center gap-3">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {pagination.previousHref ? (
            <Link to={pagination.previousHref} rel="prev" className={`${stepClass} text-brand-800 hover:bg-brand-50`}>
              <ChevronDownIcon size={18} className="rotate-90" />
              {t("listing.previousPage")}
            </Link>
          ) : (
            <span aria-hidden="true" className={`${stepClass} text-slate-500`}>
              <ChevronDownIcon size={18} className="rotate-90" />
              {t("listing.previousPage")}
            </span>
          )}
        </li>
        {pagination.items.map((item, index) =>
          item.kind === "gap" ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={item.page}>
              <Link
                to={item.href}
                aria-current={item.current ? "page" : undefined}
                aria-label={t("listing.pageNumber", { page: item.page })}
                className={`grid size-11 place-items-center rounded-full text-sm font-semibold ${
                  item.current ? "bg-brand-700 text-white" : "text-brand-800 hover:bg-brand-50"
                }`}
              >
                {item.page}
              </Link>
            </li>
          ),
        )}
        <li>
          {pagination.nextHref ? (
            <Link to={pagination.nextHref} rel="next" className={`${stepClass} text-brand-800 hover:bg-brand-50`}>
              {t("listing.nextPage")}
              <ChevronDownIcon size={18} className="-rotate-90" />
            </Link>
          ) : (
            <span aria-hidden="true" className={`${stepClass} text-slate-500`}>
              {t("listing.nextPage")}
              <ChevronDownIcon size={18} className="-rotate-90" />
            </span>
          )}
        </li>
      </ul>
      <p className="text-sm text-muted">{t("listing.pageOf", { page: pagination.page, total: pagination.pageCount })}</p>
    </nav>
  );
}
