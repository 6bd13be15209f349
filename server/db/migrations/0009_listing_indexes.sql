DROP INDEX "product_brands_brand_id_index";--> statement-breakpoint
DROP INDEX "product_categories_category_id_index";--> statement-breakpoint
CREATE INDEX "product_brands_brand_id_product_id_index" ON "product_brands" USING btree ("brand_id","product_id");--> statement-breakpoint
CREATE INDEX "product_categories_category_id_product_id_index" ON "product_categories" USING btree ("category_id","product_id");--> statement-breakpoint
CREATE INDEX "product_colours_colour_product_id_index" ON "product_colours" USING btree ("colour","product_id");--> statement-breakpoint
CREATE INDEX "product_variants_size_product_id_index" ON "product_variants" USING btree ("size","product_id");--> statement-breakpoint
CREATE INDEX "products_published_listing_idx" ON "products" USING btree ("id","price_cents","discount_percent","offer_ends_at","is_on_request") WHERE "products"."is_published";--> statement-breakpoint
CREATE INDEX "products_published_subcategory_idx" ON "products" USING btree ("subcategory_id","id") WHERE "products"."is_published";