import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import type { ChangeRunner } from '../../platform/events.ts';
import { toolingLines } from '../../platform/line-parts.ts';
import { roundCents } from '../../platform/money.ts';
import type { CustomFieldValue } from '../../platform/schemas.ts';
import { findArticleOfElement, insertArticleInTransaction } from '../articles/in-transaction.ts';
import {
  insertOrderInTransaction,
  insertOrderItemsInTransaction,
  type NewOrderItem,
} from '../orders/in-transaction.ts';
import type { OrderService } from '../orders/service.ts';
import { acceptancePoNumberOf, acceptedOptionOf } from './conversion-repository.ts';
import { itemTree } from './items.ts';
import type { EffectHandler, QuoteLifecycle } from './lifecycle.ts';
import { amountOfUnitPrice, derivedUnitPrice } from './line-money.ts';
import { columnAt, quoteColumns } from './price-breaks.ts';
import { findCurrencyByCode, liveItemsOf, type QuoteItemRow, type QuoteRow, setQuote } from './repository.ts';

/**
 * The money of the order line of a quote line: the quote line's cents (rounding rule,
 * line-money.ts), i.e. its goods amount after discount, with the unit price derived from it
 * unless the line has its typed unit price and no discount. Tooling and delivery go apart.
 */
export function orderLineMoney(
  item: Pick<QuoteItemRow, 'quantity' | 'price' | 'totalPrice' | 'toolingCost' | 'deliveryCost'>,
): Pick<NewOrderItem, 'quantity' | 'unitPrice' | 'totalPrice' | 'fixedTotal'> {
  if (item.price === null) return { quantity: item.quantity, unitPrice: null, totalPrice: 0 };
  const net = roundCents(item.totalPrice - item.toolingCost - item.deliveryCost);
  const typed = net === amountOfUnitPrice(item.quantity, item.price);
  return {
    quantity: item.quantity,
    unitPrice: typed ? item.price : derivedUnitPrice(net, item.quantity),
    totalPrice: net,
    fixedTotal: true,
  };
}

/**
 * The `createOrder` effect of the lifecycle's `convert` row (POST /quotes/{id}/order): the signed
 * quote, locked by the change, becomes an order in the change's transaction. Its items become
 * order lines (groups keep their children; tooling and delivery become service lines below their
 * line), brief elements become articles of the company (or the article made earlier), and the
 * quote keeps the order's id.
 */
/**
 * The quote's lines at the price-break column the buyer chose when accepting (the evidence's
 * `option.position`): a line with a column of that rank takes its quantity and money; the others
 * stay as they are. Variant sub-lines of such a line (when the quote carries them) scale with the
 * quantity in proportion, largest remainder, as a quantity edit does (reprice.ts, scaleDecorations).
 */
export function linesAtColumn(items: QuoteItemRow[], position: number | null): QuoteItemRow[] {
  if (position === null) return items;
  return items.map((item) => {
    const column = columnAt(item, position);
    if (!column) return item;
    return {
      ...item,
      quantity: column.quantity,
      price: column.unitPrice,
      amount: column.amount,
      toolingCost: column.toolingCost,
      deliveryCost: column.deliveryCost,
      totalPrice: column.totalPrice,
    };
  });
}

/** The column chosen at acceptance (its rank), or null when the quote offered none. */
async function chosenColumn(tx: Tx, quote: QuoteRow): Promise<number | null> {
  const option = await acceptedOptionOf(tx, quote.id);
  const position = (option as { position?: unknown } | null | undefined)?.position;
  return typeof position === 'number' ? position : null;
}

