import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { quoteItems, quotes } from '../../db/schema/quotes.ts';

export type QuoteInsert = typeof quotes.$inferInsert;
export type QuoteItemInsert = typeof quoteItems.$inferInsert;

export async function insertQuote(tx: Executor, values: QuoteInsert) {
  const [row] = await tx.insert(quotes).values(values).returning();
  return row!;
}

/** Inserts item rows (none is a no-op); answers them. */
export async function insertQuoteItems(tx: Executor, rows: QuoteItemInsert[]) {
  return rows.length ? tx.insert(quoteItems).values(rows).returning() : [];
}

/** Soft-deletes the live items among `ids`; answers them. */
export async function softDeleteQuoteItems(tx: Executor, ids: string[]) {
  const now = new Date();
  return tx
    .update(quoteItems)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(inArray(quoteItems.id, ids), isNull(quoteItems.deletedAt)))
    .returning();
}

/**
 * Locks a lineage's original quote (revisions of one lineage are numbered one at a time) and
 * answers the lineage's highest version (undefined when it has no version).
 */
export async function lockLineageVersion(tx: Executor, rootId: string): Promise<number | undefined> {
  await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.id, rootId)).for('update');
  const [latest] = await tx
    .select({ version: sql<number>`max(${quotes.version})::int` })
    .from(quotes)
    .where(or(eq(quotes.id, rootId), eq(quotes.rootQuoteId, rootId)));
  return latest?.version;
}
