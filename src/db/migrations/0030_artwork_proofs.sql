CREATE TABLE "artwork_proofs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"quote_item_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"artwork_file_id" uuid NOT NULL,
	"artwork_filename" text NOT NULL,
	"artwork_sha256" text NOT NULL,
	"preflight_state" text DEFAULT 'pending' NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"artwork" jsonb,
	"proof_file_id" uuid,
	"proof_sha256" text,
	"preflight_at" timestamp with time zone,
	"decision" text,
	"decided_by_id" uuid,
	"decided_role" text,
	"typed_name" text,
	"comment" text,
	"decided_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	"hash_from_client" boolean DEFAULT false NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artwork_proofs_preflight_check" CHECK ("artwork_proofs"."preflight_state" in ('pending', 'done', 'failed')),
	CONSTRAINT "artwork_proofs_decision_check" CHECK ("artwork_proofs"."decision" is null or "artwork_proofs"."decision" in ('approved', 'changes_requested'))
);
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "proofs_pending" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "artwork_proofs" ADD CONSTRAINT "artwork_proofs_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_proofs" ADD CONSTRAINT "artwork_proofs_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artwork_proofs" ADD CONSTRAINT "artwork_proofs_quote_item_id_quote_items_id_fk" FOREIGN KEY ("quote_item_id") REFERENCES "public"."quote_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "artwork_proofs_item_version_uq" ON "artwork_proofs" USING btree ("quote_item_id","version");--> statement-breakpoint
CREATE INDEX "artwork_proofs_quote_idx" ON "artwork_proofs" USING btree ("organisation_id","quote_id","quote_item_id","version");--> statement-breakpoint
CREATE INDEX "artwork_proofs_pending_idx" ON "artwork_proofs" USING btree ("preflight_state") WHERE "artwork_proofs"."preflight_state" = 'pending';