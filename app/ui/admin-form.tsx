import { useTranslation } from "react-i18next";
import { useId, type ReactNode } from "react";
import { Form, Link } from "react-router";
import { ScrollRegion } from "./scroll-region";

/** Previous/next links of a paged admin list ("Pagina 2 di 5"); nothing when everything fits on one page. */
export function AdminPagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  const { t } = useTranslation();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={t("admin.pagination.label")} className="mt-6 flex items-center gap-4">
      {page > 1 && (
        <Link to={hrefFor(page - 1)} className="btn-secondary">
          {t("admin.pagination.previous")}
        </Link>
      )}
      <span>{t("admin.pagination.of", { page, count: pageCount })}</span>
      {page < pageCount && (
        <Link to={hrefFor(page + 1)} className="btn-secondary">
          {t("admin.pagination.next")}
        </Link>
      )}
    </nav>
  );
}

/** The query string of one page of a filtered list: the filters that are set (`true` as "1"), then the page. */
export function filteredPageHref(filters: Record<string, string | number | boolean | null | undefined>, page: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (key !== "page" && value) params.set(key, value === true ? "1" : String(value));
  params.set("page", String(page));
  return `?${params}`;
}

/** The GET form above an admin list: its fields, then the "Filtra" button. */
export function AdminFilterForm({ columns = "sm:grid-cols-2 lg:grid-cols-3", children }: { columns?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Form method="get" className={`mt-6 grid gap-4 rounded-xl border border-brand-100 bg-white p-4 ${columns}`}>
      {children}
      <div className="flex items-end">
        <button type="submit" className="btn-primary w-full">
          {t("admin.products.filter")}
        </button>
      </div>
    </Form>
  );
}

/**
 * A list table named by `label` (region and caption), its header row from `columns`. The region is
 * focusable, so a keyboard can scroll the table sideways on a narrow screen.
 */
export function AdminTable({
  label,
  columns,
  className,
  minWidth,
  children,
}: {
  label: string;
  columns: { label: string; isNumeric?: boolean }[];
  /** Spacing of the region, e.g. "mt-2". */
  className: string;
  minWidth: "min-w-[40rem]" | "min-w-[44rem]";
  children: ReactNode;
}) {
  return (
    <ScrollRegion label={label} className={className}>
      <table className={`w-full ${minWidth} border-collapse text-left text-sm`}>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr className="border-b-2 border-brand-200">
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.isNumeric ? "p-2 text-right" : "p-2"}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
}

/** An alert listing what went wrong. */
/** A back-office page's month choice (`?mese=`), with the refusal of a bad one above it. */
export function MonthPicker({
  month,
  label,
  submitLabel,
  invalidMessage,
}: {
  month: string;
  label: string;
  submitLabel: string;
  invalidMessage: string | null;
}) {
  const id = useId();
  return (
    <>
      {invalidMessage && (
        <div className="mt-4">
          <FormAlert>{invalidMessage}</FormAlert>
        </div>
      )}
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={id} className="field-label">
            {label}
          </label>
          <input id={id} type="month" name="mese" defaultValue={month} required className="field-input" />
        </div>
        <button type="submit" className="btn-secondary">
          {submitLabel}
        </button>
      </Form>
    </>
  );
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-xl border-2 border-coral-600 bg-coral-50 p-4 font-semibold text-coral-700">
      {children}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-xl border-2 border-brand-600 bg-brand-50 p-4 font-semibold text-brand-800">
      {children}
    </p>
  );
}
