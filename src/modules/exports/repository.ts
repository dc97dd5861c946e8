import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { exports } from '../../db/schema/exports.ts';
import { IMPORT_STATUS } from '../../db/schema/imports.ts';
import { users } from '../../db/schema/platform.ts';

export type ExportRow = typeof exports.$inferSelect;
export type ExportInsert = typeof exports.$inferInsert;

/** A live export of the organisation (archived ones included). */
export async function findLiveExport(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(exports)
    .where(and(eq(exports.id, id), eq(exports.organisationId, organisationId), isNull(exports.deletedAt)));
  return row;
}

/**
 * Claims an export for a run, atomically: requested, or in progress but not updated since
 * `staleBefore` (its run was interrupted). Undefined when another run has it or it is finished.
 */
export async function claimExport(db: Executor, id: string, startedAt: Date, staleBefore: Date) {
  const [row] = await db
    .update(exports)
    .set({ status: IMPORT_STATUS.IN_PROGRESS, updatedAt: startedAt })
    .where(
      and(
        eq(exports.id, id),
        or(
          eq(exports.status, IMPORT_STATUS.REQUESTED),
          and(eq(exports.status, IMPORT_STATUS.IN_PROGRESS), lt(exports.updatedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row;
}

/** Changes an export (by id only: the caller has found it in its organisation); answers the row. */
export async function updateExport(tx: Executor, id: string, values: Partial<ExportInsert>) {
  const [row] = await tx.update(exports).set(values).where(eq(exports.id, id)).returning();
  return row!;
}

export async function insertExport(tx: Executor, values: ExportInsert) {
  const [row] = await tx.insert(exports).values(values).returning();
  return row!;
}

/** The ids among `userIds` that are users of the organisation (deleted ones included). */
export async function organisationUserIds(db: Executor, organisationId: string, userIds: string[]) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organisationId, organisationId), inArray(users.id, userIds)));
  return rows.map((u) => u.id);
}

export type ExportFilters = {
  statuses: number[];
  type?: string;
  start: Date | null;
  end: Date | null;
  /** Search text: an export type code, compared exactly. */
  s?: string;
};

/**
 * One page of the organisation's live, unarchived exports matching the filters, ordered by the
 * creation or update time (ties by id), and their total.
 */
export async function listExports(
  db: Executor,
  organisationId: string,
  filters: ExportFilters,
  order: { field: 'createdAt' | 'updatedAt'; ascending: boolean },
  page: { limit: number; offset: number },
) {
  const where = and(
    eq(exports.organisationId, organisationId),
    isNull(exports.deletedAt),
    isNull(exports.archivedAt),
    filters.statuses.length ? inArray(exports.status, filters.statuses) : undefined,
    filters.type ? eq(exports.type, filters.type) : undefined,
    filters.start ? gte(exports.createdAt, filters.start) : undefined,
    filters.end ? lt(exports.createdAt, filters.end) : undefined,
    filters.s ? sql`${exports.type} = ${filters.s.trim()}` : undefined,
  );
  const column = order.field === 'updatedAt' ? exports.updatedAt : exports.createdAt;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(exports)
      .where(where)
      .orderBy(order.ascending ? asc(column) : desc(column), asc(exports.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(exports).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}
