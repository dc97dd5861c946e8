import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  type BriefForm,
  boardsFor,
  briefBody,
  CATEGORY_DEFAULTS,
  elementBody,
  elementErrors,
  elementForm,
  emptyBrief,
  emptyElement,
  formIssues,
  isPriceable,
  updateBody,
  withCategoryDefaults,
  withProduct,
} from './form.ts';

const boards = [
  {
    id: 'b1',
    code: 'GC1-350',
    name: 'GC1 350',
    enabled: true,
    matterId: 'boxboard',
    materialTypeId: 't1',
    grammage: 350,
  },
  {
    id: 'b2',
    code: 'CORR-B',
    name: 'B flute',
    enabled: true,
    matterId: 'corrugated',
    materialTypeId: 't2',
    grammage: 420,
  },
  {
    id: 'b3',
    code: 'OLD',
    name: 'Old',
    enabled: false,
    matterId: 'boxboard',
    materialTypeId: 't1',
    grammage: 300,
  },
];
const ste = {
  id: 'p1',
  code: 'STE',
  name: 'Straight tuck end',
  enabled: true,
  categoryId: 'c1',
  allowedMatterIds: ['boxboard'],
  windowAllowed: true,
};
const rsc = {
  id: 'p2',
  code: '0201',
  name: 'RSC',
  enabled: true,
  categoryId: 'c2',
  allowedMatterIds: ['corrugated'],
  windowAllowed: false,
};

const filled = () => ({
  ...emptyBrief(),
  companyId: 'acme',
  elements: [
    {
      ...emptyElement(),
      productId: 'p1',
      materialReferenceId: 'b1',
      length: 120,
      width: 40,
      height: 180,
    } as const,
  ],
});

