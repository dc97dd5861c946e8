/**
 * Issue 30, step 3: every value-analysis proposal re-prices to exactly what it claims. Each shown
 * proposal's changes are applied to the brief by their JSON pointers and the changed brief is
 * priced afresh: the element total, the unit price, the brief total and (for ADJUST_DIMENSIONS)
 * the ups it promises must be what the proposal says. PRICING_SEED replays a failing run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { analyseValue, type BriefInput, priceBrief } from '../../src/pricing/index.ts';
import type { InputChange } from '../../src/pricing/value-analysis.ts';
import { oneElementBrief } from './arbitraries.ts';

const catalogue = defaultCatalogue();
const RUNS = {
  numRuns: Number(process.env.PRICING_RUNS ?? 25),
  ...(process.env.PRICING_SEED ? { seed: Number(process.env.PRICING_SEED) } : {}),
};

/** Applies `changes` (JSON pointers into the brief) to a copy of the brief; null means remove. */
function applyChanges(brief: BriefInput, changes: InputChange[]): BriefInput {
  const copy = structuredClone(brief) as unknown as Record<string, unknown>;
  for (const change of changes) {
    const path = change.pointer.split('/').slice(1);
    let target = copy as Record<string, unknown>;
    for (const part of path.slice(0, -1)) target = target[part] as Record<string, unknown>;
    const last = path[path.length - 1]!;
    if (change.to === null) delete target[last];
    else target[last] = structuredClone(change.to);
  }
  return copy as unknown as BriefInput;
}

/** A brief the analysis has material to propose on: dimensions and finishes of a carton. */
const briefs = oneElementBrief.filter((b) => !['0201', '0427'].includes(b.briefElements[0]!.productId));

describe('value analysis keeps its promises (issue 30)', () => {
  it('shows only proposals that re-price to exactly what they claim', () => {
    let checked = 0;
    fc.assert(
      fc.property(briefs, (brief) => {
        const analysis = analyseValue(brief, catalogue);
        const element = analysis.elements[0]!;
        for (const o of element.optimisations) {
          if (!o.applies || o.alreadyApplied || o.changes.length === 0) continue;
          const changed = priceBrief(applyChanges(brief, o.changes), catalogue);
          const variant = changed.briefPrice.predictionRequestsComputed.find((v) => v.selected)!;
          expect(variant.totalPrice, `${o.type}: ${o.description}`).toBe(o.totalPrice);
          expect(variant.unitPrice, o.type).toBe(o.unitPrice);
          expect(changed.briefPrice.totalPrice, o.type).toBe(o.briefTotalPrice);
          expect(o.totalSaving! > 0 || o.unitPriceSaving! > 0, o.type).toBe(true);
          if (o.type === 'ADJUST_DIMENSIONS') {
            const promised = /to fit (\d+) ups instead of (\d+)/.exec(o.description)!;
            expect(variant.layoutCount, o.description).toBe(Number(promised[1]));
            expect(variant.layoutCount).toBeGreaterThan(Number(promised[2]));
          }
          for (const alternative of o.alternatives) {
            if (alternative.changes.length === 0) continue;
            const again = priceBrief(applyChanges(brief, alternative.changes), catalogue);
            expect(again.briefPrice.totalPrice, alternative.description).toBe(alternative.briefTotalPrice);
          }
          checked++;
        }
      }),
      RUNS,
    );
    expect(checked).toBeGreaterThan(0);
  });
});
