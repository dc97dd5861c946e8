/**
 * Order writes inside a caller's transaction, for modules that create an order as part of a
 * larger change (a signed quote converted into an order): the same rows and events as the
 * order services, without opening a transaction of their own.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.ts';
import type { LineSpecification, LineVariant } from '../../db/schema/line-parts.ts';
import { orders } from '../../db/schema/orders.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { roundCents, roundUnitPrice } from '../../platform/money.ts';
import { defaultOrderStatus } from '../../platform/references.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { priceItem } from './items-service.ts';
import { insertItemsWithEvents, ORDER_ENTITY } from './repository.ts';

export type OrderActor = { organisationId: string; userId: string | null };

export type NewOrder = {
  companyId: string | null;
  projectId: string | null;
  shippingAddressId: string | null;
  currencyId: string | null;
  billedAmount: number;
  orderDate: Date | null;
  /** The buyer's purchase order number. */
  poNumber?: string | null;
  /** Default: the organisation's default order status. */
  statusId?: string | null;
  /** Checked against the organisation's order custom fields (required ones included; 400). */
  customFields?: Record<string, unknown>;
};

/**
 * Inserts an order with its CREATE event. The references must have been checked by the caller
 * (they come from a record of the same organisation).
 */
export async function insertOrderInTransaction(
  tx: Tx,
  actor: OrderActor,
  input: NewOrder,
  record: EventRecorder,
) {
  const statusId =
    input.statusId === undefined ? await defaultOrderStatus(tx, actor.organisationId) : input.statusId;
  const customFields = await validateCustomFields(tx, actor.organisationId, 'order', input.customFields);
  const [row] = await tx
    .insert(orders)
    .values({
      organisationId: actor.organisationId,
      companyId: input.companyId,
      projectId: input.projectId,
      shippingAddressId: input.shippingAddressId,
      currencyId: input.currencyId,
      statusId,
      billedAmount: roundCents(input.billedAmount),
      orderDate: input.orderDate,
      poNumber: input.poNumber ?? null,
      customFields,
      createdById: actor.userId,
    })
    .returning();
  await record({ on: ORDER_ENTITY, type: 'CREATE', entityId: row!.id, snapshot: row! });
  return row!;
}

export type NewOrderItem = {
  /** Set by the caller to name this item as the parent of later ones. */
  id?: string;
  parentId: string | null;
  articleId: string | null;
  quantity: number;
  unitPrice: number | null;
  totalPrice?: number | null;
  /**
   * The total is the amount agreed elsewhere (a quote line, in cents) and the unit price is
   * derived from it for display: kept as sent, not recomputed as quantity x unitPrice (which
   * would drift by up to quantity x 0.00005; docs/quotes.md, rounding rule).
   */
  fixedTotal?: boolean;
  unit: string | null;
  position: number;
  /** What an item without article is (a group's brief name, a tool, delivery). */
  name?: string | null;
  /** The engine's code of a service item (CUTTING_DIE, DELIVERY...). */
  code?: string | null;
  /** The decoration variants of an element item (quantities as the brief gave them). */
  variants?: LineVariant[] | null;
  /** What an element item is made of (its quote line's), to name it per language. */
  specification?: LineSpecification | null;
  /** Whether the quote line's name was typed by a user. */
  customName?: boolean;
};

/** The unit price and total an item is stored with (a fixed total kept, else priceItem's rule). */
export function orderItemMoney(
  item: Pick<NewOrderItem, 'quantity' | 'unitPrice' | 'totalPrice' | 'fixedTotal'>,
): { unitPrice: number | null; totalPrice: number } {
  if (item.fixedTotal && item.unitPrice !== null && item.totalPrice != null) {
    return { unitPrice: roundUnitPrice(item.unitPrice), totalPrice: roundCents(item.totalPrice) };
  }
  return priceItem({ quantity: item.quantity, unitPrice: item.unitPrice, totalPrice: item.totalPrice });
}

/**
 * Inserts items into an order (parents before their children, ids chosen by the caller), priced
 * as the order-item service prices them, with one CREATE event each; refreshes the order total.
 */
export async function insertOrderItemsInTransaction(
  tx: Tx,
  actor: OrderActor,
  orderId: string,
  items: NewOrderItem[],
  record: EventRecorder,
) {
  if (!items.length) return [];
  const rows = items.map((item) => ({
    id: item.id ?? uuidv7(),
    organisationId: actor.organisationId,
    orderId,
    articleId: item.articleId,
    parentId: item.parentId,
    quantity: item.quantity,
    ...orderItemMoney(item),
    unit: item.unit,
    position: item.position,
    name: item.name ?? null,
    code: item.code ?? null,
    variants: item.variants ?? null,
    specification: item.specification ?? null,
    customName: item.customName ?? false,
    createdById: actor.userId,
  }));
  const inserted = await insertItemsWithEvents(tx, record, orderId, rows);
  return inserted;
}
