/**
 * Issue 30, step 1: every layout costed. Where tooling is made per up (stamping and embossing
 * dies, the cutting die's rule, flexo plates), the engine also costs fewer ups on the same sheet
 * and keeps the cheapest total; a larger box or a heavier board can then no longer be cheaper
 * because its blank fits fewer (dearer-tooled) ups. PRICING_SEED replays a failing run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import {
  type BriefElementInput,
  type BriefInput,
  type BriefPrediction,
  priceBrief,
} from '../../src/pricing/index.ts';
import { oneElementBrief } from './arbitraries.ts';

const catalogue = defaultCatalogue();
const RUNS = {
  numRuns: Number(process.env.PRICING_RUNS ?? 60),
  ...(process.env.PRICING_SEED ? { seed: Number(process.env.PRICING_SEED) } : {}),
};

const selected = (p: BriefPrediction) => p.briefPrice.predictionRequestsComputed.find((v) => v.selected)!;
const withElement = (brief: BriefInput, change: (e: BriefElementInput) => BriefElementInput): BriefInput => ({
  ...brief,
  briefElements: brief.briefElements.map((e, i) => (i === 0 ? change(e) : e)),
});

/**
 * "One sheet step": what one more sheet of the selected route costs at price (board, ink and
 * running time of a sheet: the product price spread over the sheets bought, tooling apart), plus a
 * cent of rounding. A larger blank may move a run across a spoilage-table step or to another
 * sheet; the claim is that it never saves more than that.
 */
function sheetStep(p: BriefPrediction): number {
  const v = selected(p);
  return v.productPrice / Math.max(1, v.nbFeuilleTotalPliantPredis) + liftStep(p) + 0.01;
}

/** Guillotine work is charged in whole lifts (as in properties.test.ts): one lift per pile, at price. */
function liftStep(p: BriefPrediction): number {
  const v = selected(p);
  let step = 0;
  for (const o of v.operations) {
    if (!o.lifts) continue;
    const hourly = o.cost / (o.setupTime + o.rollingTime);
    const piles = v.gang ? 1 : v.decorations.length;
    step += ((o.rollingTime / o.lifts) * hourly * piles) / (1 - v.commercialMargin);
  }
  return step;
}

type Variant = ReturnType<typeof selected>;
/** What the buyer pays for the order landed: the all-in price ranked plus delivery. */
const landed = (v: Variant) => v.rankingTotal + v.deliveryCost;

const FAMILIES: Record<string, string[]> = {
  GC1: ['GC1-300', 'GC1-340', 'GC1-350', 'GC1-400'],
  GC2: ['GC2-300', 'GC2-350'],
  SBS: ['SBS-300', 'SBS-350'],
  KRAFT: ['KRAFT-FBB-300', 'KRAFT-FBB-350'],
};

