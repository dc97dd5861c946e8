import { and, eq, gt, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { type Db, type Executor, rowsOf } from '../../db/client.ts';
import { briefs, PREDICTION_STATUSES, type PredictionStatus } from '../../db/schema/briefs.ts';
import { projects } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, isCompanyScoped } from '../../platform/actor.ts';
import { badRequest } from '../../platform/errors.ts';
import { likeEscape, uuidList } from '../../platform/filters.ts';
import {
  type PageOptions,
  type PageQuery,
  type PageRequest,
  pageResult,
  pageWindow,
  resolvePage,
} from '../../platform/pagination.ts';
import { presentListItem } from './presenters.ts';
import { liveBriefCount, visibleBriefs } from './repository.ts';

/*
 * GET /briefs: pages by offset or by keyset cursor (`after`), with a total that is exact up to
 * BRIEF_COUNT_CAP matches and the planner's estimate beyond; the whole organisation's total
 * comes from a counter kept by a trigger, so its far-end pages stay cheap.
 */

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

/** Up to this many matching briefs, list totals are exact; beyond, the planner's estimate. */
export const BRIEF_COUNT_CAP = 1_000;
/** How long a planner estimate of a list total is reused. */
const ESTIMATE_TTL_MS = 30_000;

export type BriefListQuery = PageQuery & {
  status?: string;
  lastupdate?: string;
  companyId?: string;
  projectId?: string;
  predictionStatus?: string;
  search?: string;
  after?: string;
};

