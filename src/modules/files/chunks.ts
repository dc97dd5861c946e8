import { createHash } from 'node:crypto';
import type { Db, Executor, Tx } from '../../db/client.ts';
import type { EventRecorder } from '../../platform/events.ts';
import {
  abandonedFileIds,
  chunksFrom,
  copyChunks,
  deleteChunks,
  deleteFileRow,
  findFileRow,
  hasChunks,
  hideLiveFile,
  insertChunk,
  insertFileRow,
  insertHiddenFile,
  showFile,
} from './chunk-repository.ts';
import { fileTooLarge } from './multipart.ts';
import { type AttachmentTarget, FILE_ENTITY, type FileRow, PARENT_ENTITIES } from './repository.ts';
import type { FileActor } from './service.ts';

/** Size of the stored pieces of a chunked file. */
export const CHUNK_BYTES = 256 * 1024;
/** Pieces read per query when a chunked file is read back (512 KiB). */
const CHUNKS_PER_READ = 2;

export type ChunkedFileMeta = AttachmentTarget & {
  filename: string;
  mimeType: string;
  label?: string | null;
};

/** A file whose bytes are stored but which is not visible yet (see `complete`). */
export type PendingFile = { id: string; size: number; sha256: string };

export type WriteOptions = {
  /** Largest accepted file; beyond it the write stops with 413 and the stored pieces are removed. */
  limitBytes: number;
  /** Sees every piece of the file as it arrives; throwing refuses the file (the pieces are removed). */
  inspect?: (chunk: Buffer) => void;
};

/**
 * A file store for large files: the bytes are written in pieces of CHUNK_BYTES to `file_chunks`
 * while they are received, and read back piece by piece, so no step holds the whole file in
 * memory. The metadata is a normal `files` row (so `fileId` references are real files), kept
 * hidden (`deletedAt` set) until `complete` shows it in the transaction that uses it; a write
 * that fails or is abandoned removes what it stored.
 *
 * Chunked files are read with `read`/`readAll`; the generic attachment download reads
 * `file_contents` and does not serve them.
 */
export function createChunkedFileStore(deps: { db: Db }) {
  const { db } = deps;

  async function discard(fileId: string) {
    await deleteChunks(db, fileId);
    await deleteFileRow(db, fileId);
  }

  return {
    /**
     * Streams `source` into the database, one insert per piece (no transaction is held while the
     * client sends). Returns the stored, still hidden, file.
     */
    async write(
      actor: FileActor,
      meta: ChunkedFileMeta,
      source: AsyncIterable<Buffer>,
      options: WriteOptions,
    ): Promise<PendingFile> {
      const fileId = await insertHiddenFile(db, {
        organisationId: actor.organisationId,
        entity: meta.entity,
        entityId: meta.entityId,
        filename: meta.filename,
        mimeType: meta.mimeType,
        size: 0,
        sha256: '',
        label: meta.label?.trim() || null,
        createdById: actor.userId,
        // Hidden until complete(): an interrupted upload never shows as a file.
        deletedAt: new Date(),
      });
      const hash = createHash('sha256');
      let size = 0;
      let seq = 0;
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let filled = 0;
      const flush = async () => {
        if (filled === 0) return;
        await insertChunk(db, fileId, seq, buffer.toString('base64', 0, filled));
        seq += 1;
        filled = 0;
      };
      try {
        for await (const piece of source) {
          size += piece.length;
          if (size > options.limitBytes) throw fileTooLarge(options.limitBytes);
          options.inspect?.(piece);
          hash.update(piece);
          let offset = 0;
          while (offset < piece.length) {
            const copied = piece.copy(buffer, filled, offset);
            filled += copied;
            offset += copied;
            if (filled === CHUNK_BYTES) await flush();
          }
        }
        await flush();
      } catch (error) {
        await discard(fileId).catch(() => {});
        throw error;
      }
      return { id: fileId, size, sha256: hash.digest('hex') };
    },

    /**
     * Makes a written file visible, inside the caller's transaction, with its FILE CREATE event
     * (the owning record as `relation`).
     */
    async complete(
      tx: Tx,
      pending: PendingFile,
      target: AttachmentTarget,
      record: EventRecorder,
    ): Promise<FileRow> {
      const row = await showFile(tx, pending.id, pending.size, pending.sha256);
      await record({
        on: FILE_ENTITY,
        type: 'CREATE',
        entityId: pending.id,
        snapshot: row,
        relation: PARENT_ENTITIES[target.entity],
        relationId: target.entityId,
      });
      return row;
    },

    /** Removes a file that was written but never completed. */
    discard,

    /**
     * Removes the files whose upload was abandoned (the process stopped before `complete` or
     * `discard`): never completed (no checksum) and older than `olderThanMs`. Returns how many.
     */
    async purgeAbandoned(olderThanMs: number): Promise<number> {
      const abandoned = await abandonedFileIds(db, new Date(Date.now() - olderThanMs));
      for (const { id } of abandoned) await discard(id);
      return abandoned.length;
    },

    /** The pieces of a file in order, a few per query. */
    async *read(fileId: string, executor: Executor = db): AsyncGenerator<Buffer> {
      let next = 0;
      for (;;) {
        const rows = await chunksFrom(executor, fileId, next, CHUNKS_PER_READ);
        for (const row of rows) yield Buffer.from(row.data, 'base64');
        if (rows.length < CHUNKS_PER_READ) return;
        next = rows.at(-1)!.seq + 1;
      }
    },

    /** Whether the file has stored pieces. */
    hasContent: (fileId: string): Promise<boolean> => hasChunks(db, fileId),

    /**
     * Releases the bytes of a file and soft-deletes its metadata, with a FILE DELETE event, in the
     * caller's transaction.
     */
    /**
     * A copy of a stored file for another owner (a real import run from its dry run's file), in the
     * transaction: its own `files` row and pieces, so each lives and is released on its own.
     */
    async copy(tx: Tx, fileId: string, target: AttachmentTarget, record: EventRecorder): Promise<FileRow> {
      const source = await findFileRow(tx, fileId);
      if (!source) throw new Error(`file ${fileId} not found`);
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = source;
      const row = await insertFileRow(tx, {
        ...rest,
        entity: target.entity,
        entityId: target.entityId,
        deletedAt: null,
      });
      await copyChunks(tx, fileId, row.id);
      await record({
        on: FILE_ENTITY,
        type: 'CREATE',
        entityId: row.id,
        snapshot: row,
        relation: PARENT_ENTITIES[target.entity],
        relationId: target.entityId,
      });
      return row;
    },

    async release(tx: Tx, fileId: string, target: AttachmentTarget, record: EventRecorder) {
      await deleteChunks(tx, fileId);
      const row = await hideLiveFile(tx, fileId);
      if (row) {
        await record({
          on: FILE_ENTITY,
          type: 'DELETE',
          entityId: fileId,
          snapshot: row,
          relation: PARENT_ENTITIES[target.entity],
          relationId: target.entityId,
        });
      }
    },
  };
}

export type ChunkedFileStore = ReturnType<typeof createChunkedFileStore>;
