import { and, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import type { LineSpecification, LineVariant } from '../../db/schema/line-parts.ts';
import { articles, orderItems, orders } from '../../db/schema/orders.ts';
import { currencies } from '../../db/schema/organisation-data.ts';
import { type Actor, companyScope, inCompanyScope } from '../../platform/actor.ts';
import { likeEscape } from '../../platform/filters.ts';
import { variantLines } from '../../platform/line-parts.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';
import { localisedLine } from '../catalogue/line-names.ts';
import { type CatalogueWithNames, loadCatalogueWithNames } from '../catalogue/loader.ts';

/** An order item as the API shows it: its row plus `article` {id, code, name}. */
export const orderItemColumns = {
  id: orderItems.id,
  organisationId: orderItems.organisationId,
  orderId: orderItems.orderId,
  articleId: orderItems.articleId,
  article: sql<{ id: string; code: string; name: string } | null>`case when ${articles.id} is null then null
    else json_build_object('id', ${articles.id}, 'code', ${articles.code}, 'name', ${articles.name}) end`,
  parentId: orderItems.parentId,
  commentId: orderItems.commentId,
  quantity: orderItems.quantity,
  unitPrice: orderItems.unitPrice,
  totalPrice: orderItems.totalPrice,
  unit: orderItems.unit,
  position: orderItems.position,
  name: orderItems.name,
  code: orderItems.code,
  variants: orderItems.variants,
  specification: orderItems.specification,
  customName: orderItems.customName,
  currency: sql<{
    id: string;
    code: string;
    symbol: string;
  } | null>`case when ${currencies.id} is null then null
    else json_build_object('id', ${currencies.id}, 'code', ${currencies.code}, 'symbol', ${currencies.symbol}) end`,
  externalId: orderItems.externalId,
  customFields: orderItems.customFields,
  createdById: orderItems.createdById,
  createdAt: orderItems.createdAt,
  updatedAt: orderItems.updatedAt,
  deletedAt: orderItems.deletedAt,
};

/** Items with their article and the company of their order (for company scoping). */
export function selectOrderItems(db: Executor) {
  return db
    .select({ ...orderItemColumns, orderCompanyId: orders.companyId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(articles, eq(articles.id, orderItems.articleId))
    .leftJoin(currencies, eq(currencies.id, orders.currencyId));
}

/**
 * An item as the API shows it: its variants' quantities and amounts derived from the item's
 * quantity and total (they add up to them; src/platform/line-parts.ts), and an element item's
 * name and specification per language (`localised`, from the catalogue's names; null otherwise).
 */
export function presentOrderItem<
  T extends {
    quantity: number;
    totalPrice: number;
    name: string | null;
    article: { name: string } | null;
    customName: boolean;
    specification: LineSpecification | null;
    variants: LineVariant[] | null;
  },
>(item: T, catalogue: CatalogueWithNames | null = null) {
  const localised =
    item.specification && catalogue
      ? localisedLine(
          {
            name: item.article?.name ?? item.name ?? '',
            description: null,
            customName: item.customName,
            specification: item.specification,
          },
          catalogue.catalogue,
          catalogue.names,
        )
      : null;
  return { ...item, variants: variantLines(item.variants, item.quantity, item.totalPrice), localised };
}

/** The catalogue with its names when some of the items are named from it (element items), else null. */
export async function catalogueOfItems(
  db: Executor,
  organisationId: string,
  items: { specification: LineSpecification | null }[],
): Promise<CatalogueWithNames | null> {
  return items.some((item) => item.specification) ? loadCatalogueWithNames(db, organisationId) : null;
}

export async function findOrderItem(db: Executor, organisationId: string, id: string) {
  const [row] = await selectOrderItems(db)
    .where(
      and(eq(orderItems.id, id), eq(orderItems.organisationId, organisationId), isNull(orderItems.deletedAt)),
    )
    .limit(1);
  return row;
}

export async function findOrderItemRow(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(orderItems)
    .where(
      and(eq(orderItems.id, id), eq(orderItems.organisationId, organisationId), isNull(orderItems.deletedAt)),
    )
    .limit(1);
  return row;
}

/** Live items of the organisation among `ids` (to check parents named by id). */
export async function liveItems(db: Executor, organisationId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: orderItems.id, orderId: orderItems.orderId })
    .from(orderItems)
    .where(
      and(
        inArray(orderItems.id, ids),
        eq(orderItems.organisationId, organisationId),
        isNull(orderItems.deletedAt),
      ),
    );
}

/** Live articles of the organisation among `ids`, with what an item takes from them. */
export async function liveArticles(db: Executor, organisationId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: articles.id, price: articles.price, enabled: articles.enabled, unit: articles.unit })
    .from(articles)
    .where(
      and(inArray(articles.id, ids), eq(articles.organisationId, organisationId), isNull(articles.deletedAt)),
    );
}

