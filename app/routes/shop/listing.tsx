import { useTranslation } from "react-i18next";
import { data, Link, redirect, useNavigation } from "react-router";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import { sharingMeta } from "#app/lib/open-graph.ts";
import { breadcrumbJsonLd } from "#app/lib/structured-data.ts";
import { ActiveFilters, ListingFilters, type FilterGroupView, type SpecFilterView } from "#app/ui/listing-filters.tsx";
import { ListingGrid } from "#app/ui/listing-grid.tsx";
import { ListingPagination, type PaginationView } from "#app/ui/listing-pagination.tsx";
import { ListingHeader, type Crumb } from "#app/ui/listing-header.tsx";
import { ListingGroups, ListingLayoutSwitch, ListingSort, type HiddenField } from "#app/ui/listing-toolbar.tsx";
import { SearchBox } from "#app/ui/search-box.tsx";
import {
  expandedFacetsParam,
  facetParam,
  hasFilters,
  hasSpecFilters,
  specFilterParam,
  withoutSpecFilter,
  isLongFacet,
  listingFacets,
  listingHref,
  listingRouteOf,
  listingSearchParams,
  paginationItems,
  parseExpandedFacets,
  parseListingQuery,
  shortlistFacetOptions,
  withGroup,
  withoutFilters,
  withoutFilterValue,
  withPage,
  type ListingFacet,
  type ListingQuery,
} from "#server/catalog/listing.ts";
import { listingGroups, listingSorts, specFilterBounds } from "#server/catalog/listing.inputs.ts";
import { getBrandIndex, getListing, type Listing } from "#server/catalog/listing.service.ts";
import { maxSearchLength } from "#server/catalog/search.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/listing";
import { productCardMessages } from "#app/ui/ui-messages.ts";

/** Fields a form must carry to keep the rest of the listing's state (`except` names the ones it sets itself). */
function hiddenFieldsOf(query: ListingQuery, except: readonly string[]): HiddenField[] {
  return [...listingSearchParams(withPage(query, 1)).entries()].filter(([name]) => !except.includes(name)).map(([name, value]) => ({ name, value }));
}

function brandIndexData(locale: Locale, brands: Awaited<ReturnType<typeof getBrandIndex>>) {
  const t = getTranslator(locale);
  return {
    kind: "brands" as const,
    brands: brands.map((brand) => ({ ...brand, href: localizedHref(`/marchi/${encodeURIComponent(brand.slug)}`, locale) })),
    crumbs: [
      { name: t("nav.home"), href: localizedHref("/", locale) },
      { name: t("listing.brands.title"), href: null },
    ] satisfies Crumb[],
    meta: { title: t("listing.brands.title"), description: t("listing.brands.metaDescription") },
  };
}

/** The listing's URL with `expanded` as the filters opened to every option. */
function withExpandedFacets(href: string, expanded: readonly ListingFacet[]): string {
  const url = new URL(href, "http://listing");
  for (const facet of expanded) url.searchParams.append(expandedFacetsParam, facetParam[facet]);
  return `${url.pathname}${url.search}`;
}

