CREATE TABLE "quote_code_counters" (
	"organisation_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "quote_code_counters_organisation_id_year_pk" PRIMARY KEY("organisation_id","year")
);
--> statement-breakpoint
CREATE TABLE "quote_guest_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"language" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"parent_id" uuid,
	"position" integer DEFAULT 1 NOT NULL,
	"brief_id" uuid,
	"brief_element_id" uuid,
	"article_id" uuid,
	"prediction_id" uuid,
	"price_source" text,
	"reference" text,
	"name" text NOT NULL,
	"description" text,
	"quantity" double precision NOT NULL,
	"price" double precision,
	"total_price" double precision DEFAULT 0 NOT NULL,
	"tooling_cost" double precision DEFAULT 0 NOT NULL,
	"delivery_cost" double precision DEFAULT 0 NOT NULL,
	"valid" boolean DEFAULT false NOT NULL,
	"comment" text,
	"length" double precision,
	"width" double precision,
	"height" double precision,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "quote_items_reference_check" CHECK ("quote_items"."brief_id" is not null or "quote_items"."brief_element_id" is not null or "quote_items"."article_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"code" text,
	"code_year" integer,
	"code_number" integer,
	"name" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"parent_quote_id" uuid,
	"root_quote_id" uuid,
	"project_id" uuid,
	"company_id" uuid NOT NULL,
	"contact_id" uuid,
	"address_id" uuid,
	"email" text,
	"phone_number" text,
	"receiver_name" text,
	"valid_until" timestamp with time zone,
	"currency" text NOT NULL,
	"total_price" double precision DEFAULT 0 NOT NULL,
	"tooling_cost" double precision DEFAULT 0 NOT NULL,
	"delivery_cost" double precision DEFAULT 0 NOT NULL,
	"published_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"rejection_reason" text,
	"expired_at" timestamp with time zone,
	"responded_by_id" uuid,
	"order_id" uuid,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "quotes_state_check" CHECK ("quotes"."state" in ('draft', 'published', 'signed', 'rejected', 'expired')),
	CONSTRAINT "quotes_code_when_published" CHECK (("quotes"."state" = 'draft') = ("quotes"."code" is null))
);
--> statement-breakpoint
ALTER TABLE "quote_code_counters" ADD CONSTRAINT "quote_code_counters_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_guest_links" ADD CONSTRAINT "quote_guest_links_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_guest_links" ADD CONSTRAINT "quote_guest_links_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_parent_id_quote_items_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."quote_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_brief_id_briefs_id_fk" FOREIGN KEY ("brief_id") REFERENCES "public"."briefs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_brief_element_id_brief_elements_id_fk" FOREIGN KEY ("brief_element_id") REFERENCES "public"."brief_elements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_parent_quote_id_quotes_id_fk" FOREIGN KEY ("parent_quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_root_quote_id_quotes_id_fk" FOREIGN KEY ("root_quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_contact_id_users_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quote_guest_links_token_uq" ON "quote_guest_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "quote_guest_links_quote_idx" ON "quote_guest_links" USING btree ("quote_id","created_at");--> statement-breakpoint
CREATE INDEX "quote_items_quote_position_idx" ON "quote_items" USING btree ("quote_id","position","id") WHERE "quote_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quote_items_parent_idx" ON "quote_items" USING btree ("parent_id") WHERE "quote_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quote_items_org_brief_idx" ON "quote_items" USING btree ("organisation_id","brief_id") WHERE "quote_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quote_items_org_article_idx" ON "quote_items" USING btree ("organisation_id","article_id") WHERE "quote_items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quote_items_org_updated_idx" ON "quote_items" USING btree ("organisation_id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_org_code_uq" ON "quotes" USING btree ("organisation_id","code") WHERE "quotes"."code" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_order_uq" ON "quotes" USING btree ("order_id") WHERE "quotes"."order_id" is not null;--> statement-breakpoint
CREATE INDEX "quotes_org_updated_idx" ON "quotes" USING btree ("organisation_id","updated_at","id") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_org_created_idx" ON "quotes" USING btree ("organisation_id","created_at","id") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_org_company_idx" ON "quotes" USING btree ("organisation_id","company_id","updated_at") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_org_project_idx" ON "quotes" USING btree ("organisation_id","project_id","updated_at") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_org_state_idx" ON "quotes" USING btree ("organisation_id","state","updated_at") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_root_idx" ON "quotes" USING btree ("root_quote_id");--> statement-breakpoint
CREATE INDEX "quotes_published_valid_until_idx" ON "quotes" USING btree ("valid_until") WHERE "quotes"."state" = 'published' and "quotes"."deleted_at" is null;