import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
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

/**
 * Exports a crash may have left behind (at most 100 a sweep): in progress with no change since
 * `staleBefore`, or requested with no change since `unqueuedBefore`.
 */
export async function findStaleExports(db: Executor, staleBefore: Date, unqueuedBefore: Date) {
  return db
    .select()
    .from(exports)
    .where(
      or(
        and(eq(exports.status, IMPORT_STATUS.IN_PROGRESS), lt(exports.updatedAt, staleBefore)),
        and(eq(exports.status, IMPORT_STATUS.REQUESTED), lt(exports.updatedAt, unqueuedBefore)),
      ),
    )
    .limit(100);
}

/**
 * Changes an export only if nothing moved it since `seen` was read (same status, same update
 * time); answers the row, undefined when it moved.
 */
export async function updateExportIfUnchanged(
  tx: Executor,
  seen: Pick<ExportRow, 'id' | 'status' | 'updatedAt'>,
  values: Partial<ExportInsert>,
) {
  const [row] = await tx
    .update(exports)
    .set(values)
    .where(
      and(eq(exports.id, seen.id), eq(exports.status, seen.status), eq(exports.updatedAt, seen.updatedAt)),
    )
    .returning();
  return row;
}

export type ExportFilter = {
  organisationId: string;
  startDate: Date | null;
  endDate: Date | null;
  userIds: string[];
};

/** `alias.created_at` / `created_by_id` bounds of the filter. */
function bounds(alias: string, filter: ExportFilter): SQL {
  const a = sql.raw(alias);
  const parts: SQL[] = [sql`${a}.organisation_id = ${filter.organisationId}`, sql`${a}.deleted_at is null`];
  if (filter.startDate) parts.push(sql`${a}.created_at >= ${filter.startDate.toISOString()}`);
  if (filter.endDate) parts.push(sql`${a}.created_at < ${filter.endDate.toISOString()}`);
  if (filter.userIds.length) {
    parts.push(
      sql`${a}.created_by_id in (${sql.join(
        filter.userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** The records of each export type, in the columns its import reads (plus `customFields`). */
const EXPORT_QUERIES: Record<string, (f: ExportFilter) => SQL> = {
  '16': (f) => sql`select c.external_id as "externalId", c.name, p.external_id as "parentExternalId", c.email,
      c.phone_number as "phoneNumber", c.website, c.vat_number as "vatNumber", c.custom_fields as "customFields"
    from companies c left join companies p on p.id = c.parent_id
    where ${bounds('c', f)} order by c.created_at, c.id`,
  '17': (
    f,
  ) => sql`select u.external_id as "externalId", u.email, u.first_name as "firstName", u.last_name as "lastName",
      u.phone_number as "phoneNumber",
      coalesce((select string_agg(c.external_id, '|' order by c.external_id) from company_users cu
        join companies c on c.id = cu.company_id and c.deleted_at is null and c.external_id is not null
        where cu.user_id = u.id), '') as "companyExternalIds", u.custom_fields as "customFields"
    from users u where ${bounds('u', f)} and u.role = 'contact' order by u.created_at, u.id`,
  '18': (f) => sql`select a.code, a.name, a.description, a.price, a.stocked, a.quantity, a.unit, a.enabled,
      c.external_id as "companyExternalId", a.external_id as "externalId", a.custom_fields as "customFields"
    from articles a left join companies c on c.id = a.company_id
    where ${bounds('a', f)} order by a.created_at, a.id`,
  '19': (
    f,
  ) => sql`select o.external_id as "externalId", c.external_id as "companyExternalId", o.billed_amount as "billedAmount",
      o.order_date as "orderDate", o.expected_delivery_date as "expectedDeliveryDate",
      o.actual_delivery_date as "actualDeliveryDate", o.tracking_id as "trackingId", s.internal_label as status,
      o.custom_fields as "customFields"
    from orders o left join companies c on c.id = o.company_id left join statuses s on s.id = o.status_id
    where ${bounds('o', f)} order by o.created_at, o.id`,
};

/** Whether there is an export of this type. */
export const hasExportQuery = (type: string) => type in EXPORT_QUERIES;

/** The records matching the filter for an export of this type, oldest first. */
export async function findExportRecords(db: Executor, type: string, filter: ExportFilter) {
  const query = EXPORT_QUERIES[type];
  if (!query) throw new Error(`no export for type ${type}`);
  return rowsOf<Record<string, unknown>>(await db.execute(query(filter)));
}