function listingData(locale: Locale, path: string, listing: Listing, expandedFacets: readonly ListingFacet[]) {
  const t = getTranslator(locale);
  const { subject, query } = listing;
  const href = (next: ListingQuery) => listingHref(path, next);
  const home = { name: t("nav.home"), href: localizedHref("/", locale) };
  const shop = { name: t("listing.shopTitle"), href: localizedHref("/shop", locale) };

  let title: string;
  let description: string;
  let crumbs: Crumb[];
  if (subject.kind === "shop") {
    title = query.search ? t("listing.searchTitle") : t("listing.shopTitle");
    description = t("listing.meta.shop");
    crumbs = [home, { ...shop, href: null }];
  } else if (subject.kind === "category") {
    title = subject.name;
    description = t("listing.meta.category", { name: subject.name });
    crumbs = [home, shop, { name: subject.name, href: null }];
  } else if (subject.kind === "subcategory") {
    title = subject.name;
    description = t("listing.meta.subcategory", { name: subject.name, category: subject.category.name });
    crumbs = [
      home,
      shop,
      { name: subject.category.name, href: localizedHref(`/categoria/${encodeURIComponent(subject.category.slug)}`, locale) },
      { name: subject.name, href: null },
    ];
  } else {
    title = subject.name;
    description = t("listing.meta.brand", { name: subject.name });
    crumbs = [home, { name: t("listing.brands.title"), href: localizedHref("/marchi", locale) }, { name: subject.name, href: null }];
  }

  const facetLabel = (facet: (typeof listingFacets)[number], value: string, label: string) =>
    facet === "colours" ? t(`listing.colours.${value}`, { defaultValue: label }) : label;
  const facetOptions = listingFacets.flatMap((facet) => {
    const options = listing.facets[facet];
    return options ? [{ facet, options: options.map((option) => ({ ...option, label: facetLabel(facet, option.value, option.label) })) }] : [];
  });
  // A long filter shows its most used options and a link to all of them (and back): the link keeps the
  // page as it is, with the filter added to or taken from the `all` parameter.
  const filterGroups: FilterGroupView[] = facetOptions.map(({ facet, options }) => {
    const expanded = expandedFacets.includes(facet);
    const shown = expanded ? options : shortlistFacetOptions(options);
    const toggleExpanded = expanded ? expandedFacets.filter((other) => other !== facet) : [...expandedFacets, facet];
    return {
      facet,
      param: facetParam[facet],
      options: shown,
      showAll: isLongFacet(options) ? { expanded, optionCount: options.length, href: withExpandedFacets(href(query), toggleExpanded) } : null,
    };
  });
  const activeFilters = facetOptions.flatMap(({ facet, options }) =>
    options
      .filter((option) => option.selected)
      .map((option) => ({ label: option.label, removeHref: href(withoutFilterValue(query, facet, option.value)) })),
  );
  // The car-seat and stroller filters, where the listing holds products they apply to (or one is chosen).
  const { specs } = query;
  const specFilters: SpecFilterView | null =
    listing.specCounts.described > 0 || hasSpecFilters(specs)
      ? {
          params: specFilterParam,
          heightCm: { value: specs.heightCm, min: specFilterBounds.heightCm[0], max: specFilterBounds.heightCm[1] },
          ageMonths: { value: specs.ageMonths, min: specFilterBounds.ageMonths[0], max: specFilterBounds.ageMonths[1] },
          isofix: { count: listing.specCounts.isofix, selected: specs.isofix },
          rotation: { count: listing.specCounts.rotation, selected: specs.rotation },
        }
      : null;
  for (const filter of ["heightCm", "ageMonths", "isofix", "rotation"] as const) {
    const value = specs[filter];
    if (value === null || value === false) continue;
    activeFilters.push({ label: t(`productSpecs.filters.active.${filter}`, { value }), removeHref: href(withoutSpecFilter(query, filter)) });
  }

  const pagination: PaginationView = {
    page: query.page,
    pageCount: listing.pageCount,
    previousHref: query.page > 1 ? href(withPage(query, query.page - 1)) : null,
    nextHref: query.page < listing.pageCount ? href(withPage(query, query.page + 1)) : null,
    items: paginationItems(query.page, listing.pageCount).map((item) =>
      item.kind === "gap" ? item : { ...item, href: href(withPage(query, item.page)), current: item.page === query.page },
    ),
  };

  return {
    kind: "listing" as const,
    title,
    crumbs,
    subject,
    subcategories:
      subject.kind === "category"
        ? subject.subcategories
            .filter((sub) => sub.count > 0)
            .map((sub) => ({ name: sub.name, count: sub.count, href: localizedHref(`/sottocategoria/${encodeURIComponent(sub.slug)}`, locale) }))
        : [],
    products: listing.products,
    total: listing.total,
    layout: subject.kind === "shop" ? subject.layout : ("grid" as const),
    layoutLinks:
      subject.kind === "shop"
        ? { grid: listingHref(localizedHref("/shop", locale), query), list: listingHref(localizedHref("/shop-grid-standard", locale), query) }
        : null,
    search: query.search
      ? {
          text: query.search,
          mode: listing.searchMode,
          correctedText: listing.searchCorrectedText,
          truncated: query.searchTruncated,
          maxLength: maxSearchLength,
          clearHref: href({ ...query, search: "", fromSearch: false, searchTruncated: false, page: 1 }),
        }
      : null,
    path,
    filterGroups,
    // Ticking an option keeps the filters opened to every option open.
    filterHiddenFields: [
      ...hiddenFieldsOf(query, [...Object.values(facetParam), ...Object.values(specFilterParam)]),
      ...expandedFacets.map((facet) => ({ name: expandedFacetsParam, value: facetParam[facet] })),
    ],
    activeFilters,
    specFilters,
    clearFiltersHref: hasFilters(query) || query.group ? href(withoutFilters(query)) : null,
    groups: [null, ...listingGroups].map((group) => ({ group, href: href(withGroup(query, group)), current: query.group === group })),
    sort: query.sort,
    sorts: listingSorts,
    sortHiddenFields: hiddenFieldsOf(query, ["sort"]),
    pagination,
    meta: { title: query.page > 1 ? t("listing.meta.pageTitle", { title, page: query.page }) : title, description, noIndex: Boolean(query.search) },
  };
}

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: [...productCardMessages, "listing", "productSpecs.filters"] } satisfies MessagesHandle;

