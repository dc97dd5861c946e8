import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type ImportStats, imports } from '../../db/schema/imports.ts';
import { entity } from '../../platform/events.ts';
import { STATUS_NAMES } from './import-types.ts';

export const IMPORT_ENTITY = entity('IMPORT', 'imports');

export type ImportRow = typeof imports.$inferSelect;

export const initialStats = (): ImportStats => ({
  rowsTotal: null,
  rowsRead: 0,
  created: 0,
  updated: 0,
  deleted: 0,
  unchanged: 0,
  failed: 0,
  errors: [],
  startedAt: null,
  finishedAt: null,
  durationMs: null,
});

/** The import record as the API shows it. */
export function presentImport(row: ImportRow) {
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    status: row.status,
    statusName: STATUS_NAMES[row.status],
    delimiter: row.delimiter,
    createdById: row.createdById,
    fileId: row.fileId,
    dryRun: row.dryRun,
    fromDryRunId: row.fromDryRunId,
    allowDelete: row.allowDelete,
    stats: row.stats,
    fileArchived: row.fileArchived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type ImportRecord = ReturnType<typeof presentImport>;

export async function findImport(db: Executor, organisationId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(imports)
    // Archived imports (deleted_at set) are left out of the list only: reachable by id.
    .where(and(eq(imports.id, id), eq(imports.organisationId, organisationId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}
