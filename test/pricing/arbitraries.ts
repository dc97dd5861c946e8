/** fast-check generators of valid briefs for the default catalogue. */
import fc from 'fast-check';
import type { BriefElementInput, BriefInput, DecorationCount } from '../../src/pricing/index.ts';

const decorations: fc.Arbitrary<DecorationCount[]> = fc
  .uniqueArray(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 4 })
  .chain((indexes) =>
    fc
      .tuple(...indexes.map(() => fc.integer({ min: 100, max: 40_000 })))
      .map((quantities) =>
        indexes.map((decorationIndex, i) => ({ decorationIndex, quantity: quantities[i]! })),
      ),
  );

/** Sides and colour counts that agree with each other. */
const printing = fc.oneof(
  fc.constant({ wantDecoration: false }),
  fc.record({
    wantDecoration: fc.constant(true),
    sidePrinted: fc.constant('RECTO' as const),
    rectoColorCount: fc.integer({ min: 1, max: 6 }),
    versoColorCount: fc.constant(0),
  }),
  fc.record({
    wantDecoration: fc.constant(true),
    sidePrinted: fc.constant('RECTO_VERSO' as const),
    rectoColorCount: fc.integer({ min: 1, max: 8 }),
    versoColorCount: fc.integer({ min: 1, max: 2 }),
  }),
);

const finishes = fc.record({
  wantLaminationRecto: fc.boolean(),
  wantVarnishRecto: fc.boolean(),
  stamping: fc.boolean(),
  embossing: fc.boolean(),
});

function withFinishes(
  element: BriefElementInput,
  f: { wantLaminationRecto: boolean; wantVarnishRecto: boolean; stamping: boolean; embossing: boolean },
): BriefElementInput {
  return {
    ...element,
    wantLaminationRecto: f.wantLaminationRecto,
    wantVarnishRecto: f.wantVarnishRecto,
    ...(f.stamping
      ? { wantStampingRecto: true, hotStampings: [{ color: 'gold', coverage: 0.5, width: 30, height: 15 }] }
      : {}),
    ...(f.embossing
      ? {
          wantEmbossingDebossingRecto: true,
          embossings: [{ type: 'EMBOSSING' as const, width: 25, height: 10, depth: 0.5 }],
        }
      : {}),
  };
}

const cartonElement: fc.Arbitrary<BriefElementInput> = fc
  .record({
    productId: fc.constantFrom('STE', 'RTE', 'CLB', 'SLEEVE', 'TRAY'),
    length: fc.integer({ min: 50, max: 200 }),
    width: fc.integer({ min: 40, max: 100 }),
    height: fc.integer({ min: 40, max: 220 }),
    materialReferenceId: fc.constantFrom('GC1-300', 'GC1-350', 'GC1-400', 'GC2-350', 'SBS-300'),
    decorationsCount: decorations,
    printing,
    finishes,
    window: fc.boolean(),
  })
  .map((r) => {
    const height =
      r.productId === 'TRAY'
        ? Math.min(r.height, 80)
        : r.productId === 'SLEEVE'
          ? Math.max(r.height, 60)
          : r.height;
    const base: BriefElementInput = {
      position: 0,
      productId: r.productId,
      lengthDimension: r.length,
      widthDimension: r.width,
      heightDimension: height,
      materialReferenceId: r.materialReferenceId,
      decorationsCount: r.decorationsCount,
      ...r.printing,
    };
    const withWindow =
      r.window && r.productId !== 'TRAY'
        ? { ...base, wantWindow: true, windowWidth: 30, windowHeight: 20 }
        : base;
    return withFinishes(withWindow, r.finishes);
  });

const corrugatedElement: fc.Arbitrary<BriefElementInput> = fc
  .record({
    productId: fc.constantFrom('0201', '0427'),
    length: fc.integer({ min: 150, max: 400 }),
    width: fc.integer({ min: 100, max: 300 }),
    height: fc.integer({ min: 100, max: 400 }),
    materialReferenceId: fc.constantFrom('CORR-E-WK', 'CORR-B-KK', 'CORR-C-KK', 'CORR-EB-KK'),
    decorationsCount: decorations,
    colours: fc.integer({ min: 0, max: 3 }),
  })
  .map((r) => ({
    position: 0,
    productId: r.productId,
    lengthDimension: r.length,
    widthDimension: r.width,
    heightDimension: r.productId === '0427' ? Math.min(r.height, 120) : r.height,
    materialReferenceId: r.materialReferenceId,
    decorationsCount: r.decorationsCount,
    ...(r.colours > 0
      ? {
          wantDecoration: true,
          sidePrinted: 'RECTO' as const,
          rectoColorCount: r.colours,
          versoColorCount: 0,
        }
      : { wantDecoration: false }),
  }));

const flatElement: fc.Arbitrary<BriefElementInput> = fc
  .record({
    length: fc.integer({ min: 40, max: 400 }),
    width: fc.integer({ min: 30, max: 300 }),
    materialReferenceId: fc.constantFrom('ART-170', 'ART-300', 'GC1-300'),
    decorationsCount: decorations,
    printing,
    lamination: fc.boolean(),
  })
  .map((r) => ({
    position: 0,
    productId: 'FLAT',
    lengthDimension: r.length,
    widthDimension: r.width,
    heightDimension: 0,
    materialReferenceId: r.materialReferenceId,
    decorationsCount: r.decorationsCount,
    ...r.printing,
    wantLaminationRecto: r.lamination,
  }));

export const anyElement: fc.Arbitrary<BriefElementInput> = fc.oneof(
  { arbitrary: cartonElement, weight: 3 },
  { arbitrary: corrugatedElement, weight: 1 },
  { arbitrary: flatElement, weight: 1 },
);

export const anyBrief: fc.Arbitrary<BriefInput> = fc
  .record({
    elements: fc.array(anyElement, { minLength: 1, maxLength: 3 }),
    packingType: fc.constantFrom('SHIPPING_CASE' as const, 'BUNDLE' as const),
    palletType: fc.constantFrom('EURO' as const, 'STANDARD' as const, 'CUSTOM' as const),
    deliveryZoneId: fc.option(fc.constantFrom('FR-LOCAL', 'DE-AT', 'UK-IE'), { nil: undefined }),
    commercialMargin: fc.option(fc.double({ min: 0, max: 0.6, noNaN: true }), { nil: undefined }),
  })
  .map((r) => ({
    packingType: r.packingType,
    palletType: r.palletType,
    ...(r.deliveryZoneId ? { deliveryZoneId: r.deliveryZoneId } : {}),
    ...(r.commercialMargin !== undefined ? { commercialMargin: r.commercialMargin } : {}),
    briefElements: r.elements.map((e, position) => ({ ...e, position })),
  }));

/** A one-element brief. */
export const oneElementBrief: fc.Arbitrary<BriefInput> = anyElement.map((element) => ({
  deliveryZoneId: 'FR-NATIONAL',
  briefElements: [element],
}));