export async function loader({ url, request, context }: Route.LoaderArgs) {
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const route = listingRouteOf(url.pathname);
  if (!route) throw data(null, { status: 404 });
  if (route.kind === "brands") return brandIndexData(locale, await getBrandIndex(db));
  // The filters' number fields, sent empty by a form without JavaScript ("&age="): the same listing at its tidy address.
  const emptyFields = [specFilterParam.heightCm, specFilterParam.ageMonths].filter((name) => url.searchParams.get(name) === "");
  if (emptyFields.length > 0) {
    const tidy = new URLSearchParams(url.searchParams);
    for (const name of emptyFields) tidy.delete(name);
    throw redirect(`${url.pathname}${tidy.size > 0 ? `?${tidy}` : ""}`);
  }
  const query = parseListingQuery(url.searchParams);
  const listing = await getListing(db, { scope: route, query, locale, now: shopNowOf(context.get(shopContext), request) });
  if (!listing) throw data(null, { status: 404 });
  return listingData(locale, url.pathname.replace(/\/+$/, ""), listing, parseExpandedFacets(url.searchParams));
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const publicUrl = (matches.find((match) => match?.id === "root")?.loaderData as { publicUrl?: string } | undefined)?.publicUrl;
  const crumbs = loaderData?.crumbs ?? [];
  const jsonLd = publicUrl
    ? [
        breadcrumbJsonLd(
          publicUrl,
          crumbs.map((crumb) => ({ name: crumb.name, path: crumb.href ?? location.pathname })),
        ),
      ]
    : [];
  const tags = sharingMeta({ matches, location, meta: loaderData?.meta, jsonLd });
  // Search results are for people, not for search engines; their links are still followed.
  if (loaderData?.kind === "listing" && loaderData.meta.noIndex) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
};

