import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import { files } from './organisation-data.ts';
import { organisations } from './platform.ts';

/** The `stats` of an export: rows written, timing, and why it crashed. */
export type ExportStats = {
  rows: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  reason?: string;
};

/**
 * CSV exports (HIPE's Exports resource), the counterpart of imports: a background job writes the
 * organisation's records of one import type in the columns that import reads, stored as a file.
 * Status codes are the imports' (1 requested, 2 in progress, 5 done, 7 crashed).
 */
export const exports = pgTable(
  'exports',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    /** The import type code whose columns are written, e.g. "16" (companies). */
    type: text('type').notNull(),
    status: integer('status').notNull().default(1),
    delimiter: text('delimiter').notNull().default(','),
    /** Records created from (inclusive) / until (exclusive); null: no bound. */
    startDate: timestamp('start_date', { withTimezone: true, mode: 'date' }),
    endDate: timestamp('end_date', { withTimezone: true, mode: 'date' }),
    /** Only records created by these users (HIPE `user_ids`); empty: every record. */
    userIds: uuid('user_ids').array().notNull().default([]),
    fileId: uuid('file_id').references(() => files.id),
    stats: jsonb('stats').$type<ExportStats>().notNull(),
    /** Failed attempts of the job; crashed after the last one. */
    attempts: integer('attempts').notNull().default(0),
    createdById: uuid('created_by_id'),
    /** Archived: left out of the list (HIPE Archive); the record and its file stay readable. */
    archivedAt: timestamp('archived_at', { withTimezone: true, mode: 'date' }),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [index('exports_org_created_idx').on(t.organisationId, t.createdAt)],
);
