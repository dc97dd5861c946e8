DROP INDEX "orders_org_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_updated_idx";--> statement-breakpoint
DROP INDEX "orders_org_company_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_project_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_status_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_creator_created_idx";--> statement-breakpoint
DROP INDEX "briefs_org_updated_idx";--> statement-breakpoint
DROP INDEX "briefs_org_created_idx";--> statement-breakpoint
DROP INDEX "briefs_org_company_updated_idx";--> statement-breakpoint
DROP INDEX "briefs_org_project_updated_idx";--> statement-breakpoint
DROP INDEX "briefs_org_status_updated_idx";--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_brief_element_id_brief_elements_id_fk" FOREIGN KEY ("brief_element_id") REFERENCES "public"."brief_elements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_org_created_idx" ON "orders" USING btree ("organisation_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status_id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_updated_idx" ON "orders" USING btree ("organisation_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status_id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_company_created_idx" ON "orders" USING btree ("organisation_id","company_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status_id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_project_created_idx" ON "orders" USING btree ("organisation_id","project_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status_id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_status_created_idx" ON "orders" USING btree ("organisation_id","status_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_creator_created_idx" ON "orders" USING btree ("organisation_id","created_by_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status_id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_updated_idx" ON "briefs" USING btree ("organisation_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_created_idx" ON "briefs" USING btree ("organisation_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_company_updated_idx" ON "briefs" USING btree ("organisation_id","company_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_project_updated_idx" ON "briefs" USING btree ("organisation_id","project_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_status_updated_idx" ON "briefs" USING btree ("organisation_id","status_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "briefs"."deleted_at" is null;