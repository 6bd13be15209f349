import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useSubmit } from "react-router";
import type { ListingGroup, ListingSort as SortName } from "#server/catalog/listing.inputs.ts";
import { Icon, type IconProps } from "./icons";
import { useHydrated } from "./use-hydrated";

/** A field a GET form carries unchanged, so it keeps the rest of the listing's state. */
export type HiddenField = { name: string; value: string };

export function HiddenFields({ fields }: { fields: readonly HiddenField[] }) {
  return fields.map((field, index) => <input key={`${field.name}-${index}`} type="hidden" name={field.name} value={field.value} />);
}

/**
 * A form control's value as the visitor just set it, until the page that applies it arrives with
 * the same value (then the page's value again, e.g. after a filter link changed it).
 */
export function useChosenValue<Value>(pageValue: Value, key: string): [Value, (value: Value) => void] {
  const [chosen, setChosen] = useState({ key, value: pageValue });
  if (chosen.key !== key) {
    setChosen({ key, value: pageValue });
    return [pageValue, (value) => setChosen({ key, value })];
  }
  return [chosen.value, (value) => setChosen({ key, value })];
}

/**
 * The sort choice: a GET form, so it works without JavaScript (with its own button); with
 * JavaScript a change applies at once. Filters and search ride along as hidden fields.
 */
export function ListingSort({
  action,
  sort,
  sorts,
  hiddenFields,
  className = "",
}: {
  action: string;
  sort: SortName;
  sorts: readonly SortName[];
  hiddenFields: readonly HiddenField[];
  className?: string;
}) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const selectId = useId();
  const [shown, choose] = useChosenValue<string>(sort, sort);
  return (
    <Form method="get" action={action} preventScrollReset className={`flex items-center gap-2 ${className}`}>
      <HiddenFields fields={hiddenFields} />
      <label htmlFor={selectId} className="text-sm font-semibold whitespace-nowrap">
        {t("listing.sortLabel")}
      </label>
      <select
        id={selectId}
        name="sort"
        value={shown}
        onChange={(event) => {
          choose(event.currentTarget.value);
          // React Router reports how it went through its navigation state; the promise only says when.
          void submit(event.currentTarget.form, { preventScrollReset: true });
        }}
        className="field-input min-w-0 flex-1 py-1.5 pr-8 text-sm sm:w-auto sm:flex-none"
      >
        {sorts.map((option) => (
          <option key={option} value={option}>
            {t(`listing.sort.${option}`)}
          </option>
        ))}
      </select>
      {!hydrated && (
        <button type="submit" className="btn-secondary px-3 py-1.5">
          {t("listing.sortApply")}
        </button>
      )}
    </Form>
  );
}

export type GroupLink = { group: ListingGroup | null; href: string; current: boolean };

/** All products, or one group of docs/rules.md#listing-and-search: new, best sellers, items on sale. */
export function ListingGroups({ groups }: { groups: readonly GroupLink[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("listing.groupsLabel")} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {groups.map(({ group, href, current }) => (
          <li key={group ?? "all"}>
            <Link
              to={href}
              preventScrollReset
              aria-current={current ? "page" : undefined}
              className={`inline-block rounded-full border px-3.5 py-1.5 text-sm font-semibold transition-colors ${
                current ? "border-brand-700 bg-brand-700 text-white" : "border-brand-200 bg-white text-brand-800 hover:bg-brand-50"
              }`}
            >
              {t(`listing.groups.${group ?? "all"}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function GridIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="4" y="4" width="7" height="7" rx="1.5" />
      <rect x="13" y="4" width="7" height="7" rx="1.5" />
      <rect x="4" y="13" width="7" height="7" rx="1.5" />
      <rect x="13" y="13" width="7" height="7" rx="1.5" />
    </Icon>
  );
}

function ListIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="4" y="5" width="5" height="5" rx="1" />
      <rect x="4" y="14" width="5" height="5" rx="1" />
      <path d="M12 7.5h8M12 16.5h8" />
    </Icon>
  );
}

/** /shop (grid) and /shop-grid-standard (list) are the same listing in two layouts (docs/rules.md#storefront). */
export function ListingLayoutSwitch({
  layout,
  links,
  className = "",
}: {
  layout: "grid" | "list";
  links: { grid: string; list: string };
  className?: string;
}) {
  const { t } = useTranslation();
  const linkClass = (current: boolean) =>
    `grid size-10 place-items-center rounded-full transition-colors ${current ? "bg-brand-700 text-white" : "text-brand-800 hover:bg-brand-50"}`;
  return (
    <nav aria-label={t("listing.layoutLabel")} className={className}>
      <ul className="flex items-center gap-1 rounded-full border border-brand-200 bg-white p-0.5">
        <li>
          <Link to={links.grid} preventScrollReset aria-current={layout === "grid" ? "page" : undefined} className={linkClass(layout === "grid")}>
            <GridIcon size={20} />
            <span className="sr-only">{t("listing.layoutGrid")}</span>
          </Link>
        </li>
        <li>
          <Link to={links.list} preventScrollReset aria-current={layout === "list" ? "page" : undefined} className={linkClass(layout === "list")}>
            <ListIcon size={20} />
            <span className="sr-only">{t("listing.layoutList")}</span>
          </Link>
        </li>
      </ul>
    </nav>
  );
}
