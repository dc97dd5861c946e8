/** Issue 30, step 5: lead time as a breakdown (src/pricing/lead-time.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefInput, priceBrief } from '../../src/pricing/index.ts';
import { anyBrief } from './arbitraries.ts';

const catalogue = defaultCatalogue();
const RUNS = {
  numRuns: Number(process.env.PRICING_RUNS ?? 40),
  ...(process.env.PRICING_SEED ? { seed: Number(process.env.PRICING_SEED) } : {}),
};

const laminated = (quantity: number, zone?: string): BriefInput => ({
  ...(zone ? { deliveryZoneId: zone } : {}),
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
      wantLaminationRecto: true,
      wantVarnishRecto: true,
    },
  ],
});

describe('lead time (issue 30)', () => {
  it('no longer promises 1-2 working days for 20,000 printed, varnished and laminated cartons', () => {
    const lead = priceBrief(laminated(20_000, 'FR-NATIONAL'), catalogue).briefPrice.leadTime;
    // Board from stock (2) in parallel with the cutting die (3), queue 5, one day per operation
    // (print, laminate, varnish, die-cut, fold-glue), 2 days on the road.
    expect(lead.board).toMatchObject({ source: 'STOCK', days: 2 });
    expect(lead.tooling.days).toBe(3);
    expect(lead.tooling.items.map((i) => i.code).sort()).toEqual(['CUTTING_DIE', 'OFFSET_PLATES']);
    expect(lead.procurementDays).toBe(3);
    expect(lead.queueDays).toBe(5);
    expect(lead.operations.map((o) => [o.code, o.days])).toEqual([
      ['PRINT_OFFSET', 1],
      ['LAMINATION', 1],
      ['VARNISH', 1],
      ['DIE_CUTTING', 1],
      ['FOLDING_GLUING', 1],
      ['PACKING', 0],
    ]);
    expect(lead.productionDays).toBe(5);
    expect(lead.transport).toEqual({ zone: 'FR-NATIONAL', days: 2 });
    expect(lead.workingDays).toBe(15);
  });

  it('orders the board from the mill beyond the stock limit, and counts no transport ex works', () => {
    const lead = priceBrief(laminated(400_000), catalogue).briefPrice.leadTime;
    expect(lead.board.source).toBe('MILL_ORDER');
    expect(lead.board.kg).toBeGreaterThan(3000);
    expect(lead.board.days).toBe(15);
    expect(lead.procurementDays).toBe(15);
    expect(lead.transport).toEqual({ zone: null, days: 0 });
    // Long runs take several days on a machine.
    expect(lead.operations.some((o) => o.days > 1)).toBe(true);
  });

  it('reads its figures from the catalogue', () => {
    const cat = defaultCatalogue();
    cat.settings.leadTime = { ...cat.settings.leadTime, queueDays: 9, toolingDays: { CUTTING_DIE: 6 } };
    cat.deliveryZones = cat.deliveryZones.map((z) => (z.code === 'DE-AT' ? { ...z, transitDays: 5 } : z));
    const lead = priceBrief(laminated(20_000, 'DE-AT'), cat).briefPrice.leadTime;
    expect(lead.queueDays).toBe(9);
    expect(lead.tooling.days).toBe(6);
    expect(lead.transport.days).toBe(5);
    // A catalogue stored before the figures existed still answers (defaults).
    const old = defaultCatalogue();
    delete old.settings.leadTime;
    expect(priceBrief(laminated(20_000), old).briefPrice.leadTime.workingDays).toBeGreaterThan(5);
  });

  it('adds up: procurement + queue + operations + transport, for every variant', () => {
    fc.assert(
      fc.property(anyBrief, (brief) => {
        const prediction = priceBrief(brief, catalogue);
        for (const v of prediction.briefPrice.predictionRequestsComputed) {
          const l = v.leadTime;
          expect(l.procurementDays).toBe(Math.max(l.board.days, l.tooling.days));
          expect(l.tooling.days).toBe(Math.max(0, ...l.tooling.items.map((i) => i.days)));
          expect(l.productionDays).toBe(
            Math.max(
              1,
              l.operations.reduce((s, o) => s + o.days, 0),
            ),
          );
          expect(l.workingDays).toBe(l.procurementDays + l.queueDays + l.productionDays + l.transport.days);
          expect(l.productionHours).toBeCloseTo(v.productionTime, 1);
          const corrugated = ['0201', '0427'].includes(
            brief.briefElements.find((e) => e.position === v.position)!.productId,
          );
          if (corrugated) expect(l.board.source).toBe('CORRUGATOR');
          expect(l.transport.days > 0).toBe(brief.deliveryZoneId !== undefined);
        }
        const selected = prediction.briefPrice.predictionRequestsComputed.filter((v) => v.selected);
        expect(prediction.briefPrice.leadTime.workingDays).toBe(
          Math.max(...selected.map((v) => v.leadTime.workingDays)),
        );
      }),
      RUNS,
    );
  });
});
