import { and, eq, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { type ImportStats, type ImportStatus, imports } from '../../db/schema/imports.ts';
import { files } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { entity } from '../../platform/events.ts';
import { likeEscape } from '../../platform/filters.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';
import { inList } from './bulk-repository.ts';
import { STATUS_NAMES } from './import-types.ts';

export const IMPORT_ENTITY = entity('IMPORT', 'imports');

export type ImportRow = typeof imports.$inferSelect;
export type ImportInsert = typeof imports.$inferInsert;

export const IMPORT_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    createdAt: imports.createdAt,
    updatedAt: imports.updatedAt,
    code: imports.code,
    status: imports.status,
  },
  tieBreaker: imports.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' },
};

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

/** The next import code of the organisation; concurrent creations wait for each other here. */
export async function nextImportCode(tx: Tx, organisationId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-code:${organisationId}`}))`);
  const [next] = await tx
    .select({ code: sql<number>`coalesce(max(${imports.code}), 0)::int + 1` })
    .from(imports)
    .where(eq(imports.organisationId, organisationId));
  return next!.code;
}

/** The real run made from a dry run, if any (in the organisation when `organisationId` is given). */
export async function findRealRun(db: Executor, dryRunId: string, organisationId?: string) {
  const [row] = await db
    .select({ id: imports.id })
    .from(imports)
    .where(
      and(
        organisationId === undefined ? undefined : eq(imports.organisationId, organisationId),
        eq(imports.fromDryRunId, dryRunId),
      ),
    )
    .limit(1);
  return row;
}

export async function insertImport(tx: Executor, values: ImportInsert) {
  const [row] = await tx.insert(imports).values(values).returning();
  return row!;
}

/** Changes an import, by id: the caller has found it in its organisation. */
export async function updateImport(tx: Executor, id: string, values: Partial<ImportInsert>) {
  const [row] = await tx.update(imports).set(values).where(eq(imports.id, id)).returning();
  return row!;
}

export type ImportFilters = {
  start?: Date;
  end?: Date;
  delimiter?: string;
  /** "Contains" on the import number or the file name (HIPE's search box). */
  term?: string;
  type?: string;
  statuses?: ImportStatus[];
};

/** One page of the organisation's unarchived imports matching the filters, and their total. */
export async function listImports(
  db: Executor,
  organisationId: string,
  filters: ImportFilters,
  page: PageRequest,
) {
  const pattern = filters.term ? `%${likeEscape(filters.term)}%` : undefined;
  const conditions: (SQL | undefined)[] = [
    eq(imports.organisationId, organisationId),
    isNull(imports.deletedAt),
    filters.start ? gte(imports.createdAt, filters.start) : undefined,
    filters.end ? lte(imports.createdAt, filters.end) : undefined,
    filters.delimiter !== undefined ? eq(imports.delimiter, filters.delimiter) : undefined,
    pattern
      ? or(
          sql`${imports.code}::text like ${pattern}`,
          sql`exists (select 1 from ${files} where ${files.id} = ${imports.fileId} and ${files.filename} ilike ${pattern})`,
        )
      : undefined,
    filters.type !== undefined ? eq(imports.type, filters.type) : undefined,
    filters.statuses ? inArray(imports.status, filters.statuses) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(imports)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(imports).where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** The name, size and digest of a stored file (by id: the caller has found its import). */
export async function findImportFileFacts(db: Executor, fileId: string) {
  const [row] = await db
    .select({ filename: files.filename, size: files.size, sha256: files.sha256 })
    .from(files)
    .where(eq(files.id, fileId));
  return row;
}

/** Live companies of the organisation by external id, for the keys given. */
export async function companiesByExternalId(
  db: Executor,
  organisationId: string,
  keys: Iterable<string>,
): Promise<Map<string, string>> {
  const list = [...new Set(keys)];
  if (list.length === 0) return new Map();
  const rows = await db
    .select({ id: companies.id, externalId: companies.externalId })
    .from(companies)
    .where(
      and(
        eq(companies.organisationId, organisationId),
        isNull(companies.deletedAt),
        inList(companies.externalId, list),
      ),
    );
  return new Map(rows.map((r) => [r.externalId!, r.id]));
}
