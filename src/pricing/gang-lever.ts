/**
 * The GANG_RUN value-analysis lever: what gang-running the decoration variants on one sheet
 * saves (or would cost) against printing them in separate runs, both costed by the engine on the
 * same element (gang.ts). Routes are ranked by total, so when the gang run is cheaper the engine
 * has already selected it: the lever reports that saving with no input to change
 * (`alreadyApplied`); when separate runs are cheaper it says by how much, and does not apply.
 */
import type { RouteCosting } from './costing.ts';
import { type ElementComputation, variantMoney } from './engine.ts';
import { gangLabel, isGang } from './gang.ts';
import { fromCents, round1 } from './money.ts';
import type { OptimisationProposal } from './value-analysis.ts';

function routeWords(route: RouteCosting): string {
  const plan = route.plan;
  return `${plan.process} on ${plan.sheet.width} x ${plan.sheet.height} mm sheets, ${plan.imposition.ups} up`;
}

export function gangRunProposal(
  computation: ElementComputation,
  deliveryCents: number,
  briefTotalCents: number,
): OptimisationProposal {
  const { element } = computation;
  const n = element.decorations.length;
  const none = (description: string): OptimisationProposal => ({
    type: 'GANG_RUN',
    applies: false,
    description,
    changes: [],
    alternatives: [],
  });
  if (n < 2) return none('one decoration variant: nothing to gang-run');
  const gang = computation.routes.find((r) => isGang(r.plan));
  const separate = computation.routes.find((r) => !isGang(r.plan));
  if (!gang || !separate) {
    return none(
      element.print.recto + element.print.verso === 0
        ? 'unprinted: nothing to gang-run'
        : `no sheet holds the ${n} decoration variants side by side (fewer ups than variants)`,
    );
  }
  const gangMoney = variantMoney(gang, element, deliveryCents);
  const separateMoney = variantMoney(separate, element, deliveryCents);
  const savingCents = separateMoney.totalCents - gangMoney.totalCents;
  const percent = separateMoney.totalCents > 0 ? round1((savingCents / separateMoney.totalCents) * 100) : 0;
  const plan = gang.plan;
  const label = isGang(plan) ? gangLabel(plan.gang) : '';
  if (savingCents <= 0 || computation.variants[0] !== gang) {
    return none(
      `separate runs are ${fromCents(-savingCents).toFixed(2)} EUR (${round1(-percent)} %) cheaper than the best ${label} (${routeWords(gang)}): the overs of the smaller variants outweigh the make-ready and plates saved`,
    );
  }
  return {
    type: 'GANG_RUN',
    applies: true,
    alreadyApplied: true,
    description: `${label} (${routeWords(gang)}) instead of ${n} separate runs (${routeWords(separate)}): one make-ready and one set of plates; selected by the engine`,
    changes: [],
    quantity: element.quantity,
    unitPrice: gangMoney.unitPrice,
    totalPrice: fromCents(gangMoney.totalCents),
    briefTotalPrice: fromCents(briefTotalCents),
    unitPriceSaving: Math.round((separateMoney.unitPrice - gangMoney.unitPrice) * 1e4) / 1e4,
    totalSaving: fromCents(savingCents),
    savingPercent: percent,
    alternatives: [],
  };
}
