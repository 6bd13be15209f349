-- Product search (issue 3). Runs on PostgreSQL 15 and on PGlite (18).
-- Text-search configurations that fold accents before stemming, so "perché" and "perche", "Björn"
-- and "bjorn" index and query alike. Stop words stay those of the Snowball stemmers.
CREATE TEXT SEARCH CONFIGURATION shop_it (COPY = pg_catalog.italian);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION shop_it ALTER MAPPING FOR hword, hword_part, word WITH unaccent, italian_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION shop_en (COPY = pg_catalog.english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION shop_en ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
--> statement-breakpoint

-- The query of a search: every word must match (SPEC.md section 5), each word in Italian OR English
-- stemming, so "passeggini" finds "passeggino" and "strollers" finds "stroller". A stop word of the
-- page's language ("per", "the") is left out. With prefix_last the last word also matches as a
-- prefix, for suggestions while typing ("passegg" finds "passeggino"). NULL when no word is left.
-- Words arrive already split on anything but letters and digits (server/catalog/search.ts).
CREATE FUNCTION shop_search_query(words text[], page_config regconfig, prefix_last boolean DEFAULT false)
RETURNS tsquery
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
  other_config regconfig := CASE WHEN page_config = 'shop_en'::regconfig THEN 'shop_it'::regconfig ELSE 'shop_en'::regconfig END;
  word_count integer := coalesce(array_length(words, 1), 0);
  own tsquery;
  word_query tsquery;
  prefix text;
  result tsquery;
BEGIN
  FOR i IN 1 .. word_count LOOP
    own := plainto_tsquery(page_config, words[i]);
    word_query := own || plainto_tsquery(other_config, words[i]);
    IF prefix_last AND i = word_count THEN
      prefix := regexp_replace(lower(unaccent(words[i])), '[^a-z0-9]', '', 'g');
      IF prefix <> '' THEN
        word_query := word_query || to_tsquery('simple', prefix || ':*');
      END IF;
    ELSIF numnode(own) = 0 THEN
      CONTINUE;
    END IF;
    CONTINUE WHEN numnode(word_query) = 0;
    result := CASE WHEN result IS NULL THEN word_query ELSE result && word_query END;
  END LOOP;
  RETURN result;
END;
$$;
--> statement-breakpoint

-- Rewrites the search columns of the given products (all when NULL) in one UPDATE ... FROM that
-- joins each product's first brand (lowest position). Called by refreshProductSearch after the seed
-- and after back-office saves of products or brands. Returns how many products it rewrote.
CREATE FUNCTION refresh_product_search(product_ids integer[] DEFAULT NULL)
RETURNS integer
LANGUAGE sql
AS $$
  WITH rewritten AS (
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
    WHERE p.id = source.id AND (product_ids IS NULL OR source.id = ANY (product_ids))
    RETURNING 1
  )
  SELECT count(*)::integer FROM rewritten;
$$;
--> statement-breakpoint

-- Products that existed before this migration get their search columns now.
SELECT refresh_product_search(NULL);
