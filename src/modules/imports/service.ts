import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import { IMPORT_STATUS, type ImportStatus } from '../../db/schema/imports.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import type { ChunkedFileStore, PendingFile } from '../files/chunks.ts';
import { fileTooLarge, normaliseMimeType, sanitiseFilename } from '../files/multipart.ts';
import { textInspector } from './csv.ts';
import { isInfrastructureError } from './db-errors.ts';
import { DELIMITERS, delimiterOf, IMPORT_TYPES, importTypeOf } from './import-types.ts';
import { clearKeys } from './keys-repository.ts';
import type { ImportProcessor } from './processor.ts';
import {
  findImport,
  findImportFileFacts,
  findRealRun,
  IMPORT_ENTITY,
  IMPORT_PAGE,
  type ImportFilters,
  initialStats,
  insertImport,
  listImports,
  nextImportCode,
  presentImport,
  updateImport,
} from './repository.ts';

export { IMPORT_PAGE } from './repository.ts';

export type ImportListQuery = PageQuery & {
  type?: string;
  status?: string;
  delimiter?: string;
  start?: string;
  end?: string;
  s?: string;
  filterId?: string;
};

const FORM_FIELDS = ['type', 'delimiter', 'dryRun', 'allowDelete'] as const;
type FormField = (typeof FORM_FIELDS)[number];

const invalidField = (field: string, message: string) =>
  badRequest(`${field} ${message}`, [{ pointer: `/${field}`, message, in: 'body' }]);

function booleanField(field: string, value: string): boolean {
  const text = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off', ''].includes(text)) return false;
  throw invalidField(field, 'must be true or false');
}

type ImportForm = { type: string; delimiter: string; dryRun: boolean; allowDelete: boolean };

/** Checks a form field as soon as it arrives (a bad type answers 400 before the file is stored). */
function readField(form: Partial<ImportForm>, name: FormField, value: string) {
  switch (name) {
    case 'type': {
      const type = importTypeOf(value);
      if (!type) {
        throw invalidField(
          'type',
          `must be one of: ${IMPORT_TYPES.map((t) => `${t.code} (${t.name})`).join(', ')}`,
        );
      }
      form.type = type.code;
      return;
    }
    case 'delimiter': {
      const delimiter = delimiterOf(value);
      if (!delimiter)
        throw invalidField('delimiter', 'must be one of: comma (,), semicolon (;), tab, pipe (|)');
      form.delimiter = delimiter.value;
      return;
    }
    default:
      form[name] = booleanField(name, value);
  }
}

/** Multipart errors of @fastify/multipart and busboy as problems. */
function asProblem(error: unknown, limitBytes: number): unknown {
  if (error instanceof AppError) return error;
  // Database or network trouble while storing the file is ours (500), not a malformed request.
  if (isInfrastructureError(error)) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(limitBytes);
  if (code === 'FST_FILES_LIMIT') return new AppError('too_many_files', 'Send exactly one file');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError('too_many_fields', 'The form has too many fields');
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('unsupported_media_type', 'Send the import as multipart/form-data');
  }
  const message = error instanceof Error ? error.message : 'malformed';
  return new AppError('invalid_multipart', `The multipart body could not be read: ${message}`);
}

