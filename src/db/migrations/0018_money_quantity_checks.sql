-- Money and quantities are finite and within +-10^15 (issue 14, defect 3): the API accepts at most
-- 10^12 for an amount and 10^9 for a quantity (platform/input-safety.ts); the wider database bound
-- leaves room for aggregates (an order's items total) while refusing NaN and +-Infinity, which a
-- double precision column otherwise stores and no JSON answer can carry. abs(NaN) <= x is false in
-- PostgreSQL (NaN sorts above every number), so one comparison refuses all three.
-- Rows written before these checks are repaired first, so no list meets a bad row: a nullable
-- value becomes NULL, a required one 0, except an order item's total (quantity x unit price again
-- when both are sound) and an order's items total (the sum of its live items again).
UPDATE "articles" SET "price" = NULL WHERE NOT (abs("price") <= 1e15);
--> statement-breakpoint
UPDATE "articles" SET "quantity" = 0 WHERE NOT (abs("quantity") <= 1e15);
--> statement-breakpoint
UPDATE "orders" SET "billed_amount" = 0 WHERE NOT (abs("billed_amount") <= 1e15);
--> statement-breakpoint
UPDATE "order_items" SET "quantity" = 0 WHERE NOT (abs("quantity") <= 1e15);
--> statement-breakpoint
UPDATE "order_items" SET "unit_price" = NULL WHERE NOT (abs("unit_price") <= 1e15);
--> statement-breakpoint
UPDATE "order_items" SET "total_price" = CASE
    WHEN "unit_price" IS NOT NULL AND abs("quantity" * "unit_price") <= 1e15
    THEN round(("quantity" * "unit_price")::numeric, 2)::float8 ELSE 0 END
  WHERE NOT (abs("total_price") <= 1e15);
--> statement-breakpoint
UPDATE "orders" o SET "items_total" = coalesce((
    SELECT CASE WHEN abs(sum(oi."total_price")) <= 1e15 THEN round(sum(oi."total_price")::numeric, 2)::float8 END
    FROM "order_items" oi WHERE oi."order_id" = o."id" AND oi."deleted_at" IS NULL), 0)
  WHERE NOT (abs(o."items_total") <= 1e15);
--> statement-breakpoint
UPDATE "quotes" SET "total_price" = 0 WHERE NOT (abs("total_price") <= 1e15);
--> statement-breakpoint
UPDATE "quotes" SET "tooling_cost" = 0 WHERE NOT (abs("tooling_cost") <= 1e15);
--> statement-breakpoint
UPDATE "quotes" SET "delivery_cost" = 0 WHERE NOT (abs("delivery_cost") <= 1e15);
--> statement-breakpoint
UPDATE "quote_items" SET "quantity" = 0 WHERE NOT (abs("quantity") <= 1e15);
--> statement-breakpoint
UPDATE "quote_items" SET "price" = NULL WHERE NOT (abs("price") <= 1e15);
--> statement-breakpoint
UPDATE "quote_items" SET "total_price" = 0 WHERE NOT (abs("total_price") <= 1e15);
--> statement-breakpoint
UPDATE "quote_items" SET "tooling_cost" = 0 WHERE NOT (abs("tooling_cost") <= 1e15);
--> statement-breakpoint
UPDATE "quote_items" SET "delivery_cost" = 0 WHERE NOT (abs("delivery_cost") <= 1e15);
--> statement-breakpoint
UPDATE "briefs" SET "total_price" = NULL WHERE NOT (abs("total_price") <= 1e15);
--> statement-breakpoint
UPDATE "brief_elements" SET "unit_price" = NULL WHERE NOT (abs("unit_price") <= 1e15);
--> statement-breakpoint
UPDATE "brief_elements" SET "total_price" = NULL WHERE NOT (abs("total_price") <= 1e15);
--> statement-breakpoint
UPDATE "brief_predictions" SET "total_price" = 0 WHERE NOT (abs("total_price") <= 1e15);
--> statement-breakpoint
UPDATE "brief_predictions" SET "product_cost" = 0 WHERE NOT (abs("product_cost") <= 1e15);
--> statement-breakpoint
UPDATE "brief_predictions" SET "product_price" = 0 WHERE NOT (abs("product_price") <= 1e15);
--> statement-breakpoint
UPDATE "brief_predictions" SET "margin_amount" = 0 WHERE NOT (abs("margin_amount") <= 1e15);
--> statement-breakpoint
UPDATE "brief_predictions" SET "tooling_cost" = 0 WHERE NOT (abs("tooling_cost") <= 1e15);
--> statement-breakpoint
UPDATE "brief_predictions" SET "delivery_cost" = 0 WHERE NOT (abs("delivery_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_price_in_range" CHECK (abs("price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_quantity_in_range" CHECK (abs("quantity") <= 1e15);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_billed_amount_in_range" CHECK (abs("billed_amount") <= 1e15);
--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_quantity_in_range" CHECK (abs("quantity") <= 1e15);
--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_unit_price_in_range" CHECK (abs("unit_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_total_price_in_range" CHECK (abs("total_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_items_total_in_range" CHECK (abs("items_total") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_total_price_in_range" CHECK (abs("total_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_tooling_cost_in_range" CHECK (abs("tooling_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_delivery_cost_in_range" CHECK (abs("delivery_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_quantity_in_range" CHECK (abs("quantity") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_price_in_range" CHECK (abs("price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_total_price_in_range" CHECK (abs("total_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_tooling_cost_in_range" CHECK (abs("tooling_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "quote_items" ADD CONSTRAINT "quote_items_delivery_cost_in_range" CHECK (abs("delivery_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_total_price_in_range" CHECK (abs("total_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_elements" ADD CONSTRAINT "brief_elements_unit_price_in_range" CHECK (abs("unit_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_elements" ADD CONSTRAINT "brief_elements_total_price_in_range" CHECK (abs("total_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_total_price_in_range" CHECK (abs("total_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_product_cost_in_range" CHECK (abs("product_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_product_price_in_range" CHECK (abs("product_price") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_margin_amount_in_range" CHECK (abs("margin_amount") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_tooling_cost_in_range" CHECK (abs("tooling_cost") <= 1e15);
--> statement-breakpoint
ALTER TABLE "brief_predictions" ADD CONSTRAINT "brief_predictions_delivery_cost_in_range" CHECK (abs("delivery_cost") <= 1e15);
