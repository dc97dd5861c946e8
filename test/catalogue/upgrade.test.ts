import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueEntries, catalogueVersions } from '../../src/db/schema/catalogue.ts';
import { events } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { listEntries } from '../../src/modules/catalogue/repository.ts';
import { catalogueRows } from '../../src/modules/catalogue/seed.ts';
import { upgradeCatalogue, upgradeCatalogues } from '../../src/modules/catalogue/upgrade.ts';
import { CATALOGUE_VERSION, catalogueOfVersion } from '../../src/modules/catalogue/versions.ts';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { type BriefInput, type Catalogue, priceBrief } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let untouched: Credentials;
let edited: Credentials;

/** Replaces an organisation's catalogue with the version-1 defaults, as organisations created before versioning have. */
async function seedVersion1(organisationId: string) {
  const db = t.app.ctx.db;
  await db.delete(catalogueEntries).where(eq(catalogueEntries.organisationId, organisationId));
  await db.delete(catalogueVersions).where(eq(catalogueVersions.organisationId, organisationId));
  await db.insert(catalogueEntries).values(catalogueRows(catalogueOfVersion(1), organisationId, null));
}

beforeAll(async () => {
  t = await buildTestApp();
  untouched = await makeOrganisation(t);
  edited = await makeOrganisation(t);
  await seedVersion1(untouched.organisationId);
  await seedVersion1(edited.organisationId);
});
afterAll(() => t.close());

const id = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;

