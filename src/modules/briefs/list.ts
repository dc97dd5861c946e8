import type { Db } from '../../db/client.ts';
import { PREDICTION_STATUSES, type PredictionStatus } from '../../db/schema/briefs.ts';
import { type Actor, isCompanyScoped } from '../../platform/actor.ts';
import { badRequest } from '../../platform/errors.ts';
import { uuidList } from '../../platform/filters.ts';
import { type PageQuery, type PageRequest, pageResult, resolvePage } from '../../platform/pagination.ts';
import {
  afterCursor,
  BRIEF_PAGE,
  type BriefListFilter,
  type BriefPageRow,
  briefListConditions,
  cappedCount,
  plannerEstimate,
  readBriefPage,
  readCount,
  readWholeOrganisationPage,
} from './list-repository.ts';
import { presentListItem } from './presenters.ts';

export { BRIEF_PAGE };

/*
 * GET /briefs: pages by offset or by keyset cursor (`after`), with a total that is exact up to
 * BRIEF_COUNT_CAP matches and the planner's estimate beyond; the whole organisation's total
 * comes from a counter kept by a trigger, so its far-end pages stay cheap.
 */

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

  function listAnswer(
    rows: BriefPageRow[],
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

  function listFilter(query: BriefListQuery): BriefListFilter {
    const filter: BriefListFilter = { companyId: query.companyId, projectId: query.projectId };
    if (query.status) filter.statusIds = uuidList(query.status, '/status');
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
      filter.predictionStatuses = values as PredictionStatus[];
    }
    if (query.lastupdate) filter.updatedAfter = new Date(query.lastupdate);
    if (query.search) filter.search = query.search;
    return filter;
  }

  /**
   * The planner's row estimate of a condition (no rows read), kept a little while per condition:
   * it is an estimate anyway, and lists are read again and again with the same filters.
   */
  const estimates = new Map<string, { value: number; at: number }>();
  async function estimate(where: ReturnType<typeof briefListConditions>): Promise<number> {
    const planner = plannerEstimate(db, where);
    const cached = estimates.get(planner.key);
    if (cached && Date.now() - cached.at < ESTIMATE_TTL_MS) return cached.value;
    const value = await planner.read();
    if (estimates.size >= 1000) estimates.delete(estimates.keys().next().value!);
    estimates.set(planner.key, { value, at: Date.now() });
    return value;
  }

  return {
    async list(actor: Actor, query: BriefListQuery) {
      const page = resolvePage(query, BRIEF_PAGE);
      if (!query.after && wholeOrganisation(actor, query)) {
        const { total, rows } = await readWholeOrganisationPage(db, actor, page);
        const hasNextPage = page.offset + page.limit < total;
        return listAnswer(rows.slice(0, page.limit), page, total, { hasNextPage, totalIsExact: true });
      }
      const filter = listFilter(query);
      let where = briefListConditions(actor, filter);
      let offset = page.offset;
      if (query.after) {
        const after = await afterCursor(db, actor.organisationId, query.after, page);
        if (!after) {
          throw badRequest('after must be the id of a brief of the previous page', [
            { pointer: '/after', message: 'is not a brief of the organisation', in: 'query' },
          ]);
        }
        where = briefListConditions(actor, filter, after);
        offset = 0;
      }
      // The capped count rides along as a scalar subquery of the page query: one round trip.
      const countWhere = briefListConditions(actor, filter);
      const counting = cappedCount(db, countWhere, countCap);
      const rows = await readBriefPage(
        db,
        where,
        page.orderBy,
        { orderBy: page.orderBy, offset, limit: page.limit + 1 },
        counting,
      );
      const count = rows.length ? (rows[0]!.total ?? 0) : await readCount(db, counting);
      const hasNextPage = rows.length > page.limit;
      const totalIsExact = count <= countCap;
      const seen = offset + Math.min(rows.length, page.limit) + (hasNextPage ? 1 : 0);
      const total = totalIsExact ? count : Math.max(countCap + 1, seen, await estimate(countWhere));
      return listAnswer(rows.slice(0, page.limit), page, total, { hasNextPage, totalIsExact });
    },
  };
}