export function createImportService(
  ctx: Pick<AppContext, 'db' | 'change' | 'config' | 'log'>,
  deps: { store: ChunkedFileStore; processor: ImportProcessor },
) {
  const { db } = ctx;
  const { store, processor } = deps;

  async function get(actor: Actor, id: string) {
    const row = await findImport(db, actor.organisationId, id);
    if (!row) throw notFound('Import');
    return row;
  }

  return {
    /** One import; a dry run also names its real run (`realRunId`), so "Run for real" is offered once. */
    get: async (actor: Actor, id: string) => {
      const row = await get(actor, id);
      if (!row.dryRun) return presentImport(row);
      const real = await findRealRun(db, id, actor.organisationId);
      return { ...presentImport(row), realRunId: real?.id ?? null };
    },

    /**
     * Streams the CSV of a multipart request into the file store (never whole in memory), then
     * records the import and queues its processing.
     */
    async create(actor: Actor, request: FastifyRequest) {
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send the import as multipart/form-data');
      }
      const limitBytes = ctx.config.imports.sizeLimitBytes;
      const importId = uuidv7();
      const form: Partial<ImportForm> = {};
      let pending: PendingFile | undefined;
      try {
        const parts = request.parts({
          limits: {
            fileSize: limitBytes,
            files: 1,
            fields: FORM_FIELDS.length + 2,
            parts: FORM_FIELDS.length + 3,
          },
        });
        for await (const part of parts) {
          if (part.type === 'file') {
            if (part.fieldname !== 'csv' || pending) {
              part.file.resume();
              throw badRequest('Send the CSV file in the field "csv"', [
                { pointer: `/${part.fieldname}`, message: 'is not an accepted file field', in: 'body' },
              ]);
            }
            const inspector = textInspector();
            pending = await store.write(
              actor,
              {
                entity: 'import',
                entityId: importId,
                filename: sanitiseFilename(part.filename),
                mimeType: normaliseMimeType(part.mimetype),
              },
              part.file as AsyncIterable<Buffer>,
              { limitBytes, inspect: (chunk) => inspector.push(chunk) },
            );
            if (part.file.truncated) throw fileTooLarge(limitBytes);
            inspector.end();
          } else {
            const name = part.fieldname as FormField;
            if (!FORM_FIELDS.includes(name)) {
              throw badRequest(`Unknown form field "${part.fieldname}"`, [
                { pointer: `/${part.fieldname}`, message: 'is not an accepted property', in: 'body' },
              ]);
            }
            if (part.valueTruncated) throw invalidField(name, 'is too long');
            readField(form, name, String(part.value ?? ''));
          }
        }
        if (!pending) {
          throw badRequest('No file was sent in the field "csv"', [
            { pointer: '/csv', message: 'is required', in: 'body' },
          ]);
        }
        if (pending.size === 0) {
          throw badRequest('The file is empty', [
            { pointer: '/csv', message: 'must not be empty', in: 'body' },
          ]);
        }
        if (!form.type) {
          throw badRequest('The import type is required', [
            { pointer: '/type', message: 'is required', in: 'body' },
          ]);
        }
      } catch (error) {
        if (pending) await store.discard(pending.id).catch(() => {});
        throw asProblem(error, limitBytes);
      }
      const file = pending;
      const row = await ctx.change(actor, async (tx, record) => {
        await store.complete(tx, file, { entity: 'import', entityId: importId }, record);
        const next = await nextImportCode(tx, actor.organisationId);
        const created = await insertImport(tx, {
          id: importId,
          organisationId: actor.organisationId,
          code: next,
          type: form.type!,
          status: IMPORT_STATUS.REQUESTED,
          delimiter: form.delimiter ?? ',',
          createdById: actor.userId,
          fileId: file.id,
          dryRun: form.dryRun ?? false,
          allowDelete: form.allowDelete ?? false,
          stats: initialStats(),
        });
        await record({
          on: IMPORT_ENTITY,
          type: 'CREATE',
          entityId: importId,
          snapshot: presentImport(created),
        });
        return created;
      });
      // Queued once the import is committed; the recovery sweep queues it again if this fails.
      await processor
        .enqueue(importId)
        .catch((error) => ctx.log.error({ err: error, importId }, 'could not queue import'));
      return presentImport(row);
    },

    async list(actor: Actor, query: ImportListQuery) {
      const page = resolvePage(query, IMPORT_PAGE);
      const filters: ImportFilters = {
        start: query.start ? new Date(query.start) : undefined,
        end: query.end ? new Date(query.end) : undefined,
      };
      if (query.delimiter !== undefined) {
        const delimiter = delimiterOf(query.delimiter);
        if (!delimiter) {
          throw badRequest(`Unknown delimiter "${query.delimiter}"`, [
            {
              pointer: '/delimiter',
              message: `must be one of: ${DELIMITERS.map((d) => d.name).join(', ')}`,
              in: 'query',
            },
          ]);
        }
        filters.delimiter = delimiter.value;
      }
      // HIPE's search box: a "contains" on the import number or the file name.
      filters.term = query.s?.trim() || undefined;
      if (query.type !== undefined) {
        const type = importTypeOf(query.type);
        if (!type) {
          throw badRequest(`Unknown import type "${query.type}"`, [
            {
              pointer: '/type',
              message: `must be one of: ${IMPORT_TYPES.map((t) => t.code).join(', ')}`,
              in: 'query',
            },
          ]);
        }
        filters.type = type.code;
      }
      if (query.status !== undefined) {
        const codes = query.status.split(',').map((s) => s.trim());
        const known = Object.values(IMPORT_STATUS) as number[];
        const statuses = codes.map((code) => {
          const named = IMPORT_STATUS[code.toUpperCase() as keyof typeof IMPORT_STATUS];
          return named ?? (/^\d+$/.test(code) && known.includes(Number(code)) ? Number(code) : undefined);
        });
        if (statuses.some((s) => s === undefined)) {
          throw badRequest(`Unknown import status in "${query.status}"`, [
            {
              pointer: '/status',
              message: `must be a comma-separated list of: ${known.join(', ')} (or their names)`,
              in: 'query',
            },
          ]);
        }
        filters.statuses = statuses as ImportStatus[];
      }
      const { rows, total } = await listImports(db, actor.organisationId, filters, page);
      return pageResult(rows.map(presentImport), total, page);
    },

    /** The original file as a stream of its stored pieces. */
    async download(actor: Actor, id: string) {
      const row = await get(actor, id);
      if (row.fileArchived || !row.fileId) {
        throw new AppError('file_archived', 'The file of this import was archived');
      }
      const fileId = row.fileId;
      const file = await findImportFileFacts(db, fileId);
      if (!file) throw notFound('File');
      return { file, stream: Readable.from(store.read(fileId)) };
    },

    /**
     * Archives an import, whatever its status (HIPE's archive): the record leaves the list (still
     * readable by id). The stored file is released when the import has ended; an import still
     * requested or running goes on to its end (its rows are written, its result e-mail sent) and
     * keeps its stored file (see docs/hipe-compatibility.md). Archiving again changes nothing.
     */
    async archive(actor: Actor, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const row = await findImport(tx, actor.organisationId, id, true);
        if (!row) throw notFound('Import');
        const running = row.status === IMPORT_STATUS.REQUESTED || row.status === IMPORT_STATUS.IN_PROGRESS;
        if (row.deletedAt && (row.fileArchived || running)) return presentImport(row);
        const release = !running && !row.fileArchived && row.fileId;
        if (release) await store.release(tx, row.fileId!, { entity: 'import', entityId: id }, record);
        const now = new Date();
        const updated = await updateImport(tx, id, {
          ...(release ? { fileArchived: true } : {}),
          deletedAt: row.deletedAt ?? now,
          updatedAt: now,
        });
        await record({
          on: IMPORT_ENTITY,
          type: row.deletedAt ? 'UPDATE' : 'DELETE',
          entityId: id,
          snapshot: presentImport(updated),
          ...(row.deletedAt ? { updatedColumns: ['fileArchived'] } : {}),
        });
        return presentImport(updated);
      });
    },

    /**
     * A real run of a dry run that ended (SENT or DONE, its file not refused), on a copy of the
     * dry run's stored file: no new upload (docs/imports.md, "Run for real"). Same type, delimiter
     * and allowDelete; at most one real run per dry run (409 `dry_run_already_run`).
     */
    async runForReal(actor: Actor, id: string) {
      const realId = uuidv7();
      const row = await ctx.change(actor, async (tx, record) => {
        const dry = await findImport(tx, actor.organisationId, id, true);
        if (!dry || dry.deletedAt) throw notFound('Import');
        const ended = dry.status === IMPORT_STATUS.SENT || dry.status === IMPORT_STATUS.DONE;
        if (!dry.dryRun || !ended || dry.stats.refused) {
          throw new AppError('import_not_runnable', 'Only a dry run that ended can be run for real');
        }
        if (dry.fileArchived || !dry.fileId) {
          throw new AppError('file_archived', 'The file of this dry run was archived');
        }
        const already = await findRealRun(tx, id);
        if (already) {
          throw new AppError('dry_run_already_run', 'This dry run was already run for real');
        }
        const file = await store.copy(tx, dry.fileId, { entity: 'import', entityId: realId }, record);
        const code = await nextImportCode(tx, actor.organisationId);
        const created = await insertImport(tx, {
          id: realId,
          organisationId: actor.organisationId,
          code,
          type: dry.type,
          status: IMPORT_STATUS.REQUESTED,
          delimiter: dry.delimiter,
          createdById: actor.userId,
          fileId: file.id,
          dryRun: false,
          allowDelete: dry.allowDelete,
          fromDryRunId: id,
          stats: initialStats(),
        });
        await record({
          on: IMPORT_ENTITY,
          type: 'CREATE',
          entityId: realId,
          snapshot: presentImport(created),
        });
        return created;
      });
      await processor
        .enqueue(realId)
        .catch((error) => ctx.log.error({ err: error, importId: realId }, 'could not queue import'));
      return presentImport(row);
    },

    /**
     * REQUESTED or IN_PROGRESS -> ABORTED. A running job stops at its next batch: the batch in
     * flight rolls back, the batches committed before stay.
     */
    async cancel(actor: Actor, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const row = await findImport(tx, actor.organisationId, id, true);
        if (!row) throw notFound('Import');
        if (row.status !== IMPORT_STATUS.REQUESTED && row.status !== IMPORT_STATUS.IN_PROGRESS) {
          throw new AppError('import_not_cancellable', 'Only a requested or running import can be cancelled');
        }
        const now = new Date();
        const started = row.stats.startedAt ? Date.parse(row.stats.startedAt) : now.getTime();
        const stats = {
          ...row.stats,
          reason: 'Cancelled',
          finishedAt: now.toISOString(),
          durationMs: now.getTime() - started,
        };
        const updated = await updateImport(tx, id, {
          status: IMPORT_STATUS.ABORTED,
          stats,
          workerId: null,
          heartbeatAt: null,
          updatedAt: now,
        });
        await clearKeys(tx, id);
        await record({
          on: IMPORT_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: presentImport(updated),
          updatedColumns: ['status', 'stats'],
        });
        return presentImport(updated);
      });
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
