import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { type Actor, assertCompanyVisible, assertCompanyWritable } from '../../platform/actor.ts';
import { assertDatesInOrder, ORDER_DATE_RULES } from '../../platform/date-order.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { toDate } from '../../platform/filters.ts';
import { roundCents } from '../../platform/money.ts';
import { pageResult, resolvePage } from '../../platform/pagination.ts';
import {
  defaultOrderStatus,
  invalidReference,
  liveAddress,
  liveCompany,
  liveCurrency,
  liveProject,
  liveStaffUsers,
} from '../../platform/references.ts';
import type { WithCustomFields } from '../../platform/schemas.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { findLiveStatus } from '../statuses/repository.ts';
import { catalogueOfItems, presentOrderItem } from './items-repository.ts';
import {
  findOrderRow,
  insertOrder,
  listOrderPage,
  ORDER_ENTITY,
  ORDER_ITEM_ENTITY,
  ORDER_PAGE,
  type OrderListQuery,
  type OrderRow,
  orderExternalIdTaken,
  prepareOrderDetail,
  softDeleteLiveItems,
  updateOrder,
} from './repository.ts';
import type { CreateOrderBody, UpdateOrderBody } from './schemas.ts';

export type CreateOrderInput = WithCustomFields<Static<typeof CreateOrderBody>>;
export type UpdateOrderInput = WithCustomFields<Static<typeof UpdateOrderBody>>;

export { ORDER_PAGE, type OrderListQuery };

const DATE_FIELDS = ['orderDate', 'expectedDeliveryDate', 'actualDeliveryDate'] as const;

/** Up to this many matching orders, list totals are exact (counting more costs more than the page). */
export const ORDER_COUNT_CAP = 10_000;

