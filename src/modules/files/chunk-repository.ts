/**
 * The statements of the chunked file store (chunks.ts): hidden `files` rows and their pieces in
 * `file_chunks`.
 */
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { fileChunks } from '../../db/schema/imports.ts';
import { files } from '../../db/schema/organisation-data.ts';
import { type FileRow, fileColumns } from './repository.ts';

/** Inserts a file row (hidden by the caller with `deletedAt`); answers its id. */
export async function insertHiddenFile(db: Executor, values: typeof files.$inferInsert): Promise<string> {
  const [row] = await db.insert(files).values(values).returning({ id: files.id });
  return row!.id;
}

/**
 * Stores one piece of a file. As base64 text decoded by the database: PGlite (de)serialises bytea
 * parameters byte by byte in JavaScript, 15 times slower than this for a 256 KiB piece;
 * PostgreSQL does not mind.
 */
export async function insertChunk(db: Executor, fileId: string, seq: number, base64: string) {
  await db.execute(
    sql`insert into ${fileChunks} (file_id, seq, bytes) values (${fileId}, ${seq}, decode(${base64}, 'base64'))`,
  );
}

/** Deletes the pieces of a file. */
export async function deleteChunks(db: Executor, fileId: string) {
  await db.delete(fileChunks).where(eq(fileChunks.fileId, fileId));
}

/** Deletes a file row for good. */
export async function deleteFileRow(db: Executor, fileId: string) {
  await db.delete(files).where(eq(files.id, fileId));
}

/** Shows a written file with its size and checksum; answers it. */
export async function showFile(tx: Executor, fileId: string, size: number, sha256: string) {
  const [row] = await tx
    .update(files)
    .set({ size, sha256, deletedAt: null, updatedAt: new Date() })
    .where(eq(files.id, fileId))
    .returning(fileColumns);
  return row as FileRow;
}

/** Up to 100 files never completed (hidden, no checksum) created before `before`. */
export function abandonedFileIds(db: Executor, before: Date) {
  return db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.sha256, ''), sql`${files.deletedAt} is not null`, lt(files.createdAt, before)))
    .limit(100);
}

/** Up to `limit` pieces of a file from piece `from` on, in order, as base64. */
export function chunksFrom(db: Executor, fileId: string, from: number, limit: number) {
  return db
    .select({ seq: fileChunks.seq, data: sql<string>`encode(${fileChunks.bytes}, 'base64')` })
    .from(fileChunks)
    .where(and(eq(fileChunks.fileId, fileId), gte(fileChunks.seq, from)))
    .orderBy(asc(fileChunks.seq))
    .limit(limit);
}

/** Whether the file has stored pieces. */
export async function hasChunks(db: Executor, fileId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(fileChunks)
    .where(eq(fileChunks.fileId, fileId))
    .limit(1);
  return Boolean(row);
}

/** The file row, hidden or not, or undefined. */
export async function findFileRow(db: Executor, fileId: string) {
  const [row] = await db.select().from(files).where(eq(files.id, fileId));
  return row;
}

/** Inserts a file row; answers it. */
export async function insertFileRow(tx: Executor, values: typeof files.$inferInsert) {
  const [row] = await tx.insert(files).values(values).returning(fileColumns);
  return row as FileRow;
}

/** Copies the pieces of one file to another. */
export async function copyChunks(tx: Executor, fromFileId: string, toFileId: string) {
  await tx.execute(
    sql`insert into ${fileChunks} (file_id, seq, bytes) select ${toFileId}, seq, bytes from ${fileChunks} where file_id = ${fromFileId}`,
  );
}

/** Soft-deletes a file unless it already is; answers it when it was live. */
export async function hideLiveFile(tx: Executor, fileId: string): Promise<FileRow | undefined> {
  const now = new Date();
  const [row] = await tx
    .update(files)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(files.id, fileId), sql`${files.deletedAt} is null`))
    .returning(fileColumns);
  return row as FileRow | undefined;
}
