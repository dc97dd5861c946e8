import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, buildTestApp, type TestApp } from '../helpers/app.ts';

// A stand-in for Vite's output: the serving rules do not depend on what the bundle contains.
const webDir = mkdtempSync(join(tmpdir(), 'pqs-web-'));
mkdirSync(join(webDir, 'assets'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>app shell</title><div id="root"></div>');
writeFileSync(join(webDir, 'assets', 'main-abc123.js'), 'console.log("app")');
writeFileSync(join(webDir, 'assets', 'main-abc123.js.gz'), gzipSync('console.log("app")'));

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { webDir } });
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('web application serving', () => {
  it('redirects / to the app', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/app/');
  });

  it('serves index.html at /app/ and for every app route (SPA fallback), never cached', async () => {
    for (const url of [
      '/app/',
      '/app',
      '/app/briefs',
      '/app/quotes/0190b2c4-5f8a-7b1c-9d2e-3f4a5b6c7d8e',
      '/app/companies?search=x',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toContain('text/html');
      expect(response.body, url).toContain('app shell');
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache life, and a missing asset is a 404, not HTML', async () => {
    const asset = await get('/app/assets/main-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain('console.log');
    expect(asset.headers['cache-control']).toContain('immutable');
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/app/assets/main-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(compressed.rawPayload).toString()).toBe('console.log("app")');
    const missing = await get('/app/assets/main-gone.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('app shell');
  });

  it('never shadows the API, the docs, /health or the unprefixed aliases', async () => {
    const health = await get('/health');
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-type']).toContain('application/json');
    const docs = await get('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).not.toContain('app shell');
    const openapi = await get('/api/openapi.json');
    expect(openapi.json().openapi).toBe('3.1.0');
    for (const url of ['/api/briefs', '/briefs', '/orders', '/order-items', '/articles', '/quotes']) {
      const anonymous = await get(url);
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.headers['content-type'], url).toContain('application/problem+json');
      const signedIn = await get(url, auth(t.root));
      expect(signedIn.headers['content-type'], url).toContain('application/json');
      expect(signedIn.body, url).not.toContain('app shell');
    }
    const unknownApi = await get('/api/no-such-thing');
    expect(unknownApi.statusCode).toBe(404);
    expect(unknownApi.headers['content-type']).toContain('application/problem+json');
  });

  it('says the app is not built when dist/web is missing, and still answers the API', async () => {
    const bare = await buildTestApp({ config: { webDir: join(webDir, 'nowhere') } });
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/app/briefs' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('npm run build');
      expect((await bare.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
