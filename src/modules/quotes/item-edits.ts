/**
 * PATCH /quotes/{id}/quote-items/{itemId}: the money of an edited line (quantity, unit price
 * override, discount) under the rounding rule of line-money.ts, and the move of a line among its
 * siblings. Pure decisions and SQL helpers; the service runs them in the change's transaction.
 */
import type { Executor } from '../../db/client.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { roundCents, roundUnitPrice } from '../../platform/money.ts';
import type { EnginePrice } from './items.ts';
import { amountOfUnitPrice, derivedUnitPrice, discountOf, lineTotal } from './line-money.ts';
import { type QuoteItemRow, type QuoteRow, setQuoteItem } from './repository.ts';
import { priceElementAt } from './reprice.ts';
import type { UpdateItemInput } from './schemas.ts';

const MONEY_KEYS = ['quantity', 'price', 'discountPercent', 'discountAmount'] as const;

/** 400 for what the schema cannot say: a discount is a percentage or an amount, not both. */
export function checkItemEdit(input: UpdateItemInput) {
  if (input.discountPercent != null && input.discountAmount != null) {
    throw badRequest('A discount is a percentage or an amount, not both', [
      { pointer: '/discountAmount', message: 'cannot be sent with discountPercent', in: 'body' },
    ]);
  }
}

/** Whether the item is a group line (a brief's parent, or any item with children): no money of its own. */
export const isGroupLine = (item: QuoteItemRow, items: QuoteItemRow[]) =>
  items.some((i) => i.parentId === item.id) || (item.briefId !== null && item.briefElementId === null);

/**
 * The money columns of a line after the edit. A brief element whose quantity changes is priced
 * again by the engine; an article line keeps its unit price; a manual price (`price`) replaces the
 * engine's amount and keeps the engine's beside it; `price: null` goes back to the engine's.
 */
