CREATE TABLE "organisation_signing_keys" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"certificate_pem" text NOT NULL,
	"private_key_sealed" text NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_acceptances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"user_id" uuid,
	"guest_link_id" uuid,
	"actor_role" text NOT NULL,
	"email" text,
	"typed_name" text,
	"confirmed" boolean DEFAULT false NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text,
	"quote_code" text NOT NULL,
	"quote_version" integer NOT NULL,
	"language" text NOT NULL,
	"pdf_file_id" uuid,
	"pdf_sha256" text NOT NULL,
	"pdf_hash_from_client" boolean DEFAULT false NOT NULL,
	"po_number" text,
	"comment" text,
	"reason" text,
	"option" jsonb,
	"signed_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quote_acceptances_decision_check" CHECK ("quote_acceptances"."decision" in ('accepted', 'declined')),
	CONSTRAINT "quote_acceptances_who_check" CHECK (("quote_acceptances"."user_id" is null) <> ("quote_acceptances"."guest_link_id" is null))
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_opt_outs" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_signing_keys" ADD CONSTRAINT "organisation_signing_keys_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_acceptances" ADD CONSTRAINT "quote_acceptances_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_acceptances" ADD CONSTRAINT "quote_acceptances_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_acceptances" ADD CONSTRAINT "quote_acceptances_guest_link_id_quote_guest_links_id_fk" FOREIGN KEY ("guest_link_id") REFERENCES "public"."quote_guest_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quote_acceptances_quote_uq" ON "quote_acceptances" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "quote_acceptances_org_idx" ON "quote_acceptances" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "email_outbox_due_idx" ON "email_outbox" USING btree ("next_attempt_at") WHERE "email_outbox"."status" = 'pending' and "email_outbox"."next_attempt_at" is not null;