CREATE TABLE "brief_elements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"brief_id" uuid,
	"position" integer DEFAULT 0 NOT NULL,
	"product_category_id" uuid,
	"product_id" uuid,
	"length_dimension" double precision,
	"width_dimension" double precision,
	"height_dimension" double precision,
	"matter_id" uuid,
	"material_type_id" uuid,
	"material_reference_id" uuid,
	"grammage" double precision,
	"corrugated_material_id" uuid,
	"decorations_count" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quantity" integer DEFAULT 0 NOT NULL,
	"want_decoration" boolean DEFAULT false NOT NULL,
	"side_printed" text,
	"recto_color_count" integer,
	"verso_color_count" integer,
	"ink_coverage" double precision,
	"printing_process" text,
	"want_lamination_recto" boolean DEFAULT false NOT NULL,
	"want_varnish_recto" boolean DEFAULT false NOT NULL,
	"want_stamping_recto" boolean DEFAULT false NOT NULL,
	"hot_stampings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"want_embossing_debossing_recto" boolean DEFAULT false NOT NULL,
	"embossings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"want_window" boolean DEFAULT false NOT NULL,
	"window_width" double precision,
	"window_height" double precision,
	"layout_counts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"commercial_margin" double precision,
	"unit_price" double precision,
	"total_price" double precision,
	"prediction_id" uuid,
	"priced_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "brief_predictions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"brief_id" uuid,
	"brief_element_id" uuid,
	"version" integer NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"currency" text NOT NULL,
	"total_price" double precision NOT NULL,
	"product_cost" double precision NOT NULL,
	"product_price" double precision NOT NULL,
	"margin_amount" double precision NOT NULL,
	"tooling_cost" double precision NOT NULL,
	"delivery_cost" double precision NOT NULL,
	"production_time" double precision NOT NULL,
	"process_count" integer NOT NULL,
	"commercial_margin" double precision NOT NULL,
	"commercial_margin_initial" double precision NOT NULL,
	"quantity" integer NOT NULL,
	"input" jsonb NOT NULL,
	"output" jsonb NOT NULL,
	"value_analysis" jsonb,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brief_predictions_owner" CHECK (("brief_predictions"."brief_id" is null) <> ("brief_predictions"."brief_element_id" is null))
);
--> statement-breakpoint
CREATE TABLE "briefs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"code" text NOT NULL,
	"code_number" integer NOT NULL,
	"name" text NOT NULL,
	"project_id" uuid,
	"company_id" uuid NOT NULL,
	"status_id" uuid,
	"prediction_status" text DEFAULT 'PENDING' NOT NULL,
	"has_price" boolean DEFAULT false NOT NULL,
	"failure_reason" text,
	"prediction_attempts" integer DEFAULT 0 NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"packing_type" text DEFAULT 'SHIPPING_CASE' NOT NULL,
	"pallet_type" text DEFAULT 'EURO' NOT NULL,
	"delivery_zone_id" uuid,
	"commercial_margin" double precision,
	"current_prediction_id" uuid,
	"current_version" integer,
	"total_price" double precision,
	"currency" text,
	"priced_at" timestamp with time zone,
	"elements_count" integer DEFAULT 0 NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "briefs_margin_range" CHECK ("briefs"."commercial_margin" is null or ("briefs"."commercial_margin" >= 0 and "briefs"."commercial_margin" <= 0.99))
);
--> statement-breakpoint
ALTER TABLE "brief_elements" ADD CONSTRAINT "brief_elements_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brief_elements" ADD CONSTRAINT "brief_elements_brief_id_briefs_id_fk" FOREIGN KEY ("brief_id") REFERENCES "public"."briefs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_brief_id_briefs_id_fk" FOREIGN KEY ("brief_id") REFERENCES "public"."briefs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_brief_element_id_brief_elements_id_fk" FOREIGN KEY ("brief_element_id") REFERENCES "public"."brief_elements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_status_id_statuses_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "brief_elements_brief_position_idx" ON "brief_elements" USING btree ("brief_id","position") WHERE "brief_elements"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "brief_elements_org_updated_idx" ON "brief_elements" USING btree ("organisation_id","updated_at");--> statement-breakpoint
CREATE INDEX "brief_elements_org_product_idx" ON "brief_elements" USING btree ("organisation_id","product_id") WHERE "brief_elements"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "brief_predictions_brief_version_uq" ON "brief_predictions" USING btree ("brief_id","version") WHERE "brief_predictions"."brief_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "brief_predictions_element_version_uq" ON "brief_predictions" USING btree ("brief_element_id","version") WHERE "brief_predictions"."brief_element_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "briefs_org_code_number_uq" ON "briefs" USING btree ("organisation_id","code_number");--> statement-breakpoint
CREATE INDEX "briefs_org_updated_idx" ON "briefs" USING btree ("organisation_id","updated_at","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_created_idx" ON "briefs" USING btree ("organisation_id","created_at","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_code_idx" ON "briefs" USING btree ("organisation_id","code_number","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_name_idx" ON "briefs" USING btree ("organisation_id","name","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_company_updated_idx" ON "briefs" USING btree ("organisation_id","company_id","updated_at","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_project_updated_idx" ON "briefs" USING btree ("organisation_id","project_id","updated_at","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_org_status_updated_idx" ON "briefs" USING btree ("organisation_id","status_id","updated_at","id") WHERE "briefs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "briefs_unfinished_idx" ON "briefs" USING btree ("updated_at") WHERE "briefs"."deleted_at" is null and "briefs"."prediction_status" in ('PENDING', 'IN_PROGRESS');