import { Type } from '@sinclair/typebox';
import {
  and,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import type { LineSpecification, LineVariant } from '../../db/schema/line-parts.ts';
import { orderItems, orders } from '../../db/schema/orders.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { type EventRecorder, entity } from '../../platform/events.ts';
import { likeEscape, rangeEnd, toDate, uuidList } from '../../platform/filters.ts';
import type { PageOptions, PageQuery, PageRequest } from '../../platform/pagination.ts';
import { externalIdTaken } from '../../platform/references.ts';
import { presentOrderItem } from './items-repository.ts';
import { OrderItemSchema, OrderSchema } from './schemas.ts';

/**
 * The events of an order deliver GET /orders/{id} without what it reads from other tables (its
 * company, project, status, currency and items): each item has its own events.
 */
export const ORDER_ENTITY = entity('ORDER', 'orders', 'orders', {
  schema: Type.Omit(OrderSchema, ['company', 'project', 'status', 'currency', 'items'], {
    $id: 'OrderEventEntity',
  }),
});
/** GET /order-items/{id} (presentOrderItem) without its article and currency (joined). */
export const ORDER_ITEM_ENTITY = entity('ORDER_ITEM', 'order_items', 'order_items', {
  schema: Type.Omit(OrderItemSchema, ['article', 'currency'], { $id: 'OrderItemEventEntity' }),
  present: (row) => presentOrderItem(row as Parameters<typeof presentOrderItem>[0]),
});

/** A timestamp rendered by PostgreSQL as the API writes it (ISO 8601, milliseconds, UTC). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The live items of "orders"."id" as a JSON array (by position, then creation order), each with its article. */
const itemsJson = sql.raw(`coalesce((
  select json_agg(json_build_object(
      'id', i.id, 'organisationId', i.organisation_id, 'orderId', i.order_id, 'articleId', i.article_id,
      'article', case when a.id is null then null else json_build_object('id', a.id, 'code', a.code, 'name', a.name) end,
      'parentId', i.parent_id, 'commentId', i.comment_id, 'quantity', i.quantity, 'unitPrice', i.unit_price,
      'totalPrice', i.total_price, 'unit', i.unit, 'position', i.position, 'externalId', i.external_id,
      'name', i.name, 'code', i.code, 'variants', i.variants,
      'specification', i.specification, 'customName', i.custom_name,
      'currency', (select json_build_object('id', c.id, 'code', c.code, 'symbol', c.symbol)
        from currencies c where c.id = "orders"."currency_id"),
      'customFields', i.custom_fields, 'createdById', i.created_by_id,
      'createdAt', ${iso('i.created_at')}, 'updatedAt', ${iso('i.updated_at')}, 'deletedAt', null
    ) order by i.position, i.id)
  from order_items i left join articles a on a.id = i.article_id
  where i.order_id = "orders"."id" and i.deleted_at is null), '[]'::json)`);

/** What an item of the nested read holds (timestamps already rendered as ISO strings). */
export type OrderItemJson = {
  id: string;
  organisationId: string;
  orderId: string;
  articleId: string | null;
  article: { id: string; code: string; name: string } | null;
  parentId: string | null;
  commentId: string | null;
  quantity: number;
  unitPrice: number | null;
  totalPrice: number;
  unit: string | null;
  position: number;
  name: string | null;
  code: string | null;
  variants: LineVariant[] | null;
  specification: LineSpecification | null;
  customName: boolean;
  currency: { id: string; code: string; symbol: string } | null;
  externalId: string | null;
  customFields: Record<string, string | number | boolean | string[] | null>;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: null;
};

/** A related record as a JSON object, or null: a scalar subquery on its primary key. */
const ref = <T>(table: string, column: string, fields: Record<string, string>) =>
  sql<T | null>`${sql.raw(
    `(select json_build_object(${Object.entries(fields)
      .map(([key, name]) => `'${key}', r.${name}`)
      .join(', ')}) from ${table} r where r.id = "orders"."${column}")`,
  )}`;

/**
 * The nested order read: the order with its company, project, status and currency (primary-key
 * subqueries) and its live items with their article (one correlated json_agg) in ONE SQL
 * statement, prepared once per connection. PostgreSQL builds the nested JSON, item timestamps
 * already formatted, so Node neither maps nor converts them.
 */
export function prepareOrderDetail(db: Db) {
  return db
    .select({
      ...getTableColumns(orders),
      company: ref<{ id: string; name: string }>('companies', 'company_id', { id: 'id', name: 'name' }),
      project: ref<{ id: string; name: string }>('projects', 'project_id', { id: 'id', name: 'name' }),
      status: ref<{ id: string; internalLabel: string }>('statuses', 'status_id', {
        id: 'id',
        internalLabel: 'internal_label',
      }),
      currency: ref<{ id: string; code: string; symbol: string }>('currencies', 'currency_id', {
        id: 'id',
        code: 'code',
        symbol: 'symbol',
      }),
      items: sql<OrderItemJson[]>`${itemsJson}`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.id, sql.placeholder('id')),
        eq(orders.organisationId, sql.placeholder('organisationId')),
        isNull(orders.deletedAt),
      ),
    )
    .limit(1)
    .prepare('order_detail');
}

