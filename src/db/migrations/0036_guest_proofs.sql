ALTER TABLE "artwork_proofs" ADD COLUMN "decided_guest_link_id" uuid;--> statement-breakpoint
ALTER TABLE "artwork_proofs" ADD COLUMN "decided_email" text;--> statement-breakpoint
ALTER TABLE "quote_guest_links" ADD COLUMN "proofs" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "artwork_proofs" ADD CONSTRAINT "artwork_proofs_decided_guest_link_id_quote_guest_links_id_fk" FOREIGN KEY ("decided_guest_link_id") REFERENCES "public"."quote_guest_links"("id") ON DELETE no action ON UPDATE no action;