ALTER TABLE "quote_items" ADD COLUMN "element_position" integer;--> statement-breakpoint
ALTER TABLE "quote_items" ADD COLUMN "brief_version" integer;--> statement-breakpoint
-- hand-written: existing element items take their element's position now and the version of the
-- prediction they were priced from (items without one keep a null version: the current one).
UPDATE "quote_items" qi SET "element_position" = be."position"
  FROM "brief_elements" be WHERE be."id" = qi."brief_element_id";--> statement-breakpoint
UPDATE "quote_items" qi SET "brief_version" = bp."version"
  FROM "brief_predictions" bp WHERE bp."id" = qi."prediction_id" AND qi."brief_element_id" IS NOT NULL;
