import type { Static } from '@sinclair/typebox';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { type Actor, assertCompanyVisible, assertCompanyWritable } from '../../platform/actor.ts';
import { AppError, badRequest, notFound, type ProblemIssue } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { assertTotalInRange } from '../../platform/input-safety.ts';
import { roundCents, roundUnitPrice, totalsMatch } from '../../platform/money.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { invalidReference, liveComment } from '../../platform/references.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import {
  catalogueOfItems,
  findOrderItem,
  findOrderItemRow,
  isAncestorOrSelf,
  listVisibleOrderItems,
  liveArticles,
  liveDescendants,
  liveItems,
  ORDER_ITEM_PAGE,
  type OrderItemRow,
  orderItemsByIds,
  presentOrderItem,
  softDeleteLiveOrderItems,
  updateOrderItem,
} from './items-repository.ts';
import type { BulkOrderItemsBody, CreateOrderItemBody, UpdateOrderItemBody } from './items-schemas.ts';
import {
  findOrderRow,
  insertItemsWithEvents,
  ORDER_ENTITY,
  ORDER_ITEM_ENTITY,
  refreshItemsTotal,
} from './repository.ts';

export type CreateOrderItemInput = Static<typeof CreateOrderItemBody>;
export type UpdateOrderItemInput = Static<typeof UpdateOrderItemBody>;
export type BulkOrderItemsInput = Static<typeof BulkOrderItemsBody>;

export { ORDER_ITEM_PAGE };

export type OrderItemListQuery = PageQuery & {
  orderId?: string;
  articleId?: string;
  parentId?: string;
  externalId?: string;
  search?: string;
};

/**
 * The price of an item: with a unit price, `totalPrice` is quantity x unitPrice rounded to cents
 * (a sent total must agree within half a cent); without one (a custom item priced only by its
 * total) the sent total is kept, 0 when absent.
 */
export function priceItem(
  input: { quantity: number; unitPrice: number | null; totalPrice?: number | null },
  pointer = '',
): { unitPrice: number | null; totalPrice: number } {
  if (input.unitPrice === null) return { unitPrice: null, totalPrice: roundCents(input.totalPrice ?? 0) };
  const unitPrice = roundUnitPrice(input.unitPrice);
  const expected = roundCents(input.quantity * unitPrice);
  assertTotalInRange(expected, `${pointer}/quantity`);
  if (input.totalPrice != null && !totalsMatch(input.totalPrice, expected)) {
    throw new AppError(
      'inconsistent_total',
      `totalPrice ${input.totalPrice} is not quantity x unitPrice (${input.quantity} x ${unitPrice} = ${expected})`,
      {
        issues: [
          {
            pointer: `${pointer}/totalPrice`,
            message: `must equal quantity x unitPrice = ${expected}`,
            in: 'body',
          },
        ],
      },
    );
  }
  return { unitPrice, totalPrice: expected };
}

const cycle = (pointer: string) =>
  new AppError('hierarchy_cycle', 'An item cannot become a descendant of itself', {
    issues: [{ pointer, message: 'would make the item its own ancestor', in: 'body' }],
  });

const parentInOtherOrder = (pointer: string) =>
  new AppError('parent_in_other_order', 'A parent item must belong to the same order as its children', {
    issues: [{ pointer, message: 'is an item of another order', in: 'body' }],
  });

type NewItem = Omit<CreateOrderItemInput, 'orderId' | 'quantity'> & {
  quantity?: number;
  ref?: string;
  parentRef?: string;
};

