-- What visitors' pages show besides the catalogue (server/http/page-cache.ts): stock, settings, exchange
-- rates and price history. A kept page holds while this number and catalogue_version stay the same; every
-- process reads both at each request, so a change made through one is seen by all at their next request.
-- Stock stays out of catalogue_version, whose answers are the API's lists (they may show stock a while old).
CREATE SEQUENCE page_content_version;
--> statement-breakpoint
CREATE FUNCTION bump_page_content_version() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM nextval('public.page_content_version');
  RETURN NULL;
END;
$$;
--> statement-breakpoint

-- Deferred to the commit, as for catalogue_version: whoever reads the new number also reads the change.
CREATE CONSTRAINT TRIGGER product_variants_stock_page_content_version AFTER UPDATE OF stock ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.stock IS DISTINCT FROM NEW.stock) EXECUTE FUNCTION bump_page_content_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shop_settings_page_content_version AFTER INSERT OR UPDATE OR DELETE ON shop_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_page_content_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER exchange_rates_page_content_version AFTER INSERT OR UPDATE OR DELETE ON exchange_rates
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_page_content_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_price_history_page_content_version AFTER INSERT OR UPDATE OR DELETE ON product_price_history
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_page_content_version();
