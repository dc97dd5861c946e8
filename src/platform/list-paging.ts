import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db/client.ts';
import { liveCounts } from '../db/schema/platform.ts';
import { type PageRequest, pageWindow } from './pagination.ts';

/**
 * Lists that stay fast at a million rows (issue 31; docs/architecture.md, "List paging"), as the
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

export type IdsPage = { ids: string[]; total: number; totalIsExact: boolean; hasNextPage: boolean };

export type IdsPageSource = {
  table: PgTable;
  id: PgColumn;
  where: SQL | undefined;
  page: PageRequest;
  /** When set, `where` selects every live row of the organisation: its count is `live_counts`'. */
  wholeOrganisation?: { organisationId: string; entity: 'quotes' | 'companies' };
  countCap?: number;
};

/** The exact number of live rows of an organisation's table (kept by the heavy_lists trigger). */
export async function liveCount(db: Executor, organisationId: string, entity: string): Promise<number> {
  const [row] = await db
    .select({ live: liveCounts.live })
    .from(liveCounts)
    .where(and(eq(liveCounts.organisationId, organisationId), eq(liveCounts.entity, entity)));
  return row?.live ?? 0;
}

export async function pageOfIds(db: Db, source: IdsPageSource): Promise<IdsPage> {
  const { table, id, where, page } = source;
  const countCap = source.countCap ?? LIST_COUNT_CAP;
  const idsOf = (executor: Executor, orderBy: SQL[], offset: number, limit: number) =>
    executor
      .select({ id })
      .from(table)
      .where(where)
      .orderBy(...orderBy)
      .offset(offset)
      .limit(limit) as unknown as Promise<{ id: string }[]>;

  const whole = source.wholeOrganisation;
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
        return {
          ids: window.orderBy === page.orderBy ? inPage : inPage.reverse(),
          total,
          totalIsExact: true,
          hasNextPage: page.offset + page.limit < total,
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  const capped = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(countCap + 1)
    .as('capped');
  // The page and its count side by side (two pool connections on PostgreSQL).
  const [rows, counted] = await Promise.all([
    idsOf(db, page.orderBy, page.offset, page.limit + 1),
    db.select({ total: sql<number>`count(*)::int` }).from(capped),
  ]);
  const hasNextPage = rows.length > page.limit;
  const ids = rows.slice(0, page.limit).map((r) => r.id);
  const count = counted[0]?.total ?? 0;
  const totalIsExact = count <= countCap;
  const total = totalIsExact ? count : Math.max(countCap, page.offset + ids.length + (hasNextPage ? 1 : 0));
  return { ids, total, totalIsExact, hasNextPage };
}

/** Rows in the order of `ids` (a page read by id comes back in any order). */
export function inOrderOf<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}