/** Whether `itemId` is `candidateParentId` or one of its ancestors' (a cycle if it became its parent). */
export async function isAncestorOrSelf(db: Executor, itemId: string, candidateParentId: string) {
  const result = await db.execute(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from ${orderItems} where id = ${candidateParentId}
      union all
      select i.id, i.parent_id, c.depth + 1 from ${orderItems} i join chain c on i.id = c.parent_id
      where c.depth < 10000
    )
    select 1 as found from chain where id = ${itemId} limit 1`);
  return rowsOf(result).length > 0;
}

/** The ids of the live descendants of an item (children, grandchildren...). */
export async function liveDescendants(db: Executor, itemId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive tree(id, depth) as (
      select id, 0 from ${orderItems} where parent_id = ${itemId} and deleted_at is null
      union all
      select i.id, t.depth + 1 from ${orderItems} i join tree t on i.parent_id = t.id
      where i.deleted_at is null and t.depth < 10000
    )
    select id from tree`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

export const ORDER_ITEM_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    position: orderItems.position,
    createdAt: orderItems.createdAt,
    updatedAt: orderItems.updatedAt,
    quantity: orderItems.quantity,
    totalPrice: orderItems.totalPrice,
    unitPrice: orderItems.unitPrice,
  },
  tieBreaker: orderItems.id,
  defaultSort: { field: 'position', direction: 'ASC' },
};

export type OrderItemRow = typeof orderItems.$inferSelect;

export type OrderItemFilter = {
  orderId?: string;
  articleId?: string;
  parentId?: string;
  /** The externalId of the item's order. */
  externalId?: string;
  /** A "contains" on the article's name or code, or the order's externalId. */
  search?: string;
};

/**
 * A page of the organisation's live order items that the actor may see and that match, with the
 * total. The count joins the order and the article only when a condition needs them.
 */
export async function listVisibleOrderItems(
  db: Executor,
  actor: Actor,
  filter: OrderItemFilter,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const conditions: (SQL | undefined)[] = [
    eq(orderItems.organisationId, actor.organisationId),
    isNull(orderItems.deletedAt),
    inCompanyScope(actor, orders.companyId),
    filter.orderId ? eq(orderItems.orderId, filter.orderId) : undefined,
    filter.articleId ? eq(orderItems.articleId, filter.articleId) : undefined,
    filter.parentId ? eq(orderItems.parentId, filter.parentId) : undefined,
    filter.externalId ? eq(orders.externalId, filter.externalId) : undefined,
  ];
  if (filter.search) {
    const pattern = `%${likeEscape(filter.search)}%`;
    conditions.push(
      or(ilike(articles.name, pattern), ilike(articles.code, pattern), ilike(orders.externalId, pattern)),
    );
  }
  const where = and(...conditions);
  const joined = Boolean(companyScope(actor) || filter.externalId || filter.search);
  const countQuery = joined
    ? db
        .select({ total: sql<number>`count(*)::int` })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .leftJoin(articles, eq(articles.id, orderItems.articleId))
        .where(where)
    : db.select({ total: sql<number>`count(*)::int` }).from(orderItems).where(where);
  const [rows, counted] = await Promise.all([
    selectOrderItems(db)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    countQuery,
  ]);
  return { rows, total: counted[0]?.total ?? 0 };
}

/** The organisation's items with these ids (live or not), by id. */
export function orderItemsByIds(db: Executor, organisationId: string, ids: string[]) {
  return selectOrderItems(db)
    .where(and(inArray(orderItems.id, ids), eq(orderItems.organisationId, organisationId)))
    .orderBy(orderItems.id);
}

/** Soft-deletes the live items among these; returns them. */
export function softDeleteLiveOrderItems(db: Executor, ids: string[]) {
  return db
    .update(orderItems)
    .set({ deletedAt: new Date() })
    .where(and(inArray(orderItems.id, ids), isNull(orderItems.deletedAt)))
    .returning();
}

/** Updates the item (found and checked by the caller); returns the whole row. */
export async function updateOrderItem(db: Executor, id: string, values: Partial<OrderItemRow>) {
  const [row] = await db.update(orderItems).set(values).where(eq(orderItems.id, id)).returning();
  return row!;
}
