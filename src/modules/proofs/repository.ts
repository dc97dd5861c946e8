import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf, type Tx } from '../../db/client.ts';
import { briefElements, briefPredictions } from '../../db/schema/briefs.ts';
import { artworkProofs } from '../../db/schema/proofs.ts';
import { quoteItems, quotes } from '../../db/schema/quotes.ts';
import { entity } from '../../platform/events.ts';

export const PROOF_ENTITY = entity('ARTWORK_PROOF', 'artwork_proofs');

export type ProofRow = typeof artworkProofs.$inferSelect;

export async function findProof(db: Executor, organisationId: string, quoteId: string, id: string) {
  const [row] = await db
    .select()
    .from(artworkProofs)
    .where(
      and(
        eq(artworkProofs.organisationId, organisationId),
        eq(artworkProofs.quoteId, quoteId),
        eq(artworkProofs.id, id),
      ),
    )
    .limit(1);
  return row;
}

export async function findProofById(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(artworkProofs)
    .where(and(eq(artworkProofs.organisationId, organisationId), eq(artworkProofs.id, id)))
    .limit(1);
  return row;
}

/** Every proof version of a quote: by line, newest version first. */
export function proofsOfQuote(db: Executor, organisationId: string, quoteId: string) {
  return db
    .select()
    .from(artworkProofs)
    .where(and(eq(artworkProofs.organisationId, organisationId), eq(artworkProofs.quoteId, quoteId)))
    .orderBy(asc(artworkProofs.quoteItemId), desc(artworkProofs.version));
}

/** The live lines of a quote, in their order, with whether they have children (leaves get artwork). */
export function linesOfQuote(db: Executor, quoteId: string) {
  return db
    .select({
      id: quoteItems.id,
      parentId: quoteItems.parentId,
      position: quoteItems.position,
      name: quoteItems.name,
      reference: quoteItems.reference,
      briefElementId: quoteItems.briefElementId,
      predictionId: quoteItems.predictionId,
      briefId: quoteItems.briefId,
      articleId: quoteItems.articleId,
      quantity: quoteItems.quantity,
    })
    .from(quoteItems)
    .where(and(eq(quoteItems.quoteId, quoteId), isNull(quoteItems.deletedAt)))
    .orderBy(asc(quoteItems.position), asc(quoteItems.id));
}

export type LineRow = Awaited<ReturnType<typeof linesOfQuote>>[number];

/** Locks the quote row (versions are numbered under it) and answers what the rules read. */
export async function lockQuote(tx: Tx, organisationId: string, quoteId: string) {
  const [row] = await tx
    .select({ id: quotes.id, state: quotes.state, orderId: quotes.orderId, code: quotes.code })
    .from(quotes)
    .where(and(eq(quotes.id, quoteId), eq(quotes.organisationId, organisationId), isNull(quotes.deletedAt)))
    .for('update');
  return row;
}

export async function nextVersion(tx: Tx, quoteItemId: string): Promise<number> {
  const [row] = await tx
    .select({ max: sql<number | null>`max(${artworkProofs.version})` })
    .from(artworkProofs)
    .where(eq(artworkProofs.quoteItemId, quoteItemId));
  return Number(row?.max ?? 0) + 1;
}

/**
 * Recounts the quote's lines (live) whose latest proof is not approved into `quotes.proofs_pending`
 * (what the lifecycle's convert guard reads); answers the count.
 */
export async function refreshProofsPending(tx: Tx, quoteId: string): Promise<number> {
  const result = await tx.execute(sql`
    update quotes set proofs_pending = (
      select count(*) from (
        select distinct on (p.quote_item_id) p.quote_item_id, p.decision
        from artwork_proofs p
        join quote_items i on i.id = p.quote_item_id and i.deleted_at is null
        where p.quote_id = ${quoteId}
        order by p.quote_item_id, p.version desc
      ) latest
      where latest.decision is distinct from 'approved'
    )
    where id = ${quoteId}
    returning proofs_pending`);
  const rows = rowsOf<{ proofs_pending: number }>(result);
  return Number(rows[0]?.proofs_pending ?? 0);
}

/** The priced die-line of a line's brief element: its prediction's computed element. */
export async function dieLineOfLine(db: Executor, line: Pick<LineRow, 'briefElementId' | 'predictionId'>) {
  if (!line.briefElementId || !line.predictionId) return undefined;
  const [element] = await db
    .select({ position: briefElements.position })
    .from(briefElements)
    .where(eq(briefElements.id, line.briefElementId))
    .limit(1);
  const [prediction] = await db
    .select({ output: briefPredictions.output })
    .from(briefPredictions)
    .where(eq(briefPredictions.id, line.predictionId))
    .limit(1);
  if (!element || !prediction) return undefined;
  const computed = prediction.output.briefComputed.briefElements.find((e) => e.position === element.position);
  return computed?.dieLine;
}

export type ProofInsert = typeof artworkProofs.$inferInsert;

export async function insertProof(tx: Executor, values: ProofInsert) {
  const [row] = await tx.insert(artworkProofs).values(values).returning();
  return row!;
}

/** Changes a proof (its updatedAt too); answers the whole row. */
export async function updateProof(tx: Executor, id: string, values: Partial<ProofInsert>) {
  const [row] = await tx
    .update(artworkProofs)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(artworkProofs.id, id))
    .returning();
  return row!;
}

/** Proofs of every organisation still waiting for their preflight (at most `limit`). */
export function pendingPreflights(db: Executor, limit: number) {
  return db
    .select({ id: artworkProofs.id, organisationId: artworkProofs.organisationId })
    .from(artworkProofs)
    .where(eq(artworkProofs.preflightState, 'pending'))
    .limit(limit);
}