export async function lineMoneyAfter(
  db: Executor,
  quote: Pick<QuoteRow, 'organisationId' | 'currency'>,
  item: QuoteItemRow,
  items: QuoteItemRow[],
  input: UpdateItemInput,
): Promise<Partial<QuoteItemRow>> {
  const sent = MONEY_KEYS.filter((key) => input[key] !== undefined);
  if (!sent.length) return {};
  if (isGroupLine(item, items)) {
    throw new AppError(
      'line_not_priced',
      'A group line takes its money from its lines: change the quantity, price or discount of those',
      {
        issues: sent.map((key) => ({
          pointer: `/${key}`,
          message: 'does not apply to a group line',
          in: 'body',
        })),
      },
    );
  }
  const quantity = input.quantity ?? item.quantity;
  const manualPrice =
    input.price !== undefined ? input.price : item.priceSource === 'manual' ? item.price : null;

  // The engine's (or the article's) price at the quantity.
  let engine: EnginePrice | null = null;
  let engineUnit: number | null = null;
  if (item.articleId) {
    engineUnit = item.enginePrice;
    if (engineUnit !== null) {
      engine = {
        quantity,
        amount: amountOfUnitPrice(quantity, engineUnit),
        cost: null,
        tooling: 0,
        delivery: 0,
      };
    }
  } else if (item.briefElementId && item.briefId) {
    if (quantity !== item.quantity) {
      try {
        engine = await priceElementAt(
          db,
          quote.organisationId,
          { briefId: item.briefId, briefElementId: item.briefElementId, currency: quote.currency },
          quantity,
        );
        engine = {
          ...engine,
          toolingLines: engine.toolingLines ?? null,
          amount: roundCents(engine.amount),
          cost: engine.cost === null ? null : roundCents(engine.cost),
          tooling: roundCents(engine.tooling),
          delivery: roundCents(engine.delivery),
        };
      } catch (error) {
        // With a price of its own the line does not need the engine's.
        if (!(error instanceof AppError) || manualPrice === null) throw error;
      }
    } else if (item.engineAmount !== null) {
      engine = {
        quantity,
        amount: item.engineAmount,
        cost: item.engineCost,
        tooling: item.toolingCost,
        delivery: item.deliveryCost,
      };
    }
    if (engine) engineUnit = derivedUnitPrice(engine.amount, quantity);
  }
  if (input.price === null && !engine) {
    throw new AppError('line_not_priced', 'The line has no engine or article price to go back to', {
      issues: [{ pointer: '/price', message: 'has no engine price to go back to: send a price', in: 'body' }],
    });
  }

  let price: number | null;
  let amount: number | null;
  if (manualPrice !== null) {
    price = roundUnitPrice(manualPrice);
    amount = amountOfUnitPrice(quantity, price);
  } else if (engine) {
    amount = engine.amount;
    // An article's price is the one typed in the catalogue; an element's is derived.
    price = item.articleId ? engineUnit : derivedUnitPrice(amount, quantity);
  } else {
    price = null;
    amount = null;
  }

  // Sending one kind of discount replaces the other.
  let discountPercent = item.discountPercent;
  let discountAmount = item.discountAmount;
  if (input.discountPercent !== undefined) {
    discountPercent = input.discountPercent;
    if (input.discountPercent !== null) discountAmount = null;
  }
  if (input.discountAmount !== undefined) {
    discountAmount = input.discountAmount === null ? null : roundCents(input.discountAmount);
    if (input.discountAmount !== null) discountPercent = null;
  }
  if (discountAmount !== null && (amount === null || discountAmount > amount)) {
    throw new AppError(
      'invalid_discount',
      amount === null
        ? 'A line without a price takes no discount amount'
        : `The discount (${discountAmount}) is above the line’s amount (${amount})`,
      {
        issues: [
          {
            pointer: '/discountAmount',
            // The platform's wording of a maximum, which the app translates.
            message: amount === null ? 'needs a priced line' : `must be <= ${amount}`,
            in: 'body',
          },
        ],
      },
    );
  }
  const discount = amount === null ? 0 : discountOf(amount, { discountPercent, discountAmount });
  const tooling = engine?.tooling ?? (manualPrice !== null ? item.toolingCost : 0);
  const delivery = engine?.delivery ?? (manualPrice !== null ? item.deliveryCost : 0);
  return {
    quantity,
    price,
    amount,
    enginePrice: engineUnit,
    engineAmount: engine?.amount ?? null,
    engineCost: engine?.cost ?? null,
    discountPercent,
    discountAmount,
    toolingCost: amount === null ? 0 : tooling,
    // The tools of a line priced again are the engine's; otherwise they stay (toolingLines() checks the sum).
    ...(engine?.toolingLines !== undefined ? { tooling: engine.toolingLines } : {}),
    deliveryCost: amount === null ? 0 : delivery,
    totalPrice: amount === null ? 0 : lineTotal(amount, tooling, delivery, discount, '/quantity'),
    valid: amount !== null,
    priceSource: manualPrice !== null ? 'manual' : item.articleId ? 'article' : 'prediction',
  };
}

/**
 * Moves the item to `position` among its live siblings (clamped to the last place) and numbers
 * them 1..n again. Returns the siblings whose position changed, as they are now.
 */
export async function moveItem(
  tx: Executor,
  items: QuoteItemRow[],
  item: QuoteItemRow,
  position: number,
): Promise<QuoteItemRow[]> {
  const siblings = items
    .filter((i) => i.parentId === item.parentId && i.id !== item.id)
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  siblings.splice(Math.min(position - 1, siblings.length), 0, item);
  const changed: QuoteItemRow[] = [];
  const now = new Date();
  for (const [index, sibling] of siblings.entries()) {
    if (sibling.position === index + 1) continue;
    const row = await setQuoteItem(tx, sibling.id, { position: index + 1, updatedAt: now });
    changed.push(row!);
  }
  return changed;
}
