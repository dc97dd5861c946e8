ALTER TABLE "projects" ADD COLUMN "status_id" uuid;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_status_id_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "addresses_default_live_uq" ON "addresses" USING btree ("company_id","type") WHERE "addresses"."is_default" and "addresses"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "projects_external_id_live_uq" ON "projects" USING btree ("organisation_id","external_id") WHERE "projects"."deleted_at" is null and "projects"."external_id" is not null;