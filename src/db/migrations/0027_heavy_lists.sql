CREATE TABLE "live_counts" (
	"organisation_id" uuid NOT NULL,
	"entity" text NOT NULL,
	"live" integer NOT NULL,
	CONSTRAINT "live_counts_organisation_id_entity_pk" PRIMARY KEY("organisation_id","entity")
);
--> statement-breakpoint
DROP INDEX "companies_org_name_idx";--> statement-breakpoint
DROP INDEX "quotes_org_updated_idx";--> statement-breakpoint
DROP INDEX "quotes_org_created_idx";--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "render_key" text;--> statement-breakpoint
ALTER TABLE "live_counts" ADD CONSTRAINT "live_counts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_org_name_idx" ON "companies" USING btree ("organisation_id","name","id") WHERE "companies"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_org_updated_idx" ON "quotes" USING btree ("organisation_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"state","company_id") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "quotes_org_created_idx" ON "quotes" USING btree ("organisation_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"state","company_id") WHERE "quotes"."deleted_at" is null;--> statement-breakpoint
-- hand-written: pg_trgm and its indexes (drizzle-kit writes neither an extension nor an operator
-- class on an expression), and the live_counts trigger and backfill (as brief_counts', 0016).
-- On PGlite the extension is loaded by the PGlite constructor (src/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- `$cont` (`col::text like '%x%'`) and the `search` parameters (`col ilike '%x%'`) use the plain
-- indexes; `$contL` (`lower(col::text) like '%x%'`) the lower() ones. Live rows only, as every list.
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin ("name" gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "companies_name_lower_trgm_idx" ON "companies" USING gin (lower("name") gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "companies_external_id_trgm_idx" ON "companies" USING gin ("external_id" gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "companies_external_id_lower_trgm_idx" ON "companies" USING gin (lower("external_id") gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "companies_email_trgm_idx" ON "companies" USING gin ("email" gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "companies_email_lower_trgm_idx" ON "companies" USING gin (lower("email") gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "quotes_name_trgm_idx" ON "quotes" USING gin ("name" gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "quotes_code_trgm_idx" ON "quotes" USING gin ("code" gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
-- Keeps live_counts.live equal to the number of live rows of the table (TG_ARGV[0]) per
-- organisation, whatever writes them; deferred to commit so that concurrent creations do not wait
-- for each other's whole transaction, and a rolled-back transaction never counts.
CREATE FUNCTION live_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := 0;
  org uuid;
BEGIN
  IF TG_OP = 'INSERT' THEN
    org := NEW.organisation_id;
    IF NEW.deleted_at IS NULL THEN delta := 1; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    org := OLD.organisation_id;
    IF OLD.deleted_at IS NULL THEN delta := -1; END IF;
  ELSE
    org := NEW.organisation_id;
    IF OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL THEN delta := -1;
    ELSIF OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL THEN delta := 1;
    END IF;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO live_counts (organisation_id, entity, live) VALUES (org, TG_ARGV[0], delta)
    ON CONFLICT (organisation_id, entity) DO UPDATE SET live = live_counts.live + excluded.live;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER quotes_count_live
  AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON quotes
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION live_counts_track('quotes');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER companies_count_live
  AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON companies
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION live_counts_track('companies');
--> statement-breakpoint
INSERT INTO live_counts (organisation_id, entity, live)
SELECT organisation_id, 'quotes', count(*)::int FROM quotes WHERE deleted_at IS NULL GROUP BY organisation_id
ON CONFLICT (organisation_id, entity) DO UPDATE SET live = excluded.live;
--> statement-breakpoint
INSERT INTO live_counts (organisation_id, entity, live)
SELECT organisation_id, 'companies', count(*)::int FROM companies WHERE deleted_at IS NULL GROUP BY organisation_id
ON CONFLICT (organisation_id, entity) DO UPDATE SET live = excluded.live;
