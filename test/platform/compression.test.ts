import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../src/db/schema/orders.ts';
import { projects } from '../../src/db/schema/organisation-data.ts';
import { companies } from '../../src/db/schema/platform.ts';
import { API_CSP } from '../../src/platform/security-headers.ts';
import { auth, buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

// HTTP compression (issue 31): br/gzip by Accept-Encoding for text answers of 1 KB and more, never
// for PDFs or other binaries; the security headers and ETags keep their meaning.

let t: TestApp;
let admin: Credentials;
let project: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  const [company] = await t.app.ctx.db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Compressed Ltd' })
    .returning({ id: companies.id });
  const [row] = await t.app.ctx.db
    .insert(projects)
    .values({ organisationId: admin.organisationId, companyId: company!.id, name: 'Boxes' })
    .returning({ id: projects.id });
  project = row!.id;
  // Enough companies for a list answer well above the 1 KB threshold.
  await t.app.ctx.db.insert(companies).values(
    Array.from({ length: 40 }, (_, i) => ({
      organisationId: admin.organisationId,
      name: `Company number ${i} with a fairly long name`,
    })),
  );
});
afterAll(() => t.close());

const http = requests(() => t);
const get = (url: string, headers: Record<string, string> = {}) => http.get(admin, url, headers);

async function upload(filename: string, type: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type }), filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${project}/files`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')!, ...auth(admin) },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

/** The security headers every API answer carries, compressed or not. */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(String(headers['content-security-policy'])).toContain("default-src 'none'");
  expect(API_CSP['default-src']).toEqual(["'none'"]);
}

describe('HTTP compression', () => {
  it('sends a large JSON answer as brotli when br is accepted, gzip when only gzip is', async () => {
    const plain = await get('/api/companies?limit=50');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/api/companies?limit=50', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expectSecurityHeaders(br.headers);
    expect(br.headers['x-request-id']).toBeTruthy();

    const gzip = await get('/api/companies?limit=50', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
    expectSecurityHeaders(gzip.headers);
  });

  it('sends the answer as is for identity, an unknown encoding, or no Accept-Encoding', async () => {
    const plain = await get('/api/companies?limit=50');
    for (const header of ['identity', 'compress', 'deflate', 'br;q=0, gzip;q=0']) {
      const response = await get('/api/companies?limit=50', { 'accept-encoding': header });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe(plain.body);
    }
  });

  it('does not compress answers under 1 KB', async () => {
    const me = await get('/api/users/me', { 'accept-encoding': 'br, gzip' });
    expect(me.statusCode).toBe(200);
    expect(me.rawPayload.length).toBeLessThan(1024);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.json().id).toBe(admin.userId);
    expectSecurityHeaders(me.headers);
  });

  it('compresses problem+json answers that are large, and keeps their type', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: { ...auth(admin), 'accept-encoding': 'gzip' },
      payload: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`unknown_field_${i}`, i])),
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.headers['content-encoding']).toBe('gzip');
    const problem = JSON.parse(gunzipSync(response.rawPayload).toString());
    expect(problem.status).toBe(400);
    expect(problem.errors.length).toBeGreaterThan(10);
    expectSecurityHeaders(response.headers);
  });

  it('never compresses a PDF or a binary file, and keeps its strong ETag', async () => {
    // A PDF-looking file of 20 KB of text: compressible bytes, still sent as they are.
    const pdfBytes = Buffer.from(`%PDF-1.4\n${'0 0 0 rg BT /F1 12 Tf (hello) Tj ET\n'.repeat(600)}%%EOF\n`);
    const pdf = await upload('drawing.pdf', 'application/pdf', pdfBytes);
    const bin = await upload('data.bin', 'application/octet-stream', Buffer.alloc(20_000, 7));
    for (const [file, bytes] of [
      [pdf, pdfBytes],
      [bin, Buffer.alloc(20_000, 7)],
    ] as const) {
      const response = await get(`/api/projects/${project}/files/${file.id}`, {
        'accept-encoding': 'br, gzip',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.rawPayload.equals(bytes)).toBe(true);
      expect(response.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect(Number(response.headers['content-length'])).toBe(bytes.length);
      expectSecurityHeaders(response.headers);
    }
  });

  it('compresses a large text file and makes its ETag weak (other bytes, same content)', async () => {
    const csv = Buffer.from(`name;quantity\n${'Folding box;1000\n'.repeat(500)}`);
    const file = await upload('boxes.csv', 'text/csv', csv);
    const url = `/api/projects/${project}/files/${file.id}`;
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const br = await get(url, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe(`W/${plain.headers.etag}`);
    expect(brotliDecompressSync(br.rawPayload).equals(csv)).toBe(true);
  });
});

describe('weak ETags on reads (briefs, quotes)', () => {
  it('answers a quote read with a weak ETag, 304 to If-None-Match, a new tag after a change', async () => {
    const [company] = await t.app.ctx.db
      .insert(companies)
      .values({ organisationId: admin.organisationId, name: 'Tagged Ltd' })
      .returning({ id: companies.id });
    const [article] = await t.app.ctx.db
      .insert(articles)
      .values({
        organisationId: admin.organisationId,
        companyId: company!.id,
        name: 'Box',
        code: 'B-1',
        price: 1,
      })
      .returning({ id: articles.id });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/quotes',
      headers: auth(admin),
      payload: { companyId: company!.id, name: 'Tagged', items: [{ articleId: article!.id, quantity: 2 }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/quotes/${created.json().id}`;
    const first = await get(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get(url, { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // Compressed, the same content keeps the same (weak) tag.
    expect((await get(url, { 'accept-encoding': 'gzip' })).headers.etag).toBe(etag);
    const renamed = await t.app.inject({
      method: 'PUT',
      url,
      headers: auth(admin),
      payload: { name: 'Tagged again' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().name).toBe('Tagged again');
  });
});