describe('configurator form logic', () => {
  it('offers only the enabled boards the style allows', () => {
    expect(boardsFor(ste, boards).map((b) => b.id)).toEqual(['b1']);
    expect(boardsFor(rsc, boards).map((b) => b.id)).toEqual(['b2']);
    expect(boardsFor(undefined, boards).map((b) => b.id)).toEqual(['b1', 'b2']);
  });

  it('clears a board the new style does not allow, and the window when the style has none', () => {
    const element = {
      ...emptyElement(),
      productId: 'p1',
      materialReferenceId: 'b1',
      window: true,
      extra: { grammage: 350, layoutCounts: [] },
    };
    const same = withProduct(element, { ...ste, id: 'p3' }, boards);
    expect(same.materialReferenceId).toBe('b1');
    expect(same.extra).toEqual({ grammage: 350, layoutCounts: [] });
    const changed = withProduct(element, rsc, boards);
    expect(changed.materialReferenceId).toBeNull();
    expect(changed.extra).toEqual({ layoutCounts: [] });
    expect(changed.window).toBe(false);
    expect(changed.categoryId).toBe('c2');
  });

  it('is priceable only with a company, style, board, dimensions and a quantity', () => {
    expect(isPriceable(emptyBrief())).toBe(false);
    expect(isPriceable(filled())).toBe(true);
    expect(isPriceable({ ...filled(), companyId: null })).toBe(false);
    const noQuantity = filled();
    noQuantity.elements[0] = { ...noQuantity.elements[0]!, quantities: [''] };
    expect(isPriceable(noQuantity)).toBe(false);
  });

  it('sees what is wrong before any call: empty or zero sizes, a variant of 0, not whole or too many (issue 26)', () => {
    expect(formIssues(filled())).toEqual({});
    const form: BriefForm = filled();
    form.elements[0] = {
      ...form.elements[0]!,
      length: '',
      width: 0,
      quantities: [5000, 0, 2.5, 60_000_000, ''],
    };
    expect(formIssues(form)).toEqual({
      '/briefElements/0/lengthDimension': { key: 'required' },
      '/briefElements/0/widthDimension': { key: 'exclusiveMin', values: { n: 0 } },
      '/briefElements/0/quantity.1': { key: 'min', values: { n: 1 } },
      '/briefElements/0/quantity.2': { key: 'integer' },
      '/briefElements/0/quantity.3': { key: 'max', values: { n: 50_000_000 } },
      '/briefElements/0/quantity.4': { key: 'required' },
    });
    expect(Object.keys(formIssues(emptyBrief()))).toEqual(
      expect.arrayContaining([
        '/companyId',
        '/briefElements/0/productId',
        '/briefElements/0/materialReferenceId',
      ]),
    );
    // The per-variant pointers land on the element's fields as `quantity.<j>`.
    expect(elementErrors({ '/briefElements/0/quantity.1': 'At least 1' }, 0)).toEqual({
      'quantity.1': 'At least 1',
    });
  });

  it('builds the API body: variants, printing sides, coverage as a fraction, finishes with their sizes', () => {
    const element = {
      ...emptyElement(),
      productId: 'p1',
      materialReferenceId: 'b1',
      length: 120,
      width: 40,
      height: 180,
      quantities: [3000, '' as const, 2000],
      sidePrinted: 'RECTO' as const,
      rectoColorCount: 4,
      versoColorCount: 2,
      inkCoverage: 35,
      foil: true,
      foilWidth: 30,
      foilHeight: 10,
      window: true,
    };
    const body = elementBody(element, 0);
    expect(body.decorationsCount).toEqual([
      { decorationIndex: 0, quantity: 3000 },
      { decorationIndex: 2, quantity: 2000 },
    ]);
    expect(body.versoColorCount).toBe(0);
    expect(body.inkCoverage).toBeCloseTo(0.35);
    expect(body.hotStampings).toEqual([{ color: 'gold', coverage: 0.5, width: 30, height: 10 }]);
    expect(body.wantWindow).toBe(true);
    expect(body).not.toHaveProperty('wantVarnishRecto');
    const unprinted = elementBody({ ...element, printed: false }, 1);
    expect(unprinted.wantDecoration).toBe(false);
    expect(unprinted).not.toHaveProperty('rectoColorCount');
    expect(unprinted.position).toBe(1);
  });

  it('reads a stored element back into the same form (round trip), keeping what it does not edit', () => {
    const stored = {
      id: 'e1',
      briefId: 'x',
      position: 0,
      productCategoryId: 'c1',
      productId: 'p1',
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 180,
      matterId: 'boxboard',
      materialTypeId: 't1',
      materialReferenceId: 'b1',
      grammage: 350,
      corrugatedMaterialId: null,
      decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
      quantity: 5000,
      wantDecoration: true,
      sidePrinted: 'RECTO_VERSO',
      rectoColorCount: 4,
      versoColorCount: 1,
      inkCoverage: 0.25,
      printingProcess: 'offset',
      wantLaminationRecto: true,
      wantVarnishRecto: false,
      wantStampingRecto: false,
      hotStampings: [],
      wantEmbossingDebossingRecto: false,
      embossings: [],
      wantWindow: false,
      windowWidth: null,
      windowHeight: null,
      layoutCounts: [],
      commercialMargin: null,
      briefElementPrice: { unitPrice: 0.1 },
      createdAt: 'now',
    };
    const form = elementForm(stored);
    expect(form).toMatchObject({
      id: 'e1',
      length: 120,
      inkCoverage: 25,
      lamination: true,
      sidePrinted: 'RECTO_VERSO',
      quantities: [5000],
    });
    expect(form.extra).toEqual({ materialTypeId: 't1', grammage: 350, layoutCounts: [] });
    const body = elementBody(form, 0);
    expect(body).toMatchObject({
      id: 'e1',
      materialTypeId: 't1',
      grammage: 350,
      rectoColorCount: 4,
      versoColorCount: 1,
      printingProcess: 'offset',
    });
    expect(body).not.toHaveProperty('briefElementPrice');
    expect(body).not.toHaveProperty('createdAt');
  });

  it('applies a value-analysis suggestion to the form', () => {
    const form = filled();
    form.elements[0] = {
      ...form.elements[0]!,
      lamination: true,
      extra: { grammage: 350, corrugatedMaterialId: 'c' },
    };
    const material = applyChanges(form, [
      { pointer: '/briefElements/0/materialReferenceId', field: 'materialReferenceId', from: 'b1', to: 'b9' },
      { pointer: '/briefElements/0/grammage', field: 'grammage', from: 350, to: 300 },
      {
        pointer: '/briefElements/0/corrugatedMaterialId',
        field: 'corrugatedMaterialId',
        from: 'c',
        to: null,
      },
    ]);
    expect(material.elements[0]!.materialReferenceId).toBe('b9');
    expect(material.elements[0]!.extra).toEqual({ grammage: 300 });
    const finishing = applyChanges(form, [
      {
        pointer: '/briefElements/0/wantLaminationRecto',
        field: 'wantLaminationRecto',
        from: true,
        to: false,
      },
    ]);
    expect(finishing.elements[0]!.lamination).toBe(false);
    const quantity = applyChanges(form, [
      {
        pointer: '/briefElements/0/decorationsCount',
        field: 'decorationsCount',
        to: [{ decorationIndex: 0, quantity: 6200 }],
      },
    ]);
    expect(quantity.elements[0]!.quantities).toEqual([6200]);
    const dimension = applyChanges(form, [
      { pointer: '/briefElements/0/widthDimension', field: 'widthDimension', to: 36 },
    ]);
    expect(dimension.elements[0]!.width).toBe(36);
    expect(form.elements[0]!.width).toBe(40); // the form given is not changed
  });

  it('applies a brief-level suggestion (bundle packing) and sends the packing type', () => {
    const form = filled();
    expect(briefBody(form)).not.toHaveProperty('packingType');
    const bundled = applyChanges(form, [
      { pointer: '/packingType', field: 'packingType', from: 'SHIPPING_CASE', to: 'BUNDLE' },
    ]);
    expect(bundled.packingType).toBe('BUNDLE');
    expect(briefBody(bundled)).toMatchObject({ packingType: 'BUNDLE' });
    expect(form.packingType).toBeNull();
  });

  it('sends the element ids only on update, and the project rather than the company when both are set', () => {
    const form = filled();
    form.elements[0] = { ...form.elements[0]!, id: 'e1' };
    expect((briefBody(form).briefElements as { id?: string }[])[0]).not.toHaveProperty('id');
    expect((briefBody(form, { forUpdate: true }).briefElements as { id?: string }[])[0]!.id).toBe('e1');
    expect(briefBody({ ...form, projectId: 'p' })).toMatchObject({ projectId: 'p' });
    expect(briefBody({ ...form, projectId: 'p' })).not.toHaveProperty('companyId');
  });

  it('leaves the items out of an update when they are as loaded (no needless re-pricing)', () => {
    const loaded = { ...filled(), projectId: null };
    loaded.elements[0] = { ...loaded.elements[0]!, id: 'e1' };
    const renamed = updateBody({ ...loaded, name: 'Renamed', projectId: 'p' }, loaded);
    expect(renamed).toMatchObject({ name: 'Renamed', projectId: 'p' });
    expect(renamed).not.toHaveProperty('briefElements');
    const changed = { ...loaded, elements: [{ ...loaded.elements[0]!, width: 45 }] };
    expect(
      (updateBody(changed, loaded).briefElements as { widthDimension: number }[])[0]!.widthDimension,
    ).toBe(45);
  });

  it('clears the project on update by sending null with the company; a new brief sends no project', () => {
    const form = { ...filled(), projectId: null };
    expect(briefBody(form, { forUpdate: true })).toMatchObject({ projectId: null, companyId: 'acme' });
    expect(briefBody(form)).not.toHaveProperty('projectId');
    expect(briefBody({ ...form, projectId: 'p' }, { forUpdate: true })).toMatchObject({ projectId: 'p' });
  });

  it('puts the API pointer errors on the matching element fields', () => {
    const fields = {
      '/briefElements/0/lengthDimension': 'must be <= 10000',
      '/briefElements/1/widthDimension': 'too wide',
      '/briefElements/0/hotStampings/0/width': 'too wide for the blank',
      '/companyId': 'is required',
    };
    expect(elementErrors(fields, 0)).toEqual({
      lengthDimension: 'must be <= 10000',
      hotStampings: 'too wide for the blank',
    });
    expect(elementErrors(fields, 1)).toEqual({ widthDimension: 'too wide' });
  });

  it('sends each variant’s name and artwork reference, reads them back, and checks their length', () => {
    const element = {
      ...emptyElement(),
      quantities: [5000, 10000, ''] as (number | '')[],
      variantNames: [' Lemon ', '', 'Unused'],
      artworkReferences: ['ART-LEMON-v2', 'ART-MINT-v1', ''],
    };
    const body = elementBody(element, 0);
    // Trimmed; blank left out; a variant without quantity is not sent at all.
    expect(body.decorationsCount).toEqual([
      { decorationIndex: 0, quantity: 5000, name: 'Lemon', artworkReference: 'ART-LEMON-v2' },
      { decorationIndex: 1, quantity: 10000, artworkReference: 'ART-MINT-v1' },
    ]);
    const back = elementForm({
      decorationsCount: [
        { decorationIndex: 0, quantity: 5000, name: 'Lemon', artworkReference: 'ART-LEMON-v2' },
        { decorationIndex: 2, quantity: 700, name: null, artworkReference: null },
      ],
    });
    expect(back.quantities).toEqual([5000, '', 700]);
    expect(back.variantNames).toEqual(['Lemon', '', '']);
    expect(back.artworkReferences).toEqual(['ART-LEMON-v2', '', '']);
    // More than the API's 100 characters: seen before any call, on the variant's own input.
    const long = { ...emptyBrief(), elements: [{ ...element, variantNames: ['x'.repeat(101), '', ''] }] };
    expect(formIssues(long)['/briefElements/0/variantName.0']).toEqual({
      key: 'maxLength',
      values: { n: 100, count: 100 },
    });
    expect(formIssues(long)['/briefElements/0/artworkReference.0']).toBeUndefined();
    // The API's pointers of a variant's text land on the matching input too.
    expect(
      elementErrors(
        {
          '/briefElements/0/decorationsCount/1/name': 'too long',
          '/briefElements/0/decorationsCount/0/artworkReference': 'too long',
        },
        0,
      ),
    ).toEqual({ 'variantName.1': 'too long', 'artworkReference.0': 'too long' });
  });
});

