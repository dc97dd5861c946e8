CREATE TABLE "brief_counts" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"live" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "brief_counts" ADD CONSTRAINT "brief_counts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;