import { and, eq, getTableName, gt, is, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { type Db, type Executor, rowsOf } from '../db/client.ts';
import { liveCounts } from '../db/schema/platform.ts';
import { badRequest } from './errors.ts';
import { type PageOptions, type PageRequest, pageWindow, type SortDirection } from './pagination.ts';

/**
 * Lists that stay fast at a million rows (issue 31; docs/decisions.md, "List paging"), as the
 * orders and briefs lists do:
 *
 * - **ids first**: the ids of a page come from one query on the list's table alone, which an
 *   index ending with the tie-breaker (and the columns visibility reads) serves as an index-only
 *   scan whatever its offset; only then are the page's rows read (and joined) by id.
 * - **the total**: for the whole organisation (no filter, an actor that sees every row) it is the
 *   exact number of live rows kept in `live_counts` by a trigger, and a page past the middle is
 *   read from the far end of the index (an OFFSET costs what it skips: the last page skips none).
 *   Otherwise the matches are counted up to `countCap` (exact below), beyond which `total` is a
 *   lower bound and `totalIsExact` false, as for orders. `hasNextPage` is always exact.
 */

/** Up to this many matching rows, a filtered list's total is exact (counting more costs more than the page). */
export const LIST_COUNT_CAP = 10_000;

export type IdsPage = {
  ids: string[];
  total: number;
  totalIsExact: boolean;
  hasNextPage: boolean;
  /** The id to pass as `after` for the next page (keyset), or null on the last page. */
  nextCursor: string | null;
};

/**
 * A keyset cursor: continue after the row `after` in the list's order (sort column, then id), at
 * the cost of one index range whatever the depth, where an OFFSET costs what it skips.
 */
export type Keyset = {
  after: string;
  /** The sort column of the page (the id breaks ties). */
  column: PgColumn;
  direction: SortDirection;
  /** Where the cursor's row must be found (its organisation; it may have been deleted since). */
  scope: SQL | undefined;
};

export type IdsPageSource = {
  table: PgTable;
  id: PgColumn;
  where: SQL | undefined;
  page: PageRequest;
  /** When set, `where` selects every live row of the organisation: its count is `live_counts`'. */
  wholeOrganisation?: { organisationId: string; entity: 'quotes' | 'companies' };
  countCap?: number;
  keyset?: Keyset;
  /**
   * The filter is a text search ("contains" on names, codes, e-mails). Walking the sort index and
   * filtering finds a page of a common word at once but reads the whole index for a rare one (a
   * plain `s=zebra` read 20,840 companies for 25); so when at most `countCap` rows match (the
   * count is taken first), the page is sorted from the matches, which the trigram indexes find.
   */
  selective?: boolean;
};

/** The `after` query parameter of a list that pages by keyset as well as by `page`. */
export const AFTER_QUERY_DESCRIPTION =
  'Keyset pagination: the `meta.nextCursor` of the previous page (the id of its last row); the page then ' +
  'starts after that row in the same order at constant cost whatever the depth, and `page`/`offset` are ignored';

/** The keyset of a page request: its sort column, its direction, the cursor row's scope. */
export function keysetOf(
  options: Pick<PageOptions, 'sortFields'>,
  page: PageRequest,
  after: string,
  scope: SQL | undefined,
): Keyset {
  const column = options.sortFields[page.sortField];
  if (!is(column, PgColumn)) {
    throw badRequest(`after cannot be used with sort ${page.sortField}`, [
      { pointer: '/after', message: 'needs a sort by a column', in: 'query' },
    ]);
  }
  return { after, column, direction: page.direction, scope };
}

/**
 * The rows after the cursor's in the list's order. PostgreSQL sorts NULLs last ascending and
 * first descending (the orders' default), so a nullable sort column has its own branches; the
 * non-null branch is a row comparison, which one index range serves.
 */
export async function afterCursor(db: Executor, table: PgTable, id: PgColumn, keyset: Keyset): Promise<SQL> {
  const [cursor] = (await db
    .select({ value: keyset.column, id })
    .from(table)
    .where(and(eq(id, keyset.after), keyset.scope))) as { value: unknown; id: string }[];
  if (!cursor) {
    throw badRequest('after must be the id of the last row of the previous page (meta.nextCursor)', [
      { pointer: '/after', message: 'is not a row of this list', in: 'query' },
    ]);
  }
  const { column, direction } = keyset;
  const beyond = direction === 'ASC' ? sql`>` : sql`<`;
  const idBeyond = direction === 'ASC' ? gt(id, cursor.id) : lt(id, cursor.id);
  if (cursor.value === null || cursor.value === undefined) {
    // Among the NULLs by id; descending, every non-null value comes after them too.
    return direction === 'ASC'
      ? and(isNull(column), idBeyond)!
      : or(and(isNull(column), idBeyond), isNotNull(column))!;
  }
  const rowBeyond = sql`(${column}, ${id}) ${beyond} (${sql.param(cursor.value, column)}, ${sql.param(cursor.id, id)})`;
  // A NOT NULL column is the row comparison alone: an OR beside it would stop the index range.
  if (column.notNull) return rowBeyond;
  return direction === 'ASC' ? or(rowBeyond, isNull(column))! : and(isNotNull(column), rowBeyond)!;
}

/** The exact number of live rows of an organisation's table (kept by the heavy_lists trigger). */
export async function liveCount(db: Executor, organisationId: string, entity: string): Promise<number> {
  const [row] = await db
    .select({ live: liveCounts.live })
    .from(liveCounts)
    .where(and(eq(liveCounts.organisationId, organisationId), eq(liveCounts.entity, entity)));
  return row?.live ?? 0;
}

export async function pageOfIds(db: Db, source: IdsPageSource): Promise<IdsPage> {
  const { table, id, page, keyset } = source;
  const countCap = source.countCap ?? LIST_COUNT_CAP;
  // After a cursor the page starts there: the count stays the list's (`where` without it).
  const where = keyset ? and(source.where, await afterCursor(db, table, id, keyset)) : source.where;
  const offset = keyset ? 0 : page.offset;
  const nextCursorOf = (ids: string[], hasNextPage: boolean) => (hasNextPage ? (ids.at(-1) ?? null) : null);
  const idsOf = (executor: Executor, orderBy: SQL[], offset: number, limit: number) =>
    executor
      .select({ id })
      .from(table)
      .where(where)
      .orderBy(...orderBy)
      .offset(offset)
      .limit(limit) as unknown as Promise<{ id: string }[]>;

  const whole = source.wholeOrganisation;
  if (whole && keyset) {
    const [total, rows] = await Promise.all([
      liveCount(db, whole.organisationId, whole.entity),
      idsOf(db, page.orderBy, 0, page.limit + 1),
    ]);
    const hasNextPage = rows.length > page.limit;
    const ids = rows.slice(0, page.limit).map((r) => r.id);
    return { ids, total, totalIsExact: true, hasNextPage, nextCursor: nextCursorOf(ids, hasNextPage) };
  }
  if (whole) {
    // The count and the page from one snapshot, so that they agree.
    return db.transaction(
      async (tx) => {
        const total = await liveCount(tx, whole.organisationId, whole.entity);
        const window = pageWindow(page, total);
        const rows = window.limit ? await idsOf(tx, window.orderBy, window.offset, window.limit) : [];
        // Read from the far end, the rows come in the reverse order; the caller sorts the page.
        const ids = rows.map((r) => r.id);
        const inPage = window.orderBy === page.orderBy ? ids.slice(0, page.limit) : ids.slice(-page.limit);
        const pageIds = window.orderBy === page.orderBy ? inPage : inPage.reverse();
        const hasNextPage = page.offset + page.limit < total;
        return {
          ids: pageIds,
          total,
          totalIsExact: true,
          hasNextPage,
          nextCursor: nextCursorOf(pageIds, hasNextPage),
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  const capped = db
    .select({ one: sql`1` })
    .from(table)
    .where(source.where)
    .limit(countCap + 1)
    .as('capped');
  const countOf = async () =>
    (await db.select({ total: sql<number>`count(*)::int` }).from(capped))[0]?.total ?? 0;
  let rows: { id: string }[];
  let count: number;
  if (source.selective) {
    count = await countOf();
    rows =
      count <= countCap
        ? await idsAmongMatches(db, table, id, where, page.orderBy, offset, page.limit + 1)
        : await idsOf(db, page.orderBy, offset, page.limit + 1);
  } else {
    // The page and its count side by side (two pool connections on PostgreSQL).
    [rows, count] = await Promise.all([idsOf(db, page.orderBy, offset, page.limit + 1), countOf()]);
  }
  const hasNextPage = rows.length > page.limit;
  const ids = rows.slice(0, page.limit).map((r) => r.id);
  const totalIsExact = count <= countCap;
  const total = totalIsExact ? count : Math.max(countCap, offset + ids.length + (hasNextPage ? 1 : 0));
  return { ids, total, totalIsExact, hasNextPage, nextCursor: nextCursorOf(ids, hasNextPage) };
}

/**
 * A page of ids sorted from the rows that match, found first: `OFFSET 0` keeps the subquery from
 * being flattened into the sorted scan, and naming it after the table lets the page's `ORDER BY`
 * (which names the table's columns) sort it.
 */
async function idsAmongMatches(
  db: Db,
  table: PgTable,
  id: PgColumn,
  where: SQL | undefined,
  orderBy: SQL[],
  offset: number,
  limit: number,
): Promise<{ id: string }[]> {
  const name = sql.identifier(getTableName(table));
  const result = await db.execute(
    sql`select ${name}.${sql.identifier(id.name)} as id from (select * from ${table} where ${where ?? sql`true`} offset 0) as ${name} order by ${sql.join(orderBy, sql`, `)} offset ${offset} limit ${limit}`,
  );
  return rowsOf<{ id: string }>(result);
}

/** Rows in the order of `ids` (a page read by id comes back in any order). */
export function inOrderOf<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}
