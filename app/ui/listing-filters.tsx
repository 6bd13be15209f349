import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSubmit } from "react-router";
import type { ListingFacet } from "#server/catalog/listing.ts";
import { CloseIcon } from "./icons";
import { HiddenFields, useChosenValue, type HiddenField } from "./listing-toolbar";
import { useHydrated } from "./use-hydrated";

export type FilterOptionView = { value: string; label: string; count: number; selected: boolean };
export type FilterGroupView = {
  facet: ListingFacet;
  param: string;
  /** The options shown: all of them, or a long filter's most used ones and the chosen ones. */
  options: FilterOptionView[];
  /** A long filter's link to all its options (or back to the most used); null when every option fits. */
  showAll: { expanded: boolean; optionCount: number; href: string } | null;
};

/** The car-seat and stroller filters (docs/decisions/0101-product-specifications.md): the child's height and age, ISOFIX, rotation. */
export type SpecFilterView = {
  params: { heightCm: string; ageMonths: string; isofix: string; rotation: string };
  heightCm: { value: number | null; min: number; max: number };
  ageMonths: { value: number | null; min: number; max: number };
  isofix: { count: number; selected: boolean };
  rotation: { count: number; selected: boolean };
};

/** Swatches of the colour keys the shop uses; another colour is shown by name only. */
const swatches: Record<string, string> = { white: "#ffffff", black: "#1f2937", brown: "#8b5e3c", blue: "#2563eb" };

/** Lists longer than this scroll inside the panel. */
const longList = 8;