export function createOrderItemService(ctx: Pick<AppContext, 'db' | 'change'>) {
  async function read(actor: Actor, id: string) {
    const row = await findOrderItem(ctx.db, actor.organisationId, id);
    if (!row) throw notFound('Order item');
    assertCompanyVisible(actor, row.orderCompanyId, 'Order item');
    const { orderCompanyId: _company, ...item } = row;
    return presentOrderItem(item, await catalogueOfItems(ctx.db, actor.organisationId, [item]));
  }

  /** The live order, locked so the items of one order change one transaction at a time. */
  async function lockOrder(tx: Tx, actor: Actor, orderId: string, missing: () => Error) {
    const order = await findOrderRow(tx, actor.organisationId, orderId, true);
    if (!order) throw missing();
    assertCompanyVisible(actor, order.companyId, 'Order');
    assertCompanyWritable(actor, order.companyId);
    return order;
  }

  /**
   * Inserts items into an order, resolving articles, parents (existing ids or earlier `ref`s of
   * the same request) and prices; all or nothing. `pointerOf(i)` locates item i in the body.
   */
  async function insertItems(
    tx: Tx,
    actor: Actor,
    orderId: string,
    inputs: NewItem[],
    record: EventRecorder,
    pointerOf: (i: number) => string,
  ): Promise<string[]> {
    const org = actor.organisationId;
    const issues: ProblemIssue[] = [];
    const refs = new Map<string, number>();
    inputs.forEach((input, i) => {
      if (input.parentId && input.parentRef) {
        issues.push({
          pointer: `${pointerOf(i)}/parentRef`,
          message: 'cannot be sent with parentId',
          in: 'body',
        });
      }
      if (input.ref !== undefined) {
        if (refs.has(input.ref))
          issues.push({ pointer: `${pointerOf(i)}/ref`, message: 'is repeated', in: 'body' });
        else refs.set(input.ref, i);
      }
    });
    if (issues.length) throw badRequest('Some items are not valid', issues);
    inputs.forEach((input, i) => {
      if (input.parentRef === undefined) return;
      const at = refs.get(input.parentRef);
      if (at === undefined) {
        throw new AppError(
          'invalid_reference',
          `parentRef "${input.parentRef}" names no item of this request`,
          {
            issues: [
              {
                pointer: `${pointerOf(i)}/parentRef`,
                message: 'is not the ref of an item of this request',
                in: 'body',
              },
            ],
          },
        );
      }
      if (at >= i) {
        throw new AppError('parent_later', 'A parent item must come before its children', {
          issues: [
            {
              pointer: `${pointerOf(i)}/parentRef`,
              message: 'names an item that comes later in the array',
              in: 'body',
            },
          ],
        });
      }
    });

    const articleIds = [...new Set(inputs.flatMap((i) => (i.articleId ? [i.articleId] : [])))];
    const parentIds = [...new Set(inputs.flatMap((i) => (i.parentId ? [i.parentId] : [])))];
    const [articleRows, parentRows] = await Promise.all([
      liveArticles(tx, org, articleIds),
      liveItems(tx, org, parentIds),
    ]);
    const articlesById = new Map(articleRows.map((a) => [a.id, a]));
    const parentsById = new Map(parentRows.map((p) => [p.id, p]));
    const commentIds = [...new Set(inputs.flatMap((i) => (i.commentId ? [i.commentId] : [])))];
    for (const commentId of commentIds) {
      const i = inputs.findIndex((input) => input.commentId === commentId);
      await liveComment(tx, org, commentId, `${pointerOf(i)}/commentId`);
    }

    const customFieldsOf: Record<string, unknown>[] = [];
    for (const input of inputs) {
      customFieldsOf.push(await validateCustomFields(tx, org, 'order_item', input.customFields));
    }
    const ids = inputs.map(() => uuidv7());
    const rows = inputs.map((input, i) => {
      const pointer = pointerOf(i);
      let unitPrice = input.unitPrice ?? null;
      let unit = input.unit ?? null;
      if (input.quantity === undefined && !input.articleId) {
        throw badRequest('An item without an article needs a quantity', [
          {
            pointer: `${pointer}/quantity`,
            message: 'is required for an item without articleId',
            in: 'body',
          },
        ]);
      }
      // HIPE clients add an article with nothing else: 1 of it, at its price and in its unit.
      const quantity = input.quantity ?? 1;
      if (input.articleId) {
        const article = articlesById.get(input.articleId);
        if (!article) throw invalidReference(`${pointer}/articleId`, 'article');
        if (!article.enabled) {
          throw new AppError('article_disabled', 'A disabled article cannot be ordered', {
            issues: [{ pointer: `${pointer}/articleId`, message: 'is a disabled article', in: 'body' }],
          });
        }
        if (input.unitPrice === undefined) unitPrice = article.price;
        if (input.unit === undefined) unit = article.unit;
      }
      let parentId: string | null = null;
      if (input.parentId) {
        const parent = parentsById.get(input.parentId);
        if (!parent) throw invalidReference(`${pointer}/parentId`, 'order item');
        if (parent.orderId !== orderId) throw parentInOtherOrder(`${pointer}/parentId`);
        parentId = parent.id;
      } else if (input.parentRef !== undefined) {
        parentId = ids[refs.get(input.parentRef)!]!;
      }
      const price = priceItem({ quantity, unitPrice, totalPrice: input.totalPrice }, pointer);
      return {
        id: ids[i]!,
        organisationId: org,
        orderId,
        articleId: input.articleId ?? null,
        parentId,
        commentId: input.commentId ?? null,
        quantity,
        ...price,
        unit,
        position: input.position ?? 1,
        externalId: input.externalId ?? null,
        customFields: customFieldsOf[i] ?? {},
        createdById: actor.userId,
        ...(input.createdAt ? { createdAt: new Date(input.createdAt) } : {}),
      };
    });
    const _inserted = await insertItemsWithEvents(tx, record, orderId, rows);
    return ids;
  }

  /** Soft-deletes an item, and its descendants when `cascade`; refuses (409) when it has live children. */
  async function removeItem(actor: Actor, id: string, options: { orderId?: string; cascade?: boolean }) {
    return ctx.change(actor, async (tx, record) => {
      const item = await findOrderItemRow(tx, actor.organisationId, id);
      if (!item || (options.orderId && item.orderId !== options.orderId)) throw notFound('Order item');
      await lockOrder(tx, actor, item.orderId, () => notFound('Order item'));
      const descendants = await liveDescendants(tx, id);
      if (descendants.length && !options.cascade) {
        throw new AppError(
          'item_has_children',
          `The item has ${descendants.length} live child item(s): delete them first or pass cascade=true`,
        );
      }
      const deleted = await softDeleteLiveOrderItems(tx, [id, ...descendants]);
      await refreshItemsTotal(tx, item.orderId);
      for (const row of deleted) {
        await record({
          on: ORDER_ITEM_ENTITY,
          type: 'DELETE',
          entityId: row.id,
          snapshot: row,
          relation: ORDER_ENTITY,
          relationId: row.orderId,
        });
      }
      return { id, deleted: true as const, deletedIds: deleted.map((r) => r.id) };
    });
  }

  return {
    get: read,

    async list(actor: Actor, query: OrderItemListQuery) {
      const page = resolvePage(query, ORDER_ITEM_PAGE);
      const { rows, total } = await listVisibleOrderItems(
        ctx.db,
        actor,
        {
          orderId: query.orderId,
          articleId: query.articleId,
          parentId: query.parentId,
          externalId: query.externalId,
          search: query.search?.trim() || undefined,
        },
        page,
      );
      const catalogue = await catalogueOfItems(ctx.db, actor.organisationId, rows);
      const data = rows.map(({ orderCompanyId: _company, ...item }) => presentOrderItem(item, catalogue));
      return pageResult(data, total, page);
    },

    async create(actor: Actor, input: CreateOrderItemInput) {
      const [id] = await ctx.change(actor, async (tx, record) => {
        await lockOrder(tx, actor, input.orderId, () => invalidReference('/orderId', 'order'));
        const { orderId, ...item } = input;
        return insertItems(tx, actor, orderId, [item], record, () => '');
      });
      return read(actor, id!);
    },

    /** Adds several items to an order at once, all or nothing. */
    async addMany(actor: Actor, orderId: string, inputs: BulkOrderItemsInput) {
      const ids = await ctx.change(actor, async (tx, record) => {
        await lockOrder(tx, actor, orderId, () => notFound('Order'));
        return insertItems(tx, actor, orderId, inputs, record, (i) => `/${i}`);
      });
      const rows = await orderItemsByIds(ctx.db, actor.organisationId, ids);
      const catalogue = await catalogueOfItems(ctx.db, actor.organisationId, rows);
      return rows.map(({ orderCompanyId: _company, ...item }) => presentOrderItem(item, catalogue));
    },

    async update(actor: Actor, id: string, input: UpdateOrderItemInput) {
      await ctx.change(actor, async (tx, record) => {
        const org = actor.organisationId;
        const current = await findOrderItemRow(tx, org, id);
        if (!current) throw notFound('Order item');
        await lockOrder(tx, actor, current.orderId, () => notFound('Order item'));
        const changes: Partial<OrderItemRow> = {};

        let unitPrice = current.unitPrice;
        if (input.articleId !== undefined && input.articleId !== current.articleId) {
          if (input.articleId) {
            const [article] = await liveArticles(tx, org, [input.articleId]);
            if (!article) throw invalidReference('/articleId', 'article');
            if (!article.enabled) {
              throw new AppError('article_disabled', 'A disabled article cannot be ordered', {
                issues: [{ pointer: '/articleId', message: 'is a disabled article', in: 'body' }],
              });
            }
            // A new article brings its price unless the request sets one.
            if (input.unitPrice === undefined) unitPrice = article.price;
          }
          changes.articleId = input.articleId;
        }
        if (input.unitPrice !== undefined) unitPrice = input.unitPrice;
        const quantity = input.quantity ?? current.quantity;
        const priceChanged =
          input.quantity !== undefined || unitPrice !== current.unitPrice || input.totalPrice !== undefined;
        if (priceChanged) {
          // totalPrice follows quantity and unitPrice; a sent one must agree. Without a unit price
          // the total is the one sent, or stays as it was.
          const price = priceItem({
            quantity,
            unitPrice,
            totalPrice: input.totalPrice ?? (unitPrice === null ? current.totalPrice : undefined),
          });
          Object.assign(changes, { quantity, ...price });
        }

        if (input.parentId !== undefined && input.parentId !== current.parentId) {
          if (input.parentId) {
            const [parent] = await liveItems(tx, org, [input.parentId]);
            if (!parent) throw invalidReference('/parentId', 'order item');
            if (parent.orderId !== current.orderId) throw parentInOtherOrder('/parentId');
            if (await isAncestorOrSelf(tx, id, parent.id)) throw cycle('/parentId');
          }
          changes.parentId = input.parentId;
        }
        if (input.commentId) await liveComment(tx, org, input.commentId);
        if (input.commentId !== undefined) changes.commentId = input.commentId;
        if (input.unit !== undefined) changes.unit = input.unit;
        if (input.position !== undefined) changes.position = input.position;
        if (input.externalId !== undefined) changes.externalId = input.externalId;
        if (input.createdAt !== undefined) changes.createdAt = new Date(input.createdAt);
        if (input.customFields !== undefined) {
          changes.customFields = await validateCustomFields(
            tx,
            org,
            'order_item',
            input.customFields,
            current.customFields,
          );
        }

        const row = await updateOrderItem(tx, id, { ...changes, updatedAt: new Date() });
        if (priceChanged) await refreshItemsTotal(tx, current.orderId);
        await record({
          on: ORDER_ITEM_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: row,
          updatedColumns: changedFields(current, row),
          relation: ORDER_ENTITY,
          relationId: current.orderId,
        });
      });
      return read(actor, id);
    },

    remove: removeItem,
  };
}

export type OrderItemService = ReturnType<typeof createOrderItemService>;
