CREATE TABLE "catalogue_versions" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"upgraded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogue_versions" ADD CONSTRAINT "catalogue_versions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;