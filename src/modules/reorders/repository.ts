import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { articles, orderItems, orders } from '../../db/schema/orders.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';

/** Live, enabled articles of the organisation among `ids`. */
export async function liveArticlesOf(db: Executor, organisationId: string, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({
      id: articles.id,
      companyId: articles.companyId,
      code: articles.code,
      name: articles.name,
      price: articles.price,
    })
    .from(articles)
    .where(
      and(
        eq(articles.organisationId, organisationId),
        inArray(articles.id, ids),
        isNull(articles.deletedAt),
        eq(articles.enabled, true),
      ),
    );
}

/**
 * The article's last order line the actor may see (its unit price and quantity, and the order's
 * currency), newest order first; undefined when it was never ordered.
 */
export async function lastOrderLineOf(db: Executor, actor: Actor, articleId: string) {
  const [row] = await db
    .select({
      quantity: orderItems.quantity,
      unitPrice: orderItems.unitPrice,
      totalPrice: orderItems.totalPrice,
      currency: sql<string | null>`(select c.code from currencies c where c.id = ${orders.currencyId})`,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orderItems.organisationId, actor.organisationId),
        eq(orderItems.articleId, articleId),
        isNull(orderItems.deletedAt),
        isNull(orders.deletedAt),
        inCompanyScope(actor, orders.companyId),
      ),
    )
    .orderBy(sql`${orders.orderDate} desc nulls last`, desc(orders.createdAt), desc(orderItems.createdAt))
    .limit(1);
  return row;
}
