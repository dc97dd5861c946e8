-- Lists of briefs and orders read a page's ids (and skip its offset) with index-only scans, which
-- only stay index-only while the visibility map is current: every page a new or changed row lands
-- in must be vacuumed again before its index entries can be read without a heap fetch. The
-- defaults wait for 20 % of the table (plus 1,000 rows) to change, i.e. 200,000 new orders on a
-- 1M-order table, during which deep pages fetch more and more rows from the heap. Vacuum after 1 %
-- instead (it only visits the pages the visibility map marks as changed, so it stays cheap).
ALTER TABLE "briefs" SET (autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
--> statement-breakpoint
ALTER TABLE "orders" SET (autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
