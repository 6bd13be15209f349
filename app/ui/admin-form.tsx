import { useTranslation } from "react-i18next";
import { useId, type ReactNode } from "react";
import { Link } from "react-router";

/** A labelled select with its error, like TextField. */
export function SelectField({ label, name, defaultValue, error, children }: { label: string; name: string; defaultValue?: string; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className="field-input" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        {children}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function CheckboxField({ label, name, defaultChecked }: { label: string; name: string; defaultChecked?: boolean }) {
  return (
    <label className="flex min-h-11 items-center gap-3 font-semibold">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} className="size-5" />
      {label}
    </label>
  );
}

/** Previous / next links that keep the other query parameters. */
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

/** An alert listing what went wrong. */
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
