/**
 * Product search in PostgreSQL (the same on PGlite): full-text search with Italian and English
 * stemming and accents folded (text-search configurations shop_it / shop_en and the function
 * shop_search_query, migration 0003_search). When nothing matches exactly, each word is replaced by
 * the shop's closest words (pg_trgm similarity in the word list product_search_words, migration
 * 0004_search_words) and searched again, so "pasegino" finds "passeggino". Results are ranked; the
 * listing applies them together with its filters.
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { productListing, products } from "#server/db/schema.ts";
import { getProductCards, type ProductCardData } from "./product-card";
import { minTypoWordLength, normaliseSearchText, searchWords } from "./search";

/**
 * How the words matched: "exact" (stemmed words, accents folded), "similar" (no exact match, so
 * the closest words of the shop were searched instead), or "none" (nothing matched either way).
 */
export type SearchMode = "exact" | "similar" | "none";

/** A search as a condition and an order on some table's search columns. */
export type SearchOnTable = {
  where: SQL;
  /** Higher is better; the listing's default order for a search. */
  rank: SQL<number>;
};

/** How a search matches; listingSearch and productsSearch turn it into a condition and an order on their table. */
export type SearchMatch = {
  mode: SearchMode;
  /** The tsquery itself, a scalar subquery (null when nothing can match). */
  query: SQL | null;
  /** In "similar" mode, the search as it was understood ("pasegino" -> "passeggino"). */
  correctedText: string | null;
};

/** How alike (pg_trgm similarity, 0 to 1) a shop word must be to a typed word to stand in for it. */
export const minWordSimilarity = 0.4;
/** Closest shop words tried for each typed word. */
const candidatesPerWord = 3;

const pageConfig: Record<Locale, SQL> = {
  it: sql.raw(`'shop_it'::regconfig`),
  en: sql.raw(`'shop_en'::regconfig`),
};

/** `array['a', 'b']::text[]` with each value a parameter. */
export function textArray(words: readonly string[]): SQL {
  if (words.length === 0) return sql`array[]::text[]`;
  return sql`array[${sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  )}]::text[]`;
}

/** A search that nothing can match (no words, or a typo with no close shop word). */
const matchesNothing: SearchOnTable = { where: sql`false`, rank: sql<number>`0` };

/**
 * A tsquery used as a condition on a search_vector and ranked by PostgreSQL's ts_rank (names and brand
 * weigh more than short descriptions), plus a bonus when the product's name in the page's language
 * starts with any searched word (the query's ANDs read as ORs): "passeggino" puts "Passeggino
 * leggero ..." before "Parapioggia per passeggino". `query` is a scalar subquery, computed once per
 * statement (so is its OR form), so the GIN index on search_vector serves it.
 */
function searchOn({ searchVector, nameLead }: { searchVector: PgColumn; nameLead: SQL | PgColumn }, query: SQL | null): SearchOnTable {
  if (!query) return matchesNothing;
  return {
    where: sql`${searchVector} @@ ${query}`,
    rank: sql<number>`(ts_rank(${searchVector}, ${query}) + case when ${nameLead} @@ (select replace(${query}::text, '&', '|')::tsquery) then 1 else 0 end)`.mapWith(
      Number,
    ),
  };
}

/** The first word of the product's name in the page's language, as a document (products table: computed per row). */
function productNameLead(locale: Locale): SQL {
  return sql`to_tsvector(${pageConfig[locale]}, split_part(${locale === "en" ? products.nameEn : products.nameIt}, ' ', 1))`;
}

/** The search on the shop's listing rows (product_listing keeps each name's first word as a document). */
export function listingSearch(match: SearchMatch, locale: Locale): SearchOnTable {
  return searchOn(
    { searchVector: productListing.searchVector, nameLead: locale === "en" ? productListing.nameLeadEn : productListing.nameLeadIt },
    match.query,
  );
}

/** The search on the products table (the back office's list), each name's first word computed per row. */
export function productsSearch(match: SearchMatch, locale: Locale): SearchOnTable {
  return searchOn({ searchVector: products.searchVector, nameLead: productNameLead(locale) }, match.query);
}

/** A search that matches nothing (no words, or a typo with no close shop word). */
export const noSearchMatch: SearchMatch = { mode: "none", query: null, correctedText: null };

function exactSearchQuery(words: readonly string[], locale: Locale, prefixLast: boolean): SQL {
  return sql`(select shop_search_query(${textArray(words)}, ${pageConfig[locale]}, ${prefixLast}))`;
}

/**
 * The search as typed, every word required, without asking whether anything matches (null without words):
 * for a caller that reads the matches anyway and asks similarSearchMatch only when there are none.
 */
export function exactSearchMatch({ text, locale }: { text: string; locale: Locale }): SearchMatch | null {
  const words = searchWords(text);
  return words.length === 0 ? null : { mode: "exact", query: exactSearchQuery(words, locale, false), correctedText: null };
}

/**
 * For each typed word worth correcting, in order, one line: the word and its closest shop words, best first
 * (null rows: no word worth correcting).
 */