function FilterGroup({ group, onChange }: { group: FilterGroupView; onChange: (form: HTMLFormElement | null) => void }) {
  const { t } = useTranslation();
  const selected = group.options.filter((option) => option.selected).map((option) => option.value);
  const [checkedValues, setCheckedValues] = useChosenValue(selected, selected.join("\n"));
  if (group.options.length === 0) return null;
  return (
    <fieldset className="border-t border-brand-100 pt-4">
      <legend className="float-left mb-2 w-full font-bold">{t(`listing.facets.${group.facet}`)}</legend>
      <ul className={`clear-left space-y-0.5 ${group.options.length > longList ? "max-h-64 overflow-y-auto pr-1" : ""}`}>
        {group.options.map((option) => {
          const checked = checkedValues.includes(option.value);
          return (
            <li key={option.value}>
              <label className="flex cursor-pointer items-center gap-2.5 rounded-lg px-1.5 py-1 hover:bg-brand-50">
                <input
                  type="checkbox"
                  name={group.param}
                  value={option.value}
                  checked={checked}
                  onChange={(event) => {
                    const { checked: nowChecked, form } = event.currentTarget;
                    setCheckedValues(nowChecked ? [...checkedValues, option.value] : checkedValues.filter((value) => value !== option.value));
                    onChange(form);
                  }}
                  className="size-4 shrink-0 accent-brand-700"
                />
                {group.facet === "colours" && swatches[option.value] && (
                  <span
                    aria-hidden="true"
                    className="size-4 shrink-0 rounded-full border border-slate-400"
                    style={{ backgroundColor: swatches[option.value] }}
                  />
                )}
                <span className="min-w-0 flex-1 text-sm">{option.label}</span>
                <span aria-hidden="true" className="text-xs text-muted">
                  {option.count}
                </span>
                <span className="sr-only">{t("listing.productCount", { count: option.count })}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {group.showAll && (
        // One link that changes its words in place, so the keyboard focus stays on it after the page updates.
        <Link to={group.showAll.href} preventScrollReset className="link mt-2 inline-block px-1.5 text-sm">
          {group.showAll.expanded ? t("listing.facetShowFewer") : t("listing.facetShowAll", { total: group.showAll.optionCount })}
          <span className="sr-only">: {t(`listing.facets.${group.facet}`)}</span>
        </Link>
      )}
    </fieldset>
  );
}

function SpecNumberField({ name, label, field, hydrated }: { name: string; label: string; field: SpecFilterView["heightCm"]; hydrated: boolean }) {
  const id = useId();
  const pageValue = field.value === null ? "" : String(field.value);
  const [typed, setTyped] = useChosenValue(pageValue, pageValue);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        // With JavaScript an empty field is left out of the URL (without it, the browser sends "age=", which reads as none).
        name={hydrated && typed === "" ? undefined : name}
        min={field.min}
        max={field.max}
        step={1}
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        className="field-input w-full"
      />
    </div>
  );
}

function SpecCheckbox({
  name,
  label,
  option,
  onChange,
}: {
  name: string;
  label: string;
  option: SpecFilterView["isofix"];
  onChange: (form: HTMLFormElement | null) => void;
}) {
  const { t } = useTranslation();
  const [checked, setChecked] = useChosenValue(option.selected, String(option.selected));
  if (option.count === 0 && !option.selected) return null;
  return (
    <label className="flex cursor-pointer items-center gap-2.5 rounded-lg px-1.5 py-1 hover:bg-brand-50">
      <input
        type="checkbox"
        name={name}
        value="true"
        checked={checked}
        onChange={(event) => {
          setChecked(event.currentTarget.checked);
          onChange(event.currentTarget.form);
        }}
        className="size-4 shrink-0 accent-brand-700"
      />
      <span className="min-w-0 flex-1 text-sm">{label}</span>
      <span aria-hidden="true" className="text-xs text-muted">
        {option.count}
      </span>
      <span className="sr-only">{t("listing.productCount", { count: option.count })}</span>
    </label>
  );
}

function SpecFilterGroup({
  specs,
  hydrated,
  onChange,
}: {
  specs: SpecFilterView;
  hydrated: boolean;
  onChange: (form: HTMLFormElement | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="border-t border-brand-100 pt-4">
      <legend className="float-left mb-2 w-full font-bold">{t("productSpecs.filters.title")}</legend>
      <div className="clear-left space-y-3">
        <SpecNumberField name={specs.params.heightCm} label={t("productSpecs.filters.height")} field={specs.heightCm} hydrated={hydrated} />
        <SpecNumberField name={specs.params.ageMonths} label={t("productSpecs.filters.age")} field={specs.ageMonths} hydrated={hydrated} />
        {/* Without JavaScript the form's own button applies every filter. */}
        {hydrated && (
          <button type="submit" className="btn-secondary w-full">
            {t("productSpecs.filters.apply")}
          </button>
        )}
        <div className="space-y-0.5">
          <SpecCheckbox name={specs.params.isofix} label={t("productSpecs.filters.isofix")} option={specs.isofix} onChange={onChange} />
          <SpecCheckbox name={specs.params.rotation} label={t("productSpecs.filters.rotation")} option={specs.rotation} onChange={onChange} />
        </div>
      </div>
    </fieldset>
  );
}

/**
 * The filters (category, brand, colour, size) as one GET form: ticking several values of one filter
 * shows products with any of them, and filters combine. Without JavaScript an "apply" button sends
 * the form; with it each tick applies at once. On small screens the form folds into a native
 * `<details>` (no JavaScript needed, nothing moves at hydration); on large screens it is always open
 * where the browser can style `::details-content`, else it stays a disclosure there too.
 */
export function ListingFilters({
  action,
  groups,
  hiddenFields,
  activeCount,
  specs,
}: {
  action: string;
  groups: readonly FilterGroupView[];
  hiddenFields: readonly HiddenField[];
  activeCount: number;
  /** Offered where the listing holds car seats or strollers with specifications. */
  specs: SpecFilterView | null;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const headingId = useId();
  if (groups.every((group) => group.options.length === 0) && !specs) return null;
  return (
    <details className="lg:supports-[selector(::details-content)]:[&::details-content]:[content-visibility:visible]">
      <summary className="btn-secondary w-full lg:supports-[selector(::details-content)]:hidden">
        {activeCount > 0 ? t("listing.filtersToggleActive", { count: activeCount }) : t("listing.filtersToggle")}
      </summary>
      <Form
        method="get"
        action={action}
        preventScrollReset
        aria-labelledby={headingId}
        className="mt-4 space-y-4 rounded-2xl bg-white p-4 shadow-card lg:supports-[selector(::details-content)]:mt-0"
      >
        <h2 id={headingId} className="text-lg font-bold">
          {t("listing.filtersTitle")}
        </h2>
        <HiddenFields fields={hiddenFields} />
        {groups.map((group) => (
          <FilterGroup key={group.facet} group={group} onChange={(form) => void submit(form, { preventScrollReset: true })} />
        ))}
        {specs && <SpecFilterGroup specs={specs} hydrated={hydrated} onChange={(form) => void submit(form, { preventScrollReset: true })} />}
        {!hydrated && (
          <button type="submit" className="btn-primary w-full">
            {t("listing.filtersApply")}
          </button>
        )}
      </Form>
    </details>
  );
}

export type ActiveFilterView = { label: string; removeHref: string };

/** The filters in use, each removable with one link, and one link to remove them all. */
export function ActiveFilters({ filters, clearHref }: { filters: readonly ActiveFilterView[]; clearHref: string | null }) {
  const { t } = useTranslation();
  if (filters.length === 0 && !clearHref) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2">
      {filters.length > 0 && (
        <ul aria-label={t("listing.activeFilters")} className="flex flex-wrap gap-2">
          {filters.map((filter) => (
            <li key={filter.removeHref}>
              <Link
                to={filter.removeHref}
                preventScrollReset
                className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-2 pl-3 text-sm font-semibold text-brand-800 hover:bg-brand-100"
              >
                <span className="sr-only">{t("listing.removeFilter")} </span>
                {filter.label}
                <CloseIcon size={16} />
              </Link>
            </li>
          ))}
        </ul>
      )}
      {clearHref && (
        <Link to={clearHref} preventScrollReset className="link text-sm">
          {t("listing.clearFilters")}
        </Link>
      )}
    </div>
  );
}
