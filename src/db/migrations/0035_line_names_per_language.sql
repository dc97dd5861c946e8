ALTER TABLE "order_items" ADD COLUMN "specification" jsonb;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "custom_name" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "custom_name" boolean DEFAULT false NOT NULL;