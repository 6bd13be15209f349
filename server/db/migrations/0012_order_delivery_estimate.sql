ALTER TABLE "orders" ADD COLUMN "estimated_delivery_from" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "estimated_delivery_to" date;