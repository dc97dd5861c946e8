/**
 * Security headers (probe 3, issue 23; docs/security.md): the web app under /app/ gets a Content
 * Security Policy that fits the built app, /docs (Swagger UI) its own, and every other answer
 * (the API) a policy that allows nothing; all of them refuse framing and MIME sniffing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, buildTestApp, type TestApp } from '../helpers/app.ts';

const webDir = mkdtempSync(join(tmpdir(), 'pqs-web-headers-'));
mkdirSync(join(webDir, 'assets'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>app shell</title><div id="root"></div>');
writeFileSync(join(webDir, 'assets', 'main-abc123.js'), 'console.log("app")');

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

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, 'content-security-policy').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!.toLowerCase(), values] as [string, string[]];
      }),
  );
}

function expectNoFramingNoSniffing(headers: Record<string, unknown>, what: string) {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(directives(headers['content-security-policy']).get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(headers['referrer-policy'], what).toBe('no-referrer');
}

describe('security headers (probe 3)', () => {
  it('gives /app/ a CSP that fits the app: own scripts only, inline styles (Mantine), data: images', async () => {
    for (const url of ['/app/', '/app/briefs', '/app/assets/main-abc123.js']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expectNoFramingNoSniffing(response.headers, url);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('style-src'), url).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('img-src'), url).toEqual(["'self'", 'data:', 'blob:']);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
      expect(csp.get('frame-src'), url).toEqual(['blob:']);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'none'"]);
      expect(csp.get('form-action'), url).toEqual(["'self'"]);
      expect(response.headers['content-security-policy'], url).not.toContain('unsafe-eval');
    }
  });

  it('gives /docs (Swagger UI, served from this process) a CSP its page works with', async () => {
    const page = await get('/docs/');
    expect(page.statusCode).toBe(200);
    expectNoFramingNoSniffing(page.headers, '/docs/');
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    // Every script of the page is a file of this origin: nothing inline for 'self' to refuse.
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\ssrc="\.?\/[^"]+"/);
      expect(content!.trim()).toBe('');
    }
    const initializer = await get('/docs/static/swagger-initializer.js');
    expect(initializer.statusCode).toBe(200);
    expect(initializer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives API answers (JSON, problems, the document) nosniff and a policy that allows nothing', async () => {
    const answers = {
      me: await get('/api/users/me', auth(t.root)),
      problem: await get('/api/no-such-thing'),
      unauthenticated: await get('/api/users/me'),
      health: await get('/health'),
      openapi: await get('/api/openapi.json'),
    };
    expect(answers.me.statusCode).toBe(200);
    expect(answers.problem.statusCode).toBe(404);
    expect(answers.unauthenticated.statusCode).toBe(401);
    for (const [what, response] of Object.entries(answers)) {
      expectNoFramingNoSniffing(response.headers, what);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('default-src'), what).toEqual(["'none'"]);
      expect(response.headers['strict-transport-security'], what).toBeUndefined();
    }
  });
});
