/**
 * Price-break columns of quote lines (docs/quotes.md, "Price breaks"): a line offered at several
 * quantities ("1,000 / 2,500 / 5,000 / 10,000"), each priced like the line under the rounding
 * rule of line-money.ts, and the quote's columns (the lines' columns of the same rank) that the
 * buyer chooses from when accepting. Pure decisions plus the engine call of a new quantity.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.ts';
import type { PriceBreak } from '../../db/schema/quotes.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { roundCents } from '../../platform/money.ts';
import { amountOfUnitPrice, derivedUnitPrice, discountOf, lineTotal } from './line-money.ts';
import type { QuoteItemRow, QuoteRow } from './repository.ts';
import { priceElementAt } from './reprice.ts';

/** At most this many columns on a line. */
export const MAX_PRICE_BREAKS = 6;

type Line = Pick<
  QuoteItemRow,
  | 'articleId'
  | 'briefId'
  | 'briefElementId'
  | 'quantity'
  | 'price'
  | 'amount'
  | 'engineAmount'
  | 'engineCost'
  | 'discountPercent'
  | 'discountAmount'
  | 'toolingCost'
  | 'deliveryCost'
  | 'priceBreaks'
>;

/** What the engine (or the article's price) says of a quantity: kept in the column. */
type Priced = Pick<PriceBreak, 'engineAmount' | 'engineCost' | 'toolingCost' | 'deliveryCost'>;

const discountError = (amount: number, discount: number, pointer: string) =>
  new AppError(
    'invalid_discount',
    `The line’s discount (${discount}) is above a column’s amount (${amount})`,
    {
      issues: [{ pointer, message: `must be <= ${amount}`, in: 'body' }],
    },
  );

/**
 * A column's money from what was priced at its quantity: the column of the line's own quantity is
 * the line itself (its amount, a manual price included); another column takes the engine's amount
 * at its quantity (a brief element) or quantity x the line's unit price (an article line). The
 * line's discount applies to every column (a percentage of each, or the same amount).
 */
function columnOf(line: Line, id: string, quantity: number, priced: Priced, pointer: string): PriceBreak {
  const own = quantity === line.quantity && line.amount !== null;
  let amount: number;
  let unitPrice: number;
  if (own) {
    amount = line.amount!;
    unitPrice = line.price ?? derivedUnitPrice(amount, quantity);
  } else if (line.articleId) {
    unitPrice = line.price ?? 0;
    amount = amountOfUnitPrice(quantity, unitPrice);
  } else {
    amount = priced.engineAmount;
    unitPrice = derivedUnitPrice(amount, quantity);
  }
  const discount = discountOf(amount, line);
  if (discount > amount) throw discountError(amount, discount, pointer);
  const toolingCost = own ? line.toolingCost : priced.toolingCost;
  const deliveryCost = own ? line.deliveryCost : priced.deliveryCost;
  return {
    id,
    quantity,
    unitPrice,
    amount,
    discount,
    toolingCost,
    deliveryCost,
    totalPrice: lineTotal(amount, toolingCost, deliveryCost, discount, pointer),
    engineAmount: own ? (line.engineAmount ?? amount) : priced.engineAmount,
    engineCost: own ? line.engineCost : priced.engineCost,
  };
}

/**
 * The columns of a line after an edit of the line or of its columns. `quantities` (the request's
 * `priceBreaks`) replaces the set: a quantity already offered keeps its column (id and engine
 * price), a new one is priced now (the engine at that quantity, 422 `repricing_failed` with the
 * column's pointer when it cannot be). Without `quantities` the current columns are derived again
 * from the edited line (its discount, its unit price, its own quantity's column).
 */
export async function priceBreaksAfter(
  db: Executor,
  quote: Pick<QuoteRow, 'organisationId' | 'currency'>,
  line: Line,
  quantities: number[] | undefined,
  isGroup: boolean,
): Promise<PriceBreak[]> {
  const current = line.priceBreaks ?? [];
  if (quantities === undefined && !current.length) return [];
  if (quantities?.length) {
    const issues = quantities.flatMap((quantity, i) =>
      quantities.indexOf(quantity) !== i
        ? [
            {
              pointer: `/priceBreaks/${i}/quantity`,
              message: 'must be distinct from the other columns',
              in: 'body' as const,
            },
          ]
        : [],
    );
    if (issues.length) throw badRequest('The price-break quantities must be distinct', issues);
    if (isGroup || line.amount === null) {
      throw new AppError(
        'line_not_priced',
        isGroup
          ? 'A group line takes its money from its lines: give the price breaks to those'
          : 'A line without a price cannot be offered at other quantities',
        { issues: [{ pointer: '/priceBreaks', message: 'needs a priced line', in: 'body' }] },
      );
    }
  }
  const wanted = (quantities ?? current.map((c) => c.quantity)).slice().sort((a, b) => a - b);
  const columns: PriceBreak[] = [];
  for (const quantity of wanted) {
    const index = (quantities ?? wanted).indexOf(quantity);
    const pointer = quantities ? `/priceBreaks/${index}/quantity` : '/quantity';
    const kept = current.find((c) => c.quantity === quantity);
    let priced: Priced;
    if (kept) {
      priced = kept;
    } else if (quantity === line.quantity || line.articleId) {
      priced = {
        engineAmount: line.amount ?? 0,
        engineCost: null,
        toolingCost: line.toolingCost,
        deliveryCost: line.deliveryCost,
      };
      if (quantity === line.quantity) priced.engineCost = line.engineCost;
    } else if (line.briefElementId && line.briefId) {
      let engine: Awaited<ReturnType<typeof priceElementAt>>;
      try {
        engine = await priceElementAt(
          db,
          quote.organisationId,
          { briefId: line.briefId, briefElementId: line.briefElementId, currency: quote.currency },
          quantity,
        );
      } catch (error) {
        if (error instanceof AppError && error.code === 'repricing_failed') {
          throw new AppError('repricing_failed', error.message, {
            issues: [{ pointer, message: error.message, in: 'body' }],
          });
        }
        throw error;
      }
      priced = {
        engineAmount: roundCents(engine.amount),
        engineCost: engine.cost === null ? null : roundCents(engine.cost),
        toolingCost: roundCents(engine.tooling),
        deliveryCost: roundCents(engine.delivery),
      };
    } else {
      throw new AppError(
        'line_not_priced',
        'Only brief elements and articles are offered at other quantities',
        {
          issues: [{ pointer: '/priceBreaks', message: 'needs a brief element or an article', in: 'body' }],
        },
      );
    }
    columns.push(columnOf(line, kept?.id ?? uuidv7(), quantity, priced, pointer));
  }
  return columns;
}

