import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefPredictions, briefs, companies, events } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { idOf, carton as stockCarton } from '../helpers/briefs.ts';
import { expectProblem, linker, requests } from '../helpers/http.ts';

let t: TestApp;
const http = requests(() => t);
let admin: Credentials;
let other: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let globexId: string;
let foreignId: string;

/** The shared carton with some fields changed. */
const carton = (overrides: Record<string, unknown> = {}) => ({ ...stockCarton(catalogue), ...overrides });

const estimate = (who: Credentials, payload: unknown, query = '') =>
  http.post(who, `/api/briefs/estimate${query}`, payload);

async function stored() {
  const db = t.app.ctx.db;
  const [b] = await db.select({ n: count() }).from(briefs);
  const [p] = await db.select({ n: count() }).from(briefPredictions);
  const [e] = await db
    .select({ n: count() })
    .from(events)
    .where(eq(events.organisationId, admin.organisationId));
  return { briefs: b!.n, predictions: p!.n, events: e!.n };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const [acme, globex, foreign] = await t.app.ctx.db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
      { organisationId: other.organisationId, name: 'Initech' },
    ])
    .returning();
  acmeId = acme!.id;
  globexId = globex!.id;
  foreignId = foreign!.id;
});
afterAll(() => t.close());

describe('POST /api/briefs/estimate', () => {
  it('prices an unsaved brief with its drawings and process, without the value analysis unless asked', async () => {
    const before = await stored();
    const response = await estimate(admin, { companyId: acmeId, briefElements: [carton()] });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.totals.totalPrice).toBeGreaterThan(0);
    expect(body.breakdown.segments.length).toBeGreaterThan(0);
    expect(body.elements[0].dieLineSvg).toMatch(/^<svg|<\?xml/);
    expect(body.elements[0].operations.length).toBeGreaterThan(0);
    // The value analysis is left out, not answered empty: "no savings" would be a claim.
    expect(body).not.toHaveProperty('optimisations');
    expect(body).not.toHaveProperty('quantityCurve');
    for (const key of ['quantityCurve', 'nextPriceBreak', 'costShares'])
      expect(body.elements[0]).not.toHaveProperty(key);
    const analysed = (
      await estimate(admin, { companyId: acmeId, briefElements: [carton()] }, '?include=analysis')
    ).json();
    // The same price and drawings either way.
    expect({ ...analysed, quantityCurve: undefined, optimisations: undefined }).toMatchObject({
      totals: body.totals,
      unitPrice: body.unitPrice,
      leadTime: body.leadTime,
    });
    expect(analysed.elements[0]).toMatchObject(body.elements[0]);
    expect(await stored()).toEqual(before);
  });

  it('refuses an unknown include (400) and prices nothing', async () => {
    const response = await estimate(
      admin,
      { companyId: acmeId, briefElements: [carton()] },
      '?include=alternatives',
    );
    expect(response.statusCode, response.body).toBe(400);
  });

  it('prices an unsaved brief with its drawings, process and savings (include=analysis), and writes nothing', async () => {
    const before = await stored();
    const response = await estimate(
      admin,
      { companyId: acmeId, briefElements: [carton()] },
      '?include=analysis',
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.totals.totalPrice).toBeGreaterThan(0);
    expect(body.quantity).toBe(5000);
    expect(body.unitPrice).toBeGreaterThan(0);
    expect(body.leadTime.workingDays).toBeGreaterThan(0);
    expect(body.breakdown.segments.length).toBeGreaterThan(0);
    expect(body.quantityCurve.length).toBeGreaterThan(1);
    const [element] = body.elements;
    expect(element.dieLineSvg).toMatch(/^<svg|<\?xml/);
    expect(element.impositionSvg).toContain('<svg');
    expect(element.operations.length).toBeGreaterThan(0);
    expect(element.operations[0].machine.name).toBeTruthy();
    for (const o of body.optimisations) {
      expect(o.changes.length).toBeGreaterThan(0);
      // A pointer into the request body: a field of the element, or of the brief (bundle packing).
      for (const change of o.changes)
        expect(change.pointer).toMatch(/^\/(briefElements\/0\/\w+|packingType)$/);
    }
    expect(body).not.toHaveProperty('briefId');
    expect(await stored()).toEqual(before);
  });

  it('gives the same price as saving the brief would', async () => {
    const body = { companyId: acmeId, briefElements: [carton({ wantVarnishRecto: true })] };
    const estimated = (await estimate(admin, body)).json();
    const created = await http.post(admin, '/api/briefs', body);
    expect(created.statusCode).toBe(201);
    expect(created.json().totalPrice ?? created.json().prediction?.totalPrice).toBeCloseTo(
      estimated.totals.totalPrice,
      2,
    );
  });

  it('says delivery is not included when no zone is chosen, rather than a zero that reads as free (issue 30)', async () => {
    const exWorks = (await estimate(admin, { companyId: acmeId, briefElements: [carton()] })).json();
    expect(exWorks.delivery).toEqual({
      included: false,
      reason: 'NO_DELIVERY_ZONE',
      zone: null,
      pallets: expect.any(Number),
    });
    expect(exWorks.totals.deliveryCost).toBe(0);
    const zoneId = idOf(catalogue.deliveryZones, 'FR-NATIONAL');
    const delivered = (
      await estimate(admin, { companyId: acmeId, deliveryZoneId: zoneId, briefElements: [carton()] })
    ).json();
    expect(delivered.delivery).toMatchObject({ included: true, reason: null, zone: { id: zoneId } });
    expect(delivered.totals.deliveryCost).toBeGreaterThan(0);
    // A buyer's estimate says it too: the flag holds no cost.
    const external = await makeUser(t, admin, 'external_sales');
    await linker(() => t)(external, acmeId);
    const buyer = (await estimate(external, { companyId: acmeId, briefElements: [carton()] })).json();
    expect(buyer.delivery.included).toBe(false);
    expect(buyer.delivery.reason).toBe('NO_DELIVERY_ZONE');
  });

  it('answers the lead time as a breakdown, to a buyer too (issue 30)', async () => {
    const zoneId = idOf(catalogue.deliveryZones, 'FR-NATIONAL');
    const body = { companyId: acmeId, deliveryZoneId: zoneId, briefElements: [carton()] };
    const seller = (await estimate(admin, body)).json();
    const lead = seller.leadTime.steps;
    expect(lead.board.source).toBe('STOCK');
    expect(lead.tooling.items.map((i: { code: string }) => i.code)).toContain('CUTTING_DIE');
    expect(lead.transport).toEqual({ zone: 'FR-NATIONAL', days: 2 });
    expect(seller.leadTime.workingDays).toBe(lead.workingDays);
    expect(lead.workingDays).toBe(lead.procurementDays + lead.queueDays + lead.productionDays + 2);
    expect(seller.elements[0].leadTime.steps.workingDays).toBe(lead.workingDays);
    const external = await makeUser(t, admin, 'external_sales');
    await linker(() => t)(external, acmeId);
    const buyer = (await estimate(external, body)).json();
    expect(buyer.leadTime.steps).toEqual(lead);
  });

  it('a change of quantity or finish changes the price', async () => {
    const base = (await estimate(admin, { companyId: acmeId, briefElements: [carton()] })).json();
    const more = (
      await estimate(admin, {
        companyId: acmeId,
        briefElements: [carton({ decorationsCount: [{ decorationIndex: 0, quantity: 20000 }] })],
      })
    ).json();
    const varnished = (
      await estimate(admin, { companyId: acmeId, briefElements: [carton({ wantVarnishRecto: true })] })
    ).json();
    expect(more.unitPrice).toBeLessThan(base.unitPrice);
    expect(varnished.totals.totalPrice).toBeGreaterThan(base.totals.totalPrice);
  });

  it('validates like POST /briefs: 400 for the shape and 422 for the engine, with pointers, writing nothing', async () => {
    const before = await stored();
    const shape = expectProblem(
      await estimate(admin, { companyId: acmeId, briefElements: [carton({ lengthDimension: -5 })] }),
      400,
    );
    expect(shape.errors!.map((e) => e.pointer)).toContain('/briefElements/0/lengthDimension');
    const unknown = expectProblem(
      await estimate(admin, { companyId: acmeId, briefElements: [carton({ nope: 1 })] }),
      400,
    );
    expect(unknown.errors!.length).toBeGreaterThan(0);
    const engine = expectProblem(
      await estimate(admin, { companyId: acmeId, briefElements: [carton({ lengthDimension: 9000 })] }),
      422,
    );
    expect(engine.errors!.map((e) => e.pointer).join()).toContain('/briefElements/0');
    expectProblem(await estimate(admin, { briefElements: [carton()] }), 400);
    expectProblem(await estimate(admin, { companyId: foreignId, briefElements: [carton()] }), 422);
    expect(await stored()).toEqual(before);
  });

  it('follows the permission matrix and the company scope', async () => {
    const contact = await makeUser(t, admin, 'contact');
    const guest = await makeUser(t, admin, 'guest');
    const external = await makeUser(t, admin, 'external_sales');
    await linker(() => t)(external, acmeId);
    const body = (companyId: string) => ({ companyId, briefElements: [carton()] });
    expectProblem(await estimate(contact, body(acmeId)), 403);
    expectProblem(await estimate(guest, body(acmeId)), 403);
    expect((await estimate(external, body(acmeId))).statusCode).toBe(200);
    expectProblem(await estimate(external, body(globexId)), 403);
    expectProblem(await http.post(null, '/api/briefs/estimate', body(acmeId)), 401);
  });
});
