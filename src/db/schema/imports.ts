import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import { files } from './organisation-data.ts';
import { organisations } from './platform.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Bytes of large files stored in pieces (about 256 KiB each) while they are received, so that
 * neither the upload nor a later reading ever holds the whole file in memory. A file whose
 * bytes live here has a `files` row like any other, and no `file_contents` row.
 * Written and read by src/modules/files/chunks.ts.
 */
export const fileChunks = pgTable(
  'file_chunks',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/** Import status codes (see docs/imports.md for the transitions). */
export const IMPORT_STATUS = {
  REQUESTED: 1,
  IN_PROGRESS: 2,
  ABORTED: 3,
  SENT: 4,
  DONE: 5,
  FAILED: 6,
  CRASH: 7,
} as const;
export type ImportStatusName = keyof typeof IMPORT_STATUS;
export type ImportStatus = (typeof IMPORT_STATUS)[ImportStatusName];

export type ImportError = { row: number | null; column: string | null; message: string };

/** The `stats` object of an import record. */
export type ImportStats = {
  /** Data rows in the file (known once the file has been checked, before any write). */
  rowsTotal: number | null;
  rowsRead: number;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  failed: number;
  /** The first errors (at most 100), in file order. */
  errors: ImportError[];
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  /** Why the import ended FAILED, CRASH or ABORTED. */
  reason?: string;
  /** The file was refused by the check pass (status 7 CRASH): nothing was written. */
  refused?: boolean;
  /** The result e-mail: outbox id and what became of it. */
  notification?: { emailId: string; status: string; at: string; error?: string };
  /** How many times processing was resumed after an interruption. */
  resumed?: number;
};

/** CSV imports: one row per uploaded file and its processing. */
export const imports = pgTable(
  'imports',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    /** Sequential number per organisation, from 1. */
    code: integer('code').notNull(),
    /** The import type code, e.g. "16" (companies by external id). */
    type: text('type').notNull(),
    status: integer('status').$type<ImportStatus>().notNull().default(1),
    /** The delimiter character: `,` `;` tab or `|`. */
    delimiter: text('delimiter').notNull(),
    createdById: uuid('created_by_id'),
    fileId: uuid('file_id').references(() => files.id),
    dryRun: boolean('dry_run').notNull().default(false),
    allowDelete: boolean('allow_delete').notNull().default(false),
    /** The dry run this real run was started from (POST /api/imports/{id}/run); at most one per dry run. */
    fromDryRunId: uuid('from_dry_run_id'),
    stats: jsonb('stats').$type<ImportStats>().notNull(),
    fileArchived: boolean('file_archived').notNull().default(false),
    /** Checkpoint: data rows whose outcome is committed; processing resumes after them. */
    processedRows: integer('processed_rows').notNull().default(0),
    /** Failed processing attempts (unexpected errors); CRASH after the last one. */
    attempts: integer('attempts').notNull().default(0),
    /** The process working on the import and when it last showed it is alive. */
    workerId: text('worker_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('imports_org_code_uq').on(t.organisationId, t.code),
    index('imports_org_created_idx').on(t.organisationId, t.createdAt),
    index('imports_org_status_idx').on(t.organisationId, t.status),
    uniqueIndex('imports_from_dry_run_uq').on(t.fromDryRunId).where(sql`${t.fromDryRunId} is not null`),
    // Imports that still have work to do, for the recovery sweep.
    index('imports_unfinished_idx').on(t.status).where(sql`${t.status} in (1, 2, 5)`),
  ],
);

/**
 * Keys met in the file of an import: for `allowDelete` (rows of the type absent from the file are
 * archived at the end) and for dry runs (references to rows "created" earlier in the file).
 * Written in the transaction of each batch, deleted when the import ends.
 */
export const importKeys = pgTable(
  'import_keys',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id),
    key: text('key').notNull(),
    /** The record created for the key by a dry run (which rolled back: a placeholder id). */
    entityId: uuid('entity_id'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.key] })],
);
