import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf, type Tx } from '../../db/client.ts';
import { briefElements } from '../../db/schema/briefs.ts';
import { fileContents, files } from '../../db/schema/organisation-data.ts';
import { quoteGuestLinks } from '../../db/schema/quotes.ts';
import { liveQuotePdfs, storedPdfColumns } from './repository.ts';

/** The position of each brief element in its brief. */
export function elementPositions(db: Executor, elementIds: string[]) {
  return db
    .select({ id: briefElements.id, position: briefElements.position })
    .from(briefElements)
    .where(inArray(briefElements.id, elementIds));
}

/**
 * The longest `briefPrice.leadTime.workingDays` of the predictions (null without any); the
 * caller gives at least one id.
 */
export async function longestLeadTimeOf(db: Executor, predictionIds: string[]) {
  const rows = rowsOf<{ days: number | string | null }>(
    await db.execute(sql`
      select max((p.output->'briefPrice'->'leadTime'->>'workingDays')::numeric) as days
      from brief_predictions p
      where p.id in (${sql.join(
        predictionIds.map((id) => sql`${id}`),
        sql`, `,
      )})`),
  );
  return rows[0]?.days;
}

/** The oldest live stored PDF of a quote in a language, its bytes with it (one statement: the hot path). */
export async function findQuotePdfWithContent(
  db: Executor,
  organisationId: string,
  quoteId: string,
  language: string,
) {
  const [row] = await db
    .select({ id: files.id, ...storedPdfColumns })
    .from(files)
    .innerJoin(fileContents, eq(fileContents.fileId, files.id))
    .where(liveQuotePdfs(organisationId, quoteId, language))
    .orderBy(files.createdAt)
    .limit(1);
  return row;
}

/** Waits for, then holds until the transaction ends, the right to render this quote's PDF in a language. */
export async function lockPdfRendering(tx: Tx, quoteId: string, language: string) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`quote-pdf/${quoteId}/${language}`}, 0))`,
  );
}

export async function insertGuestLink(tx: Executor, values: typeof quoteGuestLinks.$inferInsert) {
  const [row] = await tx.insert(quoteGuestLinks).values(values).returning();
  return row!;
}

/** A guest link of the organisation's quote, locked for update. */
export async function lockGuestLink(tx: Executor, organisationId: string, quoteId: string, linkId: string) {
  const [row] = await tx
    .select()
    .from(quoteGuestLinks)
    .where(
      and(
        eq(quoteGuestLinks.id, linkId),
        eq(quoteGuestLinks.quoteId, quoteId),
        eq(quoteGuestLinks.organisationId, organisationId),
      ),
    )
    .for('update');
  return row;
}

/** Revokes a guest link now (by id: the caller has locked it in its organisation). */
export async function revokeGuestLink(tx: Executor, linkId: string) {
  const [row] = await tx
    .update(quoteGuestLinks)
    .set({ revokedAt: new Date() })
    .where(eq(quoteGuestLinks.id, linkId))
    .returning();
  return row!;
}
