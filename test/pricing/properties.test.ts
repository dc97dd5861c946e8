/** Properties that must hold for every valid brief (default catalogue, random briefs). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { computeBrief } from '../../src/pricing/engine.ts';
import {
  type BriefElementInput,
  type BriefInput,
  type BriefPrediction,
  type CostBreakdown,
  type CostSummary,
  priceBrief,
} from '../../src/pricing/index.ts';
import { createSession } from '../../src/pricing/session.ts';
import { anyBrief, oneElementBrief } from './arbitraries.ts';

const catalogue = defaultCatalogue();
const cents = (amount: number) => Math.round(amount * 100);
const sumCents = (amounts: number[]) => amounts.reduce((s, a) => s + cents(a), 0);
// PRICING_SEED replays a failing run (fast-check prints its seed).
const RUNS = {
  numRuns: Number(process.env.PRICING_RUNS ?? 60),
  ...(process.env.PRICING_SEED ? { seed: Number(process.env.PRICING_SEED) } : {}),
};

function withElement(brief: BriefInput, change: (e: BriefElementInput) => BriefElementInput): BriefInput {
  return { ...brief, briefElements: brief.briefElements.map((e, i) => (i === 0 ? change(e) : e)) };
}

function selected(prediction: BriefPrediction, position = 0) {
  return prediction.briefPrice.predictionRequestsComputed.find((v) => v.position === position && v.selected)!;
}

function expectBreakdownAddsUp(breakdown: CostBreakdown) {
  for (const key of [
    'materials',
    'printing',
    'finishing',
    'converting',
    'packing',
    'tooling',
    'delivery',
  ] as const) {
    expect(cents(breakdown[key].total), key).toBe(sumCents(breakdown[key].lines.map((l) => l.amount)));
  }
  const productCost = sumCents([
    breakdown.materials.total,
    breakdown.printing.total,
    breakdown.finishing.total,
    breakdown.converting.total,
    breakdown.packing.total,
  ]);
  expect(cents(breakdown.productCost)).toBe(productCost);
  expect(cents(breakdown.productPrice)).toBe(productCost + cents(breakdown.margin.amount));
  expect(cents(breakdown.toolingCost)).toBe(cents(breakdown.tooling.total));
  expect(cents(breakdown.deliveryCost)).toBe(cents(breakdown.delivery.total));
  expect(cents(breakdown.totalPrice)).toBe(
    cents(breakdown.productPrice) + cents(breakdown.toolingCost) + cents(breakdown.deliveryCost),
  );
}

function expectSummaryAddsUp(summary: CostSummary) {
  expect(sumCents(summary.groups.map((g) => g.amount))).toBe(cents(summary.totalPrice));
  expect(sumCents(summary.natures.map((g) => g.amount))).toBe(cents(summary.totalPrice));
  expect(cents(summary.totalPrice)).toBe(
    cents(summary.productPrice) + cents(summary.toolingCost) + cents(summary.deliveryCost),
  );
}

/**
 * All-in unit price: what the routes are ranked by (product price + amortised tooling) and the
 * delivery, per unit. It is the minimum over routes of non-increasing functions of the quantity, so
 * it never rises. (The product-only unit price may rise slightly where a larger order switches to
 * a route with less tooling; tooling is part of what the buyer pays.) Delivery belongs in it since
 * packing is chosen by landed cost (issue 30): a larger order may take dearer cases that load
 * cheaper pallets (CI seed 908438351: packing +128 EUR, delivery -156 EUR for 8 % more units).
 */
function allInUnit(prediction: BriefPrediction): number {
  const v = selected(prediction);
  return (v.rankingTotal + prediction.briefPrice.deliveryCost) / v.quantity;
}

/** Delivery is priced by the pallet and the truck: more units may start one more (a step up). */
const deliveryStep = (before: BriefPrediction, after: BriefPrediction) =>
  Math.max(0, after.briefPrice.deliveryCost - before.briefPrice.deliveryCost);

/**
 * Guillotine work is charged in whole lifts: one more sheet can start a new lift of every cut.
 * That step (at most one lift per decoration variant, at price) is the only way the all-in unit
 * price may rise with quantity.
 */
function liftStep(prediction: BriefPrediction): number {
  const v = selected(prediction);
  let step = 0;
  for (const o of v.operations) {
    if (!o.lifts) continue;
    const hourly = o.cost / (o.setupTime + o.rollingTime);
    const piles = v.gang ? 1 : v.decorations.length;
    step += ((o.rollingTime / o.lifts) * hourly * piles) / (1 - v.commercialMargin);
  }
  return step;
}

