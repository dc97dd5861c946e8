/**
 * Gang runs: decoration variants printed together on one sheet (ups split between them) when it
 * is cheaper in total than separate runs; shown in the route and process, and as the GANG_RUN
 * value-analysis lever with its saving.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { gangSplit } from '../../src/pricing/gang.ts';
import { analyseValue, type BriefInput, type DecorationCount, priceBrief } from '../../src/pricing/index.ts';

const catalogue = defaultCatalogue();
const RUNS = { numRuns: Number(process.env.PRICING_RUNS ?? 60) };

const brief = (decorationsCount: DecorationCount[], printingProcess?: 'offset' | 'digital'): BriefInput => ({
  briefElements: [
    {
      position: 0,
      productId: 'STE',
      lengthDimension: 60,
      widthDimension: 40,
      heightDimension: 150,
      materialReferenceId: 'GC1-350',
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 4,
      versoColorCount: 0,
      ...(printingProcess ? { printingProcess } : {}),
      decorationsCount,
    },
  ],
});

describe('gang split', () => {
  it('gives each variant one up, then each further up to the variant needing the most sheets', () => {
    const run = gangSplit(
      [
        { decorationIndex: 0, quantity: 1000 },
        { decorationIndex: 1, quantity: 1000 },
        { decorationIndex: 2, quantity: 500 },
        { decorationIndex: 3, quantity: 500 },
      ],
      6,
    )!;
    expect(run.shares.map((s) => s.ups)).toEqual([2, 2, 1, 1]);
    expect(run.netSheets).toBe(500);
    expect(run.effectiveUps).toBe(6);
    expect(run.shares.map((s) => s.printedUnits)).toEqual([1000, 1000, 500, 500]);
  });

  it('cannot gang one variant, or more variants than ups', () => {
    expect(gangSplit([{ decorationIndex: 0, quantity: 10 }], 4)).toBeNull();
    const three = [0, 1, 2].map((decorationIndex) => ({ decorationIndex, quantity: 100 }));
    expect(gangSplit(three, 2)).toBeNull();
  });

  it('property: the split uses every up and minimises the largest sheets per variant', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 2, max: 40 }),
        (quantities, ups) => {
          const decorations = quantities.map((quantity, decorationIndex) => ({ decorationIndex, quantity }));
          const run = gangSplit(decorations, ups);
          if (ups < quantities.length) {
            expect(run).toBeNull();
            return;
          }
          expect(run!.shares.reduce((s, x) => s + x.ups, 0)).toBe(ups);
          expect(run!.effectiveUps).toBeLessThanOrEqual(ups + 1e-9);
          // Moving one up from any variant to any other never lowers the largest q / u.
          for (const from of run!.shares) {
            if (from.ups < 2) continue;
            for (const to of run!.shares) {
              if (to === from) continue;
              const moved = run!.shares.map((s) =>
                s === from
                  ? s.quantity / (s.ups - 1)
                  : s === to
                    ? s.quantity / (s.ups + 1)
                    : s.quantity / s.ups,
              );
              expect(Math.max(...moved)).toBeGreaterThanOrEqual(run!.netSheets - 1e-9);
            }
          }
        },
      ),
      RUNS,
    );
  });
});

describe('gang runs in pricing', () => {
  const four = [
    { decorationIndex: 0, quantity: 1000 },
    { decorationIndex: 1, quantity: 1000 },
    { decorationIndex: 2, quantity: 500 },
    { decorationIndex: 3, quantity: 500 },
  ];

  it('gang-runs four short-run artworks when it is cheaper than four runs, and shows it', () => {
    const prediction = priceBrief(brief(four, 'offset'), catalogue);
    const variants = prediction.briefPrice.predictionRequestsComputed;
    const selected = variants[0]!;
    expect(selected.variantKey).toMatch(/:GANG$/);
    expect(selected.gang).not.toBeNull();
    expect(selected.gang!.variants.reduce((s, v) => s + v.ups, 0)).toBe(selected.layoutCount);
    expect(selected.gang!.label).toContain('gang run of decorations 0');
    // One printing run (one make-ready, one set of 4 plates) instead of one per artwork.
    const prints = selected.operations.filter((o) => o.operation.code === 'PRINT_OFFSET');
    expect(prints).toHaveLength(1);
    expect(prints[0]!.decorationIndex).toBeNull();
    const plates = selected.costBreakdown.printing.lines.filter((l) => l.code === 'OFFSET_PLATES');
    expect(plates.reduce((s, l) => s + l.quantity, 0)).toBe(4);
    // The separate runs of the same sheet were costed, shown, and lost in total.
    const separate = variants.find((v) => v.variantKey === selected.variantKey.replace(/:GANG$/, ''))!;
    expect(separate.gang).toBeNull();
    expect(separate.operations.filter((o) => o.operation.code === 'PRINT_OFFSET')).toHaveLength(4);
    expect(separate.totalPrice).toBeGreaterThan(selected.totalPrice);
    expect(separate.whyNotSelected).toContain('gang-run');
  });

  it('reports the saving as the GANG_RUN lever (already applied: no change to make)', () => {
    const input = brief(four, 'offset');
    const prediction = priceBrief(input, catalogue);
    const variants = prediction.briefPrice.predictionRequestsComputed;
    const bestSeparate = variants.find((v) => v.gang === null)!;
    const analysis = analyseValue(input, catalogue);
    const lever = analysis.elements[0]!.optimisations.find((o) => o.type === 'GANG_RUN')!;
    expect(lever).toMatchObject({ applies: true, alreadyApplied: true, changes: [] });
    expect(lever.totalPrice).toBe(prediction.briefPrice.totalPrice);
    expect(lever.totalSaving).toBeCloseTo(bestSeparate.totalPrice - variants[0]!.totalPrice, 2);
    expect(lever.savingPercent).toBeGreaterThan(0);
    // Already in the price: not the brief's best remaining saving.
    expect(analysis.bestSaving?.type).not.toBe('GANG_RUN');
    expect(variants[0]!.optimisations).toContain('GANG_RUN');
  });

  it('keeps separate runs when the overs of a gang cost more (very unequal quantities)', () => {
    const input = brief(
      [
        { decorationIndex: 0, quantity: 200_000 },
        { decorationIndex: 1, quantity: 300 },
      ],
      'offset',
    );
    const prediction = priceBrief(input, catalogue);
    expect(prediction.briefPrice.predictionRequestsComputed[0]!.gang).toBeNull();
    const lever = analyseValue(input, catalogue).elements[0]!.optimisations.find(
      (o) => o.type === 'GANG_RUN',
    )!;
    expect(lever.applies).toBe(false);
    expect(lever.description).toContain('separate runs are');
  });

  it('says why a single artwork cannot be gang-run', () => {
    const input = brief([{ decorationIndex: 0, quantity: 5000 }]);
    const lever = analyseValue(input, catalogue).elements[0]!.optimisations.find(
      (o) => o.type === 'GANG_RUN',
    )!;
    expect(lever).toMatchObject({
      applies: false,
      description: 'one decoration variant: nothing to gang-run',
    });
  });
});
