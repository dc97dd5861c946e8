DROP INDEX "orders_org_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_updated_idx";--> statement-breakpoint
DROP INDEX "orders_org_order_date_idx";--> statement-breakpoint
DROP INDEX "orders_org_expected_idx";--> statement-breakpoint
DROP INDEX "orders_org_actual_idx";--> statement-breakpoint
DROP INDEX "orders_org_billed_idx";--> statement-breakpoint
DROP INDEX "orders_org_company_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_project_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_status_created_idx";--> statement-breakpoint
DROP INDEX "orders_org_creator_created_idx";--> statement-breakpoint
CREATE INDEX "orders_org_created_idx" ON "orders" USING btree ("organisation_id","created_at","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_updated_idx" ON "orders" USING btree ("organisation_id","updated_at","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_order_date_idx" ON "orders" USING btree ("organisation_id","order_date","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_expected_idx" ON "orders" USING btree ("organisation_id","expected_delivery_date","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_actual_idx" ON "orders" USING btree ("organisation_id","actual_delivery_date","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_billed_idx" ON "orders" USING btree ("organisation_id","billed_amount","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_company_created_idx" ON "orders" USING btree ("organisation_id","company_id","created_at","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_project_created_idx" ON "orders" USING btree ("organisation_id","project_id","created_at","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_status_created_idx" ON "orders" USING btree ("organisation_id","status_id","created_at","id") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_creator_created_idx" ON "orders" USING btree ("organisation_id","created_by_id","created_at","id") WHERE "orders"."deleted_at" is null;