function carton(catalogue: Catalogue): BriefInput {
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

const { patch } = requests(() => t);

const catalogueEvents = (organisationId: string, since: Date) =>
  t.app.ctx.db
    .select({ type: events.type, entityId: events.entityId, updatedColumns: events.updatedColumns })
    .from(events)
    .where(
      and(
        eq(events.organisationId, organisationId),
        eq(events.entity, 'CATALOGUE_ENTRY'),
        gt(events.createdAt, since),
      ),
    );

describe('catalogue upgrade', () => {
  it('keeps a frozen snapshot of the current default catalogue (a changed default needs a new version)', () => {
    expect(catalogueOfVersion(CATALOGUE_VERSION)).toEqual(JSON.parse(JSON.stringify(defaultCatalogue())));
    expect(CATALOGUE_VERSION).toBe(5); // 4: lead-time figures, kraft board, corrugated trays... (issue 30); 5: inline aqueous coating
  });

  it('brings an untouched version-1 catalogue onto the new defaults, with events, and prices as the defaults do', async () => {
    const before = await loadCatalogue(t.app.ctx.db, untouched.organisationId);
    expect(before.materialReferences.some((m) => m.code === 'GC1-340')).toBe(false);
    expect(before.settings.routeSelection).toBeUndefined();
    const priceBefore = priceBrief(carton(before), before).briefPrice.totalPrice;
    const since = new Date();

    await upgradeCatalogues(t.app.ctx); // what every node runs at start-up

    const after = await loadCatalogue(t.app.ctx.db, untouched.organisationId);
    const defaults = defaultCatalogue();
    // New entries by code, new fields, recalibrated figures.
    expect(after.materialReferences.map((m) => m.code).sort()).toEqual(
      defaults.materialReferences.map((m) => m.code).sort(),
    );
    expect(after.settings).toEqual(defaults.settings);
    expect(after.machines.find((m) => m.code === 'DIGITAL-B2')!.hourlyRate).toBe(115);
    const press = after.machines.find((m) => m.code === 'OFFSET-XL106')!;
    expect(press.operations[0]!.setupHours).toBe(0.25);
    expect(press.operations[0]!.wasteByRunLength).toHaveLength(3);
    expect(press.operations[0]!.operationId).toBe(id(after.operations, 'PRINT_OFFSET'));
    // Every record equals the default one, references as this organisation's ids.
    for (const kind of ['machines', 'materialReferences', 'products', 'packingCases', 'pallets'] as const) {
      expect(after[kind].length, kind).toBe(defaults[kind].length);
    }
    const sheetFormats = after.materialReferences.find((m) => m.code === 'GC1-350')!.sheetFormats;
    expect(sheetFormats).toEqual(defaults.materialReferences.find((m) => m.code === 'GC1-350')!.sheetFormats);

    // A brief priced before and after: now exactly as the new default catalogue prices it.
    const priceAfter = priceBrief(carton(after), after).briefPrice.totalPrice;
    expect(priceAfter).not.toBe(priceBefore);
    expect(priceAfter).toBe(priceBrief(carton(defaults), defaults).briefPrice.totalPrice);

    const recorded = await catalogueEvents(untouched.organisationId, since);
    // Records new since version 1: GC1-340 (v2); kraft folding boxboard and the corrugated tray (v4);
    // the inline aqueous coating operation and its coating (v5).
    expect(
      recorded
        .filter((e) => e.type === 'CREATE')
        .map((e) => e.entityId)
        .sort(),
    ).toEqual(
      [
        id(after.materialReferences, 'GC1-340'),
        id(after.materialTypes, 'KRAFT-FBB'),
        id(after.materialReferences, 'KRAFT-FBB-300'),
        id(after.materialReferences, 'KRAFT-FBB-350'),
        id(after.products, 'TRAY-CORR'),
        id(after.operations, 'AQUEOUS_COATING'),
        id(after.consumables, 'COATING-AQUEOUS'),
      ].sort(),
    );
    expect(recorded.filter((e) => e.type === 'UPDATE').length).toBeGreaterThan(5);
    const [version] = await t.app.ctx.db
      .select()
      .from(catalogueVersions)
      .where(eq(catalogueVersions.organisationId, untouched.organisationId));
    expect(version!.version).toBe(CATALOGUE_VERSION);
  });

  it("keeps what the organisation's estimators edited and still adds the new fields around it", async () => {
    const before = await loadCatalogue(t.app.ctx.db, edited.organisationId);
    const digital = before.machines.find((m) => m.code === 'DIGITAL-B2')!;
    expect(
      (await patch(edited, `/api/machines/${digital.id}`, { data: { hourlyRate: 99 } })).statusCode,
    ).toBe(200);
    const press = before.machines.find((m) => m.code === 'OFFSET-XL106')!;
    const operations = [{ ...press.operations[0]!, setupHours: 0.5 }];
    expect((await patch(edited, `/api/machines/${press.id}`, { data: { operations } })).statusCode).toBe(200);
    expect(
      (await patch(edited, '/api/pricing-settings', { data: { valueAnalysis: { grammageTolerance: 0.08 } } }))
        .statusCode,
    ).toBe(200);

    // Two nodes starting together: the advisory lock and the re-read version make one of them a no-op.
    const results = await Promise.all([
      upgradeCatalogue(t.app.ctx, edited.organisationId),
      upgradeCatalogue(t.app.ctx, edited.organisationId),
    ]);
    expect(results.map((r) => r.changed).sort((a, b) => a - b)[0]).toBe(0);

    const after = await loadCatalogue(t.app.ctx.db, edited.organisationId);
    expect(after.machines.find((m) => m.code === 'DIGITAL-B2')!.hourlyRate).toBe(99);
    const upgradedPress = after.machines.find((m) => m.code === 'OFFSET-XL106')!.operations[0]!;
    expect(upgradedPress.setupHours).toBe(0.5); // edited: kept
    expect(upgradedPress.setupHoursPerColour).toBe(0.05); // untouched default: recalibrated
    expect(upgradedPress.wasteByRunLength).toHaveLength(3); // new field: added
    expect(after.settings.valueAnalysis.grammageTolerance).toBe(0.08); // edited (the new default is 0.1)
    expect(after.settings.valueAnalysis.maxQuantityFactor).toBe(2); // new field beside the edit
    expect(after.settings.routeSelection).toEqual(defaultCatalogue().settings.routeSelection);
    expect(after.materialReferences.some((m) => m.code === 'GC1-340')).toBe(true);
  });

  it('does not bring back a record the organisation removed, and keeps an edited list whole', async () => {
    const org = await makeOrganisation(t);
    await seedVersion1(org.organisationId);
    const before = await loadCatalogue(t.app.ctx.db, org.organisationId);
    const digital = before.machines.find((m) => m.code === 'DIGITAL-B2')!;
    await t.app.ctx.db
      .update(catalogueEntries)
      .set({ deletedAt: new Date() })
      .where(eq(catalogueEntries.id, digital.id));
    const board = before.materialReferences.find((m) => m.code === 'GC1-350')!;
    const sheetFormats = [board.sheetFormats[0]!];
    const edit = await patch(org, `/api/material-references/${board.id}`, { data: { sheetFormats } });
    expect(edit.statusCode).toBe(200);

    expect((await upgradeCatalogue(t.app.ctx, org.organisationId)).to).toBe(CATALOGUE_VERSION);

    const after = await loadCatalogue(t.app.ctx.db, org.organisationId);
    expect(after.machines.some((m) => m.code === 'DIGITAL-B2')).toBe(false);
    const upgradedBoard = after.materialReferences.find((m) => m.code === 'GC1-350')!;
    expect(upgradedBoard.sheetFormats).toEqual(sheetFormats); // edited: kept whole
    const defaults = defaultCatalogue().materialReferences.find((m) => m.code === 'GC1-350')!;
    expect(upgradedBoard.grain).toBe(defaults.grain); // a new field beside it
    expect(after.settings).toEqual(defaultCatalogue().settings);
  });

  it('changes nothing when run again', async () => {
    const entries = await listEntries(t.app.ctx.db, edited.organisationId);
    const since = new Date();
    const again = await upgradeCatalogue(t.app.ctx, edited.organisationId);
    expect(again).toEqual({ from: CATALOGUE_VERSION, to: CATALOGUE_VERSION, changed: 0 });
    await upgradeCatalogues(t.app.ctx);
    expect(await listEntries(t.app.ctx.db, edited.organisationId)).toEqual(entries);
    expect(await catalogueEvents(edited.organisationId, since)).toEqual([]);
  });

  it('records the current version for organisations created now, so they are not upgraded', async () => {
    const fresh = await makeOrganisation(t);
    const [version] = await t.app.ctx.db
      .select()
      .from(catalogueVersions)
      .where(eq(catalogueVersions.organisationId, fresh.organisationId));
    expect(version!.version).toBe(CATALOGUE_VERSION);
    expect(await upgradeCatalogue(t.app.ctx, fresh.organisationId)).toMatchObject({ changed: 0 });
  });
});

describe('PATCH of the optional fields the engine knows', () => {
  let admin: Credentials;
  beforeAll(async () => {
    admin = await makeOrganisation(t);
    await seedVersion1(admin.organisationId); // stored entries without the new fields
  });

  it('lets an admin add a field the stored record lacks, and the next price uses it', async () => {
    const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(catalogue.settings.routeSelection).toBeUndefined();
    const settings = await patch(admin, '/api/pricing-settings', {
      data: {
        corrugatedPacking: 'AS_BRIEF',
        routeSelection: { toolingRepeats: 3 },
        valueAnalysis: { maxQuantityFactor: 3 },
      },
    });
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({
      corrugatedPacking: 'AS_BRIEF',
      routeSelection: { toolingRepeats: 3 },
      valueAnalysis: {
        maxQuantityFactor: 3,
        grammageTolerance: catalogue.settings.valueAnalysis.grammageTolerance,
      },
    });
    const product = catalogue.products.find((p) => p.code === 'RTE')!;
    const style = await patch(admin, `/api/products/${product.id}`, {
      data: { requiredGrain: 'BLANK_HEIGHT', mixedGrainAllowed: true },
    });
    expect(style.statusCode).toBe(200);
    const board = catalogue.materialReferences.find((m) => m.code === 'GC1-350')!;
    const formats = board.sheetFormats.map((f) => ({ ...f, grain: 'SHORT' }));
    const grain = await patch(admin, `/api/material-references/${board.id}`, {
      data: { grain: 'LONG', sheetFormats: formats },
    });
    expect(grain.statusCode).toBe(200);
    const press = catalogue.machines.find((m) => m.code === 'OFFSET-XL106')!;
    const operations = [{ ...press.operations[0]!, wasteByRunLength: [{ upTo: 1_000_000, rate: 0.5 }] }];
    expect((await patch(admin, `/api/machines/${press.id}`, { data: { operations } })).statusCode).toBe(200);

    const after = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(after.products.find((p) => p.id === product.id)).toMatchObject({
      requiredGrain: 'BLANK_HEIGHT',
      mixedGrainAllowed: true,
    });
    expect(after.materialReferences.find((m) => m.id === board.id)!.sheetFormats[0]!.grain).toBe('SHORT');
    // A 50% spoilage on the offset press makes the carton dearer.
    const price = (c: Catalogue) => priceBrief(carton(c), c).briefPrice.totalPrice;
    expect(price(after)).toBeGreaterThan(price(catalogue));
  });

  it('validates the new fields with pointers and changes nothing', async () => {
    const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    const settingsBefore = catalogue.settings;
    const bad = await patch(admin, '/api/pricing-settings', {
      data: {
        corrugatedPacking: 'LOOSE',
        routeSelection: { toolingRepeats: 'many' },
        valueAnalysis: { maxQuantityFactor: -1, colour: 1 },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual([
      '/data/corrugatedPacking',
      '/data/routeSelection/toolingRepeats',
      '/data/valueAnalysis/colour',
      '/data/valueAnalysis/maxQuantityFactor',
    ]);
    const product = catalogue.products[0]!;
    const badStyle = await patch(admin, `/api/products/${product.id}`, {
      data: { requiredGrain: 'DIAGONAL', mixedGrainAllowed: 'yes', grain: 'LONG' },
    });
    expect(badStyle.statusCode).toBe(400);
    expect(
      badStyle
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
    ).toEqual(['/data/grain', '/data/mixedGrainAllowed', '/data/requiredGrain']);
    const press = catalogue.machines.find((m) => m.code === 'FFG-1628')!;
    const operations = [{ ...press.operations[0]!, wasteByRunLength: [{ upTo: 1000, rate: 1.5 }] }];
    const badRate = await patch(admin, `/api/machines/${press.id}`, { data: { operations } });
    expect(badRate.statusCode).toBe(400);
    expect(badRate.json().errors[0].pointer).toBe('/data/operations/0/wasteByRunLength/0/rate');
    const unchanged = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(unchanged.settings).toEqual(settingsBefore);
    expect(unchanged.products[0]).toEqual(product);
  });

  it('lets only admins set them, and only in their own organisation', async () => {
    const sales = await makeUser(t, admin, 'sales');
    const other = await makeOrganisation(t);
    const product = (await loadCatalogue(t.app.ctx.db, admin.organisationId)).products[0]!;
    const payload = { data: { requiredGrain: 'ANY' } };
    expect((await patch(sales, `/api/products/${product.id}`, payload)).statusCode).toBe(403);
    expect((await patch(other, `/api/products/${product.id}`, payload)).statusCode).toBe(404);
    expect(
      (await patch(sales, '/api/pricing-settings', { data: { corrugatedPacking: 'BUNDLE' } })).statusCode,
    ).toBe(403);
  });
});