export function createOrderService(
  ctx: Pick<AppContext, 'db' | 'change'>,
  options: { countCap?: number } = {},
) {
  const countCap = options.countCap ?? ORDER_COUNT_CAP;
  const detail = prepareOrderDetail(ctx.db);

  async function read(actor: Actor, id: string) {
    const [order] = await detail.execute({ id, organisationId: actor.organisationId });
    if (!order) throw notFound('Order');
    assertCompanyVisible(actor, order.companyId, 'Order');
    const catalogue = await catalogueOfItems(ctx.db, order.organisationId, order.items);
    return { ...order, items: order.items.map((item) => presentOrderItem(item, catalogue)) };
  }

  /**
   * Checks the references of the order as it will be after the change. `sent` holds the fields of
   * the request; only those (and the rules tying them to the company) are checked again.
   */
  async function resolveReferences(
    tx: Tx,
    actor: Actor,
    next: Pick<OrderRow, 'companyId' | 'projectId' | 'statusId' | 'currencyId' | 'shippingAddressId'>,
    sent: Partial<Record<keyof typeof next, unknown>>,
  ) {
    const org = actor.organisationId;
    if ('companyId' in sent && next.companyId) await liveCompany(tx, org, next.companyId);
    if (('projectId' in sent || 'companyId' in sent) && next.projectId) {
      const project = await liveProject(tx, org, next.projectId);
      if (!next.companyId && !('companyId' in sent)) next.companyId = project.companyId;
      if (project.companyId !== next.companyId) {
        throw new AppError(
          'project_company_mismatch',
          'The project belongs to another company than the order',
          { issues: [{ pointer: '/projectId', message: 'is a project of another company', in: 'body' }] },
        );
      }
    }
    if ('statusId' in sent && next.statusId && !(await findLiveStatus(tx, org, 'order', next.statusId)))
      throw invalidReference('/statusId', 'order status');
    if ('currencyId' in sent && next.currencyId) await liveCurrency(tx, org, next.currencyId);
    if (
      ('shippingAddressId' in sent || 'companyId' in sent || 'projectId' in sent) &&
      next.shippingAddressId
    ) {
      const address = await liveAddress(tx, org, next.shippingAddressId);
      if (address.companyId !== next.companyId) {
        throw new AppError(
          'address_company_mismatch',
          'The shipping address must be an address of the order company',
          {
            issues: [
              {
                pointer: '/shippingAddressId',
                message: 'is not an address of the order company',
                in: 'body',
              },
            ],
          },
        );
      }
    }
    assertCompanyWritable(actor, next.companyId);
  }

  const duplicateExternalId = (externalId: string) =>
    new AppError('duplicate_external_id', `An order with externalId "${externalId}" already exists`);

  const dates = (input: Partial<Record<(typeof DATE_FIELDS)[number], string | null>>) => {
    const result: Partial<Record<(typeof DATE_FIELDS)[number], Date | null>> = {};
    for (const field of DATE_FIELDS) {
      const value = input[field];
      if (value !== undefined) result[field] = value === null ? null : toDate(value);
    }
    return result;
  };

  return {
    get: read,

    /** Throws 404 unless the order is live, of the actor's organisation and visible to it. */
    async assertVisible(actor: Actor, id: string) {
      const row = await findOrderRow(ctx.db, actor.organisationId, id);
      if (!row) throw notFound('Order');
      assertCompanyVisible(actor, row.companyId, 'Order');
    },

    /**
     * One page of orders. The page's ids are found first (an index-only scan when an index
     * serves the filter and sort, so deep offsets stay cheap), then only those rows are read.
     * `total` is exact up to `countCap` matching orders; beyond, counting every match would cost
     * more than the page itself, so `total` is a lower bound and `totalIsExact` is false.
     * `hasNextPage` is always exact (one row more than the page is read).
     */
    async list(actor: Actor, query: OrderListQuery) {
      const page = resolvePage(query, ORDER_PAGE);
      const { rows, count } = await listOrderPage(ctx.db, actor, query, page, countCap);
      const hasNextPage = rows.length > page.limit;
      const data = hasNextPage ? rows.slice(0, page.limit) : rows;
      const totalIsExact = count <= countCap;
      const total = totalIsExact
        ? count
        : Math.max(countCap, page.offset + data.length + (hasNextPage ? 1 : 0));
      const result = pageResult(data, total, page);
      return { data, meta: { ...result.meta, hasNextPage, totalIsExact } };
    },

    async create(actor: Actor, input: CreateOrderInput) {
      // A scoped actor names one of its companies (or a project of one); checked again below.
      if (!input.projectId) assertCompanyWritable(actor, input.companyId);
      const id = await ctx.change(actor, async (tx, record) => {
        const org = actor.organisationId;
        const next = {
          companyId: input.companyId ?? null,
          projectId: input.projectId ?? null,
          statusId: input.statusId ?? null,
          currencyId: input.currencyId ?? null,
          shippingAddressId: input.shippingAddressId ?? null,
        };
        const sent = { ...input };
        if (!input.companyId) delete sent.companyId;
        await resolveReferences(tx, actor, next, sent);
        if (!next.statusId && input.statusId === undefined) next.statusId = await defaultOrderStatus(tx, org);
        if (input.externalId && (await orderExternalIdTaken(tx, org, input.externalId))) {
          throw duplicateExternalId(input.externalId);
        }
        const customFields = await validateCustomFields(tx, org, 'order', input.customFields);
        if (input.createdById) await liveStaffUsers(tx, org, [input.createdById], () => '/createdById');
        const sentDates = dates(input);
        assertDatesInOrder(sentDates, ORDER_DATE_RULES);
        const row = await insertOrder(tx, {
          organisationId: org,
          ...next,
          externalId: input.externalId ?? null,
          billedAmount: roundCents(input.billedAmount),
          ...sentDates,
          trackingId: input.trackingId ?? null,
          poNumber: input.poNumber?.trim() || null,
          customFields,
          createdById: input.createdById ?? actor.userId,
          ...(input.createdAt ? { createdAt: new Date(input.createdAt) } : {}),
        });
        await record({ on: ORDER_ENTITY, type: 'CREATE', entityId: row.id, snapshot: row });
        return row.id;
      });
      return read(actor, id);
    },

    async update(actor: Actor, id: string, input: UpdateOrderInput) {
      await ctx.change(actor, async (tx, record) => {
        const org = actor.organisationId;
        const current = await findOrderRow(tx, org, id, true);
        if (!current) throw notFound('Order');
        assertCompanyVisible(actor, current.companyId, 'Order');
        assertCompanyWritable(actor, current.companyId);
        const next = {
          companyId: input.companyId === undefined ? current.companyId : input.companyId,
          projectId: input.projectId === undefined ? current.projectId : input.projectId,
          statusId: input.statusId === undefined ? current.statusId : input.statusId,
          currencyId: input.currencyId === undefined ? current.currencyId : input.currencyId,
          shippingAddressId:
            input.shippingAddressId === undefined ? current.shippingAddressId : input.shippingAddressId,
        };
        await resolveReferences(tx, actor, next, input);
        if (input.externalId && input.externalId !== current.externalId) {
          if (await orderExternalIdTaken(tx, org, input.externalId, id))
            throw duplicateExternalId(input.externalId);
        }
        const changes: Partial<OrderRow> = { ...next, ...dates(input) };
        // The dates after the change: a sent one against the stored others.
        assertDatesInOrder({ ...current, ...changes }, ORDER_DATE_RULES);
        if (input.billedAmount !== undefined) changes.billedAmount = roundCents(input.billedAmount);
        if (input.externalId !== undefined) changes.externalId = input.externalId;
        if (input.trackingId !== undefined) changes.trackingId = input.trackingId;
        if (input.poNumber !== undefined) changes.poNumber = input.poNumber?.trim() || null;
        if (input.createdById !== undefined && input.createdById !== current.createdById) {
          await liveStaffUsers(tx, org, [input.createdById], () => '/createdById');
          changes.createdById = input.createdById;
        }
        if (input.createdAt !== undefined) changes.createdAt = new Date(input.createdAt);
        if (input.customFields !== undefined) {
          changes.customFields = await validateCustomFields(
            tx,
            org,
            'order',
            input.customFields,
            current.customFields,
          );
        }
        const row = await updateOrder(tx, id, { ...changes, updatedAt: new Date() });
        await record({
          on: ORDER_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: row,
          updatedColumns: changedFields(current, row),
        });
      });
      return read(actor, id);
    },

    /** Soft-deletes the order and its live items, with one event for each. */
    async remove(actor: Actor, id: string) {
      await ctx.change(actor, async (tx, record) => {
        const current = await findOrderRow(tx, actor.organisationId, id, true);
        if (!current) throw notFound('Order');
        assertCompanyVisible(actor, current.companyId, 'Order');
        assertCompanyWritable(actor, current.companyId);
        const now = new Date();
        const items = await softDeleteLiveItems(tx, id, now);
        const row = await updateOrder(tx, id, { deletedAt: now });
        await record({ on: ORDER_ENTITY, type: 'DELETE', entityId: id, snapshot: row });
        for (const item of items) {
          await record({
            on: ORDER_ITEM_ENTITY,
            type: 'DELETE',
            entityId: item.id,
            snapshot: item,
            relation: ORDER_ENTITY,
            relationId: id,
          });
        }
      });
      return { id, deleted: true as const };
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
