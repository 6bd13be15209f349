CREATE TABLE "product_specs" (
	"product_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"stature_min_cm" integer,
	"stature_max_cm" integer,
	"r44_group" text,
	"has_isofix" boolean,
	"rotates360" boolean,
	"age_min_months" integer,
	"age_max_months" integer,
	"max_child_weight_grams" integer,
	"weight_grams" integer,
	"folded_length_cm" integer,
	"folded_width_cm" integer,
	"folded_height_cm" integer,
	"is_from_birth" boolean,
	"is_carrycot_compatible" boolean,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_specs_kind" CHECK ("product_specs"."kind" in ('car_seat', 'stroller')),
	CONSTRAINT "product_specs_stature_range" CHECK ("product_specs"."stature_min_cm" is null or "product_specs"."stature_max_cm" is null or "product_specs"."stature_min_cm" <= "product_specs"."stature_max_cm"),
	CONSTRAINT "product_specs_age_range" CHECK ("product_specs"."age_min_months" is null or "product_specs"."age_max_months" is null or "product_specs"."age_min_months" <= "product_specs"."age_max_months")
);
--> statement-breakpoint
ALTER TABLE "product_specs" ADD CONSTRAINT "product_specs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;