describe('defaults per category (issue 26)', () => {
  const categories = [
    { id: 'fc', kind: 'FOLDING_CARTON' },
    { id: 'cc', kind: 'CORRUGATED_CASE' },
    { id: 'flat', kind: 'FLAT_ITEM' },
    { id: 'odd', kind: 'SOMETHING_NEW' },
    // As the catalogue API lists them: `kind` is the collection's, the code says the kind.
    { id: 'api-cc', code: 'CORRUGATED-CASE', kind: 'productCategories' },
  ];

  it('starts a corrugated case with one flexo colour, not four-colour offset', () => {
    const next = withCategoryDefaults(emptyElement(), { ...emptyElement(), categoryId: 'cc' }, categories);
    expect(next).toMatchObject({
      printed: true,
      printingProcess: 'flexo',
      sidePrinted: 'RECTO',
      rectoColorCount: 1,
      versoColorCount: 0,
    });
    expect(elementBody(next, 0)).toMatchObject({ printingProcess: 'flexo', rectoColorCount: 1 });
  });

  it('reads the kind from the code of a category as the catalogue API lists it', () => {
    const next = withCategoryDefaults(
      emptyElement(),
      { ...emptyElement(), categoryId: 'api-cc' },
      categories,
    );
    expect(next).toMatchObject({ printingProcess: 'flexo', rectoColorCount: 1 });
  });

  it('starts a folding carton 4/0 offset, also when it comes from a corrugated case', () => {
    const corrugated = { ...emptyElement(), categoryId: 'cc', ...CATEGORY_DEFAULTS.CORRUGATED_CASE };
    const next = withCategoryDefaults(corrugated, { ...corrugated, categoryId: 'fc' }, categories);
    expect(next).toMatchObject({ printingProcess: 'offset', rectoColorCount: 4, versoColorCount: 0 });
  });

  it("keeps the user's print within the same kind and for a kind it does not know", () => {
    const mine = {
      ...emptyElement(),
      categoryId: 'cc',
      printingProcess: 'flexo' as const,
      rectoColorCount: 3,
    };
    expect(withCategoryDefaults(mine, { ...mine, productId: 'p0427' }, categories).rectoColorCount).toBe(3);
    expect(withCategoryDefaults(mine, { ...mine, categoryId: 'odd' }, categories).rectoColorCount).toBe(3);
    expect(withCategoryDefaults(mine, { ...mine, categoryId: null }, categories).rectoColorCount).toBe(3);
  });
});
