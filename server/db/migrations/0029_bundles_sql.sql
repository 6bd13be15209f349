-- Bundles (docs/decisions/0100-bundles.md). What a bundle's combination has on the shelf: for each part, the
-- units of the variant it takes divided by how many one bundle holds (rounded down), the least of them; 0 when a
-- part is not for sale (unpublished, on request, recalled) or the combination lacks a part. Null for a variant
-- that is no bundle's: callers then read the variant's own stock.
CREATE FUNCTION bundle_variant_stock(variant integer) RETURNS integer
LANGUAGE sql STABLE
AS $$
  SELECT CASE
    WHEN count(*) = 0 THEN NULL
    WHEN count(*) < (
      SELECT count(*) FROM bundle_parts bp2
      WHERE bp2.bundle_product_id = (SELECT pv.product_id FROM product_variants pv WHERE pv.id = variant)
    ) THEN 0
    ELSE min(
      CASE WHEN p.is_published AND NOT coalesce(l.is_on_request, false)
        AND NOT EXISTS (SELECT 1 FROM product_recall_variants r WHERE r.variant_id = v.id)
      THEN v.stock / bp.quantity ELSE 0 END
    )
  END::integer
  FROM bundle_option_parts o
  JOIN bundle_parts bp ON bp.id = o.bundle_part_id
  JOIN product_variants v ON v.id = o.part_variant_id
  JOIN products p ON p.id = v.product_id
  LEFT JOIN product_listing l ON l.product_id = p.id
  WHERE o.bundle_variant_id = variant
$$;
--> statement-breakpoint

-- A bundle's product row carries its price, so listings, cards and the cart price it as any product: the fixed
-- price, or the parts' list prices summed with the percent off as the product's discount.
CREATE FUNCTION refresh_bundle_price(bundle integer) RETURNS void
LANGUAGE sql
AS $$
  UPDATE products SET
    price_cents = CASE WHEN b.price_rule = 'fixed' THEN b.fixed_price_cents ELSE coalesce((
      SELECT sum(pp.price_cents * bp.quantity) FROM bundle_parts bp JOIN products pp ON pp.id = bp.part_product_id
      WHERE bp.bundle_product_id = b.product_id
    ), 0) END,
    discount_percent = CASE WHEN b.price_rule = 'fixed' THEN 0 ELSE b.percent_off END,
    offer_ends_at = NULL
  FROM bundles b
  WHERE b.product_id = bundle AND products.id = bundle
$$;
--> statement-breakpoint
CREATE FUNCTION refresh_bundle_price_trigger() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_TABLE_NAME = 'bundles' THEN
    PERFORM refresh_bundle_price(NEW.product_id);
  ELSIF TG_TABLE_NAME = 'bundle_parts' THEN
    PERFORM refresh_bundle_price(coalesce(NEW.bundle_product_id, OLD.bundle_product_id));
  ELSE
    PERFORM refresh_bundle_price(bp.bundle_product_id) FROM bundle_parts bp WHERE bp.part_product_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bundles_price AFTER INSERT OR UPDATE ON bundles FOR EACH ROW EXECUTE FUNCTION refresh_bundle_price_trigger();
--> statement-breakpoint
CREATE TRIGGER bundle_parts_price AFTER INSERT OR UPDATE OR DELETE ON bundle_parts FOR EACH ROW EXECUTE FUNCTION refresh_bundle_price_trigger();
--> statement-breakpoint
CREATE TRIGGER products_bundle_price AFTER UPDATE OF price_cents ON products FOR EACH ROW
  WHEN (OLD.price_cents IS DISTINCT FROM NEW.price_cents) EXECUTE FUNCTION refresh_bundle_price_trigger();
--> statement-breakpoint

-- What a bundle's pages show changes with these rows: they move the catalogue's version (0008_catalogue_version).
-- A part's stock moves page_content_version as any stock does; server/http/page-content-watch.ts drops its bundles' pages.
CREATE CONSTRAINT TRIGGER bundles_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON bundles
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER bundle_parts_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON bundle_parts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER bundle_option_parts_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON bundle_option_parts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();