/** A quote's column: the lines' columns of rank `position`, added up (lines without one count as they are). */
export type QuoteColumn = {
  id: string;
  position: number;
  /** The quantity of the column when every line offering columns has the same there, else null. */
  quantity: number | null;
  totalPrice: number;
  toolingCost: number;
  deliveryCost: number;
};

type ColumnLine = Pick<
  QuoteItemRow,
  'id' | 'parentId' | 'position' | 'optional' | 'priceBreaks' | 'totalPrice' | 'toolingCost' | 'deliveryCost'
>;

/** The column of rank `position` (1-based) of a line, when it has one. */
export const columnAt = (line: Pick<QuoteItemRow, 'priceBreaks'>, position: number) =>
  (line.priceBreaks ?? [])[position - 1] ?? null;

/** The lines counted in the quote's total (not optional; a group's counted children). */
function countedLines<T extends ColumnLine>(items: T[]): T[] {
  return items
    .filter((root) => !root.parentId && !root.optional)
    .flatMap((root) => {
      const children = items.filter((c) => c.parentId === root.id);
      return children.length ? children.filter((c) => !c.optional) : [root];
    });
}

/**
 * The quote's columns: as many as the line with the most columns has; column k adds the k-th
 * column of each counted line that has one and the line itself for the others (a line without
 * price breaks, or with fewer columns, is offered at its own quantity in that column).
 */
export function quoteColumns(items: ColumnLine[]): QuoteColumn[] {
  const lines = countedLines(items);
  const count = Math.max(0, ...lines.map((l) => (l.priceBreaks ?? []).length));
  return Array.from({ length: count }, (_, i) => {
    const position = i + 1;
    let totalPrice = 0;
    let toolingCost = 0;
    let deliveryCost = 0;
    const quantities = new Set<number>();
    for (const line of lines) {
      const column = columnAt(line, position);
      totalPrice += column ? column.totalPrice : line.totalPrice;
      toolingCost += column ? column.toolingCost : line.toolingCost;
      deliveryCost += column ? column.deliveryCost : line.deliveryCost;
      if (column) quantities.add(column.quantity);
    }
    return {
      id: String(position),
      position,
      quantity: quantities.size === 1 ? [...quantities][0]! : null,
      totalPrice: roundCents(totalPrice),
      toolingCost: roundCents(toolingCost),
      deliveryCost: roundCents(deliveryCost),
    };
  });
}

/** The option a buyer sends when accepting (acceptances module). */
export type ChosenOption = { id?: string; quantity?: number };

const optionError = (message: string) =>
  new AppError('invalid_price_break_option', message, {
    issues: [{ pointer: '/option', message, in: 'body' }],
  });

/**
 * The column an acceptance chooses: `option.id` is a quote column's id (its position, "1"...) or
 * the id of a line's column (that column's rank); `option.quantity` alone names the column of that
 * quantity; both must agree. Required when the quote offers two columns or more (one column is
 * taken without asking); a quote without columns takes none (an option sent is refused). 422
 * `invalid_price_break_option` otherwise. Returns null when the quote has no columns.
 */
export function chooseColumn(
  items: ColumnLine[],
  option: ChosenOption | undefined | null,
): QuoteColumn | null {
  const columns = quoteColumns(items);
  const sent = option && (option.id !== undefined || option.quantity !== undefined);
  if (!columns.length) {
    if (sent) throw optionError('This quote offers no price-break columns to choose from');
    return null;
  }
  if (!sent) {
    if (columns.length === 1) return columns[0]!;
    throw optionError(
      `This quote offers ${columns.length} price-break columns: choose one (option.id ${columns.map((c) => c.id).join(', ')})`,
    );
  }
  let column: QuoteColumn | undefined;
  if (option!.id !== undefined) {
    column = columns.find((c) => c.id === option!.id);
    if (!column) {
      for (const line of items) {
        const rank = (line.priceBreaks ?? []).findIndex((b) => b.id === option!.id);
        if (rank >= 0) column = columns[rank];
      }
    }
    if (!column) throw optionError(`No price-break column has the id ${option!.id}`);
    if (option!.quantity !== undefined && column.quantity !== option!.quantity) {
      throw optionError(`Column ${column.id} is not offered at ${option!.quantity} pieces`);
    }
  } else {
    const matching = columns.filter((c) => c.quantity === option!.quantity);
    if (matching.length !== 1)
      throw optionError(`No price-break column is offered at ${option!.quantity} pieces`);
    column = matching[0];
  }
  return column!;
}
