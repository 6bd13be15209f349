CREATE TABLE "product_listing" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"is_published" boolean NOT NULL,
	"is_on_request" boolean NOT NULL,
	"is_new" boolean NOT NULL,
	"sale_count" integer NOT NULL,
	"subcategory_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"price_cents" integer NOT NULL,
	"discount_percent" integer NOT NULL,
	"offer_ends_at" timestamp with time zone,
	"category_ids" integer[] NOT NULL,
	"brand_ids" integer[] NOT NULL,
	"colours" text[] NOT NULL,
	"sizes" text[] NOT NULL,
	"search_vector" "tsvector",
	"name_lead_it" "tsvector" NOT NULL,
	"name_lead_en" "tsvector" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_listing" ADD CONSTRAINT "product_listing_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_listing_category_ids_idx" ON "product_listing" USING gin ("category_ids") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_brand_ids_idx" ON "product_listing" USING gin ("brand_ids") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_colours_idx" ON "product_listing" USING gin ("colours") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_sizes_idx" ON "product_listing" USING gin ("sizes") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_search_vector_idx" ON "product_listing" USING gin ("search_vector") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_created_at_idx" ON "product_listing" USING btree ("created_at") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_subcategory_id_idx" ON "product_listing" USING btree ("subcategory_id") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_price_idx" ON "product_listing" USING btree ("price_cents","product_id") WHERE "product_listing"."is_published";--> statement-breakpoint
CREATE INDEX "product_listing_discounted_price_idx" ON "product_listing" USING btree (round("price_cents" * (100 - "discount_percent") / 100.0),"product_id") WHERE "product_listing"."is_published" and "product_listing"."discount_percent" > 0;--> statement-breakpoint
CREATE INDEX "product_listing_on_request_idx" ON "product_listing" USING btree ("product_id") WHERE "product_listing"."is_published" and "product_listing"."is_on_request";--> statement-breakpoint

-- Rewrites the listing rows of the given products (all when NULL) from products and their links: the one
-- definition of a listing row, used by the triggers below, this migration and bulk loads that skip
-- triggers (bench/lib/scale-catalogue.ts).
CREATE FUNCTION refresh_product_listing(product_ids integer[] DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  -- Every id rather than "IS NULL OR id = ANY", whose plan could not look a trigger's one product up by its key.
  IF product_ids IS NULL THEN
    product_ids := ARRAY(SELECT id FROM products);
  END IF;
  -- Two transactions changing one product's links at once: the second waits here for the first to commit,
  -- then reads its links too (a new snapshot per statement), instead of overwriting them with its older view.
  PERFORM 1 FROM product_listing WHERE product_id = ANY (product_ids) ORDER BY product_id FOR UPDATE;
  INSERT INTO product_listing AS listing (product_id, is_published, is_on_request, is_new, sale_count, subcategory_id, created_at,
    price_cents, discount_percent, offer_ends_at, category_ids, brand_ids, colours, sizes, search_vector, name_lead_it, name_lead_en)
  SELECT p.id, p.is_published,
    p.is_on_request OR EXISTS (
      SELECT 1 FROM product_brands AS pb JOIN brands AS b ON b.id = pb.brand_id WHERE pb.product_id = p.id AND b.marks_on_request
    ),
    p.is_new, p.sale_count, p.subcategory_id, p.created_at,
    p.price_cents, p.discount_percent, p.offer_ends_at,
    ARRAY(SELECT pc.category_id FROM product_categories AS pc WHERE pc.product_id = p.id ORDER BY pc.category_id),
    ARRAY(SELECT pb.brand_id FROM product_brands AS pb WHERE pb.product_id = p.id ORDER BY pb.brand_id),
    ARRAY(SELECT pco.colour FROM product_colours AS pco WHERE pco.product_id = p.id ORDER BY pco.colour),
    ARRAY(SELECT DISTINCT pv.size FROM product_variants AS pv WHERE pv.product_id = p.id ORDER BY pv.size),
    p.search_vector,
    to_tsvector('shop_it', split_part(p.name_it, ' ', 1)),
    to_tsvector('shop_en', split_part(p.name_en, ' ', 1))
  FROM products AS p
  WHERE p.id = ANY (product_ids)
  ON CONFLICT (product_id) DO UPDATE SET
    is_published = excluded.is_published, is_on_request = excluded.is_on_request, is_new = excluded.is_new,
    sale_count = excluded.sale_count, subcategory_id = excluded.subcategory_id, created_at = excluded.created_at,
    price_cents = excluded.price_cents, discount_percent = excluded.discount_percent, offer_ends_at = excluded.offer_ends_at,
    category_ids = excluded.category_ids, brand_ids = excluded.brand_ids, colours = excluded.colours, sizes = excluded.sizes,
    search_vector = excluded.search_vector, name_lead_it = excluded.name_lead_it, name_lead_en = excluded.name_lead_en;
END;
$$;
--> statement-breakpoint

-- Statement triggers with transition tables: a bulk insert (the seed, an import) rewrites each product's row
-- once per statement, not once per inserted link. Not deferred: a listing read later in the same transaction
-- already sees the change. A deleted product's row goes with it (foreign key, on delete cascade).
CREATE FUNCTION refresh_product_listing_of_statement() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'products' THEN
    PERFORM refresh_product_listing(ARRAY(SELECT id FROM new_rows));
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM refresh_product_listing(ARRAY(SELECT DISTINCT product_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM refresh_product_listing(ARRAY(SELECT DISTINCT product_id FROM old_rows));
  ELSE
    PERFORM refresh_product_listing(ARRAY(SELECT product_id FROM old_rows UNION SELECT product_id FROM new_rows));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER products_listing_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER products_listing_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_categories_listing_insert AFTER INSERT ON product_categories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_categories_listing_update AFTER UPDATE ON product_categories
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_categories_listing_delete AFTER DELETE ON product_categories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_brands_listing_insert AFTER INSERT ON product_brands
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_brands_listing_update AFTER UPDATE ON product_brands
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_brands_listing_delete AFTER DELETE ON product_brands
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_colours_listing_insert AFTER INSERT ON product_colours
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_colours_listing_update AFTER UPDATE ON product_colours
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_colours_listing_delete AFTER DELETE ON product_colours
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_variants_listing_insert AFTER INSERT ON product_variants
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint
CREATE TRIGGER product_variants_listing_delete AFTER DELETE ON product_variants
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refresh_product_listing_of_statement();
--> statement-breakpoint

-- A variant's stock changes with every order and is not part of a listing row: a statement trigger on any
-- update would rewrite (and lock) the product's listing row in every checkout. Only its size and product count.
CREATE FUNCTION refresh_product_listing_of_variant() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM refresh_product_listing(ARRAY[OLD.product_id, NEW.product_id]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER product_variants_listing_update AFTER UPDATE OF product_id, size ON product_variants
  FOR EACH ROW EXECUTE FUNCTION refresh_product_listing_of_variant();
--> statement-breakpoint

-- A brand that starts or stops marking its products on request.
CREATE FUNCTION refresh_product_listing_of_brand() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM refresh_product_listing(ARRAY(SELECT pb.product_id FROM product_brands AS pb WHERE pb.brand_id = NEW.id));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER brands_listing AFTER UPDATE OF marks_on_request ON brands FOR EACH ROW EXECUTE FUNCTION refresh_product_listing_of_brand();
--> statement-breakpoint

SELECT refresh_product_listing(NULL);
