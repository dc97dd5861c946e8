/**
 * The rounding rule of quote lines (docs/quotes.md, "Rounding"): one amount in cents per line,
 * from which everything else is derived, never the other way round.
 *
 * - The goods amount of a line is the engine's product price for its quantity, in cents (as the
 *   engine rounded it), or, for a unit price typed in (article, manual override),
 *   quantity x unit price rounded once to cents.
 * - The unit price shown is amount / quantity to 4 decimals: derived, never multiplied back.
 * - The line total is amount - discount + tooling + delivery, each in cents.
 * - Parents and the quote add the line totals (cents); the order takes each line's amount as is.
 */
import { assertTotalInRange } from '../../platform/input-safety.ts';
import { roundCents, roundUnitPrice } from '../../platform/money.ts';

/** quantity x a unit price that was typed in (article price, manual override), rounded once. */
export const amountOfUnitPrice = (quantity: number, unitPrice: number) => roundCents(quantity * unitPrice);

/** The unit price shown for an amount: amount / quantity, 4 decimals (0 for a zero quantity). */
export const derivedUnitPrice = (amount: number, quantity: number) =>
  quantity > 0 ? roundUnitPrice(amount / quantity) : 0;

/** The discount of a goods amount in cents: the amount sent, or the percentage of it. */
export function discountOf(
  amount: number,
  discount: { discountPercent?: number | null; discountAmount?: number | null },
) {
  if (discount.discountAmount != null) return roundCents(discount.discountAmount);
  if (discount.discountPercent != null) return roundCents((amount * discount.discountPercent) / 100);
  return 0;
}

/** totalPrice of a line: goods amount - discount + tooling + delivery, in cents. */
export function lineTotal(
  amount: number | null,
  tooling: number,
  delivery: number,
  discount = 0,
  pointer = '/items',
) {
  const total = roundCents((amount ?? 0) - discount + tooling + delivery);
  assertTotalInRange(total, pointer);
  return total;
}

/** The net unit price of a line (after its discount), as the order shows it: derived. */
export const netUnitPrice = (amount: number, discount: number, quantity: number) =>
  derivedUnitPrice(roundCents(amount - discount), quantity);
