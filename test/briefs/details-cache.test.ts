import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefElements, companies, companyUsers, projects } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { carton } from '../helpers/briefs.ts';
import { requests } from '../helpers/http.ts';

// GET /briefs/{id}/details answered from the kept answer (issue 31, modules/briefs/details-cache.ts):
// a kept answer is byte for byte the full path's, in every encoding, per audience, and is not sent
// any more once anything it shows has changed.

let t: TestApp;
const http = requests(() => t);
let admin: Credentials;
let contact: Credentials;
let outsider: Credentials;
let catalogue: Catalogue;
let companyId: string;

function brief(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Tea box',
    companyId,
    briefElements: [carton(catalogue)],
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}) {
  const created = await http.post(admin, '/api/briefs', brief(overrides));
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const [acme, other] = await t.app.ctx.db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Other' },
    ])
    .returning();
  companyId = acme!.id;
  contact = await makeUser(t, admin, 'contact');
  outsider = await makeUser(t, admin, 'contact');
  await t.app.ctx.db.insert(companyUsers).values([
    { companyId, userId: contact.userId, organisationId: admin.organisationId },
    { companyId: other!.id, userId: outsider.userId, organisationId: admin.organisationId },
  ]);
});
afterAll(() => t.close());

describe('GET /briefs/{id}/details from the kept answer', () => {
  it('sends the full path’s bytes and ETag again, raw, in brotli and in gzip; 304 on its ETag', async () => {
    const id = await create();
    const url = `/api/briefs/${id}/details`;
    const first = await http.get(admin, url);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().briefPrice.totalPrice).toBeGreaterThan(0);
    const again = await http.get(admin, url);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);

    const br = await http.get(admin, url, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers.etag).toBe(first.headers.etag);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);

    const gzip = await http.get(admin, url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(first.body);

    const notModified = await http.get(admin, url, {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
  });

  it('keeps a buyer’s answer apart from the seller’s (no costs), whoever read first', async () => {
    const id = await create();
    const url = `/api/briefs/${id}/details`;
    const seller = await http.get(admin, url);
    const buyer = await http.get(contact, url);
    expect(buyer.statusCode).toBe(200);
    expect(buyer.body).not.toBe(seller.body);
    expect(seller.body).toContain('"productCost"');
    expect(buyer.body).not.toContain('"productCost"');
    expect((await http.get(contact, url)).body).toBe(buyer.body);
    expect((await http.get(admin, url)).body).toBe(seller.body);
  });

  it('answers 404 to a contact of another company, and once the brief is deleted', async () => {
    const id = await create();
    const url = `/api/briefs/${id}/details`;
    expect((await http.get(admin, url)).statusCode).toBe(200);
    expect((await http.get(outsider, url)).statusCode).toBe(404);
    const removed = await http.del(admin, `/api/briefs/${id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await http.get(admin, url)).statusCode).toBe(404);
  });

  it('is not sent once the brief, an element, its company or its project changed', async () => {
    const [project] = await t.app.ctx.db
      .insert(projects)
      .values({ organisationId: admin.organisationId, companyId, name: 'Spring range' })
      .returning();
    const id = await create({ projectId: project!.id });
    const url = `/api/briefs/${id}/details`;
    const before = (await http.get(admin, url)).json();
    expect((await http.get(admin, url)).json()).toEqual(before);

    const renamed = await http.put(admin, `/api/briefs/${id}`, { name: 'Coffee box' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await http.get(admin, url)).json().name).toBe('Coffee box');

    const repriced = await http.put(admin, `/api/briefs/${id}`, {
      briefElements: [
        { ...brief().briefElements[0], decorationsCount: [{ decorationIndex: 0, quantity: 20000 }] },
      ],
    });
    expect(repriced.statusCode, repriced.body).toBe(200);
    const after = (await http.get(admin, url)).json();
    expect(after.briefElements[0].quantity).toBe(20000);
    expect(after.briefPrice.totalPrice).not.toBe(before.briefPrice.totalPrice);

    await t.app.ctx.db.update(companies).set({ name: 'Acme Europe' }).where(eq(companies.id, companyId));
    expect((await http.get(admin, url)).json().company.name).toBe('Acme Europe');
    await t.app.ctx.db.update(projects).set({ name: 'Autumn range' }).where(eq(projects.id, project!.id));
    expect((await http.get(admin, url)).json().project.name).toBe('Autumn range');
    // A write behind the service's back to an element's row (no update of the brief) counts too.
    await t.app.ctx.db
      .update(briefElements)
      .set({ externalId: 'ERP-42' })
      .where(eq(briefElements.briefId, id));
    expect((await http.get(admin, url)).json().briefElements[0].externalId).toBe('ERP-42');
  });

  it('leaves ?version= and ?include= to the full path', async () => {
    const id = await create();
    const url = `/api/briefs/${id}/details`;
    const usual = await http.get(admin, url);
    const all = await http.get(admin, `${url}?include=alternatives`);
    expect(all.json().briefPrice.predictionRequestsComputed.length).toBeGreaterThanOrEqual(
      usual.json().briefPrice.predictionRequestsComputed.length,
    );
    expect((await http.get(admin, `${url}?version=1`)).json().prediction.version).toBe(1);
    expect((await http.get(admin, `${url}?version=9`)).statusCode).toBe(404);
    expect((await http.get(admin, url)).body).toBe(usual.body);
  });
});
