CREATE TYPE "public"."sdi_transmission_status" AS ENUM('queued', 'sending', 'sent', 'delivered', 'not_delivered', 'rejected', 'refused');--> statement-breakpoint
CREATE TABLE "sdi_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" text NOT NULL,
	"transmission_id" uuid NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sdi_notifications_providerId_unique" UNIQUE("provider_id")
);
--> statement-breakpoint
CREATE TABLE "sdi_transmissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"document" jsonb NOT NULL,
	"xml" text NOT NULL,
	"status" "sdi_transmission_status" DEFAULT 'queued' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_try_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"provider_id" text,
	"sdi_id" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sent_at" timestamp with time zone,
	"outcome_at" timestamp with time zone,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sdi_transmissions_providerId_unique" UNIQUE("provider_id"),
	CONSTRAINT "sdi_transmissions_invoiceId_attempt_unique" UNIQUE("invoice_id","attempt")
);
--> statement-breakpoint
ALTER TABLE "sdi_notifications" ADD CONSTRAINT "sdi_notifications_transmission_id_sdi_transmissions_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."sdi_transmissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sdi_transmissions" ADD CONSTRAINT "sdi_transmissions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sdi_notifications_transmission_id_index" ON "sdi_notifications" USING btree ("transmission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sdi_transmissions_one_open" ON "sdi_transmissions" USING btree ("invoice_id") WHERE "sdi_transmissions"."status" in ('queued', 'sending', 'sent');--> statement-breakpoint
CREATE INDEX "sdi_transmissions_status_next_try_at_index" ON "sdi_transmissions" USING btree ("status","next_try_at");