DROP INDEX "products_search_text_trgm_idx";--> statement-breakpoint

-- Typos are matched against the shop's own words rather than against every product's text: a
-- trigram lookup in this small list finds "passeggino" for "pasegino" in milliseconds, and the
-- corrected words then go through the full-text index like any search (server/catalog/search.service.ts).
-- The words of published products' names, short descriptions and first brands, lower-cased and unaccented.
-- The table is schema-qualified: PostgreSQL 17+ builds and refreshes materialized views with a
-- search_path of pg_catalog only.
CREATE MATERIALIZED VIEW product_search_words AS
  SELECT word FROM ts_stat('SELECT to_tsvector(''simple'', search_text) FROM public.products WHERE is_published');
--> statement-breakpoint
CREATE INDEX product_search_words_trgm_idx ON product_search_words USING gin (word gin_trgm_ops);
--> statement-breakpoint

-- The query of a search with typos: each element of `word_groups` holds, space-separated, the shop's
-- words closest to one typed word; any of them may match (in Italian or English stemming), and every
-- group must. NULL when a group is empty: that typed word is like nothing the shop sells.
CREATE FUNCTION shop_similar_query(word_groups text[], page_config regconfig)
RETURNS tsquery
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
  other_config regconfig := CASE WHEN page_config = 'shop_en'::regconfig THEN 'shop_it'::regconfig ELSE 'shop_en'::regconfig END;
  candidate text;
  candidate_query tsquery;
  group_query tsquery;
  result tsquery;
BEGIN
  FOR i IN 1 .. coalesce(array_length(word_groups, 1), 0) LOOP
    group_query := NULL;
    FOREACH candidate IN ARRAY string_to_array(word_groups[i], ' ') LOOP
      candidate_query := plainto_tsquery(page_config, candidate) || plainto_tsquery(other_config, candidate);
      CONTINUE WHEN numnode(candidate_query) = 0;
      group_query := CASE WHEN group_query IS NULL THEN candidate_query ELSE group_query || candidate_query END;
    END LOOP;
    IF group_query IS NULL THEN
      RETURN NULL;
    END IF;
    result := CASE WHEN result IS NULL THEN group_query ELSE result && group_query END;
  END LOOP;
  RETURN result;
END;
$$;
--> statement-breakpoint

-- As in 0003_search, and the word list follows.
CREATE OR REPLACE FUNCTION refresh_product_search(product_ids integer[] DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  rewritten integer;
BEGIN
  UPDATE products AS p
  SET
    search_vector =
      setweight(to_tsvector('shop_it', p.name_it), 'A')
      || setweight(to_tsvector('shop_en', p.name_en), 'A')
      || setweight(to_tsvector('shop_it', coalesce(first_brand.name, '')), 'A')
      || setweight(to_tsvector('shop_en', coalesce(first_brand.name, '')), 'A')
      || setweight(to_tsvector('shop_it', p.short_description_it), 'B')
      || setweight(to_tsvector('shop_en', p.short_description_en), 'B'),
    search_text = lower(unaccent(concat_ws(' ', p.name_it, p.name_en, first_brand.name, p.short_description_it, p.short_description_en)))
  FROM products AS source
  LEFT JOIN LATERAL (
    SELECT b.name
    FROM product_brands AS pb
    JOIN brands AS b ON b.id = pb.brand_id
    WHERE pb.product_id = source.id
    ORDER BY pb.position, pb.brand_id
    LIMIT 1
  ) AS first_brand ON true
  WHERE p.id = source.id AND (product_ids IS NULL OR source.id = ANY (product_ids));
  GET DIAGNOSTICS rewritten = ROW_COUNT;
  REFRESH MATERIALIZED VIEW product_search_words;
  RETURN rewritten;
END;
$$;
