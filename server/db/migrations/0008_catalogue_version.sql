-- The catalogue's version (issue 9): answers computed from the catalogue (the API's product lists) are
-- kept in each app process for as long as this number stays the same (server/catalog/catalogue-cache.ts).
-- Every change to what the catalogue shows moves it on, whoever writes (back office, import, seed, a
-- migration), so every process sees it. A sequence, not a row: nextval takes no lock a concurrent
-- transaction waits on, and a rolled-back change only costs one needless recomputation.
CREATE SEQUENCE catalogue_version;
--> statement-breakpoint
CREATE FUNCTION bump_catalogue_version() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM nextval('public.catalogue_version');
  RETURN NULL;
END;
$$;
--> statement-breakpoint

-- Deferred to the commit, so a process that reads the new number also reads the committed change.
CREATE CONSTRAINT TRIGGER products_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_categories_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON product_categories
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_brands_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON product_brands
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_colours_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON product_colours
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_images_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON product_images
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_relations_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON product_relations
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER categories_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON categories
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER subcategories_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON subcategories
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER brands_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON brands
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint

-- Sizes: every change but stock alone. Stock moves with every order; a cached answer may show stock up
-- to the cache's maximum age old (the product page and the cart always read it live).
CREATE CONSTRAINT TRIGGER product_variants_catalogue_version AFTER INSERT OR DELETE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_catalogue_version_update
  AFTER UPDATE OF product_id, colour_id, size, sku, is_preorder, preorder_days, position ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
