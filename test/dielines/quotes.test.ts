/**
 * The die-line files of what was quoted and ordered (docs/dielines.md, "Quote items and
 * articles") and the whole-brief template: a quote line keeps the version and position it was
 * quoted at (the brief re-priced later changes the brief's file, not the line's), an article's
 * element (of a brief, or standalone), visibility (a contact of the company downloads; another
 * company's contact and another tenant get 404), and every file read back by third-party readers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyUsers } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { readCf2 } from '../../src/modules/dielines/cf2-reader.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { readDxf } from '../dielines/dxf-read.ts';
import { readTemplate } from '../dielines/pdf-read.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, expectProblem, requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let contact: Credentials;
let stranger: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let brief: { id: string; code: string; briefElements: { id: string }[] };
let quote: { id: string; items: { id: string; children: { id: string; briefElementId: string }[] }[] };

const idOf = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;

const { get } = requests(() => t);
const send = caller(() => t);

const element = (position: number, code: string, length: number) => ({
  position,
  productId: idOf(catalogue.products, code),
  lengthDimension: length,
  widthDimension: 40,
  heightDimension: 180,
  materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
  decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
});

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
  contact = await makeUser(t, admin, 'contact');
  stranger = await makeUser(t, admin, 'contact');
  await t.app.ctx.db.insert(companyUsers).values([
    { companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId },
    { companyId: globex!.id, userId: stranger.userId, organisationId: admin.organisationId },
  ]);
  const created = await send(admin, 'POST', '/api/briefs', {
    name: 'Tea range',
    companyId: acmeId,
    briefElements: [element(0, 'RTE', 120), element(1, 'RTE', 90)],
  });
  expect(created.statusCode, created.body).toBe(201);
  brief = created.json();
  const quoted = await send(admin, 'POST', '/api/quotes', { companyId: acmeId, briefIds: [brief.id] });
  expect(quoted.statusCode, quoted.body).toBe(201);
  quote = quoted.json();
  // The brief changes after it was quoted: version 2, the second element longer.
  const changed = await send(admin, 'PUT', `/api/briefs/${brief.id}`, {
    briefElements: [element(0, 'RTE', 120), element(1, 'RTE', 150)],
  });
  expect(changed.statusCode, changed.body).toBe(200);
  expect(changed.json().currentVersion).toBe(2);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

const lineOf = (position: number) =>
  quote.items[0]!.children.find((c) => c.briefElementId === brief.briefElements[position]!.id)!;
const itemUrl = (position: number, kind = 'die-line', query = '') =>
  `/api/quotes/${quote.id}/quote-items/${lineOf(position).id}/${kind}${query}`;

describe('GET /api/quotes/:id/quote-items/:itemId/die-line', () => {
  it('answers the version and position the line was quoted at, byte for byte the brief version’s file', async () => {
    for (const format of ['pdf', 'dxf', 'cf2']) {
      const line = await get(admin, itemUrl(1, 'die-line', `?format=${format}`));
      expect(line.statusCode, line.body).toBe(200);
      expect(line.headers['content-disposition']).toContain(`${brief.code}-v1-2-RTE-90x40x180.${format}`);
      const v1 = await get(admin, `/api/briefs/${brief.id}/elements/1/die-line?format=${format}&version=1`);
      expect(line.headers.etag).toBe(v1.headers.etag);
      expect(Buffer.compare(line.rawPayload, v1.rawPayload)).toBe(0);
      const current = await get(admin, `/api/briefs/${brief.id}/elements/1/die-line?format=${format}`);
      expect(current.headers['content-disposition']).toContain('-v2-2-RTE-150x40x180');
      expect(current.headers.etag).not.toBe(line.headers.etag);
    }
  });

  it('draws the engine’s geometry of the quoted version (DXF lengths, CF2 cuts, PDF layers)', async () => {
    const details = (await get(admin, `/api/briefs/${brief.id}/details?version=1`)).json();
    const cad = details.briefComputed.briefElements[1].cad;
    const dxf = readDxf((await get(admin, itemUrl(1, 'die-line', '?format=dxf'))).body);
    expect(Math.abs(dxf.lengths.CUT! - cad.cutRuleLengthMm)).toBeLessThan(0.01);
    expect(Math.abs(dxf.lengths.CREASE! - cad.creaseRuleLengthMm)).toBeLessThan(0.01);
    const cf2 = readCf2((await get(admin, itemUrl(1), { accept: 'application/x-cf2' })).body);
    expect(cf2.flattened.filter((e) => e.type === 1)).toHaveLength(cad.cutSegments);
    const pdf = await readTemplate((await get(admin, itemUrl(1))).rawPayload);
    expect(pdf.layers.map((l) => l.name)).toEqual(expect.arrayContaining(['Cutting', 'Creasing', 'Bleed']));
    expect(pdf.pages[0]!.text.join(' ')).toContain(`${brief.code} v1 #2`);
  });

  it('answers the imposition sheet, ETags and 304', async () => {
    const sheet = await get(admin, itemUrl(0, 'imposition-sheet', '?format=cf2'));
    expect(sheet.statusCode, sheet.body).toBe(200);
    expect(sheet.headers['content-disposition']).toContain(`${brief.code}-v1-1-RTE-120x40x180-sheet.cf2`);
    expect(readCf2(sheet.body).main.calls.length).toBeGreaterThan(1);
    const cached = await get(admin, itemUrl(0, 'imposition-sheet', '?format=cf2'), {
      'if-none-match': sheet.headers.etag as string,
    });
    expect(cached.statusCode).toBe(304);
  });

  it('lets the company’s contact download once published; another company’s contact and another tenant get 404', async () => {
    // A draft is internal: the contact does not see it, nor its lines.
    expectProblem(await get(contact, itemUrl(0, 'die-line', '?format=dxf')), 404, 'not_found');
    const published = await send(admin, 'PUT', `/api/quotes/${quote.id}`, { state: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    expect((await get(contact, itemUrl(0, 'die-line', '?format=dxf'))).statusCode).toBe(200);
    expectProblem(await get(stranger, itemUrl(0, 'die-line', '?format=dxf')), 404, 'not_found');
    expectProblem(await get(other, itemUrl(0, 'die-line', '?format=dxf')), 404, 'not_found');
  });

  it('refuses a line that is not an element (404), an unknown item (404), bad input (400, 406)', async () => {
    const parent = quote.items[0]!.id;
    expectProblem(
      await get(admin, `/api/quotes/${quote.id}/quote-items/${parent}/die-line`),
      404,
      'not_found',
    );
    expectProblem(
      await get(admin, `/api/quotes/${quote.id}/quote-items/${brief.briefElements[0]!.id}/die-line`),
      404,
      'not_found',
    );
    expectProblem(await get(admin, itemUrl(0, 'die-line', '?format=svg')), 400, 'validation_failed');
    expectProblem(await get(admin, itemUrl(0, 'die-line', '?version=1')), 400, 'validation_failed');
    expectProblem(await get(admin, itemUrl(0), { accept: 'image/png' }), 406, 'not_acceptable');
    expectProblem(
      await get(admin, `/api/quotes/${quote.id}/quote-items/nope/die-line`),
      400,
      'validation_failed',
    );
  });
});

describe('GET /api/briefs/:id/die-lines (the whole brief)', () => {
  it('puts every element on its own page, layers kept, page size per element', async () => {
    const response = await get(admin, `/api/briefs/${brief.id}/die-lines?version=1`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`${brief.code}-v1-die-lines.pdf`);
    const read = await readTemplate(response.rawPayload);
    expect(read.pages).toHaveLength(2);
    expect(read.layers.map((l) => l.name)).toEqual(
      expect.arrayContaining(['Cutting', 'Creasing', 'Safe zone']),
    );
    expect(read.pages[0]!.text.join(' ')).toContain(`${brief.code} v1 #1`);
    expect(read.pages[1]!.text.join(' ')).toContain(`${brief.code} v1 #2`);
    const details = (await get(admin, `/api/briefs/${brief.id}/details?version=1`)).json();
    details.briefComputed.briefElements.forEach(
      (e: { dieLine: { width: number; height: number } }, i: number) => {
        expect(Math.abs(read.pages[i]!.widthMm - (e.dieLine.width + 6))).toBeLessThan(0.01);
        expect(Math.abs(read.pages[i]!.heightMm - (e.dieLine.height + 6))).toBeLessThan(0.01);
      },
    );
    const cached = await get(admin, `/api/briefs/${brief.id}/die-lines?version=1`, {
      'if-none-match': response.headers.etag as string,
    });
    expect(cached.statusCode).toBe(304);
  });

  it('is a PDF only, visible as the brief', async () => {
    expectProblem(await get(admin, `/api/briefs/${brief.id}/die-lines?format=dxf`), 400, 'validation_failed');
    expectProblem(
      await get(admin, `/api/briefs/${brief.id}/die-lines`, { accept: 'image/vnd.dxf' }),
      406,
      'not_acceptable',
    );
    expect((await get(contact, `/api/briefs/${brief.id}/die-lines`)).statusCode).toBe(200);
    expectProblem(await get(stranger, `/api/briefs/${brief.id}/die-lines`), 404, 'not_found');
    expectProblem(await get(other, `/api/briefs/${brief.id}/die-lines`), 404, 'not_found');
    expectProblem(await get(admin, `/api/briefs/${brief.id}/die-lines?version=7`), 404, 'not_found');
  });
});

describe('GET /api/articles/:id/die-line', () => {
  it('answers the die-line of the article’s brief element (current version, or ?version=)', async () => {
    const created = await send(admin, 'POST', '/api/articles', {
      name: 'Tea box long',
      code: 'TEA-L',
      companyId: acmeId,
      briefElementId: brief.briefElements[1]!.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const current = await get(admin, `/api/articles/${id}/die-line?format=dxf`);
    expect(current.statusCode, current.body).toBe(200);
    expect(current.headers['content-disposition']).toContain(`${brief.code}-v2-2-RTE-150x40x180.dxf`);
    const v1 = await get(admin, `/api/articles/${id}/die-line?format=dxf&version=1`);
    expect(v1.headers['content-disposition']).toContain('-v1-2-RTE-90x40x180.dxf');
    expectProblem(await get(admin, `/api/articles/${id}/die-line?version=9`), 404, 'not_found');
    const sheet = await get(admin, `/api/articles/${id}/imposition-sheet?format=pdf`);
    expect(sheet.statusCode).toBe(200);
    expect((await readTemplate(sheet.rawPayload)).pages).toHaveLength(1);
    expect((await get(contact, `/api/articles/${id}/die-line`)).statusCode).toBe(200);
    expectProblem(await get(stranger, `/api/articles/${id}/die-line`), 404, 'not_found');
    expectProblem(await get(other, `/api/articles/${id}/die-line`), 404, 'not_found');
  });

  it('answers a standalone element’s own prediction, named after the article', async () => {
    const { position: _p, ...standalone } = element(0, 'RTE', 100);
    const created = await send(admin, 'POST', '/api/articles', {
      name: 'Loose box',
      code: 'LOOSE-1',
      companyId: acmeId,
      briefElement: standalone,
    });
    expect(created.statusCode, created.body).toBe(201);
    const response = await get(admin, `/api/articles/${created.json().id}/die-line?format=cf2`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain('LOOSE-1-v1-1-RTE-100x40x180.cf2');
    expect(readCf2(response.body).flattened.length).toBeGreaterThan(0);
  });

  it('404 for an article without an element, 409 for an unpriced standalone element', async () => {
    const bare = await send(admin, 'POST', '/api/articles', {
      name: 'Bare',
      code: 'BARE-1',
      companyId: acmeId,
    });
    expectProblem(await get(admin, `/api/articles/${bare.json().id}/die-line`), 404, 'not_found');
    const unpriced = await send(admin, 'POST', `/api/articles/${bare.json().id}/brief-element`, {
      lengthDimension: 100,
      widthDimension: 50,
      heightDimension: 20,
    });
    expect(unpriced.statusCode, unpriced.body).toBe(200);
    expectProblem(
      await get(admin, `/api/articles/${bare.json().id}/die-line`),
      409,
      'prediction_not_available',
    );
  });
});
