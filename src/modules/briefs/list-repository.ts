/** The SQL of GET /briefs (list.ts): the page, its conditions, cursor, counts and estimates. */
import { and, eq, gt, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { type Db, type Executor, rowsOf } from '../../db/client.ts';
import { briefs, type PredictionStatus } from '../../db/schema/briefs.ts';
import { projects } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import type { Actor } from '../../platform/actor.ts';
import { likeEscape } from '../../platform/filters.ts';
import { type PageOptions, type PageRequest, pageWindow } from '../../platform/pagination.ts';
import { liveBriefCount, visibleBriefs } from './repository.ts';

const sortColumns = (t: {
  updatedAt: AnyPgColumn;
  createdAt: AnyPgColumn;
  codeNumber: AnyPgColumn;
  name: AnyPgColumn;
}) => ({
  updatedAt: t.updatedAt,
  createdAt: t.createdAt,
  code: t.codeNumber,
  name: t.name,
});

export const BRIEF_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 500,
  sortFields: sortColumns(briefs),
  tieBreaker: briefs.id,
  defaultSort: { field: 'updatedAt', direction: 'DESC' },
};

/**
 * The briefs of a page window with their project and company, sorted by `orderBy`; `counting`
 * (a scalar subquery) rides along as `total`.
 */
export function readBriefPage(
  executor: Executor,
  where: SQL,
  orderBy: SQL[],
  window: { orderBy: SQL[]; offset: number; limit: number },
  counting: SQL<number> = sql<number>`null`,
) {
  const ids = executor
    .select({ id: briefs.id })
    .from(briefs)
    .where(where)
    .orderBy(...window.orderBy)
    .limit(window.limit)
    .offset(window.offset)
    .as('page');
  return executor
    .select({
      brief: briefs,
      project: { id: projects.id, name: projects.name, companyId: projects.companyId },
      company: { id: companies.id, name: companies.name },
      total: counting,
    })
    .from(briefs)
    .innerJoin(ids, eq(briefs.id, ids.id))
    .leftJoin(projects, eq(projects.id, briefs.projectId))
    .leftJoin(companies, eq(companies.id, briefs.companyId))
    .orderBy(...orderBy);
}

export type BriefPageRow = Awaited<ReturnType<typeof readBriefPage>>[number];

/**
 * The whole organisation's live briefs the actor sees: the counter's total and the page, read
 * in one snapshot so that they agree.
 */
export function readWholeOrganisationPage(db: Db, actor: Actor, page: PageRequest) {
  return db.transaction(
    async (tx) => {
      const total = await liveBriefCount(tx, actor.organisationId);
      const window = pageWindow(page, total);
      const rows = window.limit ? await readBriefPage(tx, visibleBriefs(actor), page.orderBy, window) : [];
      return { total, rows };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The filters of a brief list, checked by the caller. */
export type BriefListFilter = {
  companyId?: string;
  projectId?: string;
  statusIds?: string[];
  predictionStatuses?: PredictionStatus[];
  updatedAfter?: Date;
  search?: string;
};

/** The briefs the actor sees that match the filters (and `after`, a cursor's condition). */
export function briefListConditions(actor: Actor, filter: BriefListFilter, after?: SQL): SQL {
  const conditions: (SQL | undefined)[] = [visibleBriefs(actor)];
  if (filter.companyId) conditions.push(eq(briefs.companyId, filter.companyId));
  if (filter.projectId) conditions.push(eq(briefs.projectId, filter.projectId));
  if (filter.statusIds) {
    const ids = filter.statusIds;
    conditions.push(ids.length === 1 ? eq(briefs.statusId, ids[0]!) : inArray(briefs.statusId, ids));
  }
  if (filter.predictionStatuses) conditions.push(inArray(briefs.predictionStatus, filter.predictionStatuses));
  if (filter.updatedAfter) conditions.push(gt(briefs.updatedAt, filter.updatedAfter));
  if (filter.search) {
    const pattern = `%${likeEscape(filter.search)}%`;
    conditions.push(or(ilike(briefs.name, pattern), ilike(briefs.code, pattern)));
  }
  return and(and(...conditions), after)!;
}

/**
 * The condition of the briefs after the cursor brief in the page's order, or undefined when the
 * cursor is not a brief of the organisation.
 */
export async function afterCursor(db: Db, organisationId: string, after: string, page: PageRequest) {
  const c = alias(briefs, 'cursor');
  const [cursor] = await db
    .select({ id: c.id })
    .from(c)
    .where(and(eq(c.id, after), eq(c.organisationId, organisationId)));
  if (!cursor) return undefined;
  const outer = sortColumns(briefs)[page.sortField as keyof ReturnType<typeof sortColumns>];
  const inner = sortColumns(c)[page.sortField as keyof ReturnType<typeof sortColumns>];
  const op = page.direction === 'ASC' ? sql`>` : sql`<`;
  return sql`(${outer}, ${briefs.id}) ${op} (${db.select({ value: inner, id: c.id }).from(c).where(eq(c.id, after))})`;
}

/** A scalar subquery counting the matching briefs up to `cap + 1`. */
export function cappedCount(db: Db, where: SQL, cap: number) {
  const capped = db
    .select({ one: sql`1` })
    .from(briefs)
    .where(where)
    .limit(cap + 1);
  return sql<number>`(select count(*)::int from (${capped.getSQL()}) capped)`;
}

/** Reads a scalar count on its own (when the page brought no row to carry it). */
export async function readCount(db: Db, counting: SQL<number>) {
  const [counted] = await db.select({ total: counting }).from(sql`(select 1) one`);
  return counted?.total ?? 0;
}

/**
 * The planner's row estimate of the matching briefs (no rows read): `key` names the statement
 * for a cache, `read` asks the planner.
 */
export function plannerEstimate(db: Db, where: SQL) {
  const query = db.select({ id: briefs.id }).from(briefs).where(where);
  const { sql: text, params } = query.toSQL();
  return {
    key: `${text}\u0000${JSON.stringify(params)}`,
    async read() {
      const result = await db.execute(sql`explain (format json) ${query}`);
      const rows =
        rowsOf<Record<string, unknown>>(result) ?? (result as unknown as Record<string, unknown>[]);
      const plan = (rows[0]?.['QUERY PLAN'] ?? rows[0]) as unknown;
      const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
      const top = Array.isArray(parsed) ? parsed[0]?.Plan : undefined;
      return Math.round(Number(top?.['Plan Rows'] ?? 0));
    },
  };
}
