/** The named steps of checkElementFields (src/pricing/validate.ts), each on its own. */
import { describe, expect, it } from 'vitest';
import { indexCatalogue } from '../../src/pricing/catalogue.ts';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import type { BriefElementInput, PricingIssue } from '../../src/pricing/index.ts';
import {
  checkDecorationVariants,
  checkDimensions,
  checkElementFields,
  checkEmbossings,
  checkExistingTools,
  checkFinishFlags,
  checkHotStampings,
  checkMaterial,
  checkPrinting,
  checkProduct,
  checkWindow,
  type ElementCheck,
} from '../../src/pricing/validate.ts';

const index = indexCatalogue(defaultCatalogue());

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

/** A step's context for `element`, and the issues it adds (field, message). */
function context(overrides: Partial<BriefElementInput> = {}) {
  const issues: { field: string; message: string }[] = [];
  const check: ElementCheck = {
    element: { ...carton, ...overrides } as BriefElementInput,
    index,
    catalogue: index.catalogue,
    issue: (field, message) => issues.push({ field, message }),
  };
  return { check, issues, fields: () => issues.map((i) => i.field) };
}

const product = index.products.get('STE')!;

describe('checkElementFields, step by step', () => {
  it('a valid carton passes every step', () => {
    expect(checkElementFields(carton, 0, index)).toEqual([]);
  });

  it('checkProduct: an unknown product, a category that is not the product’s', () => {
    const unknown = context({ productId: 'NOPE' });
    expect(checkProduct(unknown.check)).toEqual({ product: undefined, category: undefined });
    expect(unknown.fields()).toEqual(['productId']);
    const other = index.catalogue.productCategories.find((c) => c.id !== product.categoryId)!;
    const known = context({ productCategoryId: other.id });
    const found = checkProduct(known.check);
    expect(found.product?.code).toBe('STE');
    expect(known.fields()).toEqual(['productCategoryId']);
  });

  it('checkDimensions: not positive, below the product’s minimum', () => {
    const c = context({ lengthDimension: 0, widthDimension: 1 });
    checkDimensions(c.check, product);
    expect(c.fields()).toEqual(['lengthDimension', 'widthDimension']);
    expect(c.issues[1]!.message).toMatch(/below the .* minimum width/);
  });

  it('checkMaterial: an unknown board; a board the product cannot be made of', () => {
    const unknown = context({ materialReferenceId: 'NOPE' });
    checkMaterial(unknown.check, product);
    expect(unknown.fields()).toEqual(['materialReferenceId']);
    const corrugated = context({ materialReferenceId: 'CORR-B-KK' });
    checkMaterial(corrugated.check, product);
    expect(corrugated.fields()).toEqual(['materialReferenceId']);
    expect(corrugated.issues[0]!.message).toMatch(/is made of/);
  });

  it('checkDecorationVariants: none, a repeated index, a quantity of 0', () => {
    const none = context({ decorationsCount: [] });
    checkDecorationVariants(none.check);
    expect(none.fields()).toEqual(['decorationsCount']);
    const bad = context({
      decorationsCount: [
        { decorationIndex: 0, quantity: 10 },
        { decorationIndex: 0, quantity: 0 },
      ],
    });
    checkDecorationVariants(bad.check);
    expect(bad.fields()).toEqual(['decorationsCount/1/decorationIndex', 'decorationsCount/1/quantity']);
  });

  it('checkPrinting: colours without decoration; a verso colour on a recto print', () => {
    const category = index.productCategories.get(product.categoryId);
    const off = context({ wantDecoration: false, sidePrinted: undefined });
    checkPrinting(off.check, category, false);
    expect(off.fields()).toEqual(['rectoColorCount']);
    const verso = context({ versoColorCount: 2 });
    checkPrinting(verso.check, category, false);
    expect(verso.fields()).toEqual(['versoColorCount']);
  });

  it('checkFinishFlags: a finish on a corrugated case', () => {
    const c = context({ wantVarnishRecto: true });
    checkFinishFlags(c.check, true);
    expect(c.fields()).toEqual(['wantVarnishRecto']);
    const carton = context({ wantVarnishRecto: true });
    checkFinishFlags(carton.check, false);
    expect(carton.fields()).toEqual([]);
  });

  it('checkHotStampings and checkEmbossings: asked for without any, given without being asked for', () => {
    const asked = context({ wantStampingRecto: true, hotStampings: [] });
    checkHotStampings(asked.check);
    expect(asked.fields()).toEqual(['hotStampings']);
    const given = context({
      embossings: [{ type: 'EMBOSSING', width: 10, height: 10, depth: 0.5 }],
    });
    checkEmbossings(given.check);
    expect(given.fields()).toEqual(['embossings']);
  });

  it('checkWindow: a window without a size', () => {
    const c = context({ wantWindow: true });
    checkWindow(c.check, product);
    expect(c.fields()).toEqual(expect.arrayContaining(['windowWidth', 'windowHeight']));
  });

  it('checkExistingTools: an unknown machine, a machine listed twice', () => {
    const machine = index.catalogue.machines[0]!.id;
    const c = context({
      layoutCounts: [
        { machineId: 'NOPE', quantity: 2 },
        { machineId: machine, quantity: 2 },
        { machineId: machine, quantity: 0 },
      ],
    });
    checkExistingTools(c.check);
    expect(c.fields()).toEqual([
      'layoutCounts/0/machineId',
      'layoutCounts/2/machineId',
      'layoutCounts/2/quantity',
    ]);
  });

  it('checkElementFields puts the steps’ issues in step order, under the element’s pointer', () => {
    const issues: PricingIssue[] = checkElementFields(
      { ...carton, lengthDimension: 0, decorationsCount: [], wantVarnishRecto: 'yes' as never },
      2,
      index,
    );
    expect(issues.map((i) => i.pointer)).toEqual([
      '/briefElements/2/lengthDimension',
      '/briefElements/2/decorationsCount',
      '/briefElements/2/wantVarnishRecto',
    ]);
  });
});