/**
 * Issue 18, gang runs: on a gang run the sheet count is set by the variant needing the most
 * sheets, so more of that variant costs whole sheets of its share of ups (the other artworks on
 * them become overs): its marginal cost can exceed the average unit cost. The rise is bounded by
 * the extra units' sheets at the gang's price per sheet (at most one sheet per extra unit).
 * It holds when the engine leaves the gang for separate runs too (CI seed 1780739530: 9,759 +
 * 100 + 18,142 ganged, then 35,951 of the longest run separately): separate runs are chosen only
 * when they cost less than the grown gang, so the gang of the smaller order bounds the rise.
 */
function gangStep(prediction: BriefPrediction, extra: number): number {
  const v = selected(prediction);
  if (!v.gang) return 0;
  const minUps = Math.min(...v.gang.variants.map((g) => g.ups));
  return (extra / minUps + 1) * (v.rankingTotal / v.gang.netSheets);
}

describe('pricing properties', () => {
  // The longest run of the element grows. A short run of a mix (100 of one artwork beside 36,000
  // of another) carries a higher spoilage rate than the mix's average (spoilage tables by run
  // length), so a few more units of it alone may raise the blended all-in price by a fraction of
  // a cent per thousand (seen: 0.8596377 -> 0.8596379 EUR for 3 more of a 100-unit variant);
  // the claim of the model is about the quantity of a run, and about scaling the whole mix (next).
  it('never raises the all-in unit price when the quantity of a run rises', () => {
    fc.assert(
      fc.property(oneElementBrief, fc.integer({ min: 1, max: 30_000 }), (brief, extra) => {
        const before = priceBrief(brief, catalogue);
        const more = withElement(brief, (e) => {
          const longest = Math.max(...e.decorationsCount.map((d) => d.quantity));
          const i = e.decorationsCount.findIndex((d) => d.quantity === longest);
          return {
            ...e,
            decorationsCount: e.decorationsCount.map((d, j) =>
              j === i ? { ...d, quantity: d.quantity + extra } : d,
            ),
          };
        });
        const after = priceBrief(more, catalogue);
        const step = Math.max(liftStep(before), liftStep(after));
        expect(allInUnit(after)).toBeLessThanOrEqual(
          allInUnit(before) +
            (0.006 +
              step +
              deliveryStep(before, after) +
              Math.max(gangStep(before, extra), gangStep(after, extra))) /
              selected(after).quantity,
        );
      }),
      RUNS,
    );
  });

  it('never raises the all-in unit price when every variant is scaled up', () => {
    fc.assert(
      fc.property(oneElementBrief, fc.double({ min: 1, max: 8, noNaN: true }), (brief, factor) => {
        const before = priceBrief(brief, catalogue);
        const after = priceBrief(
          withElement(brief, (e) => ({
            ...e,
            decorationsCount: e.decorationsCount.map((d) => ({
              ...d,
              quantity: Math.ceil(d.quantity * factor),
            })),
          })),
          catalogue,
        );
        const step = Math.max(liftStep(before), liftStep(after));
        // A gang run's sheet count follows its dominant artwork: scaling the mix may add a sheet
        // for a unit or two more of it (seen with a factor of 1.0000000000000002, every run + 1).
        const extra = Math.max(
          ...brief.briefElements[0]!.decorationsCount.map((d) => Math.ceil(d.quantity * factor) - d.quantity),
        );
        expect(allInUnit(after)).toBeLessThanOrEqual(
          allInUnit(before) +
            (0.006 +
              step +
              deliveryStep(before, after) +
              Math.max(gangStep(before, extra), gangStep(after, extra))) /
              selected(after).quantity,
        );
      }),
      RUNS,
    );
  });

  it('never lowers the total when a finish is added', () => {
    const finishes: {
      name: string;
      applies: (e: BriefElementInput) => boolean;
      add: (e: BriefElementInput) => BriefElementInput;
    }[] = [
      {
        name: 'lamination',
        applies: (e) => !e.wantLaminationRecto,
        add: (e) => ({ ...e, wantLaminationRecto: true }),
      },
      {
        name: 'varnish',
        applies: (e) => !e.wantVarnishRecto,
        add: (e) => ({ ...e, wantVarnishRecto: true }),
      },
      {
        name: 'stamping',
        applies: (e) => !e.wantStampingRecto,
        add: (e) => ({
          ...e,
          wantStampingRecto: true,
          hotStampings: [{ color: 'silver', coverage: 0.3, width: 20, height: 10 }],
        }),
      },
      {
        name: 'embossing',
        applies: (e) => !e.wantEmbossingDebossingRecto,
        add: (e) => ({
          ...e,
          wantEmbossingDebossingRecto: true,
          embossings: [{ type: 'DEBOSSING', width: 20, height: 10, depth: 0.4 }],
        }),
      },
      {
        name: 'window',
        applies: (e) => !e.wantWindow && ['STE', 'RTE', 'CLB', 'SLEEVE'].includes(e.productId),
        add: (e) => ({ ...e, wantWindow: true, windowWidth: 25, windowHeight: 15 }),
      },
    ];
    fc.assert(
      fc.property(oneElementBrief, fc.constantFrom(...finishes), (brief, finish) => {
        const element = brief.briefElements[0]!;
        fc.pre(!['0201', '0427'].includes(element.productId) && finish.applies(element));
        if (element.productId === 'FLAT') fc.pre(finish.name === 'lamination' || finish.name === 'varnish');
        const before = priceBrief(brief, catalogue);
        const after = priceBrief(withElement(brief, finish.add), catalogue);
        // The selected variant is the cheapest total; every route costs at least as much with the
        // finish, so the cheapest total does too.
        expect(selected(after).rankingTotal).toBeGreaterThanOrEqual(selected(before).rankingTotal - 0.005);
        expect(selected(after).totalPrice - selected(after).deliveryCost).toBeGreaterThanOrEqual(
          selected(before).totalPrice - selected(before).deliveryCost - 0.011,
        );
        for (const variant of before.briefPrice.predictionRequestsComputed) {
          const same = after.briefPrice.predictionRequestsComputed.find(
            (v) => v.variantKey === variant.variantKey,
          );
          if (!same) continue;
          expect(same.productCost, variant.variantKey).toBeGreaterThanOrEqual(variant.productCost);
          expect(same.toolingCost, variant.variantKey).toBeGreaterThanOrEqual(variant.toolingCost);
        }
      }),
      RUNS,
    );
  });

  it('never puts more ups on a sheet than the usable area allows', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const variant of prediction.briefPrice.predictionRequestsComputed) {
          const { usable, blank } = variant.imposition;
          const bound = Math.floor((usable.width * usable.height) / blank.areaMm2 + 1e-9);
          expect(variant.layoutCount).toBeGreaterThanOrEqual(1);
          expect(variant.layoutCount).toBeLessThanOrEqual(bound);
          expect(variant.imposition.placements).toHaveLength(variant.layoutCount);
          for (const p of variant.imposition.placements) {
            expect(p.x).toBeGreaterThanOrEqual(usable.x - 0.01);
            expect(p.y).toBeGreaterThanOrEqual(usable.y - 0.01);
            expect(p.x + p.width).toBeLessThanOrEqual(usable.x + usable.width + 0.01);
            expect(p.y + p.height).toBeLessThanOrEqual(usable.y + usable.height + 0.01);
          }
        }
      }),
      RUNS,
    );
  });

  it('makes every total the sum of its rounded parts', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        const price = prediction.briefPrice;
        for (const variant of price.predictionRequestsComputed) {
          expectBreakdownAddsUp(variant.costBreakdown);
          expectSummaryAddsUp(variant.costSummary);
          expect(variant.totalPrice).toBe(variant.costBreakdown.totalPrice);
          expect(cents(variant.totalPrixMachinePredis)).toBe(sumCents(variant.operations.map((o) => o.cost)));
        }
        expectBreakdownAddsUp(price.costBreakdown);
        expectSummaryAddsUp(price.costSummary);
        const chosen = price.predictionRequestsComputed.filter((v) => v.selected);
        expect(chosen).toHaveLength(brief.briefElements.length);
        expect(cents(price.totalPrice)).toBe(sumCents(chosen.map((v) => v.totalPrice)));
        expect(cents(price.totalPrice)).toBe(
          cents(price.productPrice) + cents(price.toolingCost) + cents(price.deliveryCost),
        );
        expect(cents(price.deliveryCost)).toBe(cents(prediction.briefComputed.delivery.cost));
        expect(cents(price.totalPrice)).toBe(
          sumCents(prediction.briefElementPrices.map((e) => e.totalPrice)),
        );
      }),
      RUNS,
    );
  });

  it('gives the same output for the same input', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const first = priceBrief(brief, catalogue);
        const second = priceBrief(structuredClone(brief), defaultCatalogue());
        expect(second).toEqual(first);
      }),
      { numRuns: 25 },
    );
  });

  it('never has a negative operation time, quantity or cost', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const variant of prediction.briefPrice.predictionRequestsComputed) {
          expect(variant.productionTime).toBeGreaterThan(0);
          for (const o of variant.operations) {
            expect(o.setupTime).toBeGreaterThanOrEqual(0);
            expect(o.rollingTime).toBeGreaterThanOrEqual(0);
            expect(o.sheetQuantity).toBeGreaterThanOrEqual(0);
            expect(o.cost).toBeGreaterThanOrEqual(0);
          }
          const lines = Object.values(variant.costBreakdown).flatMap((v) =>
            typeof v === 'object' && v && 'lines' in v ? v.lines : [],
          );
          for (const l of lines) expect(l.amount).toBeGreaterThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('prices the product at cost / (1 - margin)', () => {
    fc.assert(
      fc.property(oneElementBrief, fc.double({ min: 0, max: 0.99, noNaN: true }), (brief, margin) => {
        const prediction = priceBrief({ ...brief, commercialMargin: margin }, catalogue);
        for (const variant of prediction.briefPrice.predictionRequestsComputed) {
          expect(variant.commercialMargin).toBe(margin);
          expect(Math.abs(variant.productPrice - variant.productCost / (1 - margin))).toBeLessThanOrEqual(
            0.005 + 1e-9,
          );
          // The unit price comes from the unrounded price: it differs from productPrice / quantity
          // only by the rounding of each product line (half a cent each) and its own 4 decimals.
          const b = variant.costBreakdown;
          const lines = [b.materials, b.printing, b.finishing, b.converting, b.packing].flatMap(
            (c) => c.lines,
          ).length;
          const tolerance =
            (lines * 0.005) / (1 - margin) / variant.quantity + 0.005 / variant.quantity + 0.00005;
          expect(Math.abs(variant.unitPrice - variant.productPrice / variant.quantity)).toBeLessThanOrEqual(
            tolerance + 1e-9,
          );
        }
      }),
      RUNS,
    );
  });

  it('lists variants cheapest first with exactly one selected per element', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const element of brief.briefElements) {
          const variants = prediction.briefPrice.predictionRequestsComputed.filter(
            (v) => v.position === element.position,
          );
          expect(variants[0]!.selected).toBe(true);
          expect(variants.filter((v) => v.selected)).toHaveLength(1);
          for (let i = 1; i < variants.length; i++) {
            expect(variants[i]!.rankingTotal).toBeGreaterThanOrEqual(variants[i - 1]!.rankingTotal);
            expect(variants[i]!.whyNotSelected).toEqual(expect.any(String));
            expect(variants[i]!.lostBy).toBeCloseTo(variants[i]!.rankingTotal - variants[0]!.rankingTotal, 1);
          }
          expect(variants[0]!.whyNotSelected).toBeNull();
          expect(new Set(variants.map((v) => v.variantKey)).size).toBe(variants.length);
        }
      }),
      RUNS,
    );
  });

  it('selects the cheapest total of every route costed', () => {
    fc.assert(
      fc.property(anyBrief, fc.constantFrom(1, 1, 3), (brief, repeats) => {
        const cat = defaultCatalogue();
        cat.settings.routeSelection = { ...cat.settings.routeSelection, toolingRepeats: repeats };
        const { computation } = computeBrief(createSession(cat), brief);
        const prediction = priceBrief(brief, cat);
        computation!.elements.forEach((element) => {
          const chosen = element.variants[0]!;
          for (const route of element.routes)
            expect(chosen.rankingTotal).toBeLessThanOrEqual(route.rankingTotal + 1e-9);
          const out = selected(prediction, element.element.position);
          expect(out.variantKey).toBe(chosen.plan.key);
          expect(out.toolingRepeats).toBe(repeats);
          const exact = chosen.rankingTotal;
          const product = out.productPrice;
          expect(Math.abs(product + out.toolingCost / repeats - exact)).toBeLessThan(
            0.02 + out.costBreakdown.materials.lines.length * 0.01 + 0.1,
          );
        });
      }),
      RUNS,
    );
  });

  it('never lowers the total when a colour or a decoration variant is added', () => {
    fc.assert(
      fc.property(
        oneElementBrief,
        fc.boolean(),
        fc.integer({ min: 100, max: 20_000 }),
        (brief, colour, quantity) => {
          const element = brief.briefElements[0]!;
          const before = priceBrief(brief, catalogue);
          let changed: BriefInput;
          if (colour) {
            fc.pre(element.wantDecoration === true && (element.rectoColorCount ?? 0) < 4);
            changed = withElement(brief, (e) => ({ ...e, rectoColorCount: (e.rectoColorCount ?? 0) + 1 }));
          } else {
            const used = new Set(element.decorationsCount.map((d) => d.decorationIndex));
            const free = [...Array(12).keys()].find((i) => !used.has(i));
            fc.pre(free !== undefined);
            changed = withElement(brief, (e) => ({
              ...e,
              decorationsCount: [...e.decorationsCount, { decorationIndex: free!, quantity }],
            }));
          }
          let after: BriefPrediction;
          try {
            after = priceBrief(changed, catalogue);
          } catch {
            fc.pre(false); // more colours than any press of the route prints
            return;
          }
          expect(selected(after).rankingTotal).toBeGreaterThanOrEqual(selected(before).rankingTotal - 0.005);
        },
      ),
      RUNS,
    );
  });

  it('guillotines whole lifts, every cut of the layout on every lift', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const variant of prediction.briefPrice.predictionRequestsComputed) {
          for (const o of variant.operations.filter((x) => x.operation.code === 'GUILLOTINE_CUTTING')) {
            expect(Number.isInteger(o.lifts)).toBe(true);
            // Separate runs are cut pile by pile; a gang run (issue 18) is one pile.
            const piles = variant.gang ? 1 : variant.decorations.length;
            expect(o.lifts).toBeGreaterThanOrEqual(piles);
            expect(o.cutsPerLift).toBe(variant.imposition.cutsPerSheet);
            expect(o.cuts).toBe(o.lifts! * o.cutsPerLift!);
            const caliper = prediction.briefComputed.briefElements.find(
              (e) => e.position === variant.position,
            )!.material.caliperMm;
            const perLift = Math.floor(80 / caliper + 1e-9); // GUILLOTINE-115 lifts 80 mm
            // Enough lifts for the pile, and not one more than each variant's pile needs.
            expect(o.lifts! * perLift).toBeGreaterThanOrEqual(o.sheetQuantity);
            expect(o.lifts!).toBeLessThanOrEqual(Math.ceil(o.sheetQuantity / perLift) + piles);
          }
        }
      }),
      RUNS,
    );
  });

  it('keeps one grain orientation: ups never exceed the single-grain bound when mixed grain is off', () => {
    const gridFit = (length: number, size: number, gutter: number) =>
      size > length ? 0 : Math.floor((length + gutter) / (size + gutter) + 1e-9);
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const variant of prediction.briefPrice.predictionRequestsComputed) {
          const { imposition } = variant;
          if (imposition.grain.mixed) continue;
          const { usable, blank, margins } = imposition;
          const g = margins.gutterMm;
          const upright = gridFit(usable.width, blank.width, g) * gridFit(usable.height, blank.height, g);
          const turned = gridFit(usable.width, blank.height, g) * gridFit(usable.height, blank.width, g);
          const orientation = imposition.grain.orientation;
          const bound =
            orientation === 'UPRIGHT'
              ? upright
              : orientation === 'ROTATED'
                ? turned
                : Math.max(upright, turned);
          // A nested layout (rows head to tail, turned 180 degrees: the grain axis is kept) may beat
          // the grid bound; the grid it was compared with may not. Issue 18: nesting of blanks.
          if (imposition.layout === 'NESTED') {
            expect(imposition.gridUps).toBeLessThanOrEqual(bound);
            expect(variant.layoutCount).toBeGreaterThan(imposition.gridUps);
          } else {
            expect(variant.layoutCount).toBeLessThanOrEqual(bound);
          }
          const turnedCount = imposition.placements.filter((p) => p.rotated).length;
          expect([0, imposition.placements.length]).toContain(turnedCount);
          if (orientation === 'UPRIGHT') expect(turnedCount).toBe(0);
          if (orientation === 'ROTATED') expect(turnedCount).toBe(imposition.placements.length);
        }
      }),
      RUNS,
    );
  });

  it('lays tube cartons with the grain around the tube on every sheet', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const variant of prediction.briefPrice.predictionRequestsComputed) {
          const element = brief.briefElements.find((e) => e.position === variant.position)!;
          if (!['STE', 'RTE', 'CLB', 'SLEEVE'].includes(element.productId)) continue;
          const grain = variant.imposition.grain;
          expect(grain.required).toBe('BLANK_WIDTH');
          expect(grain.mixed).toBe(false);
          // Long-grain sheets take the blank upright (width along the long edge), short-grain turned.
          expect(grain.orientation).toBe(grain.sheetGrain === 'LONG' ? 'UPRIGHT' : 'ROTATED');
        }
      }),
      RUNS,
    );
  });
});
