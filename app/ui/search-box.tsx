import { useId } from "react";
import { useTranslation } from "react-i18next";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { SearchIcon } from "./icons";

/**
 * The shop's search: a plain GET form to /shop?fromsearch=true&search=... (SPEC.md section 2),
 * so it works before and without JavaScript.
 */
export function SearchBox({ locale, className = "" }: { locale: Locale; className?: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <form method="get" action={localizedHref("/shop", locale)} role="search" className={`flex items-stretch gap-2 ${className}`}>
      <input type="hidden" name="fromsearch" value="true" />
      <label htmlFor={inputId} className="sr-only">
        {t("search.label")}
      </label>
      <input
        id={inputId}
        type="search"
        name="search"
        required
        maxLength={100}
        autoComplete="off"
        placeholder={t("search.placeholder")}
        className="field-input min-w-0 flex-1 rounded-full px-4"
      />
      <button type="submit" className="btn-primary shrink-0 px-4">
        <SearchIcon size={18} />
        <span className="sr-only">{t("search.submit")}</span>
      </button>
    </form>
  );
}
