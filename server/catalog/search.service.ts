/**
 * Product search in PostgreSQL (the same on PGlite): full-text search with Italian and English
 * stemming and accents folded (text-search configurations shop_it / shop_en and the function
 * shop_search_query, migration 0003_search), and trigram matching (pg_trgm) for typos when the
 * exact search finds nothing. Results are ranked; the listing applies them with its filters.
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Locale } from "#app/lib/locale.ts";
import type { Db } from "#server/db/client.ts";
import { products } from "#server/db/schema.ts";
import { getProductCards, type ProductCardData } from "./product-card";
import { minTypoWordLength, normaliseSearchText, searchWords } from "./search";

/**
 * How the words matched: "exact" (stemmed words, accents folded), "similar" (no exact match, so
 * spelling mistakes were allowed), or "none" (nothing matched either way).
 */
export type SearchMode = "exact" | "similar" | "none";

export type SearchMatch = {
  mode: SearchMode;
  /** Condition on `products` for the listing's queries. */
  where: SQL;
  /** Higher is better; the listing's default order for a search. */
  rank: SQL<number>;
};

const pageConfig: Record<Locale, SQL> = {
  it: sql.raw(`'shop_it'::regconfig`),
  en: sql.raw(`'shop_en'::regconfig`),
};

function textArray(words: readonly string[]): SQL {
  if (words.length === 0) return sql`array[]::text[]`;
  return sql`array[${sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  )}]::text[]`;
}

/**
 * The tsquery of `words`, computed once per statement (a scalar subquery), so the GIN index on
 * search_vector serves it.
 */
function fullTextQuery(words: readonly string[], locale: Locale, prefixLast: boolean): SQL {
  return sql`(select shop_search_query(${textArray(words)}, ${pageConfig[locale]}, ${prefixLast}))`;
}

/**
 * Ranked by PostgreSQL's ts_rank (names and brand weigh more than short descriptions), plus a bonus
 * when the product's name in the page's language starts with any searched word (the query's ANDs
 * read as ORs): "passeggino" puts "Passeggino leggero ..." before "Parapioggia per passeggino".
 */
function fullTextMatch(words: readonly string[], locale: Locale, prefixLast: boolean): SearchMatch {
  const query = fullTextQuery(words, locale, prefixLast);
  const name = locale === "en" ? products.nameEn : products.nameIt;
  return {
    mode: "exact",
    where: sql`${products.searchVector} @@ ${query}`,
    rank: sql<number>`(ts_rank(${products.searchVector}, ${query}) + case when to_tsvector(${pageConfig[locale]}, split_part(${name}, ' ', 1)) @@ replace(${query}::text, '&', '|')::tsquery then 1 else 0 end)`.mapWith(
      Number,
    ),
  };
}

/**
 * Every word must be close to a word of the product's texts: pg_trgm's strict word similarity at
 * its default threshold (0.5), which finds "passeggino" for "pasegino" and "culla" for "cula".
 * The `<<%` operator is served by the trigram index on search_text.
 */
function similarMatch(words: readonly string[]): SearchMatch {
  return {
    mode: "similar",
    where: and(...words.map((word) => sql`${word} <<% ${products.searchText}`))!,
    rank: sql<number>`(${sql.join(
      words.map((word) => sql`strict_word_similarity(${word}, ${products.searchText})`),
      sql` + `,
    )})`.mapWith(Number),
  };
}

const noMatch: SearchMatch = { mode: "none", where: sql`false`, rank: sql<number>`0` };

/**
 * Decides how a search matches: exactly when any published product matches every word, else with
 * typos allowed for the words that are not stop words of the page's language.
 */
export async function matchSearch(db: Db, { text, locale, prefixLast = false }: { text: string; locale: Locale; prefixLast?: boolean }): Promise<SearchMatch> {
  const words = searchWords(text);
  if (words.length === 0) return noMatch;
  const exact = fullTextMatch(words, locale, prefixLast);
  const [probe] = await db
    .select({
      hasExact: sql<boolean>`exists (select 1 from ${products} where ${products.isPublished} and ${exact.where})`.mapWith(Boolean),
      typoWords: sql<string[]>`array(select w from unnest(${textArray(words)}) as w where numnode(plainto_tsquery(${pageConfig[locale]}, w)) > 0 and char_length(w) >= ${minTypoWordLength})`,
    })
    .from(sql`(select 1) as probe`);
  if (probe?.hasExact) return exact;
  const typoWords = probe?.typoWords ?? [];
  return typoWords.length > 0 ? similarMatch(typoWords) : noMatch;
}

/**
 * Rewrites the search columns (search_vector, search_text) of the given products, or of all of
 * them: after the seed, and after any save of a product's names, short descriptions or brands
 * (also after a brand is renamed, for its products). Returns how many products were rewritten.
 */
export async function refreshProductSearch(db: Db, productIds?: readonly number[]): Promise<number> {
  if (productIds?.length === 0) return 0;
  const ids = productIds === undefined ? sql`null` : sql`array[${sql.join(productIds.map((id) => sql`${id}`), sql`, `)}]::integer[]`;
  const [row] = await db.select({ count: sql<number>`refresh_product_search(${ids})`.mapWith(Number) }).from(sql`(select 1) as refresh`);
  return row?.count ?? 0;
}

/** How many suggestions the search box offers while typing. */
export const suggestionLimit = 6;

export type SearchSuggestions = { text: string; mode: SearchMode; products: ProductCardData[] };

/** Best matches for what has been typed so far; the last word may be unfinished ("passegg"). */
export async function getSearchSuggestions(
  db: Db,
  { text, locale, now, limit = suggestionLimit }: { text: string; locale: Locale; now: Date; limit?: number },
): Promise<SearchSuggestions> {
  const normalised = normaliseSearchText(text).text;
  const match = await matchSearch(db, { text: normalised, locale, prefixLast: true });
  if (match.mode === "none") return { text: normalised, mode: "none", products: [] };
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.isPublished, true), match.where))
    .orderBy(desc(match.rank), desc(products.saleCount), asc(products.id))
    .limit(limit);
  const cards = await getProductCards(db, { productIds: rows.map((row) => row.id), locale, now });
  return { text: normalised, mode: match.mode, products: cards };
}
