import { and, eq, inArray, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf, type Tx } from '../../db/client.ts';
import { briefElements } from '../../db/schema/briefs.ts';
import { catalogueEntries } from '../../db/schema/catalogue.ts';
import { fileContents, files } from '../../db/schema/organisation-data.ts';
import { organisationSettings } from '../../db/schema/organisation-settings.ts';
import { companies, organisations } from '../../db/schema/platform.ts';
import { quoteGuestLinks, quotes } from '../../db/schema/quotes.ts';

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

/**
 * The revision of the organisation's catalogue (the one of catalogueFingerprint, whose names the
 * PDF prints): its entries' latest update and their count, as a column of a quote's row.
 */
const catalogueRevision = sql<string>`(select coalesce(max(${catalogueEntries.updatedAt})::text, '') || ':' || count(*)
  from ${catalogueEntries} where ${catalogueEntries.organisationId} = ${quotes.organisationId})`;

/**
 * What a stored quote PDF prints besides the quote (pdf-service.ts, templateFingerprint): the
 * revisions of the organisation, its settings, its catalogue and the customer company.
 */
export async function findTemplateRevisions(db: Executor, organisationId: string, companyId: string) {
  const [row] = await db
    .select({
      organisationAt: organisations.updatedAt,
      settingsAt: organisationSettings.updatedAt,
      catalogue: sql<string>`(select coalesce(max(${catalogueEntries.updatedAt})::text, '') || ':' || count(*)
        from ${catalogueEntries} where ${catalogueEntries.organisationId} = ${organisations.id})`,
      companyAt: companies.updatedAt,
    })
    .from(organisations)
    .leftJoin(organisationSettings, eq(organisationSettings.organisationId, organisations.id))
    .leftJoin(companies, and(eq(companies.id, companyId), eq(companies.organisationId, organisations.id)))
    .where(eq(organisations.id, organisationId));
  return row;
}

/** What a download of a stored quote PDF needs: its metadata and its bytes (joined from file_contents). */
export const storedPdfColumns = {
  filename: files.filename,
  sha256: files.sha256,
  mimeType: files.mimeType,
  renderKey: files.renderKey,
  label: files.label,
  content: fileContents.content,
};

/** The live PDF files of a quote in a language (the files labelled with it). */
export function liveQuotePdfs(
  organisationId: string | SQLWrapper,
  quoteId: string | SQLWrapper,
  language: string | SQLWrapper,
) {
  return and(
    eq(files.organisationId, organisationId),
    eq(files.entity, 'quote'),
    eq(files.entityId, quoteId),
    eq(files.label, language),
    eq(files.mimeType, 'application/pdf'),
    isNull(files.deletedAt),
  );
}

/**
 * What serving a stored quote PDF needs, in one statement (the hot path of a download): the
 * quote's state, company and revision, what the template version is made of, and the stored file
 * of the language with its bytes (none when it was never stored).
 */
export function prepareStoredPdfHit(db: Db) {
  return db
    .select({
      state: quotes.state,
      companyId: quotes.companyId,
      createdById: quotes.createdById,
      updatedAt: quotes.updatedAt,
      validUntil: quotes.validUntil,
      organisationAt: organisations.updatedAt,
      settingsAt: organisationSettings.updatedAt,
      catalogue: catalogueRevision,
      companyAt: companies.updatedAt,
      fileId: files.id,
      ...storedPdfColumns,
    })
    .from(quotes)
    .innerJoin(organisations, eq(organisations.id, quotes.organisationId))
    .leftJoin(organisationSettings, eq(organisationSettings.organisationId, quotes.organisationId))
    .leftJoin(companies, eq(companies.id, quotes.companyId))
    .leftJoin(files, liveQuotePdfs(quotes.organisationId, quotes.id, sql.placeholder('language')))
    .leftJoin(fileContents, eq(fileContents.fileId, files.id))
    .where(
      and(
        eq(quotes.id, sql.placeholder('quoteId')),
        eq(quotes.organisationId, sql.placeholder('organisationId')),
        isNull(quotes.deletedAt),
      ),
    )
    .orderBy(files.createdAt)
    .limit(1)
    .prepare('quote_stored_pdf_hit');
}

export type StoredPdfHitQuery = ReturnType<typeof prepareStoredPdfHit>;
