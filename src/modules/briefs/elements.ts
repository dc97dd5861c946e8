/**
 * /api/brief-elements (HIPE's BriefElements resource): standalone elements on their own.
 *
 * A standalone element belongs to no brief (`briefId` null); it is the same record an article's
 * nested `briefElement` creates. It is validated with the brief element schema and priced at
 * once, synchronously, when it has enough data (product, dimensions, board, decoration
 * variants); otherwise it is stored unpriced and must name only catalogue records. Elements of a
 * brief are listed and read here too, but are changed through their brief (PUT /briefs/{id}),
 * which reprices the brief as a whole.
 */
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import { articles } from '../../db/schema/orders.ts';
import { type Actor, isCompanyScoped } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { briefElementLinkerOf } from '../articles/brief-element-linker.ts';
import { createElementWrites } from './element-writes.ts';
import { standaloneValues, storeStandalonePrediction } from './linker.ts';
import { type ElementRow, presentElement } from './mapping.ts';
import { BRIEF_ELEMENT_ENTITY, findElementRow, findPredictionSummary } from './repository.ts';
import { StandaloneElementSchema } from './schemas.ts';
import type { BriefServiceOptions } from './service.ts';

const ELEMENT_KEYS = Object.keys(StandaloneElementSchema.properties);

/** The element's stored values in the element schema's input form (nulls left out). */
function inputOf(row: ElementRow): Record<string, unknown> {
  const present = presentElement(row, null) as Record<string, unknown>;
  return Object.fromEntries(
    ELEMENT_KEYS.filter((k) => present[k] !== null && present[k] !== undefined).map((k) => [k, present[k]]),
  );
}

export interface ElementListQuery {
  page?: number;
  limit?: number;
  briefId?: string;
  productId?: string;
  productCategoryId?: string;
  sort?: string;
}

const SORTS = {
  createdAt: briefElements.createdAt,
  position: briefElements.position,
  updatedAt: briefElements.updatedAt,
};

