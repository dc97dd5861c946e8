ALTER TABLE "orders" ADD COLUMN "code" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_org_code_uq" ON "orders" USING btree ("organisation_id","code");--> statement-breakpoint
-- hand-written: number the existing orders per organisation (oldest first), then every new order
-- by trigger, whatever inserts it (API, imports); the advisory lock serialises the numbering per
-- organisation; deleted orders keep their numbers, so none is reused.
UPDATE "orders" o SET "code" = n.rn
FROM (SELECT "id", row_number() OVER (PARTITION BY "organisation_id" ORDER BY "created_at", "id") AS rn FROM "orders") n
WHERE o."id" = n."id";
--> statement-breakpoint
CREATE FUNCTION orders_assign_code() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.code IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('order-code:' || NEW.organisation_id::text));
    SELECT coalesce(max(o.code), 0) + 1 INTO NEW.code FROM orders o WHERE o.organisation_id = NEW.organisation_id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_assign_code BEFORE INSERT ON "orders" FOR EACH ROW EXECUTE FUNCTION orders_assign_code();
