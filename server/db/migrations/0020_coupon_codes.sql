CREATE TYPE "public"."discount_code_kind" AS ENUM('percent', 'fixed');--> statement-breakpoint
CREATE TABLE "discount_code_brands" (
	"discount_code_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	CONSTRAINT "discount_code_brands_discount_code_id_brand_id_pk" PRIMARY KEY("discount_code_id","brand_id")
);
--> statement-breakpoint
CREATE TABLE "discount_code_categories" (
	"discount_code_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "discount_code_categories_discount_code_id_category_id_pk" PRIMARY KEY("discount_code_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "discount_code_uses" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"discount_code_id" integer NOT NULL,
	"user_id" text,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discount_codes" DROP CONSTRAINT "discount_codes_percent_range";--> statement-breakpoint
ALTER TABLE "discount_codes" DROP CONSTRAINT "discount_codes_uses";--> statement-breakpoint
ALTER TABLE "discount_codes" ALTER COLUMN "percent" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ALTER COLUMN "max_uses" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "kind" "discount_code_kind" DEFAULT 'percent' NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "min_order_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "max_uses_per_customer" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "combines_with_free_delivery" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "applies_to_gift_lists" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "code_discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_code_brands" ADD CONSTRAINT "discount_code_brands_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_brands" ADD CONSTRAINT "discount_code_brands_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_categories" ADD CONSTRAINT "discount_code_categories_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_categories" ADD CONSTRAINT "discount_code_categories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_uses" ADD CONSTRAINT "discount_code_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_uses" ADD CONSTRAINT "discount_code_uses_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_uses" ADD CONSTRAINT "discount_code_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discount_code_uses_discount_code_id_user_id_index" ON "discount_code_uses" USING btree ("discount_code_id","user_id");--> statement-breakpoint
CREATE INDEX "discount_code_uses_discount_code_id_email_index" ON "discount_code_uses" USING btree ("discount_code_id","email");--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_amount" CHECK (("discount_codes"."kind" = 'percent' and "discount_codes"."percent" between 1 and 100 and "discount_codes"."amount_cents" is null) or ("discount_codes"."kind" = 'fixed' and "discount_codes"."amount_cents" > 0 and "discount_codes"."percent" is null));--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_limits" CHECK ("discount_codes"."min_order_cents" >= 0 and ("discount_codes"."max_uses_per_customer" is null or "discount_codes"."max_uses_per_customer" > 0));--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_window" CHECK ("discount_codes"."valid_from" < "discount_codes"."valid_until");--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_uses" CHECK ("discount_codes"."used_count" >= 0 and ("discount_codes"."max_uses" is null or "discount_codes"."used_count" <= "discount_codes"."max_uses"));--> statement-breakpoint
-- Orders already holding a code's use (not let go) get their use row, so the limit per customer counts them.
INSERT INTO "discount_code_uses" ("order_id", "discount_code_id", "user_id", "email", "created_at")
SELECT "id", "discount_code_id", "user_id", lower("email"), "created_at" FROM "orders"
WHERE "discount_code_id" IS NOT NULL AND "status" NOT IN ('cancelled', 'expired');