export function createElementService(
  ctx: Pick<AppContext, 'db' | 'change' | 'registry'>,
  options: BriefServiceOptions,
) {
  const { db } = ctx;
  // Elements of a brief are written through the brief's update path (element-writes.ts).
  const ofBrief = createElementWrites(ctx, options, inputOf);

  async function currencyOf(row: ElementRow) {
    if (row.briefId) {
      const [brief] = await db
        .select({ currency: briefs.currency })
        .from(briefs)
        .where(eq(briefs.id, row.briefId));
      return brief?.currency ?? null;
    }
    return row.predictionId ? ((await findPredictionSummary(db, row.predictionId))?.currency ?? null) : null;
  }

  /** Visibility: live brief of a visible company, or standalone (company-scoped: linked by their article). */
  function visible(actor: Actor): SQL {
    const liveBrief = sql`(${briefElements.briefId} is null or exists (select 1 from ${briefs} where ${briefs.id} = ${briefElements.briefId} and ${briefs.deletedAt} is null))`;
    if (!isCompanyScoped(actor)) return liveBrief;
    const ids = actor.companyIds.length ? actor.companyIds : ['00000000-0000-0000-0000-000000000000'];
    const list = sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    return sql`${liveBrief} and (
      (${briefElements.briefId} is not null and exists (select 1 from ${briefs} where ${briefs.id} = ${briefElements.briefId} and ${briefs.companyId} in (${list})))
      or (${briefElements.briefId} is null and exists (select 1 from ${articles} where ${articles.briefElementId} = ${briefElements.id} and ${articles.deletedAt} is null and ${articles.companyId} in (${list}))))`;
  }

  /** The element if the actor sees it (an element of a brief or a standalone one), else 404. */
  async function visibleRow(actor: Actor, id: string) {
    const row = await findElementRow(db, actor.organisationId, id);
    if (!row) throw notFound('Brief element');
    const [seen] = await db
      .select({ id: briefElements.id })
      .from(briefElements)
      .where(and(eq(briefElements.id, id), visible(actor)));
    if (!seen) throw notFound('Brief element');
    return row;
  }

  return {
    async list(actor: Actor, query: ElementListQuery) {
      const page = query.page ?? 1;
      const limit = query.limit ?? 50;
      const where = and(
        eq(briefElements.organisationId, actor.organisationId),
        isNull(briefElements.deletedAt),
        visible(actor),
        query.briefId ? eq(briefElements.briefId, query.briefId) : undefined,
        query.productId ? eq(briefElements.productId, query.productId) : undefined,
        query.productCategoryId ? eq(briefElements.productCategoryId, query.productCategoryId) : undefined,
      );
      const [field = 'createdAt', dir = 'DESC'] = (query.sort ?? 'createdAt,DESC').split(',');
      const column = SORTS[field as keyof typeof SORTS] ?? briefElements.createdAt;
      const order = dir.toUpperCase() === 'ASC' ? asc(column) : desc(column);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(briefElements)
          .where(where)
          .orderBy(order, asc(briefElements.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: count() }).from(briefElements).where(where),
      ]);
      const data = await Promise.all(rows.map(async (row) => presentElement(row, await currencyOf(row))));
      const n = Number(total?.n ?? 0);
      return { data, meta: { page, limit, total: n, pageCount: Math.ceil(n / limit) } };
    },

    async create(actor: Actor, body: Record<string, unknown>) {
      const { briefId, externalId, position: _position, ...element } = body;
      if (typeof briefId === 'string')
        return ofBrief.create(actor, briefId, { ...element, externalId, position: _position });
      const id = await ctx.change(actor, async (tx, record) => {
        const created = await briefElementLinkerOf(ctx).createStandalone(tx, actor, element, record, '');
        if (externalId !== undefined) {
          await tx
            .update(briefElements)
            .set({ externalId: externalId as string | null })
            .where(eq(briefElements.id, created.id));
        }
        return created.id;
      });
      const row = await findElementRow(db, actor.organisationId, id);
      return presentElement(row!, await currencyOf(row!));
    },

    async update(actor: Actor, id: string, patch: Record<string, unknown>) {
      const row = await visibleRow(actor, id);
      if (row.briefId) return ofBrief.update(actor, row, patch);
      const { briefId, externalId, position: _position, ...changes } = patch;
      if (briefId !== undefined && briefId !== null) {
        throw new AppError('element_of_brief', 'A standalone element cannot be moved into a brief', {
          issues: [{ pointer: '/briefId', message: 'a standalone element stays standalone', in: 'body' }],
        });
      }
      const input = { ...inputOf(row), ...changes };
      await ctx.change(actor, async (tx, record) => {
        const at = new Date();
        const { values, prediction } = await standaloneValues(tx, actor, input, id, at, '');
        const [updated] = await tx
          .update(briefElements)
          .set({
            ...values,
            position: 0,
            ...(externalId !== undefined ? { externalId: externalId as string | null } : {}),
            updatedAt: at,
          })
          .where(eq(briefElements.id, id))
          .returning();
        await record({
          on: BRIEF_ELEMENT_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: presentElement(updated!, prediction?.currency ?? null),
        });
        if (prediction) await storeStandalonePrediction(tx, prediction, id, record);
      });
      const fresh = await findElementRow(db, actor.organisationId, id);
      return presentElement(fresh!, await currencyOf(fresh!));
    },

    async remove(actor: Actor, id: string) {
      const row = await visibleRow(actor, id);
      if (row.briefId) return ofBrief.remove(actor, row);
      await ctx.change(actor, async (tx, record) => {
        const [linked] = await tx
          .select({ id: articles.id })
          .from(articles)
          .where(and(eq(articles.briefElementId, id), isNull(articles.deletedAt)))
          .limit(1);
        if (linked) {
          throw new AppError(
            'reference_conflict',
            `Article ${linked.id} is made from this element: give the article another element (or none) first`,
          );
        }
        const at = new Date();
        const [deleted] = await tx
          .update(briefElements)
          .set({ deletedAt: at, updatedAt: at })
          .where(and(eq(briefElements.id, id), isNull(briefElements.deletedAt)))
          .returning();
        if (!deleted) throw notFound('Brief element');
        await record({
          on: BRIEF_ELEMENT_ENTITY,
          type: 'DELETE',
          entityId: id,
          snapshot: presentElement(deleted, null),
        });
      });
      return { id, deleted: true as const };
    },
  };
}
