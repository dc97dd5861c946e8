/**
 * Corrugated sheets: flute direction (the flutes run up the walls of a 0201, constraining how the
 * blank lies on the sheet and which sheet side goes across the corrugator web) and the
 * corrugator's usual web widths (the trim each sheet carries).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../src/pricing/catalogue.ts';
import { corrugatorYield, fluteRuleOf } from '../../src/pricing/corrugated.ts';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefElementInput, priceBrief } from '../../src/pricing/index.ts';

const catalogue = defaultCatalogue();
const RUNS = { numRuns: Number(process.env.PRICING_RUNS ?? 40) };
const limits = { min: { width: 300, height: 200 }, max: { width: 2500, height: 1500 }, trimMm: 30 };

const rsc = (l: number, w: number, h: number, quantity = 10_000): BriefElementInput => ({
  position: 0,
  productId: '0201',
  lengthDimension: l,
  widthDimension: w,
  heightDimension: h,
  materialReferenceId: 'CORR-B-KK',
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 1,
  versoColorCount: 0,
  decorationsCount: [{ decorationIndex: 0, quantity }],
});

describe('flute direction', () => {
  it('runs the flutes up the walls of a 0201 by default; other styles are free unless the product says', () => {
    const product = (style: Product['style'], extra: Partial<Product> = {}) =>
      ({ ...catalogue.products.find((p) => p.style === style)!, ...extra }) as Product;
    expect(fluteRuleOf(product('FEFCO_0201'))).toBe('BLANK_HEIGHT');
    expect(fluteRuleOf(product('FEFCO_0427'))).toBe('ANY');
    expect(fluteRuleOf(product('FEFCO_0427', { requiredFlute: 'BLANK_WIDTH' }))).toBe('BLANK_WIDTH');
  });

  it('lays an RSC blank with its height along the sheet flutes and puts that side across the web', () => {
    const prediction = priceBrief({ briefElements: [rsc(400, 300, 300)] }, catalogue);
    const v = prediction.briefPrice.predictionRequestsComputed[0]!;
    const { imposition } = v;
    expect(imposition.grain.required).toBe('BLANK_HEIGHT');
    expect(imposition.grain.mixed).toBe(false);
    expect(imposition.sheet.grain).toBeDefined();
    // Blank 1,447 x 606 mm on a 1,447 x 606 sheet (the flexo folder-gluer takes it edge to edge):
    // the flutes along the 606 mm height, the sheet's short side, which goes across the web.
    expect(imposition.sheet).toEqual({ width: 1447, height: 606, grain: 'SHORT' });
    expect(imposition.placements[0]!.rotated).toBe(false);
    expect(v.variantKey).toContain(':FLUTE-SHORT');
    const board = v.costBreakdown.materials.lines.find((l) => l.code === 'BOARD')!;
    // 4 x 606 + 30 mm trim = 2,454 on the 2,500 mm web (3.1 %); on 2,000 mm, 3 out would waste 10 %.
    expect(board.label).toMatch(/4 out across a 2500 mm corrugator web, deckle 606 mm, 3.1 % trim/);
  });

  it('property: every corrugated variant keeps the flute rule (blank side along the flutes)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 150, max: 600 }),
        fc.integer({ min: 100, max: 400 }),
        fc.integer({ min: 100, max: 600 }),
        (l, w, h) => {
          const prediction = priceBrief({ briefElements: [rsc(l, Math.min(w, l), h, 2000)] }, catalogue);
          for (const v of prediction.briefPrice.predictionRequestsComputed) {
            const { imposition } = v;
            expect(imposition.sheet.grain).toBeDefined();
            const expected = imposition.sheet.grain === 'SHORT' ? 'UPRIGHT' : 'ROTATED';
            expect(imposition.grain.orientation).toBe(expected);
            for (const p of imposition.placements) expect(p.rotated).toBe(expected === 'ROTATED');
          }
        },
      ),
      RUNS,
    );
  });
});

describe('corrugator web widths', () => {
  it('cuts the sheet across the usual web that wastes least', () => {
    const sheet = { width: 1468, height: 626, grain: 'SHORT' as const };
    const y = corrugatorYield(sheet, { ...limits, webWidthsMm: [1400, 1600, 1800, 2000, 2200, 2500] });
    // 1,400: 2 out (11.8 % waste), 2,000: 3 out (2,000 / 1,878 = 6.5 %), 2,500: 3 out (33 %).
    expect(y).toMatchObject({ webWidthMm: 2000, outs: 3, deckleMm: 626 });
    expect(y.factor).toBeCloseTo(2000 / 1878, 9);
  });

  it('takes the long side across the web when the flutes run along it', () => {
    const y = corrugatorYield(
      { width: 900, height: 700, grain: 'LONG' },
      { ...limits, webWidthsMm: [1400, 1900] },
    );
    expect(y).toMatchObject({ deckleMm: 900, outs: 2, webWidthMm: 1900 });
  });

  it('without usual widths, shares the edge trim of the widest web (as before)', () => {
    const y = corrugatorYield({ width: 1468, height: 626 }, limits);
    expect(y.outs).toBe(3);
    expect(y.factor).toBeCloseTo((3 * 626 + 30) / (3 * 626), 9);
  });
});