export type OrderDetailQuery = ReturnType<typeof prepareOrderDetail>;

export type OrderDetail = Awaited<ReturnType<OrderDetailQuery['execute']>>[number];

/**
 * Inserts items into an order with one CREATE event each (related to the order), then refreshes
 * the order's total. Answers the inserted rows.
 */
export async function insertItemsWithEvents(
  tx: Tx,
  record: EventRecorder,
  orderId: string,
  rows: Array<typeof orderItems.$inferInsert>,
) {
  const inserted = await tx.insert(orderItems).values(rows).returning();
  await refreshItemsTotal(tx, orderId);
  for (const item of inserted) {
    await record({
      on: ORDER_ITEM_ENTITY,
      type: 'CREATE',
      entityId: item.id,
      snapshot: item,
      relation: ORDER_ENTITY,
      relationId: orderId,
    });
  }
  return inserted;
}

/**
 * Recomputes the order's `items_total` (sum of its live items' totalPrice, rounded to cents).
 * Every item write calls it in its transaction, under the order's row lock.
 */
export async function refreshItemsTotal(db: Executor, orderId: string) {
  await db.execute(sql`update orders set items_total = (
      select coalesce(round(sum(oi.total_price)::numeric, 2), 0)::float8
      from order_items oi where oi.order_id = ${orderId} and oi.deleted_at is null)
    where id = ${orderId}`);
}

/** The columns of an order in lists. */
export const orderSummaryColumns = {
  id: orders.id,
  organisationId: orders.organisationId,
  code: orders.code,
  externalId: orders.externalId,
  billedAmount: orders.billedAmount,
  itemsTotal: orders.itemsTotal,
  currencyId: orders.currencyId,
  orderDate: orders.orderDate,
  expectedDeliveryDate: orders.expectedDeliveryDate,
  actualDeliveryDate: orders.actualDeliveryDate,
  trackingId: orders.trackingId,
  poNumber: orders.poNumber,
  currency: sql<{ id: string; code: string; symbol: string } | null>`(select json_build_object('id', c.id,
    'code', c.code, 'symbol', c.symbol) from currencies c where c.id = ${orders.currencyId})`,
  shippingAddressId: orders.shippingAddressId,
  statusId: orders.statusId,
  companyId: orders.companyId,
  projectId: orders.projectId,
  createdById: orders.createdById,
  customFields: orders.customFields,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
  deletedAt: orders.deletedAt,
};