function BrandIndexPage({ loaderData }: { loaderData: ReturnType<typeof brandIndexData> }) {
  const { t } = useTranslation();
  return (
    <>
      <ListingHeader crumbs={loaderData.crumbs} title={t("listing.brands.title")}>
        <p className="mt-3 max-w-3xl text-lg text-muted">{t("listing.brands.intro")}</p>
      </ListingHeader>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
        {loaderData.brands.length === 0 ? (
          <p className="text-muted">{t("listing.brands.empty")}</p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {loaderData.brands.map((brand) => (
              <li key={brand.slug}>
                <Link
                  to={brand.href}
                  className="flex h-full flex-col rounded-2xl bg-white p-4 shadow-card transition-shadow hover:shadow-lg focus-visible:shadow-lg"
                >
                  <span className="font-bold text-brand-800">{brand.name}</span>
                  <span className="text-sm text-muted">{t("listing.productCount", { count: brand.productCount })}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

function SearchSummary({ search }: { search: NonNullable<ReturnType<typeof listingData>["search"]> }) {
  const { t } = useTranslation();
  return (
    <div className="mt-3 max-w-3xl space-y-1 text-lg text-muted">
      <p>
        {search.mode === "similar" && search.correctedText
          ? t("listing.searchSimilar", { text: search.text, corrected: search.correctedText })
          : t("listing.searchFor", { text: search.text })}
      </p>
      {search.truncated && <p className="text-base">{t("listing.searchTruncated", { max: search.maxLength })}</p>}
      <p className="text-base">
        <Link to={search.clearHref} className="link">
          {t("listing.clearSearch")}
        </Link>
      </p>
    </div>
  );
}

function ProductListingPage({ loaderData }: { loaderData: ReturnType<typeof listingData> }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === loaderData.path;
  const locale = localeOfPath(loaderData.path);
  const { search } = loaderData;
  return (
    <>
      <ListingHeader crumbs={loaderData.crumbs} title={loaderData.title}>
        {search && <SearchSummary search={search} />}
        {loaderData.subcategories.length > 0 && (
          <nav aria-label={t("listing.subcategories")} className="mt-5">
            <ul className="flex flex-wrap gap-2">
              {loaderData.subcategories.map((sub) => (
                <li key={sub.href}>
                  <Link
                    to={sub.href}
                    className="inline-flex items-center gap-1.5 rounded-full bg-white px-3 py-1.5 text-sm font-semibold text-brand-800 shadow-sm hover:bg-brand-50"
                  >
                    {sub.name}
                    <span className="text-xs font-normal text-muted">({sub.count})</span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </ListingHeader>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8 lg:px-8">
        <div className="mb-6 space-y-6 lg:mb-0">
          <SearchBox
            locale={locale}
            action={loaderData.path}
            defaultValue={search?.text ?? ""}
            label={t("listing.searchHere")}
            placeholder={t("listing.searchPlaceholder")}
            key={`${loaderData.path}?${search?.text ?? ""}`}
          />
          <ListingFilters
            action={loaderData.path}
            groups={loaderData.filterGroups}
            hiddenFields={loaderData.filterHiddenFields}
            activeCount={loaderData.activeFilters.length}
            specs={loaderData.specFilters}
          />
        </div>

        <section aria-labelledby="listing-products" className="min-w-0">
          <h2 id="listing-products" className="sr-only">
            {t("listing.products")}
          </h2>
          <div className="flex flex-wrap items-center gap-3 border-b border-brand-100 pb-4">
            <p role="status" className="mr-auto font-semibold">
              {t("listing.productCount", { count: loaderData.total })}
            </p>
            <ListingSort
              action={loaderData.path}
              sort={loaderData.sort}
              sorts={loaderData.sorts}
              hiddenFields={loaderData.sortHiddenFields}
              className="order-3 max-sm:w-full sm:order-2"
            />
            {loaderData.layoutLinks && (
              <ListingLayoutSwitch layout={loaderData.layout} links={loaderData.layoutLinks} className="order-2 sm:order-3" />
            )}
          </div>
          <ListingGroups groups={loaderData.groups} />
          <ActiveFilters filters={loaderData.activeFilters} clearHref={loaderData.clearFiltersHref} />
          <div aria-busy={loading || undefined} className={`transition-opacity ${loading ? "opacity-60" : ""}`}>
            <ListingGrid products={loaderData.products} layout={loaderData.layout} clearFiltersHref={loaderData.clearFiltersHref} locale={locale} />
          </div>
          <ListingPagination pagination={loaderData.pagination} />
        </section>
      </div>
    </>
  );
}

export default function ListingPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "brands") return <BrandIndexPage loaderData={loaderData} />;
  return <ProductListingPage loaderData={loaderData} />;
}
