ALTER TABLE "carts" ADD COLUMN "gift_giver_name" text;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "gift_message" text;