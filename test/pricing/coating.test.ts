/**
 * Issue 30: varnish as inline aqueous coating on the press (a step of the printing machine with
 * its own cost and no pass of its own) beside the offline UV-coater pass; the cheaper total wins.
 */
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefInput, type BriefPrediction, priceBrief } from '../../src/pricing/index.ts';

const catalogue = defaultCatalogue();

const carton = (quantity: number, extra: Partial<BriefInput['briefElements'][number]> = {}): BriefInput => ({
  briefElements: [
    {
      position: 0,
      productId: 'STE',
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 180,
      materialReferenceId: 'GC1-350',
      decorationsCount: [{ decorationIndex: 0, quantity }],
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 4,
      versoColorCount: 0,
      wantVarnishRecto: true,
      ...extra,
    },
  ],
});

const variants = (p: BriefPrediction) => p.briefPrice.predictionRequestsComputed;
const selected = (p: BriefPrediction) => variants(p).find((v) => v.selected)!;

describe('inline aqueous coating (issue 30)', () => {
  it('coats in the printing pass: own set-up and coating, no running time, no plate, no UV pass', () => {
    const v = selected(priceBrief(carton(20_000), catalogue));
    expect(v.variantKey).toMatch(/:AQUEOUS$/);
    const codes = v.operations.map((o) => o.operation.code);
    expect(codes).not.toContain('VARNISH');
    const print = v.operations.find((o) => o.operation.code === 'PRINT_OFFSET')!;
    const coat = v.operations.find((o) => o.operation.code === 'AQUEOUS_COATING')!;
    expect(coat.position).toBe(print.position + 1);
    expect(coat.machine.code).toBe(print.machine.code);
    expect(coat.inline).toBe(true);
    expect(coat.rollingTime).toBe(0);
    expect(coat.setupTime).toBeGreaterThan(0);
    const finishing = v.costBreakdown.finishing.lines.map((l) => l.code);
    expect(finishing).toEqual(expect.arrayContaining(['MACHINE_AQUEOUS_COATING', 'AQUEOUS_COATING']));
    expect(finishing).not.toContain('VARNISH_PLATE');
    expect(finishing).not.toContain('VARNISH');
  });

  it('is cheaper than the UV pass on a long run, and the UV route is what a press without a coating unit gives', () => {
    const withCoater = selected(priceBrief(carton(20_000), catalogue));
    const noUnit = structuredClone(catalogue);
    for (const m of noUnit.machines)
      m.operations = m.operations.filter((r) => r.operationId !== 'AQUEOUS_COATING');
    const uv = selected(priceBrief(carton(20_000), noUnit));
    expect(uv.variantKey).not.toMatch(/AQUEOUS/);
    expect(uv.operations.map((o) => o.operation.code)).toContain('VARNISH');
    expect(withCoater.rankingTotal).toBeLessThan(uv.rankingTotal);
    // Everything but the varnish is the same work: the saving is the UV pass and its varnish.
    expect(uv.rankingTotal - withCoater.rankingTotal).toBeGreaterThan(0.1 * uv.costBreakdown.finishing.total);
  });

  it('is not offered with lamination (the varnish goes on the film) nor on digital routes', () => {
    const laminated = priceBrief(carton(20_000, { wantLaminationRecto: true }), catalogue);
    expect(variants(laminated).some((v) => v.variantKey.includes('AQUEOUS'))).toBe(false);
    const digital = priceBrief(carton(500, { printingProcess: 'digital' }), catalogue);
    expect(variants(digital).some((v) => v.variantKey.includes('AQUEOUS'))).toBe(false);
  });
});
