ALTER TABLE "quote_items" ADD COLUMN "amount" double precision;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "engine_price" double precision;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "engine_amount" double precision;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "engine_cost" double precision;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "discount_percent" double precision;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "discount_amount" double precision;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "optional" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "group_label" text;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_discount_check" CHECK ("quote_items"."discount_percent" is null or "quote_items"."discount_amount" is null);