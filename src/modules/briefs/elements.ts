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
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { briefElementLinkerOf } from '../articles/brief-element-linker.ts';
import {
  briefCurrency,
  elementVisibleTo,
  findLiveArticleOfElement,
  listVisibleElements,
  setElementExternalId,
  softDeleteLiveElement,
} from './element-repository.ts';
import { createElementWrites } from './element-writes.ts';
import { standaloneValues, storeStandalonePrediction } from './linker.ts';
import { type ElementRow, presentElement } from './mapping.ts';
import { BRIEF_ELEMENT_ENTITY, findElementRow, findPredictionSummary, updateElement } from './repository.ts';
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

export function createElementService(
  ctx: Pick<AppContext, 'db' | 'change' | 'registry'>,
  options: BriefServiceOptions,
) {
  const { db } = ctx;
  // Elements of a brief are written through the brief's update path (element-writes.ts).
  const ofBrief = createElementWrites(ctx, options, inputOf);

  async function currencyOf(row: ElementRow) {
    if (row.briefId) return briefCurrency(db, row.briefId);
    return row.predictionId ? ((await findPredictionSummary(db, row.predictionId))?.currency ?? null) : null;
  }

  /** The element if the actor sees it (an element of a brief or a standalone one), else 404. */
  async function visibleRow(actor: Actor, id: string) {
    const row = await findElementRow(db, actor.organisationId, id);
    if (!row) throw notFound('Brief element');
    if (!(await elementVisibleTo(db, actor, id))) throw notFound('Brief element');
    return row;
  }

  return {
    async list(actor: Actor, query: ElementListQuery) {
      const page = query.page ?? 1;
      const limit = query.limit ?? 50;
      const [field = 'createdAt', dir = 'DESC'] = (query.sort ?? 'createdAt,DESC').split(',');
      const { rows, total: n } = await listVisibleElements(db, actor, query, {
        sortField: field,
        ascending: dir.toUpperCase() === 'ASC',
        limit,
        offset: (page - 1) * limit,
      });
      const data = await Promise.all(rows.map(async (row) => presentElement(row, await currencyOf(row))));
      return { data, meta: { page, limit, total: n, pageCount: Math.ceil(n / limit) } };
    },

    async create(actor: Actor, body: Record<string, unknown>) {
      const { briefId, externalId, position: _position, ...element } = body;
      if (typeof briefId === 'string')
        return ofBrief.create(actor, briefId, { ...element, externalId, position: _position });
      const id = await ctx.change(actor, async (tx, record) => {
        const created = await briefElementLinkerOf(ctx).createStandalone(tx, actor, element, record, '');
        if (externalId !== undefined) await setElementExternalId(tx, created.id, externalId as string | null);
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
        const updated = await updateElement(tx, id, {
          ...values,
          position: 0,
          ...(externalId !== undefined ? { externalId: externalId as string | null } : {}),
          updatedAt: at,
        });
        await record({
          on: BRIEF_ELEMENT_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: presentElement(updated, prediction?.currency ?? null),
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
        const linked = await findLiveArticleOfElement(tx, id);
        if (linked) {
          throw new AppError(
            'reference_conflict',
            `Article ${linked.id} is made from this element: give the article another element (or none) first`,
          );
        }
        const at = new Date();
        const deleted = await softDeleteLiveElement(tx, id, at);
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
