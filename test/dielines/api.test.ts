/**
 * The die-line downloads of a brief element over HTTP: format by ?format= and Accept, file names,
 * ETags and 304, the brief's visibility (a contact of its company may download; another company's
 * contact and another tenant get 404), versions, and problems (400 unknown format, 406 Accept).
 * The files themselves are checked by third-party readers in test/dielines/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyUsers } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { readCf2 } from '../../src/modules/dielines/cf2-reader.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { readDxf } from '../dielines/dxf-read.ts';
import { readTemplate } from '../dielines/pdf-read.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { carton, idOf } from '../helpers/briefs.ts';
import { expectProblem, requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let globexId: string;
let brief: { id: string; code: string };

const { get, post } = requests(() => t);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const [acme, globex] = await t.app.ctx.db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
    ])
    .returning();
  acmeId = acme!.id;
  globexId = globex!.id;
  const response = await post(admin, '/api/briefs', {
    name: 'Tea box',
    companyId: acmeId,
    // The shared carton as a reverse tuck end.
    briefElements: [{ ...carton(catalogue), productId: idOf(catalogue.products, 'RTE') }],
  });
  expect(response.statusCode, response.body).toBe(201);
  brief = response.json();
}, 300_000);

afterAll(async () => {
  await t?.close();
});

const url = (query = '') => `/api/briefs/${brief.id}/elements/0/die-line${query}`;

describe('GET /api/briefs/:id/elements/:elementIndex/die-line', () => {
  it('answers the PDF template by default, named after the brief, element, product and size', async () => {
    const response = await get(admin, url());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const stem = `${brief.code}-v1-1-RTE-120x40x180`;
    expect(response.headers['content-disposition']).toContain(`filename="${stem}.pdf"`);
    const read = await readTemplate(response.rawPayload);
    expect(read.layers.map((l) => l.name)).toContain('Cutting');
    const text = read.pages[0]!.text.join(' ');
    expect(text).toContain(`${brief.code} v1 #1`);
    expect(text).toContain('120 x 40 x 180 mm');
    expect(text).toContain('front');
  });

  it('answers DXF and CF2 by ?format= and by Accept, with the engine’s rule lengths', async () => {
    const details = (await get(admin, `/api/briefs/${brief.id}/details`)).json();
    const cad = details.briefComputed.briefElements[0].cad;
    const dxf = await get(admin, url('?format=dxf'));
    expect(dxf.statusCode).toBe(200);
    expect(dxf.headers['content-type']).toBe('image/vnd.dxf');
    expect(dxf.headers['content-disposition']).toContain('.dxf"');
    const read = readDxf(dxf.body);
    expect(Math.abs(read.lengths.CUT! - cad.cutRuleLengthMm)).toBeLessThan(0.01);
    expect(Math.abs(read.lengths.CREASE! - cad.creaseRuleLengthMm)).toBeLessThan(0.01);

    const byAccept = await get(admin, url(), { accept: 'text/html;q=0.9, application/x-cf2' });
    expect(byAccept.statusCode).toBe(200);
    expect(byAccept.headers['content-type']).toBe('application/x-cf2');
    expect(byAccept.headers.vary).toContain('Accept');
    expect(readCf2(byAccept.body).flattened.filter((e) => e.type === 1)).toHaveLength(cad.cutSegments);
    // ?format= wins over Accept.
    const both = await get(admin, url('?format=dxf'), { accept: 'application/pdf' });
    expect(both.headers['content-type']).toBe('image/vnd.dxf');
    // Quality values decide between two of ours.
    const weighted = await get(admin, url(), { accept: 'application/pdf;q=0.5, image/vnd.dxf' });
    expect(weighted.headers['content-type']).toBe('image/vnd.dxf');
  });

  it('refuses an unknown format (400) and an Accept it cannot meet (406)', async () => {
    expectProblem(await get(admin, url('?format=svg')), 400, 'validation_failed');
    const problem = expectProblem(await get(admin, url(), { accept: 'image/png' }), 406, 'not_acceptable');
    expect(JSON.stringify(problem)).toContain('image/vnd.dxf');
  });

  it('gives a stable ETag and answers 304 to If-None-Match', async () => {
    const first = await get(admin, url('?format=cf2'));
    const second = await get(admin, url('?format=cf2'));
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
    const pdfA = await get(admin, url());
    const pdfB = await get(admin, url());
    expect(pdfB.headers.etag).toBe(pdfA.headers.etag);
    expect(pdfB.headers.etag).not.toBe(first.headers.etag);
    const cached = await get(admin, url('?format=cf2'), { 'if-none-match': first.headers.etag as string });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers.etag).toBe(first.headers.etag);
    const stale = await get(admin, url('?format=cf2'), { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
  });

  it('serves a version by ?version=, 404 for a version that does not exist', async () => {
    const v1 = await get(admin, url('?format=dxf&version=1'));
    expect(v1.statusCode).toBe(200);
    expectProblem(await get(admin, url('?format=dxf&version=9')), 404, 'not_found');
    expectProblem(await get(admin, `/api/briefs/${brief.id}/elements/5/die-line`), 404, 'not_found');
  });

  it('lets a contact of the brief’s company download; another company’s contact and another tenant get 404', async () => {
    const contact = await makeUser(t, admin, 'contact');
    await t.app.ctx.db
      .insert(companyUsers)
      .values({ companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId });
    const mine = await get(contact, url('?format=cf2'));
    expect(mine.statusCode, mine.body).toBe(200);

    const stranger = await makeUser(t, admin, 'contact');
    await t.app.ctx.db
      .insert(companyUsers)
      .values({ companyId: globexId, userId: stranger.userId, organisationId: admin.organisationId });
    expectProblem(await get(stranger, url('?format=cf2')), 404, 'not_found');
    expectProblem(await get(other, url('?format=cf2')), 404, 'not_found');
  });

  it('answers the imposition sheet: CF2 calling the blank once per up, DXF with ups x the rules', async () => {
    const details = (await get(admin, `/api/briefs/${brief.id}/details`)).json();
    const cad = details.briefComputed.briefElements[0].cad;
    const cf2 = await get(admin, `/api/briefs/${brief.id}/elements/0/imposition-sheet?format=cf2`);
    expect(cf2.statusCode, cf2.body).toBe(200);
    expect(cf2.headers['content-disposition']).toContain(`${brief.code}-v1-1-RTE-120x40x180-sheet.cf2`);
    const doc = readCf2(cf2.body);
    const ups = doc.main.calls.length;
    expect(ups).toBeGreaterThan(1);
    const dxf = readDxf(
      (await get(admin, `/api/briefs/${brief.id}/elements/0/imposition-sheet?format=dxf`)).body,
    );
    expect(dxf.counts.CUT).toBe(ups * cad.cutSegments);
    expect(Math.abs(dxf.lengths.CUT! - ups * cad.cutRuleLengthMm)).toBeLessThan(0.01 * ups);
    const pdf = await get(admin, `/api/briefs/${brief.id}/elements/0/imposition-sheet`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const other = await get(admin, `/api/briefs/${brief.id}/elements/0/imposition-sheet`, {
      'if-none-match': pdf.headers.etag as string,
    });
    expect(other.statusCode).toBe(304);
  });

  it('needs a credential', async () => {
    const response = await get(null, url());
    expectProblem(response, 401);
  });
});
