/**
 * The engine's price of one brief element at another quantity, for a quote line whose quantity
 * is edited: the brief as it is now (its live elements), the element's decoration variants scaled
 * to the new total, priced in-process with the organisation's catalogue. Only that element's
 * selected route is taken; the brief and its stored predictions are not changed.
 */
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { toolingOfCostLines } from '../../platform/line-parts.ts';
import { PricingError, priceBrief } from '../../pricing/index.ts';
import { elementValuesOf, engineBrief } from '../briefs/mapping.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { findLiveBrief, liveElementsOfBriefs } from './brief-source-repository.ts';
import type { EnginePrice } from './items.ts';

type Decoration = { decorationIndex: number; quantity: number };

/**
 * Decoration quantities scaled so that they add up to `total`, in proportion to the current ones
 * (largest remainder, each at least 1 when the total allows it).
 */
export function scaleDecorations(decorations: Decoration[], total: number): Decoration[] {
  if (!decorations.length) return [{ decorationIndex: 0, quantity: total }];
  const current = decorations.reduce((sum, d) => sum + d.quantity, 0);
  if (decorations.length === 1 || current <= 0) {
    return decorations.map((d, i) => ({ decorationIndex: d.decorationIndex, quantity: i === 0 ? total : 0 }));
  }
  const exact = decorations.map((d) => (d.quantity / current) * total);
  const floors = exact.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => ({ i, rest: value - floors[i]! })).sort((a, b) => b.rest - a.rest);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return decorations
    .map((d, i) => ({ decorationIndex: d.decorationIndex, quantity: floors[i]! }))
    .filter((d, i) => d.quantity > 0 || i === 0);
}

const failed = (message: string) =>
  new AppError('repricing_failed', `The element cannot be priced at this quantity: ${message}`, {
    issues: [{ pointer: '/quantity', message, in: 'body' }],
  });

/** The engine's price of the element at `quantity`, in the quote's currency (422 otherwise). */
export async function priceElementAt(
  db: Executor,
  organisationId: string,
  target: { briefId: string; briefElementId: string; currency: string },
  quantity: number,
): Promise<EnginePrice> {
  if (!Number.isInteger(quantity)) throw failed('a brief element is made in whole pieces');
  const brief = await findLiveBrief(db, organisationId, target.briefId);
  if (!brief) throw failed('its brief no longer exists');
  const elements = await liveElementsOfBriefs(db, [brief.id]);
  const element = elements.find((e) => e.id === target.briefElementId);
  if (!element) throw failed('the element was removed from its brief');
  const values = elements.map((e) => {
    const v = elementValuesOf(e);
    if (e.id !== element.id) return v;
    const decorationsCount = scaleDecorations(e.decorationsCount ?? [], quantity);
    return { ...v, decorationsCount, quantity };
  });
  const catalogue = await loadCatalogue(db, organisationId);
  let output: ReturnType<typeof priceBrief>;
  try {
    output = priceBrief(engineBrief(brief, values), catalogue);
  } catch (error) {
    if (error instanceof PricingError) throw failed(error.message);
    throw error;
  }
  if (output.currency !== target.currency) {
    throw failed(`the catalogue prices in ${output.currency}, the quote is in ${target.currency}`);
  }
  const variant = output.briefPrice.predictionRequestsComputed.find(
    (v) => v.selected && v.position === element.position,
  );
  if (!variant) throw failed('the engine found no route for it');
  return {
    quantity,
    amount: variant.productPrice,
    cost: variant.productCost,
    tooling: variant.toolingCost,
    delivery: variant.deliveryCost,
    toolingLines: toolingOfCostLines(variant.costBreakdown.tooling.lines),
  };
}