describe('every layout costed (issue 30)', () => {
  it('prices a short foil run on fewer ups when the dies per up cost more than the sheets saved', () => {
    // The crash-lock 66 x 33 x 48 with silver foil at 1,291: 12 ups meant 12 stamping dies.
    const brief: BriefInput = {
      briefElements: [
        {
          position: 0,
          productId: 'CLB',
          lengthDimension: 66,
          widthDimension: 33,
          heightDimension: 48,
          materialReferenceId: 'GC1-350',
          decorationsCount: [{ decorationIndex: 0, quantity: 1291 }],
          wantDecoration: true,
          sidePrinted: 'RECTO',
          rectoColorCount: 4,
          versoColorCount: 0,
          wantStampingRecto: true,
          hotStampings: [{ color: 'silver', coverage: 0.5, width: 40, height: 20 }],
        },
      ],
    };
    const v = selected(priceBrief(brief, catalogue));
    expect(v.variantKey).toMatch(/:UPS-\d+$/);
    expect(v.layoutCount).toBeLessThan(12);
    const dies = v.costBreakdown.tooling.lines.find((l) => l.code === 'STAMPING_DIE')!;
    expect(dies.quantity).toBe(v.layoutCount);
    // The densest layout is still listed or beaten: nothing cheaper in total was left out.
    for (const other of priceBrief(brief, catalogue).briefPrice.predictionRequestsComputed) {
      expect(other.rankingTotal).toBeGreaterThanOrEqual(v.rankingTotal);
    }
  });

  it('never prices a larger box cheaper by more than one sheet step', () => {
    fc.assert(
      fc.property(
        oneElementBrief,
        fc.constantFrom('lengthDimension', 'widthDimension', 'heightDimension'),
        fc.integer({ min: 1, max: 30 }),
        (brief, dimension, grow) => {
          const element = brief.briefElements[0]!;
          fc.pre(!(element.productId === 'FLAT' && dimension === 'heightDimension'));
          // Corrugated sheets are made to size on standard web widths: a larger blank may fill a
          // web better (0427 280 x 290 -> 300: 2 out on a 1,434 mm sheet instead of 1 on 1,024,
          // less trim bought). That is the web's step, not a layout left uncosted.
          fc.pre(!['0201', '0427'].includes(element.productId));
          let after: BriefPrediction;
          const before = priceBrief(brief, catalogue);
          try {
            after = priceBrief(
              withElement(brief, (e) => ({ ...e, [dimension]: (e[dimension] ?? 0) + grow })),
              catalogue,
            );
          } catch {
            fc.pre(false); // grown beyond the style's or the machines' limits
            return;
          }
          const small = selected(before);
          const large = selected(after);
          // Made, packed and delivered: cases and pallets are chosen by landed cost. Packing has
          // steps of its own: a larger carton may fill a stock case or a pallet better (seed 3,
          // PRICING_RUNS=600: a tuck end 109 -> 113 mm long, the same 4 ups on 8,517 sheets,
          // delivery EUR 312 -> 234). A saving on delivery is that step, not a layout left uncosted.
          // Likewise the cases and pallets themselves (seed 549428127: a tray 7 mm wider fits a
          // smaller stock case, 40 to a pallet instead of 16; EUR 0.81 less at price).
          const packaging = (v: Variant) =>
            v.costBreakdown.packing.lines
              .filter((l) => l.code === 'SHIPPING_CASES' || l.code === 'BUNDLES' || l.code === 'PALLETS')
              .reduce((sum, l) => sum + l.amount, 0) /
            (1 - v.commercialMargin);
          const packingStep =
            Math.max(0, small.deliveryCost - large.deliveryCost) +
            Math.max(0, packaging(small) - packaging(large));
          expect(landed(large)).toBeGreaterThanOrEqual(landed(small) - sheetStep(before) - packingStep);
        },
      ),
      // Random seeds again: the counterexamples of trays about 80 mm high grown by 1-3 mm
      // (PRICING_SEED=27, 29; with PRICING_RUNS=600 also 1, 2) were the nesting search missing
      // the half-pitch shift of the smaller tray (nesting.ts: whole millimetres either side of
      // each corner alignment, the next column's corners too); 549428127 was packaging's step.
      RUNS,
    );
  });

  it('never prices a heavier board of the same family cheaper', () => {
    const families = fc.constantFrom(...Object.values(FAMILIES)).chain((codes) =>
      fc
        .tuple(fc.integer({ min: 0, max: codes.length - 1 }), fc.integer({ min: 0, max: codes.length - 1 }))
        .filter(([a, b]) => a < b)
        .map(([a, b]) => [codes[a]!, codes[b]!] as const),
    );
    fc.assert(
      fc.property(oneElementBrief, families, (brief, [light, heavy]) => {
        const element = brief.briefElements[0]!;
        fc.pre(['STE', 'RTE', 'CLB', 'SLEEVE', 'TRAY'].includes(element.productId));
        let lighter: BriefPrediction;
        let heavier: BriefPrediction;
        try {
          lighter = priceBrief(
            withElement(brief, (e) => ({ ...e, materialReferenceId: light })),
            catalogue,
          );
          heavier = priceBrief(
            withElement(brief, (e) => ({ ...e, materialReferenceId: heavy })),
            catalogue,
          );
        } catch {
          fc.pre(false);
          return;
        }
        const a = selected(lighter);
        const b = selected(heavier);
        // A cent of rounding, and nesting's whole-millimetre search: a thicker blank may nest a
        // little tighter than the thinner one (a tray 50 x 60 x 70 at 3,497: GC1-340 nests 8 on a
        // 720 x 520 sheet where GC1-300 lays 6, EUR 736.83 against 736.85).
        expect(landed(b), `${light} -> ${heavy}`).toBeGreaterThanOrEqual(landed(a) * (1 - 0.0005) - 0.011);
      }),
      RUNS,
    );
  });
});
