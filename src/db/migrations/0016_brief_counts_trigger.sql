-- Keeps brief_counts.live equal to the number of live briefs (deleted_at is null) of each
-- organisation, whatever writes the briefs. A constraint trigger deferred to commit: the count row
-- is locked only while the transaction commits, so concurrent creations in one organisation do not
-- wait for each other's whole transaction; a rolled-back transaction never counts.
CREATE FUNCTION brief_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO brief_counts (organisation_id, live) VALUES (org, delta)
    ON CONFLICT (organisation_id) DO UPDATE SET live = brief_counts.live + excluded.live;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER briefs_count_live
  AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON briefs
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION brief_counts_track();
--> statement-breakpoint
INSERT INTO brief_counts (organisation_id, live)
SELECT organisation_id, count(*)::int FROM briefs WHERE deleted_at IS NULL GROUP BY organisation_id
ON CONFLICT (organisation_id) DO UPDATE SET live = excluded.live;
