/** Every refusal, with its JSON pointer into the brief. */
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import {
  type BriefElementInput,
  type BriefInput,
  PricingError,
  priceBrief,
  validateBrief,
} from '../../src/pricing/index.ts';

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
  rectoColorCount: 3,
  versoColorCount: 0,
};

const brief = (...elements: Partial<BriefElementInput>[]): BriefInput => ({
  briefElements: elements.map((e, i) => ({ ...carton, position: i, ...e }) as BriefElementInput),
});

/** The issues of a brief, as [pointer, message] pairs. */
function issuesOf(input: unknown): [string, string][] {
  return validateBrief(input as BriefInput, catalogue).map((i) => [i.pointer, i.message]);
}

function expectIssue(input: unknown, pointer: string, message: RegExp) {
  const issues = issuesOf(input);
  expect(
    issues.some(([p, m]) => p === pointer && message.test(m)),
    JSON.stringify(issues),
  ).toBe(true);
}

describe('validateBrief', () => {
  it('accepts a valid brief', () => {
    expect(issuesOf(brief({}))).toEqual([]);
  });

  it('refuses a brief without elements', () => {
    expect(issuesOf({ briefElements: [] })).toEqual([
      ['/briefElements', 'a brief needs at least one element'],
    ]);
    expect(issuesOf({})).toEqual([['/briefElements', 'a brief needs at least one element']]);
  });

  it('refuses duplicate positions', () => {
    expect(issuesOf({ briefElements: [carton, { ...carton }] })).toEqual([
      ['/briefElements/1/position', 'position 0 is already used by /briefElements/0'],
    ]);
  });

  it('refuses unknown catalogue ids', () => {
    expectIssue(brief({ productId: 'NOPE' }), '/briefElements/0/productId', /unknown product 'NOPE'/);
    expectIssue(
      brief({ materialReferenceId: 'NOPE' }),
      '/briefElements/0/materialReferenceId',
      /unknown material reference/,
    );
    expectIssue(
      brief({ productCategoryId: 'NOPE' }),
      '/briefElements/0/productCategoryId',
      /unknown product category/,
    );
    expectIssue(brief({ matterId: 'NOPE' }), '/briefElements/0/matterId', /unknown matter/);
    expectIssue(
      brief({ materialTypeId: 'NOPE' }),
      '/briefElements/0/materialTypeId',
      /unknown material type/,
    );
    expectIssue(
      brief({ corrugatedMaterialId: 'NOPE' }),
      '/briefElements/0/corrugatedMaterialId',
      /unknown corrugated material/,
    );
    expectIssue(
      brief({ layoutCounts: [{ machineId: 'NOPE', quantity: 4 }] }),
      '/briefElements/0/layoutCounts/0/machineId',
      /unknown machine 'NOPE'/,
    );
    expectIssue({ ...brief({}), deliveryZoneId: 'MARS' }, '/deliveryZoneId', /unknown delivery zone 'MARS'/);
  });

  it('refuses records that contradict each other', () => {
    expectIssue(
      brief({ productCategoryId: 'CORRUGATED-CASE' }),
      '/briefElements/0/productCategoryId',
      /belongs to category FOLDING-CARTON/,
    );
    expectIssue(
      brief({ matterId: 'CORRUGATED' }),
      '/briefElements/0/matterId',
      /GC1-350 is folding boxboard/,
    );
    expectIssue(brief({ materialTypeId: 'GC2' }), '/briefElements/0/materialTypeId', /of type GC1/);
    expectIssue(
      brief({ grammage: 300 }),
      '/briefElements/0/grammage',
      /does not match the material \(350 g\/m2\)/,
    );
    expectIssue(
      brief({
        productId: '0201',
        materialReferenceId: 'CORR-B-KK',
        corrugatedMaterialId: 'EB-K150-T120-K150',
        lengthDimension: 300,
        widthDimension: 200,
        heightDimension: 200,
      }),
      '/briefElements/0/corrugatedMaterialId',
      /belongs to CORR-EB-KK, not CORR-B-KK/,
    );
  });

  it('refuses a product made of the wrong matter', () => {
    expectIssue(
      brief({ productId: '0201', lengthDimension: 300, widthDimension: 200, heightDimension: 200 }),
      '/briefElements/0/materialReferenceId',
      /FEFCO 0201 regular slotted case is made of corrugated board; GC1-350 is folding boxboard/,
    );
    expectIssue(
      brief({ materialReferenceId: 'CORR-B-KK' }),
      '/briefElements/0/materialReferenceId',
      /made of folding boxboard/,
    );
  });

  it('refuses non-positive dimensions and dimensions outside the product limits', () => {
    expectIssue(brief({ lengthDimension: 0 }), '/briefElements/0/lengthDimension', /positive number/);
    expectIssue(brief({ widthDimension: -5 }), '/briefElements/0/widthDimension', /positive number/);
    expectIssue(
      brief({ heightDimension: Number.NaN }),
      '/briefElements/0/heightDimension',
      /positive number/,
    );
    expectIssue(
      brief({ lengthDimension: 5 }),
      '/briefElements/0/lengthDimension',
      /below the 20 mm minimum length/,
    );
    expectIssue(
      brief({ heightDimension: 900 }),
      '/briefElements/0/heightDimension',
      /above the 500 mm maximum height/,
    );
  });

  it('refuses a blank that fits no sheet, saying which limit', () => {
    expect(issuesOf(brief({ lengthDimension: 380, widthDimension: 240, heightDimension: 480 }))).toEqual([
      [
        '/briefElements/0/lengthDimension',
        'the 1257.1 x 991.6 mm blank does not fit the usable 1010 x 703 mm of a 1020 x 720 mm sheet (gripper 12 mm, side margins 5 mm, tail 5 mm) for offset printing',
      ],
    ]);
  });

  it('refuses a blank a required machine cannot take', () => {
    const tallFolders = defaultCatalogue();
    for (const machine of tallFolders.machines) {
      if (machine.kind === 'FOLDER_GLUER') machine.minFormat = { width: 120, height: 100 };
    }
    expect(validateBrief(brief({ productId: 'SLEEVE', heightDimension: 70 }), tallFolders)).toEqual([
      {
        pointer: '/briefElements/0/productId',
        message:
          'no Folding and gluing machine takes the 337.1 x 70.5 mm blank (formats: FG-STRAIGHT-110 120 x 100 mm to 1100 x 900 mm, FG-CRASHLOCK-110 120 x 100 mm to 1100 x 900 mm)',
      },
    ]);
    const catalogueWithoutCrashLock = defaultCatalogue();
    catalogueWithoutCrashLock.machines = catalogueWithoutCrashLock.machines.filter(
      (m) => m.code !== 'FG-CRASHLOCK-110',
    );
    const issues = validateBrief(brief({ productId: 'CLB' }), catalogueWithoutCrashLock);
    expect(issues).toEqual([
      {
        pointer: '/briefElements/0/productId',
        message: 'Crash-lock bottom carton needs a crash-lock folder-gluer; the catalogue has none',
      },
    ]);
  });

  it('checks decoration variants', () => {
    expectIssue(brief({ decorationsCount: [] }), '/briefElements/0/decorationsCount', /at least one variant/);
    expectIssue(
      brief({ decorationsCount: undefined as never }),
      '/briefElements/0/decorationsCount',
      /is required/,
    );
    expectIssue(
      brief({ decorationsCount: [{ decorationIndex: 12, quantity: 10 }] }),
      '/briefElements/0/decorationsCount/0/decorationIndex',
      /from 0 to 11/,
    );
    expectIssue(
      brief({ decorationsCount: [{ decorationIndex: -1, quantity: 10 }] }),
      '/briefElements/0/decorationsCount/0/decorationIndex',
      /from 0 to 11/,
    );
    expectIssue(
      brief({
        decorationsCount: [
          { decorationIndex: 3, quantity: 10 },
          { decorationIndex: 3, quantity: 20 },
        ],
      }),
      '/briefElements/0/decorationsCount/1/decorationIndex',
      /decorationIndex 3 is repeated/,
    );
    const thirteen = Array.from({ length: 13 }, (_, i) => ({ decorationIndex: i % 12, quantity: 10 }));
    expectIssue(
      brief({ decorationsCount: thirteen }),
      '/briefElements/0/decorationsCount',
      /at most 12 decoration variants/,
    );
  });

  it('checks quantities', () => {
    expectIssue(
      brief({ decorationsCount: [{ decorationIndex: 0, quantity: 0 }] }),
      '/briefElements/0/decorationsCount/0/quantity',
      /positive whole number/,
    );
    expectIssue(
      brief({ decorationsCount: [{ decorationIndex: 0, quantity: -10 }] }),
      '/briefElements/0/decorationsCount/0/quantity',
      /positive whole number/,
    );
    expectIssue(
      brief({ decorationsCount: [{ decorationIndex: 0, quantity: 12.5 }] }),
      '/briefElements/0/decorationsCount/0/quantity',
      /positive whole number/,
    );
  });

  it('checks the commercial margin range', () => {
    expectIssue({ ...brief({}), commercialMargin: 1 }, '/commercialMargin', /from 0 to 0.99/);
    expectIssue({ ...brief({}), commercialMargin: -0.01 }, '/commercialMargin', /from 0 to 0.99/);
    expectIssue(brief({ commercialMargin: 0.995 }), '/briefElements/0/commercialMargin', /from 0 to 0.99/);
    expect(issuesOf({ ...brief({ commercialMargin: 0.99 }), commercialMargin: 0 })).toEqual([]);
  });

  it('checks colours against wantDecoration and sidePrinted', () => {
    expectIssue(
      brief({ wantDecoration: false }),
      '/briefElements/0/rectoColorCount',
      /colours are given but wantDecoration is false/,
    );
    expectIssue(brief({ rectoColorCount: 9 }), '/briefElements/0/rectoColorCount', /from 0 to 8/);
    expectIssue(brief({ versoColorCount: 1.5 }), '/briefElements/0/versoColorCount', /from 0 to 8/);
    expectIssue(
      brief({ sidePrinted: undefined }),
      '/briefElements/0/sidePrinted',
      /must be RECTO, VERSO or RECTO_VERSO/,
    );
    expectIssue(
      brief({ rectoColorCount: 0 }),
      '/briefElements/0/rectoColorCount',
      /needs at least one recto colour/,
    );
    expectIssue(
      brief({ sidePrinted: 'RECTO', versoColorCount: 2 }),
      '/briefElements/0/versoColorCount',
      /sidePrinted is RECTO/,
    );
    expectIssue(
      brief({ sidePrinted: 'VERSO', rectoColorCount: 3, versoColorCount: 1 }),
      '/briefElements/0/rectoColorCount',
      /sidePrinted is VERSO/,
    );
    expectIssue(
      brief({ sidePrinted: 'RECTO_VERSO', versoColorCount: 0 }),
      '/briefElements/0/versoColorCount',
      /needs at least one verso colour/,
    );
    expectIssue(brief({ inkCoverage: 35 }), '/briefElements/0/inkCoverage', /fraction/);
    expect(issuesOf(brief({ wantDecoration: false, rectoColorCount: 0, sidePrinted: undefined }))).toEqual(
      [],
    );
  });

  it('checks the printing process against the product', () => {
    expectIssue(
      brief({ printingProcess: 'flexo' }),
      '/briefElements/0/printingProcess',
      /printed offset or digital, not flexo/,
    );
    expectIssue(
      brief({
        productId: '0201',
        materialReferenceId: 'CORR-B-KK',
        lengthDimension: 300,
        widthDimension: 200,
        heightDimension: 200,
        printingProcess: 'offset',
      }),
      '/briefElements/0/printingProcess',
      /printed flexo, not offset/,
    );
    expectIssue(
      brief({
        productId: '0201',
        materialReferenceId: 'CORR-B-KK',
        lengthDimension: 300,
        widthDimension: 200,
        heightDimension: 200,
        sidePrinted: 'RECTO_VERSO',
        versoColorCount: 1,
      }),
      '/briefElements/0/sidePrinted',
      /outside \(RECTO\) only/,
    );
    // Digital forced on a blank that only fits the large sheets: the B2 sheet limit is named.
    expectIssue(
      brief({ printingProcess: 'digital', lengthDimension: 300, widthDimension: 100, heightDimension: 300 }),
      '/briefElements/0/lengthDimension',
      /the 817.1 x 531.6 mm blank does not fit the usable 710 x 503 mm of a 720 x 520 mm sheet .* for digital printing/,
    );
  });

  it('checks finishes', () => {
    const corrugated = {
      productId: '0201',
      materialReferenceId: 'CORR-B-KK',
      lengthDimension: 300,
      widthDimension: 200,
      heightDimension: 200,
    };
    expectIssue(
      brief({ ...corrugated, wantLaminationRecto: true }),
      '/briefElements/0/wantLaminationRecto',
      /not available on corrugated/,
    );
    expectIssue(
      brief({ wantStampingRecto: true }),
      '/briefElements/0/hotStampings',
      /needs at least one hot stamping/,
    );
    expectIssue(
      brief({ hotStampings: [{ color: 'gold', coverage: 0.5, width: 10, height: 10 }] }),
      '/briefElements/0/hotStampings',
      /wantStampingRecto is not true/,
    );
    expectIssue(
      brief({
        wantStampingRecto: true,
        hotStampings: [{ color: 'gold', coverage: 1.5, width: 10, height: 10 }],
      }),
      '/briefElements/0/hotStampings/0/coverage',
      /at most 1/,
    );
    expectIssue(
      brief({
        wantStampingRecto: true,
        hotStampings: [{ color: 'gold', coverage: 0.5, width: 400, height: 10 }],
      }),
      '/briefElements/0/hotStampings/0',
      /does not fit the 337.1 x 291.6 mm blank/,
    );
    expectIssue(
      brief({ wantEmbossingDebossingRecto: true, embossings: [] }),
      '/briefElements/0/embossings',
      /at least one embossing/,
    );
    expectIssue(
      brief({
        wantEmbossingDebossingRecto: true,
        embossings: [{ type: 'STAMP' as never, width: 10, height: 10, depth: 0.5 }],
      }),
      '/briefElements/0/embossings/0/type',
      /EMBOSSING, DEBOSSING or BRAILLE/,
    );
    expectIssue(
      brief({
        wantEmbossingDebossingRecto: true,
        embossings: [{ type: 'EMBOSSING', width: 10, height: 10, depth: 3 }],
      }),
      '/briefElements/0/embossings/0/depth',
      /at most 2 mm/,
    );
  });

  it('checks windows', () => {
    expectIssue(brief({ wantWindow: true }), '/briefElements/0/windowWidth', /positive width/);
    expectIssue(
      brief({ wantWindow: true, windowWidth: 200, windowHeight: 50 }),
      '/briefElements/0/windowWidth',
      /less than 8 mm of board each side of the 120.5 mm front panel/,
    );
    expectIssue(
      brief({ productId: 'TRAY', wantWindow: true, windowWidth: 20, windowHeight: 20, heightDimension: 50 }),
      '/briefElements/0/wantWindow',
      /cannot have a window/,
    );
    expect(issuesOf(brief({ wantWindow: true, windowWidth: 60, windowHeight: 100 }))).toEqual([]);
  });

  it('checks existing tools', () => {
    expectIssue(
      brief({ layoutCounts: [{ machineId: 'DIECUT-106', quantity: 0 }] }),
      '/briefElements/0/layoutCounts/0/quantity',
      /positive whole number/,
    );
    expectIssue(
      brief({ layoutCounts: [{ machineId: 'DIECUT-106', quantity: 12 }] }),
      '/briefElements/0/layoutCounts',
      /existing tool has 12 ups but a 1020 x 720 mm sheet holds only \d+/,
    );
    expectIssue(
      brief({ layoutCounts: [{ machineId: 'PACK-MANUAL', quantity: 2 }] }),
      '/briefElements/0/layoutCounts/0/machineId',
      /runs no tooled operation/,
    );
    expect(issuesOf(brief({ layoutCounts: [{ machineId: 'DIECUT-106', quantity: 4 }] }))).toEqual([]);
  });

  it('checks brief-level packing and pallet types', () => {
    expectIssue({ ...brief({}), packingType: 'CRATE' }, '/packingType', /SHIPPING_CASE or BUNDLE/);
    expectIssue({ ...brief({}), palletType: 'HALF' }, '/palletType', /EURO, STANDARD or CUSTOM/);
  });

  it('reports issues of several elements with their own pointers', () => {
    const issues = issuesOf(brief({}, { productId: 'NOPE' }, { decorationsCount: [] }));
    expect(issues.map(([p]) => p)).toEqual([
      '/briefElements/1/productId',
      '/briefElements/2/decorationsCount',
    ]);
  });

  it('makes priceBrief throw a PricingError with the same issues', () => {
    const invalid = brief({ decorationsCount: [{ decorationIndex: 0, quantity: 0 }] });
    let thrown: unknown;
    try {
      priceBrief(invalid, catalogue);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PricingError);
    const error = thrown as PricingError;
    expect(error.code).toBe('INVALID_BRIEF');
    expect(error.issues).toEqual(validateBrief(invalid, catalogue));
    expect(error.message).toContain('/briefElements/0/decorationsCount/0/quantity');
  });
});
