/** Value analysis: every proposal is priced by the engine on the changed brief. */
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { analyseValue, type BriefInput, type InputChange, priceBrief } from '../../src/pricing/index.ts';

const catalogue = defaultCatalogue();

const brief: BriefInput = {
  deliveryZoneId: 'FR-LOCAL',
  briefElements: [
    {
      position: 0,
      productId: 'STE',
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 120,
      materialReferenceId: 'GC1-350',
      decorationsCount: [
        { decorationIndex: 0, quantity: 10000 },
        { decorationIndex: 3, quantity: 4000 },
      ],
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 4,
      versoColorCount: 0,
      wantLaminationRecto: true,
      wantStampingRecto: true,
      hotStampings: [{ color: 'gold', coverage: 0.5, width: 40, height: 20 }],
    },
    {
      position: 1,
      productId: 'FLAT',
      lengthDimension: 210,
      widthDimension: 99,
      heightDimension: 0,
      materialReferenceId: 'ART-170',
      decorationsCount: [{ decorationIndex: 0, quantity: 3000 }],
      wantDecoration: true,
      sidePrinted: 'RECTO_VERSO',
      rectoColorCount: 4,
      versoColorCount: 4,
    },
  ],
};

/** Applies proposal changes (JSON pointers into the brief) to a copy of the brief. */
function applyChanges(input: BriefInput, changes: InputChange[]): BriefInput {
  const copy = structuredClone(input);
  for (const change of changes) {
    if (change.pointer.split('/').length === 2) {
      // A brief-level field (packingType).
      (copy as unknown as Record<string, unknown>)[change.field] = structuredClone(change.to);
      continue;
    }
    const [, , index, field] = change.pointer.split('/');
    const element = copy.briefElements[Number(index)] as unknown as Record<string, unknown>;
    if (change.to === null) delete element[field!];
    else element[field!] = structuredClone(change.to);
  }
  return copy;
}

const analysis = analyseValue(brief, catalogue);
const prediction = priceBrief(brief, catalogue);