export function createBriefList({ db, countCap = BRIEF_COUNT_CAP }: { db: Db; countCap?: number }) {
  /** No filter and an actor who sees every company: the list is the organisation's live briefs. */
  function wholeOrganisation(actor: Actor, query: BriefListQuery) {
    return (
      !isCompanyScoped(actor) &&
      !query.companyId &&
      !query.projectId &&
      !query.status &&
      !query.predictionStatus &&
      !query.lastupdate &&
      !query.search
    );
  }

  /**
   * The briefs of a page window with their project and company, sorted by `orderBy`; `counting`
   * (a scalar subquery) rides along as `total`.
   */
  function readPage(
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

  function listAnswer(
    rows: Awaited<ReturnType<typeof readPage>>,
    page: PageRequest,
    total: number,
    extra: { hasNextPage: boolean; totalIsExact: boolean },
  ) {
    const data = rows.map((r) => presentListItem(r.brief, r));
    const last = data[data.length - 1];
    return {
      data,
      meta: {
        ...pageResult(data, total, page).meta,
        ...extra,
        nextCursor: extra.hasNextPage && last ? last.id : null,
      },
    };
  }

  function listConditions(actor: Actor, query: BriefListQuery): SQL {
    const conditions: (SQL | undefined)[] = [visibleBriefs(actor)];
    if (query.companyId) conditions.push(eq(briefs.companyId, query.companyId));
    if (query.projectId) conditions.push(eq(briefs.projectId, query.projectId));
    if (query.status) {
      const ids = uuidList(query.status, '/status');
      conditions.push(ids.length === 1 ? eq(briefs.statusId, ids[0]!) : inArray(briefs.statusId, ids));
    }
    if (query.predictionStatus) {
      const values = query.predictionStatus.split(',').map((s) => s.trim().toUpperCase());
      const bad = values.filter((v) => !PREDICTION_STATUSES.includes(v as PredictionStatus));
      if (bad.length || !values.length) {
        throw badRequest('predictionStatus must be a comma-separated list of prediction statuses', [
          {
            pointer: '/predictionStatus',
            message: `must be among ${PREDICTION_STATUSES.join(', ')}`,
            in: 'query',
          },
        ]);
      }
      conditions.push(inArray(briefs.predictionStatus, values as PredictionStatus[]));
    }
    if (query.lastupdate) conditions.push(gt(briefs.updatedAt, new Date(query.lastupdate)));
    if (query.search) {
      const pattern = `%${likeEscape(query.search)}%`;
      conditions.push(or(ilike(briefs.name, pattern), ilike(briefs.code, pattern)));
    }
    return and(...conditions)!;
  }

  /**
   * The planner's row estimate of a condition (no rows read), kept a little while per condition:
   * it is an estimate anyway, and lists are read again and again with the same filters.
   */
  const estimates = new Map<string, { value: number; at: number }>();
  async function estimate(where: SQL): Promise<number> {
    const query = db.select({ id: briefs.id }).from(briefs).where(where);
    const { sql: text, params } = query.toSQL();
    const key = `${text}\u0000${JSON.stringify(params)}`;
    const cached = estimates.get(key);
    if (cached && Date.now() - cached.at < ESTIMATE_TTL_MS) return cached.value;
    const result = await db.execute(sql`explain (format json) ${query}`);
    const rows = rowsOf<Record<string, unknown>>(result) ?? (result as unknown as Record<string, unknown>[]);
    const plan = (rows[0]?.['QUERY PLAN'] ?? rows[0]) as unknown;
    const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
    const top = Array.isArray(parsed) ? parsed[0]?.Plan : undefined;
    const value = Math.round(Number(top?.['Plan Rows'] ?? 0));
    if (estimates.size >= 1000) estimates.delete(estimates.keys().next().value!);
    estimates.set(key, { value, at: Date.now() });
    return value;
  }

  return {
    async list(actor: Actor, query: BriefListQuery) {
      const page = resolvePage(query, BRIEF_PAGE);
      if (!query.after && wholeOrganisation(actor, query)) {
        return db.transaction(
          async (tx) => {
            const total = await liveBriefCount(tx, actor.organisationId);
            const window = pageWindow(page, total);
            const rows = window.limit ? await readPage(tx, visibleBriefs(actor), page.orderBy, window) : [];
            const hasNextPage = page.offset + page.limit < total;
            return listAnswer(rows.slice(0, page.limit), page, total, { hasNextPage, totalIsExact: true });
          },
          { isolationLevel: 'repeatable read', accessMode: 'read only' },
        );
      }
      let where = listConditions(actor, query);
      let offset = page.offset;
      if (query.after) {
        const c = alias(briefs, 'cursor');
        const [cursor] = await db
          .select({ id: c.id })
          .from(c)
          .where(and(eq(c.id, query.after), eq(c.organisationId, actor.organisationId)));
        if (!cursor) {
          throw badRequest('after must be the id of a brief of the previous page', [
            { pointer: '/after', message: 'is not a brief of the organisation', in: 'query' },
          ]);
        }
        const outer = sortColumns(briefs)[page.sortField as keyof ReturnType<typeof sortColumns>];
        const inner = sortColumns(c)[page.sortField as keyof ReturnType<typeof sortColumns>];
        const op = page.direction === 'ASC' ? sql`>` : sql`<`;
        where = and(
          where,
          sql`(${outer}, ${briefs.id}) ${op} (${db.select({ value: inner, id: c.id }).from(c).where(eq(c.id, query.after))})`,
        )!;
        offset = 0;
      }
      // The capped count rides along as a scalar subquery of the page query: one round trip.
      const countWhere = listConditions(actor, query);
      const capped = db
        .select({ one: sql`1` })
        .from(briefs)
        .where(countWhere)
        .limit(countCap + 1);
      const counting = sql<number>`(select count(*)::int from (${capped.getSQL()}) capped)`;
      const rows = await readPage(
        db,
        where,
        page.orderBy,
        { orderBy: page.orderBy, offset, limit: page.limit + 1 },
        counting,
      );
      const counted = rows.length
        ? [{ total: rows[0]!.total }]
        : await db.select({ total: counting }).from(sql`(select 1) one`);
      const hasNextPage = rows.length > page.limit;
      const count = counted[0]?.total ?? 0;
      const totalIsExact = count <= countCap;
      const seen = offset + Math.min(rows.length, page.limit) + (hasNextPage ? 1 : 0);
      const total = totalIsExact ? count : Math.max(countCap + 1, seen, await estimate(countWhere));
      return listAnswer(rows.slice(0, page.limit), page, total, { hasNextPage, totalIsExact });
    },
  };
}