export const createOrderOfQuote: EffectHandler = async (step) => {
  const { tx, record, quote, now, input } = step;
  const actor = step.actor!;
  const org = actor.organisationId;
  const currency = await findCurrencyByCode(tx, org, quote.currency);
  const live = await liveItemsOf(tx, quote.id);
  // Staff who moved the quote to signed without an answer (PUT {state}) chose no column: with a
  // single column offered it is taken, as an acceptance without option would.
  const columns = quoteColumns(live);
  const position = (await chosenColumn(tx, quote)) ?? (columns.length === 1 ? 1 : null);
  const column = position === null ? null : (columns[position - 1] ?? null);
  // The PO number the buyer gave when accepting, else the one on the quote.
  const acceptancePoNumber = await acceptancePoNumberOf(tx, quote.id);
  const order = await insertOrderInTransaction(
    tx,
    actor,
    {
      companyId: quote.companyId,
      projectId: quote.projectId,
      shippingAddressId: quote.addressId,
      currencyId: currency?.id ?? null,
      billedAmount: column ? column.totalPrice : quote.totalPrice,
      orderDate: now,
      poNumber: acceptancePoNumber ?? quote.poNumber ?? null,
      customFields: input.customFields,
    },
    record,
  );
  const tree = itemTree(linesAtColumn(live, column ? position : null));
  const lines: NewOrderItem[] = [];
  // Each tool of a line (positions 1..n, named: "Cutting die"), then its delivery: service lines below it.
  const extras = (item: QuoteItemRow, parentId: string) => {
    const services = [
      ...toolingLines(item.tooling, item.toolingCost),
      ...(item.deliveryCost > 0
        ? [{ code: 'DELIVERY', name: 'Delivery', amount: roundCents(item.deliveryCost) }]
        : []),
    ];
    services.forEach((service, i) => {
      lines.push({
        parentId,
        articleId: null,
        quantity: 1,
        unitPrice: service.amount,
        unit: 'service',
        position: i + 1,
        name: service.name,
        code: service.code,
      });
    });
  };
  const articleFor = async (item: QuoteItemRow, code: string) => {
    if (item.articleId) return item.articleId;
    if (!item.briefElementId) return null;
    const existing = await findArticleOfElement(tx, org, quote.companyId, item.briefElementId);
    if (existing) return existing.id;
    const article = await insertArticleInTransaction(
      tx,
      actor,
      {
        companyId: quote.companyId,
        name: item.name,
        code,
        description: item.description,
        price: item.price,
        briefElementId: item.briefElementId,
        currencyId: currency?.id ?? null,
      },
      record,
    );
    return article.id;
  };
  const lineOf = async (item: QuoteItemRow, parentId: string | null, code: string) => {
    const lineId = uuidv7();
    lines.push({
      id: lineId,
      parentId,
      articleId: await articleFor(item, code),
      ...orderLineMoney(item),
      unit: 'pieces',
      position: item.position,
      name: item.articleId ? null : item.name,
      variants: item.variants,
      specification: item.specification,
      customName: item.customName,
    });
    extras(item, lineId);
  };
  // Optional lines were offered, not ordered: they stay on the quote only.
  const ordered = tree
    .filter((root) => !root.optional && (!root.children.length || root.children.some((c) => !c.optional)))
    .map((root) => ({ ...root, children: root.children.filter((child) => !child.optional) }));
  for (const root of ordered) {
    if (root.children.length) {
      const groupId = uuidv7();
      lines.push({
        id: groupId,
        parentId: null,
        articleId: null,
        quantity: 1,
        unitPrice: null,
        totalPrice: 0,
        unit: null,
        position: root.position,
        // The brief the group came from, by name (not "Kit of n items").
        name: root.name,
      });
      for (const child of root.children) {
        await lineOf(child, groupId, `${quote.code}-${root.position}.${child.position}`);
      }
    } else {
      await lineOf(root, null, `${quote.code}-${root.position}`);
    }
  }
  await insertOrderItemsInTransaction(tx, actor, order.id, lines, record);
  step.made.orderId = order.id;
  return setQuote(tx, quote.id, { orderId: order.id, updatedAt: now });
};

/** POST /quotes/{id}/order: fires `convert` and answers the quote and the order, as the actor reads them. */
export function createQuoteConversion<QuoteDetail>(deps: {
  change: ChangeRunner;
  /** The quote locked for a change by the actor (404/403 as the quote service decides). */
  lockForChange: (tx: Tx, actor: Actor, id: string, options: { write: boolean }) => Promise<QuoteRow>;
  fire: QuoteLifecycle['fire'];
  /** The quote as the actor reads it after the change. */
  read: (actor: Actor, id: string) => Promise<QuoteDetail>;
  orders: Pick<OrderService, 'get'>;
}) {
  const { change, lockForChange, fire, read, orders } = deps;
  return async function convertToOrder(
    actor: Actor,
    id: string,
    input: { customFields?: Record<string, unknown> } = {},
  ) {
    const orderId = await change(actor, async (tx, record) => {
      const quote = await lockForChange(tx, actor, id, { write: true });
      const step = await fire(tx, record, { actor, quote, trigger: 'convert', input });
      return step.made.orderId!;
    });
    const [quote, order] = await Promise.all([read(actor, id), orders.get(actor, orderId)]);
    // Custom field values were checked when written: the schema's value union.
    return { quote, order: order as typeof order & { customFields: Record<string, CustomFieldValue> } };
  };
}
