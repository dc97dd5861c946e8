/** Behaviour of the chain on the default catalogue: variants, decoration variants, tools, routes. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefElementInput, type BriefInput, priceBrief } from '../../src/pricing/index.ts';

const catalogue = defaultCatalogue();

const carton: BriefElementInput = {
  position: 0,
  productId: 'STE',
  lengthDimension: 120,
  widthDimension: 40,
  heightDimension: 180,
  materialReferenceId: 'GC1-350',
  decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
};

const one = (element: Partial<BriefElementInput>, extra: Partial<BriefInput> = {}): BriefInput => ({
  ...extra,
  briefElements: [{ ...carton, ...element }],
});

const variantsOf = (brief: BriefInput) => priceBrief(brief, catalogue).briefPrice.predictionRequestsComputed;

describe('process variants', () => {
  it('prices offset and digital, digital first on a short run and offset first on a long one', () => {
    const short = variantsOf(one({ decorationsCount: [{ decorationIndex: 0, quantity: 300 }] }));
    expect(short.map((v) => v.printingProcess)).toEqual(['digital', 'offset']);
    expect(short.map((v) => v.selected)).toEqual([true, false]);
    expect(short[0]!.plaqueOffsetPredis).toBe(0);
    expect(short[1]!.plaqueOffsetPredis).toBe(4 * 18.5);
    const long = variantsOf(one({ decorationsCount: [{ decorationIndex: 0, quantity: 30000 }] }));
    // Offset first; other offset sheets within the variant margin are listed too, digital last.
    expect(long[0]!.printingProcess).toBe('offset');
    expect(long.at(-1)!.printingProcess).toBe('digital');
    expect(long[0]!.unitPrice).toBeLessThan(long.at(-1)!.unitPrice);
    for (const v of long.slice(1)) expect(v.whyNotSelected).toMatch(/more in total than the selected offset/);
  });

  it('prices only the forced process', () => {
    expect(variantsOf(one({ printingProcess: 'digital' })).map((v) => v.printingProcess)).toEqual([
      'digital',
    ]);
  });

  it('makes each decoration variant its own press run and shares the die-cut and folding', () => {
    // Issue 18: a gang run of the four artworks on one sheet is costed beside the separate runs
    // (and wins here); the best separate-runs variant is always shown, and is what this checks.
    const [variant] = variantsOf(
      one({
        printingProcess: 'offset',
        decorationsCount: [0, 1, 2, 3].map((decorationIndex) => ({
          decorationIndex,
          quantity: 2000 + 500 * decorationIndex,
        })),
      }),
    ).filter((v) => v.gang === null);
    const codes = variant!.operations.map((o) => o.operation.code);
    expect(codes).toEqual([
      'PRINT_OFFSET',
      'PRINT_OFFSET',
      'PRINT_OFFSET',
      'PRINT_OFFSET',
      'DIE_CUTTING',
      'FOLDING_GLUING',
      'PACKING',
    ]);
    expect(variant!.operations.slice(0, 4).map((o) => o.decorationIndex)).toEqual([0, 1, 2, 3]);
    expect(variant!.plaqueOffsetPredis).toBe(4 * 4 * 18.5);
    expect(variant!.decorations.map((d) => d.printedSheets)).toEqual(
      variant!.operations.slice(0, 4).map((o) => o.sheetQuantity),
    );
    // each press run has its own make-ready: 150 + 15 per colour
    for (const o of variant!.operations.slice(0, 4)) expect(o.makeReady).toBe(210);
    expect(variant!.quantity).toBe(2000 + 2500 + 3000 + 3500);
  });

  it('prints recto-verso in one pass per side, and splits a side the press cannot print at once', () => {
    const [variant] = variantsOf(
      one({ printingProcess: 'offset', sidePrinted: 'RECTO_VERSO', rectoColorCount: 8, versoColorCount: 1 }),
    );
    const press = variant!.operations.filter((o) => o.operation.code === 'PRINT_OFFSET');
    expect(press.map((o) => [o.side, o.pass])).toEqual([
      ['RECTO', 1],
      ['RECTO', 2],
      ['VERSO', 1],
    ]);
    expect(variant!.plaqueOffsetPredis).toBe(9 * 18.5);
  });
});

describe('routes', () => {
  it('sends a crash-lock bottom to the crash-lock folder-gluer', () => {
    const [variant] = variantsOf(one({ productId: 'CLB' }));
    expect(variant!.operations.find((o) => o.operation.code === 'FOLDING_GLUING')!.machine.code).toBe(
      'FG-CRASHLOCK-110',
    );
  });

  it('adds finishing operations in order, with their tools', () => {
    const [variant] = variantsOf(
      one({
        printingProcess: 'offset',
        wantLaminationRecto: true,
        wantVarnishRecto: true,
        wantStampingRecto: true,
        hotStampings: [{ color: 'gold', coverage: 0.5, width: 40, height: 20 }],
        wantEmbossingDebossingRecto: true,
        embossings: [{ type: 'BRAILLE', width: 30, height: 8, depth: 0.3 }],
        wantWindow: true,
        windowWidth: 60,
        windowHeight: 90,
      }),
    );
    expect(variant!.operations.map((o) => o.operation.code)).toEqual([
      'PRINT_OFFSET',
      'LAMINATION',
      'VARNISH',
      'HOT_FOIL_STAMPING',
      'EMBOSSING',
      'DIE_CUTTING',
      'WINDOW_PATCHING',
      'FOLDING_GLUING',
      'PACKING',
    ]);
    const tools = variant!.costBreakdown.tooling.lines.map((l) => l.code);
    expect(tools).toEqual(['STAMPING_DIE', 'BRAILLE_DIE', 'CUTTING_DIE']);
    expect(variant!.pelliculagePredis).toBeGreaterThan(0);
    expect(variant!.vernisDeBasePredis).toBeGreaterThan(0);
    expect(variant!.plaqueVernisPredis).toBe(38);
    expect(variant!.dorurePredis).toBeGreaterThan(0);
    expect(variant!.petFenetrePrixPredis).toBeGreaterThan(0);
    expect(variant!.colleFenetrePrixPredis).toBeGreaterThan(0);
  });

  it('prints and die-cuts a FEFCO 0427 on the flexo rotary die-cutter, several up', () => {
    const [variant] = variantsOf(
      one({
        productId: '0427',
        materialReferenceId: 'CORR-E-WK',
        lengthDimension: 250,
        widthDimension: 180,
        heightDimension: 60,
        rectoColorCount: 2,
        decorationsCount: [{ decorationIndex: 0, quantity: 20000 }],
      }),
    );
    expect(variant!.operations.map((o) => [o.operation.code, o.machine.code, o.inline])).toEqual([
      ['PRINT_FLEXO', 'RDC-1628', false],
      ['ROTARY_DIE_CUTTING', 'RDC-1628', true],
      ['PACKING', 'PACK-MANUAL', false],
    ]);
    expect(variant!.layoutCount).toBeGreaterThan(1);
    expect(variant!.costBreakdown.tooling.lines.map((l) => l.code)).toEqual(['FLEXO_PLATES', 'ROTARY_DIE']);
    expect(variant!.cartonStructurePredis).toBeGreaterThan(0);
  });

  it('prices an unprinted case without printing', () => {
    const [variant] = variantsOf(
      one({
        productId: '0201',
        materialReferenceId: 'CORR-C-KK',
        lengthDimension: 400,
        widthDimension: 300,
        heightDimension: 300,
        wantDecoration: false,
        rectoColorCount: 0,
        sidePrinted: undefined,
      }),
    );
    expect(variant!.printingProcess).toBe('none');
    expect(variant!.operations.map((o) => [o.operation.code, o.inline])).toEqual([
      ['SLOT_FOLD_GLUE', false],
      ['PACKING', false],
    ]);
    expect(variant!.toolingCost).toBe(0);
    expect(variant!.costBreakdown.printing.total).toBe(0);
  });

  it('uses a corrugated composition for weight and price', () => {
    const base = {
      productId: '0201',
      materialReferenceId: 'CORR-B-KK',
      lengthDimension: 400,
      widthDimension: 300,
      heightDimension: 300,
      wantDecoration: false,
      rectoColorCount: 0,
      sidePrinted: undefined,
    };
    const plain = priceBrief(one(base), catalogue);
    const testliner = priceBrief(one({ ...base, corrugatedMaterialId: 'B-T120-F100-T120' }), catalogue);
    expect(testliner.briefComputed.briefElements[0]!.material.grammage).toBe(380);
    expect(testliner.briefPrice.predictionRequestsComputed[0]!.cartonStructurePredis).toBeLessThan(
      plain.briefPrice.predictionRequestsComputed[0]!.cartonStructurePredis,
    );
  });
});

describe('existing tools', () => {
  it('skips the die cost and keeps the tool layout', () => {
    const fresh = variantsOf(one({ printingProcess: 'offset' }))[0]!;
    const owned = variantsOf(
      one({ printingProcess: 'offset', layoutCounts: [{ machineId: 'DIECUT-106', quantity: 4 }] }),
    )[0]!;
    expect(fresh.toolingCost).toBeGreaterThan(0);
    expect(owned.toolingCost).toBe(0);
    expect(owned.layoutCount).toBe(4);
    const die = owned.costBreakdown.tooling.lines[0]!;
    expect(die).toMatchObject({ code: 'CUTTING_DIE', amount: 0, existingTool: true });
    expect(die.label).toContain('existing tool on DIECUT-106');
  });
});

describe('logistics', () => {
  const brief: BriefInput = {
    deliveryZoneId: 'DE-AT',
    briefElements: [
      { ...carton, decorationsCount: [{ decorationIndex: 0, quantity: 60000 }] },
      {
        ...carton,
        position: 1,
        productId: '0201',
        materialReferenceId: 'CORR-B-KK',
        lengthDimension: 400,
        widthDimension: 300,
        heightDimension: 300,
        decorationsCount: [{ decorationIndex: 0, quantity: 800 }],
        rectoColorCount: 1,
      },
    ],
  };

  it('palletises each element and shares the delivery by pallets', () => {
    const prediction = priceBrief(brief, catalogue);
    const [a, b] = prediction.briefComputed.briefElements;
    expect(prediction.briefComputed.delivery.pallets).toBe(a!.packing.pallets + b!.packing.pallets);
    expect(prediction.briefComputed.delivery.cost).toBe(110 * prediction.briefComputed.delivery.pallets);
    expect(a!.delivery.cost + b!.delivery.cost).toBeCloseTo(prediction.briefComputed.delivery.cost, 2);
    expect(a!.delivery.cost / a!.packing.pallets).toBeCloseTo(110, 1);
    expect(b!.packing.packingType).toBe('BUNDLE');
    expect(b!.packing.notes).toEqual([
      'corrugated cases ship in strapped bundles (settings.corrugatedPacking)',
    ]);
  });

  it('charges the zone minimum for a small brief and nothing without a zone', () => {
    const small = priceBrief(
      one({ decorationsCount: [{ decorationIndex: 0, quantity: 500 }] }, { deliveryZoneId: 'UK-IE' }),
      catalogue,
    );
    expect(small.briefComputed.delivery).toMatchObject({ pallets: 1, cost: 320, minimumApplied: true });
    const exWorks = priceBrief(one({}), catalogue);
    expect(exWorks.briefComputed.delivery).toMatchObject({ zone: null, cost: 0 });
    expect(exWorks.briefPrice.costBreakdown.delivery.lines).toEqual([]);
  });

  it('fits more on a larger pallet', () => {
    const euro = priceBrief(
      one({ decorationsCount: [{ decorationIndex: 0, quantity: 60000 }] }, { palletType: 'EURO' }),
      catalogue,
    );
    const standard = priceBrief(
      one({ decorationsCount: [{ decorationIndex: 0, quantity: 60000 }] }, { palletType: 'STANDARD' }),
      catalogue,
    );
    expect(standard.briefComputed.briefElements[0]!.packing.packagesPerLayer).toBeGreaterThanOrEqual(
      euro.briefComputed.briefElements[0]!.packing.packagesPerLayer,
    );
    expect(standard.briefComputed.briefElements[0]!.packing.pallet.code).toBe('STANDARD');
  });
  it('ships corrugated cases in strapped bundles unless the settings say to follow the brief', () => {
    const rsc = one({
      productId: '0201',
      materialReferenceId: 'CORR-E-WK',
      lengthDimension: 250,
      widthDimension: 150,
      heightDimension: 150,
      rectoColorCount: 1,
      decorationsCount: [{ decorationIndex: 0, quantity: 10000 }],
    });
    const bundled = priceBrief(rsc, catalogue).briefComputed.briefElements[0]!.packing;
    expect(bundled.packingType).toBe('BUNDLE');
    const asBrief = defaultCatalogue();
    asBrief.settings.corrugatedPacking = 'AS_BRIEF';
    const cased = priceBrief(rsc, asBrief).briefComputed.briefElements[0]!.packing;
    expect(cased.packingType).toBe('SHIPPING_CASE');
    expect(bundled.pallets).toBeLessThanOrEqual(cased.pallets);
  });

  it('sizes cases from inside + board, fills a layer with mixed rows and reports pallets and trucks', () => {
    const cases = defaultCatalogue();
    const large = cases.packingCases.find((c) => c.code === 'CASE-L')!;
    // 592 x 392 inside + 2 x 4 mm walls = 600 x 400 outside: 4 per EUR pallet layer.
    expect([large.length, large.width]).toEqual([592, 392]);
    cases.packingCases = cases.packingCases.filter((c) => c.code === 'CASE-L');
    const prediction = priceBrief(
      one({ decorationsCount: [{ decorationIndex: 0, quantity: 60000 }] }),
      cases,
    );
    const packing = prediction.briefComputed.briefElements[0]!.packing;
    expect([packing.packageLength, packing.packageWidth]).toEqual([600, 400]);
    expect(packing.packagesPerLayer).toBe(4);
    expect(packing.palletsPerTruck).toBe(33);
    expect(packing.trucks).toBe(Math.ceil(packing.pallets / 33));
    const step = prediction.briefPrice.predictionRequestsComputed[0]!.operations.at(-1)!;
    expect(step).toMatchObject({
      packages: packing.packages,
      unitsPerPackage: packing.unitsPerPackage,
      pallets: packing.pallets,
      trucks: packing.trucks,
      palletsPerTruck: 33,
      packagingKind: 'SHIPPING_CASE',
    });
  });

  it('packs by the package at the line speed, not by the unit', () => {
    const prediction = priceBrief(
      one({ decorationsCount: [{ decorationIndex: 0, quantity: 100000 }] }),
      catalogue,
    );
    const v = prediction.briefPrice.predictionRequestsComputed[0]!;
    const op = (code: string) => v.operations.find((o) => o.operation.code === code)!;
    const packing = op('PACKING');
    // The straight-line folder-gluer delivers 30,000/h: the packer is busy as long as it runs,
    // or as long as the cases need handling (90 per hour), whichever is longer.
    expect(packing.lineSpeedPerHour).toBe(30000);
    const hours = Math.max(packing.packages! / 90, 100000 / 30000);
    expect(packing.rollingTime).toBeCloseTo(hours, 2);
    expect(packing.cost).toBeLessThan(op('FOLDING_GLUING').cost);
    expect(v.costSummary.groups.find((g) => g.key === 'packing')!.sharePercent).toBeLessThan(8);
  });
});

describe('brief totals', () => {
  it('sums the selected variants and reports margins', () => {
    const prediction = priceBrief(
      {
        commercialMargin: 0.2,
        briefElements: [
          { ...carton, commercialMargin: 0.4 },
          { ...carton, position: 1, productId: 'RTE' },
        ],
      },
      catalogue,
    );
    const price = prediction.briefPrice;
    const selected = price.predictionRequestsComputed.filter((v) => v.selected);
    expect(selected.map((v) => v.commercialMargin)).toEqual([0.4, 0.2]);
    expect(selected.map((v) => v.commercialMarginInitial)).toEqual([0.2, 0.2]);
    expect(price.commercialMarginInitial).toBe(0.2);
    expect(price.commercialMargin).toBeCloseTo(price.marginAmount / price.productPrice, 4);
    expect(price.productionTime).toBeCloseTo(
      selected.reduce((s, v) => s + v.productionTime, 0),
      3,
    );
    expect(price.processCount).toBe(selected.reduce((s, v) => s + v.operations.length, 0));
    expect(price.costBreakdown.materials.lines.map((l) => l.code)).toEqual(['ELEMENT_0', 'ELEMENT_1']);
  });

  it('orders elements by position', () => {
    const prediction = priceBrief(
      {
        briefElements: [
          { ...carton, position: 1 },
          { ...carton, position: 0, productId: 'RTE' },
        ],
      },
      catalogue,
    );
    expect(prediction.briefComputed.briefElements.map((e) => [e.position, e.productCode])).toEqual([
      [0, 'RTE'],
      [1, 'STE'],
    ]);
  });
});

describe('engine purity', () => {
  it('never imports the default catalogue, the clock or randomness', () => {
    const root = join(import.meta.dirname, '../../src/pricing');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk(root);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      if (!file.endsWith('default-catalogue.ts')) expect(source, file).not.toMatch(/default-catalogue/);
      expect(source, file).not.toMatch(/Date\.now|new Date\(|Math\.random|performance\.now|from 'node:/);
    }
  });
});