/** The live order row of the organisation, optionally locked for the rest of the transaction. */
export async function findOrderRow(db: Executor, organisationId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.organisationId, organisationId), isNull(orders.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export const ORDER_PAGE: PageOptions = {
  defaultLimit: 10,
  maxLimit: 100,
  sortFields: {
    createdAt: orders.createdAt,
    updatedAt: orders.updatedAt,
    orderDate: orders.orderDate,
    expectedDeliveryDate: orders.expectedDeliveryDate,
    actualDeliveryDate: orders.actualDeliveryDate,
    billedAmount: orders.billedAmount,
    externalId: orders.externalId,
    code: orders.code,
  },
  tieBreaker: orders.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' },
};

export type OrderListQuery = PageQuery & {
  companyId?: string;
  projectId?: string;
  createdById?: string;
  createdBy?: string;
  search?: string;
  statusId?: string;
  externalId?: string;
  orderDateStart?: string;
  orderDateEnd?: string;
  expectedDeliveryDateStart?: string;
  expectedDeliveryDateEnd?: string;
  actualDeliveryDateStart?: string;
  actualDeliveryDateEnd?: string;
};

export type OrderRow = typeof orders.$inferSelect;

const RANGES = [
  ['orderDate', orders.orderDate],
  ['expectedDeliveryDate', orders.expectedDeliveryDate],
  ['actualDeliveryDate', orders.actualDeliveryDate],
] as const;

/** Conditions of GET /orders (tenant, live rows, the actor's companies, then each filter). */
export function orderFilters(actor: Actor, query: OrderListQuery): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(orders.organisationId, actor.organisationId),
    isNull(orders.deletedAt),
    inCompanyScope(actor, orders.companyId),
    query.companyId ? eq(orders.companyId, query.companyId) : undefined,
    query.projectId ? eq(orders.projectId, query.projectId) : undefined,
    query.createdById ? eq(orders.createdById, query.createdById) : undefined,
    query.createdBy ? eq(orders.createdById, query.createdBy) : undefined,
    query.externalId ? eq(orders.externalId, query.externalId) : undefined,
  ];
  const term = query.search?.trim();
  if (term) {
    const pattern = `%${likeEscape(term)}%`;
    conditions.push(or(ilike(orders.externalId, pattern), ilike(orders.trackingId, pattern)));
  }
  if (query.statusId) {
    const ids = uuidList(query.statusId, '/statusId');
    conditions.push(ids.length === 1 ? eq(orders.statusId, ids[0]!) : inArray(orders.statusId, ids));
  }
  for (const [name, column] of RANGES) {
    const start = query[`${name}Start`];
    const end = query[`${name}End`];
    if (start) conditions.push(gte(column, toDate(start)));
    if (end) {
      const bound = rangeEnd(end);
      conditions.push(bound.inclusive ? lte(column, bound.at) : lt(column, bound.at));
    }
  }
  return and(...conditions)!;
}

/**
 * One page of orders (one row more, for hasNextPage) and the count of the matches, capped at
 * `countCap + 1`. The page's ids are found first (an index-only scan when an index serves the
 * filter and sort, so deep offsets stay cheap), then only those rows are read.
 */
export async function listOrderPage(
  db: Db,
  actor: Actor,
  query: OrderListQuery,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
  countCap: number,
) {
  const where = orderFilters(actor, query);
  const ids = db
    .select({ id: orders.id })
    .from(orders)
    .where(where)
    .orderBy(...page.orderBy)
    .limit(page.limit + 1)
    .offset(page.offset)
    .as('page');
  const capped = db
    .select({ one: sql`1` })
    .from(orders)
    .where(where)
    .limit(countCap + 1)
    .as('capped');
  // The page and its count run side by side (two pool connections on PostgreSQL).
  const [rows, counted] = await Promise.all([
    db
      .select(orderSummaryColumns)
      .from(orders)
      .innerJoin(ids, eq(orders.id, ids.id))
      .orderBy(...page.orderBy),
    db.select({ total: sql<number>`count(*)::int` }).from(capped),
  ]);
  return { rows, count: counted[0]?.total ?? 0 };
}

/** Whether another order of the organisation has this externalId. */
export function orderExternalIdTaken(
  db: Executor,
  organisationId: string,
  externalId: string,
  exceptId?: string,
) {
  return externalIdTaken(db, orders, organisationId, externalId, exceptId);
}

export async function insertOrder(db: Executor, values: typeof orders.$inferInsert) {
  const [row] = await db.insert(orders).values(values).returning();
  return row!;
}

/** Updates the order (found and checked by the caller); returns the whole row. */
export async function updateOrder(db: Executor, id: string, values: Partial<OrderRow>) {
  const [row] = await db.update(orders).set(values).where(eq(orders.id, id)).returning();
  return row!;
}

/** Soft-deletes the order's live items; returns them. */
export function softDeleteLiveItems(db: Executor, orderId: string, at: Date) {
  return db
    .update(orderItems)
    .set({ deletedAt: at })
    .where(and(eq(orderItems.orderId, orderId), isNull(orderItems.deletedAt)))
    .returning();
}
