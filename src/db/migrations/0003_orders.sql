CREATE TABLE "articles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"price" double precision,
	"stocked" boolean DEFAULT false NOT NULL,
	"quantity" double precision DEFAULT 0 NOT NULL,
	"unit" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"external_id" text,
	"brief_element_id" uuid,
	"currency_id" uuid,
	"preview_file_id" uuid,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"article_id" uuid,
	"parent_id" uuid,
	"comment_id" uuid,
	"quantity" double precision NOT NULL,
	"unit_price" double precision,
	"total_price" double precision DEFAULT 0 NOT NULL,
	"unit" text,
	"position" integer DEFAULT 1 NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"company_id" uuid,
	"project_id" uuid,
	"status_id" uuid,
	"currency_id" uuid,
	"shipping_address_id" uuid,
	"external_id" text,
	"billed_amount" double precision NOT NULL,
	"order_date" timestamp with time zone,
	"expected_delivery_date" timestamp with time zone,
	"actual_delivery_date" timestamp with time zone,
	"tracking_id" text,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_preview_file_id_files_id_fk" FOREIGN KEY ("preview_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_parent_id_order_items_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_id_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_currency_id_currencies_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shipping_address_id_addresses_id_fk" FOREIGN KEY ("shipping_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "articles_code_live_uq" ON "articles" USING btree ("organisation_id",lower("code")) WHERE "articles"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "articles_org_name_idx" ON "articles" USING btree ("organisation_id","name") WHERE "articles"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "articles_org_company_idx" ON "articles" USING btree ("organisation_id","company_id") WHERE "articles"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "articles_org_brief_element_idx" ON "articles" USING btree ("organisation_id","brief_element_id") WHERE "articles"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "articles_org_updated_idx" ON "articles" USING btree ("organisation_id","updated_at");--> statement-breakpoint
CREATE INDEX "order_items_order_position_idx" ON "order_items" USING btree ("order_id","position","id") WHERE "order_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "order_items_org_article_idx" ON "order_items" USING btree ("organisation_id","article_id") WHERE "order_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "order_items_parent_idx" ON "order_items" USING btree ("parent_id") WHERE "order_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "order_items_org_updated_idx" ON "order_items" USING btree ("organisation_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_external_id_live_uq" ON "orders" USING btree ("organisation_id","external_id") WHERE "orders"."deleted_at" is null and "orders"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_org_created_idx" ON "orders" USING btree ("organisation_id","created_at") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_updated_idx" ON "orders" USING btree ("organisation_id","updated_at") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_order_date_idx" ON "orders" USING btree ("organisation_id","order_date") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_expected_idx" ON "orders" USING btree ("organisation_id","expected_delivery_date") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_actual_idx" ON "orders" USING btree ("organisation_id","actual_delivery_date") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_billed_idx" ON "orders" USING btree ("organisation_id","billed_amount") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_company_created_idx" ON "orders" USING btree ("organisation_id","company_id","created_at") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_project_created_idx" ON "orders" USING btree ("organisation_id","project_id","created_at") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_status_created_idx" ON "orders" USING btree ("organisation_id","status_id","created_at") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_creator_created_idx" ON "orders" USING btree ("organisation_id","created_by_id","created_at") WHERE "orders"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "orders_org_deleted_idx" ON "orders" USING btree ("organisation_id","deleted_at") WHERE "orders"."deleted_at" is not null;