import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefInput, priceBrief } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
});
afterAll(() => t.close());

const { get, patch } = requests(() => t);

function carton(catalogue: Awaited<ReturnType<typeof loadCatalogue>>): BriefInput {
  const id = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;
  return {
    briefElements: [
      {
        position: 0,
        productId: id(catalogue.products, 'STE'),
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        materialReferenceId: id(catalogue.materialReferences, 'GC1-350'),
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 3,
      },
    ],
  };
}

describe('catalogue', () => {
  it('seeds every new organisation with the whole default catalogue, references mapped to its own ids', async () => {
    const defaults = defaultCatalogue();
    const products = (await get(admin, '/api/products')).json();
    expect(products.map((p: { code: string }) => p.code).sort()).toEqual(
      defaults.products.map((p) => p.code).sort(),
    );
    const categories = (await get(admin, '/api/product-categories')).json() as { id: string }[];
    for (const product of products) expect(categories.map((c) => c.id)).toContain(product.categoryId);
    const machines = (await get(admin, '/api/machines')).json();
    expect(machines).toHaveLength(defaults.machines.length);
    const operationIds = (await get(admin, '/api/operations')).json().map((o: { id: string }) => o.id);
    for (const machine of machines) {
      for (const rate of machine.operations) expect(operationIds).toContain(rate.operationId);
    }
    for (const path of [
      'matters',
      'material-types',
      'material-references',
      'consumables',
      'tooling-rules',
      'packing-cases',
      'pallets',
      'delivery-zones',
    ]) {
      const response = await get(admin, `/api/${path}`);
      expect(response.statusCode, path).toBe(200);
      expect(response.json().length, path).toBeGreaterThan(0);
    }
    // The corrugated boards and compositions, as HIPE's corrugated resources serve them (a page).
    for (const path of ['corrugated-materials', 'corrugated-material-compositions']) {
      const response = await get(admin, `/api/${path}`);
      expect(response.statusCode, path).toBe(200);
      expect(response.json().data.length, path).toBeGreaterThan(0);
    }
    // Two organisations never share ids.
    const otherProducts = (await get(other, '/api/products')).json().map((p: { id: string }) => p.id);
    expect(otherProducts.some((id: string) => products.some((p: { id: string }) => p.id === id))).toBe(false);
  });

  it('prices a brief from the stored catalogue exactly as from the default one', async () => {
    const stored = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    const fromStore = priceBrief(carton(stored), stored);
    const fromDefault = priceBrief(carton(defaultCatalogue()), defaultCatalogue());
    expect(fromStore.briefPrice.totalPrice).toBe(fromDefault.briefPrice.totalPrice);
    expect(fromStore.briefElementPrices[0]!.unitPrice).toBe(fromDefault.briefElementPrices[0]!.unitPrice);
  });

  it('lets an admin edit a rate, and the next price uses it', async () => {
    const before = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    const priceBefore = priceBrief(carton(before), before).briefElementPrices[0]!.unitPrice;
    const press = before.machines.find((m) => m.code === 'OFFSET-XL106')!;
    const response = await patch(admin, `/api/machines/${press.id}`, {
      data: { hourlyRate: press.hourlyRate * 3 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().hourlyRate).toBe(press.hourlyRate * 3);
    const after = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(after.machines.find((m) => m.id === press.id)!.hourlyRate).toBe(press.hourlyRate * 3);
    const priceAfter = priceBrief(carton(after), after).briefElementPrices[0]!.unitPrice;
    expect(priceAfter).toBeGreaterThan(priceBefore);
    const events = await t.app.ctx.database.query<{ event_name: string; updated_columns: string[] }>(
      'select event_name, updated_columns from events where entity_id = $1',
      [press.id],
    );
    expect(events.rows).toContainEqual({
      event_name: 'event.catalogue_entries.updated',
      updated_columns: ['data'],
    });
  });

  it('refuses edits that change a type, add a field, touch a reference or go negative, with pointers', async () => {
    const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    const material = catalogue.materialReferences[0]!;
    const response = await patch(admin, `/api/material-references/${material.id}`, {
      data: { pricePerTonne: 'cheap', colour: 'white', materialTypeId: material.id, grammage: -1 },
    });
    expect(response.statusCode).toBe(400);
    const pointers = response
      .json()
      .errors.map((e: { pointer: string }) => e.pointer)
      .sort();
    expect(pointers).toEqual([
      '/data/colour',
      '/data/grammage',
      '/data/materialTypeId',
      '/data/pricePerTonne',
    ]);
    const unchanged = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(unchanged.materialReferences[0]).toEqual(material);
  });

  it('reads and edits the pricing settings', async () => {
    const settings = (await get(admin, '/api/pricing-settings')).json();
    expect(settings.defaultCommercialMargin).toBeGreaterThan(0);
    const response = await patch(admin, '/api/pricing-settings', { data: { defaultCommercialMargin: 0.3 } });
    expect(response.statusCode).toBe(200);
    expect((await loadCatalogue(t.app.ctx.db, admin.organisationId)).settings.defaultCommercialMargin).toBe(
      0.3,
    );
  });

  it('lets every role read, only admins edit, and hides other tenants', async () => {
    const sales = await makeUser(t, admin, 'sales');
    const contact = await makeUser(t, admin, 'contact');
    const machines = (await get(contact, '/api/machines')).json();
    expect(machines.length).toBeGreaterThan(0);
    const salesPatch = await patch(sales, `/api/machines/${machines[0].id}`, { data: { hourlyRate: 1 } });
    expect(salesPatch.statusCode).toBe(403);
    expect((await get(other, `/api/machines/${machines[0].id}`)).statusCode).toBe(404);
    const foreignPatch = await patch(other, `/api/machines/${machines[0].id}`, { data: { hourlyRate: 1 } });
    expect(foreignPatch.statusCode).toBe(404);
  });
});
