CREATE TABLE "organisation_settings" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"legal_name" text,
	"trading_name" text,
	"logo_file_id" uuid,
	"registered_address" jsonb,
	"invoice_address" jsonb,
	"email" text,
	"phone_number" text,
	"website" text,
	"vat_number" text,
	"registration_number" text,
	"bank_name" text,
	"account_holder" text,
	"iban" text,
	"bic" text,
	"payment_terms" text,
	"payment_days" integer,
	"incoterm" text,
	"incoterm_place" text,
	"delivery_terms" text,
	"terms_and_conditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default_vat_rate" double precision,
	"vat_rates" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"pdf_footer" text,
	"updated_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "vat_exempt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "vat_exemption_reason" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "payment_terms" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "payment_days" integer;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "incoterm" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "incoterm_place" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "delivery_terms" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "vat_rate" double precision;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "vat_treatment" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "vat_exemption_reason" text;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;