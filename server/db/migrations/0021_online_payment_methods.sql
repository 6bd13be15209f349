CREATE TYPE "public"."online_payment_method" AS ENUM('card', 'paypal', 'satispay', 'klarna', 'sepa_debit');--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "online_payment_method" "online_payment_method";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processing_since" timestamp with time zone;--> statement-breakpoint
-- Every online payment so far was by card.
UPDATE "orders" SET "online_payment_method" = 'card' WHERE "payment_method" = 'card';
