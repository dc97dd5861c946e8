import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { organisationSigningKeys, quoteAcceptances } from '../../db/schema/acceptances.ts';
import { fileContents, files } from '../../db/schema/organisation-data.ts';
import { organisations, users } from '../../db/schema/platform.ts';
import { entity } from '../../platform/events.ts';
import { liveQuotePdfs } from '../quotes/pdf-repository.ts';
import { AcceptanceSchema } from './schemas.ts';

/** Its events deliver the evidence as GET /quotes/{id}/acceptance shows it (presentAcceptance). */
export const QUOTE_ACCEPTANCE_ENTITY = entity('QUOTE_ACCEPTANCE', 'quote_acceptances', 'quote_acceptances', {
  schema: AcceptanceSchema,
});
/** The label of the signed PDF among the quote's files (language PDFs are labelled en, fr, de). */
export const SIGNED_PDF_LABEL = 'signed';

export type AcceptanceRow = typeof quoteAcceptances.$inferSelect;
export type AcceptanceInsert = typeof quoteAcceptances.$inferInsert;

export async function findAcceptance(db: Executor, organisationId: string, quoteId: string) {
  const [row] = await db
    .select()
    .from(quoteAcceptances)
    .where(and(eq(quoteAcceptances.quoteId, quoteId), eq(quoteAcceptances.organisationId, organisationId)))
    .limit(1);
  return row;
}

export async function findAcceptanceById(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(quoteAcceptances)
    .where(and(eq(quoteAcceptances.id, id), eq(quoteAcceptances.organisationId, organisationId)))
    .limit(1);
  return row;
}

export async function insertAcceptance(tx: Executor, values: AcceptanceInsert) {
  const [row] = await tx.insert(quoteAcceptances).values(values).returning();
  return row!;
}

export async function setSignedFile(tx: Executor, id: string, fileId: string) {
  const [row] = await tx
    .update(quoteAcceptances)
    .set({ signedFileId: fileId })
    .where(and(eq(quoteAcceptances.id, id), isNull(quoteAcceptances.signedFileId)))
    .returning();
  return row;
}

/**
 * Locks the acceptance while it has no signed PDF yet (undefined once another request signed it),
 * so one signature is stored.
 */
export async function lockUnsignedAcceptance(tx: Executor, id: string) {
  const [row] = await tx
    .select({ signedFileId: quoteAcceptances.signedFileId })
    .from(quoteAcceptances)
    .where(and(eq(quoteAcceptances.id, id), isNull(quoteAcceptances.signedFileId)))
    .for('update');
  return row;
}

/** Inserts a quote's PDF file (metadata and bytes); answers the whole row, for its event. */
export async function insertQuotePdfFile(
  tx: Executor,
  values: Omit<typeof files.$inferInsert, 'entity' | 'mimeType'>,
  content: Buffer,
) {
  const [row] = await tx
    .insert(files)
    .values({ ...values, entity: 'quote', mimeType: 'application/pdf' })
    .returning();
  await tx.insert(fileContents).values({ fileId: row!.id, content });
  return row!;
}

/** The current stored PDF of a quote in a language (metadata only). */
export async function findLanguagePdf(db: Executor, organisationId: string, quoteId: string, label: string) {
  const [row] = await db
    .select({ id: files.id, sha256: files.sha256, filename: files.filename, size: files.size })
    .from(files)
    .where(liveQuotePdfs(organisationId, quoteId, label))
    .orderBy(asc(files.createdAt))
    .limit(1);
  return row;
}

/** A stored file with its bytes (the quote's file, live or not: evidence keeps pointing at it). */
export async function readStoredFile(db: Executor, organisationId: string, fileId: string) {
  const [row] = await db
    .select({
      id: files.id,
      filename: files.filename,
      sha256: files.sha256,
      content: fileContents.content,
    })
    .from(files)
    .innerJoin(fileContents, eq(fileContents.fileId, files.id))
    .where(and(eq(files.id, fileId), eq(files.organisationId, organisationId)))
    .limit(1);
  return row;
}

export async function findSigningKey(db: Executor, organisationId: string) {
  const [row] = await db
    .select()
    .from(organisationSigningKeys)
    .where(eq(organisationSigningKeys.organisationId, organisationId))
    .limit(1);
  return row;
}

/** Stores the organisation's key unless another process stored one first; answers the one kept. */
export async function insertSigningKey(db: Executor, values: typeof organisationSigningKeys.$inferInsert) {
  await db.insert(organisationSigningKeys).values(values).onConflictDoNothing();
  return (await findSigningKey(db, values.organisationId))!;
}

export async function organisationName(db: Executor, organisationId: string) {
  const [row] = await db
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  return row?.name ?? 'Organisation';
}

export async function findUserFacts(db: Executor, organisationId: string, userId: string) {
  const [row] = await db
    .select({
      email: users.email,
      language: users.language,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId)));
  return row;
}