function correctionsSql(words: readonly string[], locale: Locale): SQL<string[] | null> {
  return sql<string[] | null>`array(
    select typed.word || ' ' || coalesce((
      select string_agg(close.word, ' ' order by close.similarity desc, close.word)
      from (
        select shop_word.word, similarity(shop_word.word, unaccent(typed.word)) as similarity
        from product_search_words as shop_word
        where shop_word.word % unaccent(typed.word)
        order by similarity desc, shop_word.word
        limit ${candidatesPerWord}
      ) as close
      where close.similarity >= ${minWordSimilarity}
    ), '')
    from unnest(${textArray(words)}) with ordinality as typed(word, position)
    where numnode(plainto_tsquery(${pageConfig[locale]}, typed.word)) > 0 and char_length(typed.word) >= ${minTypoWordLength}
    order by typed.position
  )`;
}

/** Each word stands for the shop's closest words; no match when a word worth correcting has none. */
function similarMatchOf(words: readonly string[], locale: Locale, correctionLines: readonly string[]): SearchMatch {
  const corrections = correctionLines.map((line) => {
    // An empty line has no closest words either: the check below answers no match.
    const [typed = "", ...closest] = line.split(" ").filter(Boolean);
    return { typed, closest };
  });
  if (corrections.length === 0 || corrections.some((correction) => correction.closest.length === 0)) return noSearchMatch;
  const bestOf = new Map(corrections.map((correction) => [correction.typed, correction.closest[0]!]));
  const groups = corrections.map((correction) => correction.closest.join(" "));
  return {
    mode: "similar",
    query: sql`(select shop_similar_query(${textArray(groups)}, ${pageConfig[locale]}))`,
    correctedText: words.map((word) => bestOf.get(word) ?? word).join(" "),
  };
}

/** The search with typos allowed, for a caller that already knows nothing matches it exactly. */
export async function similarSearchMatch(db: Db, { text, locale }: { text: string; locale: Locale }): Promise<SearchMatch> {
  const words = searchWords(text);
  if (words.length === 0) return noSearchMatch;
  const [row] = await db.select({ corrections: correctionsSql(words, locale) }).from(sql`(select 1) as probe`);
  return similarMatchOf(words, locale, row?.corrections ?? []);
}

/**
 * Decides how a search matches: exactly when any published product matches every word; otherwise
 * each word that is not a stop word of the page's language stands for the shop's closest words.
 */
export async function matchSearch(
  db: Db,
  { text, locale, prefixLast = false }: { text: string; locale: Locale; prefixLast?: boolean },
): Promise<SearchMatch> {
  const words = searchWords(text);
  if (words.length === 0) return noSearchMatch;
  const exactQuery = exactSearchQuery(words, locale, prefixLast);
  // One statement; the corrections are looked for only when no product matches exactly (a CASE is evaluated
  // lazily), which is most searches' case.
  const [probe] = await db
    .select({
      hasExact: sql<boolean>`probe.has_exact`.mapWith(Boolean),
      corrections: sql<string[] | null>`case when probe.has_exact then null else ${correctionsSql(words, locale)} end`,
    })
    .from(
      sql`(select exists (select 1 from ${products} where ${products.isPublished} and ${products.searchVector} @@ ${exactQuery}) as has_exact) as probe`,
    );
  if (probe?.hasExact) return { mode: "exact", query: exactQuery, correctedText: null };
  return similarMatchOf(words, locale, probe?.corrections ?? []);
}

/**
 * Rewrites the search columns (search_vector, search_text) of the given products, or of all of
 * them, and the shop's word list for typos: after the seed, and after any save of a product's names,
 * short descriptions, brands or publication (also after a brand is renamed, for its products).
 * Returns how many products were rewritten.
 */
export async function refreshProductSearch(db: Db, productIds?: readonly number[]): Promise<number> {
  if (productIds?.length === 0) return 0;
  const ids =
    productIds === undefined
      ? sql`null`
      : sql`array[${sql.join(
          productIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::integer[]`;
  const [row] = await db.select({ count: sql<number>`refresh_product_search(${ids})`.mapWith(Number) }).from(sql`(select 1) as refresh`);
  return row?.count ?? 0;
}

/** How many suggestions the search box offers while typing. */
export const suggestionLimit = 6;

export type SearchSuggestions = { text: string; mode: SearchMode; correctedText: string | null; products: ProductCardData[] };

/** Best matches for what has been typed so far; the last word may be unfinished ("passegg"). */
export async function getSearchSuggestions(
  db: Db,
  { text, locale, now, limit = suggestionLimit }: { text: string; locale: Locale; now: Date; limit?: number },
): Promise<SearchSuggestions> {
  const normalised = normaliseSearchText(text).text;
  const match = await matchSearch(db, { text: normalised, locale, prefixLast: true });
  if (match.mode === "none") return { text: normalised, mode: "none", correctedText: null, products: [] };
  const searched = listingSearch(match, locale);
  const rows = await db
    .select({ id: productListing.productId })
    .from(productListing)
    .where(and(eq(productListing.isPublished, true), searched.where))
    .orderBy(desc(searched.rank), desc(productListing.saleCount), asc(productListing.productId))
    .limit(limit);
  const cards = await getProductCards(db, { productIds: rows.map((row) => row.id), locale, now });
  return { text: normalised, mode: match.mode, correctedText: match.correctedText, products: cards };
}
