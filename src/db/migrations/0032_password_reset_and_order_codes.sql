CREATE TABLE "password_reset_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "from_dry_run_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "code" integer;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_tokens_hash_uq" ON "password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "imports_from_dry_run_uq" ON "imports" USING btree ("from_dry_run_id") WHERE "imports"."from_dry_run_id" is not null;--> statement-breakpoint
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
