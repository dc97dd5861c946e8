ALTER TABLE "order_items" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "position" integer;--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "currencies" ADD COLUMN "country_code" text;--> statement-breakpoint
ALTER TABLE "currencies" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "currencies" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "currencies" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "manager_id" uuid;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "due_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "estimated_values" double precision;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "opportunity_pipeline_id" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "opportunity_step_id" text;--> statement-breakpoint
ALTER TABLE "statuses" ADD COLUMN "fg_color" text;--> statement-breakpoint
ALTER TABLE "statuses" ADD COLUMN "is_completed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "statuses" ADD COLUMN "is_overdue" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "statuses" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "statuses" ADD COLUMN "internal_labels" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "statuses" ADD COLUMN "external_labels" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "managed_by_id" uuid;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "collaborator_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "currency_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mobile_phone" text;--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_default_live_uq" ON "currencies" USING btree ("organisation_id") WHERE "currencies"."is_default" and "currencies"."deleted_at" is null;