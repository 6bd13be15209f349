import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { Form, useFetcher, useNavigate } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { SearchSuggestion, SearchSuggestResponse } from "#app/routes/shop/search-suggest.ts";
import { SearchIcon } from "./icons";
import { Price } from "./price";
import { ProductImage } from "./product-image";
import { useHydrated } from "./use-hydrated";

/** Suggestions start once this many characters are typed. */
export const minSuggestLength = 2;
/** The header's field and the server accept this many characters (server/catalog/search.ts). */
const maxLength = 100;
/** Wait for a pause in typing before asking the server. */
const suggestDelayMs = 150;

function SuggestionOption({ suggestion, id, active, onPick }: { suggestion: SearchSuggestion; id: string; active: boolean; onPick: () => void }) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      onClick={onPick}
      className={`flex cursor-pointer items-center gap-3 rounded-xl px-2 py-1.5 ${active ? "bg-brand-50 outline-2 outline-brand-600" : "hover:bg-brand-50"}`}
    >
      <span className="size-12 shrink-0 overflow-hidden rounded-lg bg-sky-soft">
        <ProductImage image={suggestion.image} sizes="48px" fallbackWidth={160} className="size-full object-contain p-0.5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="line-clamp-2 text-sm leading-snug font-semibold">{suggestion.name}</span>
        {suggestion.brand && <span className="block text-xs text-muted">{suggestion.brand}</span>}
      </span>
      {suggestion.priceCents !== null && (
        <Price cents={suggestion.priceCents} originalCents={suggestion.originalCents} size="sm" className="shrink-0 flex-col items-end" />
      )}
    </li>
  );
}

/**
 * The shop's search: a GET form to /shop?fromsearch=true&search=... (docs/rules.md#storefront), so it works
 * before and without JavaScript. With JavaScript it is an ARIA combobox: products are suggested
 * while typing (GET /search/suggest?q=), arrow keys move through them, Enter opens the chosen one,
 * Escape closes the list, and a polite live region says how many there are.
 * `action` searches another listing (a category page searches within its category); a narrow column
 * passes a shorter `placeholder` that fits it whole.
 */
export function SearchBox({
  locale,
  className = "",
  action,
  defaultValue = "",
  label,
  placeholder,
}: {
  locale: Locale;
  className?: string;
  action?: string;
  defaultValue?: string;
  label?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const inputId = useId();
  const listboxId = useId();
  const fetcher = useFetcher<SearchSuggestResponse>();
  const { load } = fetcher;
  const [value, setValue] = useState(defaultValue);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const typed = value.trim().replace(/\s+/g, " ");
  const wanted = typed.length >= minSuggestLength ? typed : "";
  useEffect(() => {
    if (!wanted) return;
    const timer = window.setTimeout(() => void load(`${localizedHref("/search/suggest", locale)}?q=${encodeURIComponent(wanted)}`), suggestDelayMs);
    return () => window.clearTimeout(timer);
  }, [wanted, locale, load]);

  const suggestions = wanted ? (fetcher.data?.suggestions ?? []) : [];
  const expanded = hydrated && open && suggestions.length > 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  useEffect(() => {
    if (expanded && active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  });

  const pick = (suggestion: SearchSuggestion) => {
    setOpen(false);
    setActive(-1);
    // React Router reports how it went through its navigation state; the promise only says when.
    void navigate(suggestion.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    if (event.key === "ArrowDown" && count > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (!expanded || current >= count - 1 ? 0 : current + 1));
    } else if (event.key === "ArrowUp" && count > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (!expanded || current <= 0 ? count - 1 : current - 1));
    } else if (event.key === "Enter" && expanded && active >= 0 && suggestions[active]) {
      event.preventDefault();
      pick(suggestions[active]);
    } else if (event.key === "Escape" && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const comboboxProps = hydrated
    ? {
        role: "combobox",
        "aria-autocomplete": "list" as const,
        "aria-expanded": expanded,
        "aria-controls": listboxId,
        "aria-activedescendant": expanded && active >= 0 ? optionId(active) : undefined,
      }
    : {};

  return (
    <Form
      method="get"
      action={action ?? localizedHref("/shop", locale)}
      role="search"
      onSubmit={() => setOpen(false)}
      className={`relative flex items-stretch gap-2 ${className}`}
    >
      <input type="hidden" name="fromsearch" value="true" />
      <label htmlFor={inputId} className="sr-only">
        {label ?? t("search.label")}
      </label>
      <input
        id={inputId}
        type="search"
        name="search"
        required
        maxLength={maxLength}
        autoComplete="off"
        placeholder={placeholder ?? t("search.placeholder")}
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        className="field-input min-w-0 flex-1 rounded-full px-3"
        {...comboboxProps}
      />
      <button type="submit" className="btn-primary shrink-0 px-3">
        <SearchIcon size={18} />
        <span className="sr-only">{t("search.submit")}</span>
      </button>
      {hydrated && (
        <>
          <ul
            id={listboxId}
            role="listbox"
            aria-label={t("listing.suggestions")}
            hidden={!expanded}
            // Keeps the focus in the field while a suggestion is clicked.
            onMouseDown={(event) => event.preventDefault()}
            className="absolute inset-x-0 top-full z-50 mt-2 max-h-96 space-y-0.5 overflow-y-auto rounded-2xl border border-brand-100 bg-white p-2 text-left shadow-card"
          >
            {suggestions.map((suggestion, index) => (
              <SuggestionOption
                key={suggestion.id}
                suggestion={suggestion}
                id={optionId(index)}
                active={index === active}
                onPick={() => pick(suggestion)}
              />
            ))}
          </ul>
          <p role="status" className="sr-only">
            {expanded ? t("listing.suggestionsCount", { count: suggestions.length }) : ""}
          </p>
        </>
      )}
    </Form>
  );
}