describe('analyseValue', () => {
  it('reports the current prices of the brief', () => {
    expect(analysis.totalPrice).toBe(prediction.briefPrice.totalPrice);
    analysis.elements.forEach((element, i) => {
      expect(element.unitPrice).toBe(prediction.briefElementPrices[i]!.unitPrice);
      expect(element.totalPrice).toBe(prediction.briefElementPrices[i]!.totalPrice);
      const shares = element.costShares.reduce((s, g) => s + Math.round(g.amount * 100), 0);
      expect(shares).toBe(Math.round(element.totalPrice * 100));
    });
  });

  it('always answers the seven optimisations in order', () => {
    for (const element of analysis.elements) {
      expect(element.optimisations.map((o) => o.type)).toEqual([
        'INCREASE_QUANTITY',
        'CHANGE_MATERIAL',
        'SIMPLIFY_FINISHING',
        'ADJUST_DIMENSIONS',
        'BUNDLE_PACKING',
        'CHEAPER_TOTAL_ROUTE',
        'GANG_RUN',
      ]);
    }
  });

  it('prices every proposal and alternative exactly as priceBrief prices the changed brief', () => {
    let checked = 0;
    for (const element of analysis.elements) {
      for (const proposal of element.optimisations) {
        const priced = proposal.applies ? [proposal, ...proposal.alternatives] : proposal.alternatives;
        for (const change of priced) {
          const changed = priceBrief(applyChanges(brief, change.changes!), catalogue);
          const price = changed.briefElementPrices.find((e) => e.position === element.position)!;
          expect(change.unitPrice, change.description).toBe(price.unitPrice);
          expect(change.totalPrice, change.description).toBe(price.totalPrice);
          expect(change.briefTotalPrice, change.description).toBe(changed.briefPrice.totalPrice);
          // An already-applied lever (GANG_RUN selected by the engine) changes nothing: its saving
          // is against the separate runs the engine did not choose (issue 18).
          if ('alreadyApplied' in change && change.alreadyApplied) {
            expect(change.changes).toEqual([]);
            expect(price.totalPrice).toBe(element.totalPrice);
          } else {
            expect(change.totalSaving).toBeCloseTo(element.totalPrice - price.totalPrice, 2);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('finds the next price break at least 10 % cheaper per unit', () => {
    const carton = analysis.elements[0]!;
    const proposal = carton.optimisations[0]!;
    expect(proposal.applies).toBe(true);
    expect(carton.nextPriceBreak).not.toBeNull();
    expect(carton.nextPriceBreak!.quantity).toBeGreaterThan(carton.quantity);
    // The break is on the all-in unit price (product price + tooling), what routes are ranked by.
    const allIn = (b: BriefInput) => {
      const v = priceBrief(b, catalogue).briefPrice.predictionRequestsComputed.find(
        (x) => x.position === 0 && x.selected,
      )!;
      return v.rankingTotal / v.quantity;
    };
    const changed = structuredClone(brief);
    changed.briefElements[0]!.decorationsCount = carton.nextPriceBreak!.decorationsCount;
    expect(allIn(changed)).toBeLessThanOrEqual(allIn(brief) * 0.9 + 0.0001);
    expect(carton.nextPriceBreak!.quantity).toBeLessThanOrEqual(2 * carton.quantity + 100);
    expect(carton.optimisationQuantity).toBe(carton.nextPriceBreak!.quantity);
    // variants grow in proportion, rounded up to whole sheets
    const [a, b] = carton.optimiseProductQuantityPerDecoration;
    expect(a!.decorationIndex).toBe(0);
    expect(b!.decorationIndex).toBe(3);
    expect(a!.quantity / b!.quantity).toBeCloseTo(10000 / 4000, 1);
  });

  it('draws a unit-price curve that never rises', () => {
    for (const element of analysis.elements) {
      const curve = element.quantityCurve;
      expect(curve).toHaveLength(10);
      for (let i = 1; i < curve.length; i++) {
        expect(curve[i]!.quantity).toBeGreaterThan(curve[i - 1]!.quantity);
        expect(curve[i]!.unitPrice).toBeLessThanOrEqual(curve[i - 1]!.unitPrice);
      }
      expect(curve.find((p) => p.quantity === element.quantity)!.unitPrice).toBe(element.unitPrice);
    }
  });

  it('proposes a cheaper comparable board', () => {
    const proposal = analysis.elements[0]!.optimisations[1]!;
    expect(proposal.applies).toBe(true);
    expect(proposal.changes[0]).toMatchObject({ field: 'materialReferenceId', from: 'GC1-350' });
    expect(proposal.totalSaving).toBeGreaterThan(0);
    for (const alternative of proposal.alternatives)
      expect(alternative.totalSaving).toBeLessThanOrEqual(proposal.totalSaving!);
  });

  it('proposes the finish whose removal saves most', () => {
    const proposal = analysis.elements[0]!.optimisations[2]!;
    expect(proposal.applies).toBe(true);
    expect(proposal.description).toBe('drop the hot-foil stamping');
    expect(proposal.alternatives.map((a) => a.description).sort()).toEqual([
      'drop the lamination',
      'replace the lamination with a varnish',
    ]);
    expect(analysis.elements[1]!.optimisations[2]).toMatchObject({
      applies: false,
      description: 'no finish to simplify',
      changes: [],
    });
  });

  it('proposes the smallest dimension change that adds ups', () => {
    const one: BriefInput = { briefElements: [{ ...brief.briefElements[0]!, printingProcess: 'offset' }] };
    const dims = analyseValue(
      { briefElements: [{ ...one.briefElements[0]!, wantStampingRecto: false, hotStampings: [] }] },
      catalogue,
    ).elements[0]!.optimisations[3]!;
    if (dims.applies) {
      expect(dims.changes).toHaveLength(1);
      const change = dims.changes[0]!;
      expect((change.from as number) - (change.to as number)).toBeGreaterThan(0);
      expect((change.from as number) - (change.to as number)).toBeLessThanOrEqual(5);
      expect(dims.description).toMatch(/ups instead of/);
    }
  });

  it('agrees with the optimisations priceBrief lists', () => {
    analysis.elements.forEach((element) => {
      const selected = prediction.briefPrice.predictionRequestsComputed.find(
        (v) => v.position === element.position && v.selected,
      )!;
      const applying = element.optimisations.filter((o) => o.applies).map((o) => o.type);
      expect(selected.optimisations).toEqual(applying);
      expect(selected.optimisationQuantity).toBe(element.optimisationQuantity);
      expect(selected.optimiseProductQuantityPerDecoration).toEqual(
        element.optimiseProductQuantityPerDecoration,
      );
    });
  });

  it('names the single biggest saving', () => {
    expect(analysis.bestSaving).toEqual({
      position: 0,
      type: 'SIMPLIFY_FINISHING',
      totalSaving: analysis.elements[0]!.optimisations[2]!.totalSaving,
    });
  });

  it('gives the same analysis for the same input', () => {
    expect(analyseValue(structuredClone(brief), defaultCatalogue())).toEqual(analysis);
  });

  it('refuses an invalid brief like priceBrief', () => {
    expect(() => analyseValue({ briefElements: [] }, catalogue)).toThrow(/at least one element/);
  });

  it('compares boards only within the same family and grammage band, and says so', () => {
    const proposal = analysis.elements[0]!.optimisations[1]!;
    const boards = [proposal, ...proposal.alternatives].map((p) => p.changes![0]!.to);
    expect(boards).toContain('GC1-340');
    for (const board of boards) expect(String(board)).toMatch(/^GC1-3[4-8]/);
    expect(proposal.description).toMatch(/same family, 340 g\/m2 within \+-10 % of 350 g\/m2/);
  });

  it('suggests a quantity only up to twice the order', () => {
    for (const element of analysis.elements) {
      if (element.nextPriceBreak)
        expect(element.nextPriceBreak.quantity).toBeLessThanOrEqual(2 * element.quantity + 500);
    }
  });

  it('never proposes a non-standard size for a flat item', () => {
    // 210 x 99 (DL) is standard: no reduction of up to 5 mm lands on another standard size.
    const dims = analysis.elements[1]!.optimisations[3]!;
    expect(dims.applies).toBe(false);
    expect(dims.alternatives).toEqual([]);
  });

  it('proposes strapped bundles and the cheaper total route', () => {
    const bundle = analysis.elements[0]!.optimisations[4]!;
    expect(bundle.type).toBe('BUNDLE_PACKING');
    const priced = bundle.applies ? bundle : bundle.alternatives[0]!;
    expect(priced.changes).toEqual([
      { pointer: '/packingType', field: 'packingType', from: 'SHIPPING_CASE', to: 'BUNDLE' },
    ]);
    const forced: BriefInput = {
      briefElements: [
        {
          ...brief.briefElements[0]!,
          printingProcess: 'digital',
          decorationsCount: [{ decorationIndex: 0, quantity: 30000 }],
        },
      ],
    };
    const route = analyseValue(forced, catalogue).elements[0]!.optimisations[5]!;
    expect(route).toMatchObject({ type: 'CHEAPER_TOTAL_ROUTE', applies: true });
    expect(route.changes).toEqual([
      {
        pointer: '/briefElements/0/printingProcess',
        field: 'printingProcess',
        from: 'digital',
        to: 'offset',
      },
    ]);
    expect(route.totalSaving).toBeGreaterThan(0);
    const free = analyseValue(
      { briefElements: [{ ...forced.briefElements[0]!, printingProcess: undefined }] },
      catalogue,
    );
    expect(free.elements[0]!.optimisations[5]!.applies).toBe(false);
    expect(free.elements[0]!.optimisations[5]!.description).toMatch(/already the cheapest total/);
  });
});
