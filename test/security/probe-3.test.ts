/**
 * Defects found by the hostile probe of issue 23 (probe 3), each through the real app; see
 * docs/security.md, "Probe 3 (issue 23)".
 */
import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { isAllowed } from '../../src/platform/permissions.ts';
import { auth, type Credentials, makeUser, testConfig } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { securityFixture } from './fixture.ts';

const fixture = securityFixture();
const { inject, pointersOf } = fixture;

const withIds = (url: string) => url.replace(/:[A-Za-z]+/g, () => randomUUID());

describe('probe 3: HEAD is authorized exactly like GET', () => {
  let guest: Credentials;
  beforeAll(async () => {
    guest = await makeUser(fixture.t, fixture.admin, 'guest');
  });
  const head = (url: string, headers: Record<string, string> = {}) =>
    fixture.t.app.inject({ method: 'HEAD', url, headers });

  it('answers 401 to HEAD without a credential on every protected GET route, never 5xx or 200', async () => {
    const gets = fixture.t.app.protectedRoutes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of gets) {
      const response = await head(withIds(route.url));
      if (response.statusCode !== 401) failures.push(`HEAD ${route.url} -> ${response.statusCode}`);
      else expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    expect(failures).toEqual([]);
  });

  it('answers HEAD with the status of GET on every protected GET route for an allowed caller', async () => {
    const failures: string[] = [];
    for (const route of fixture.t.app.protectedRoutes.filter((r) => r.method === 'GET')) {
      const url = withIds(route.url);
      const [get, headResponse] = [
        await fixture.t.app.inject({ method: 'GET', url, headers: auth(fixture.t.root) }),
        await head(url, auth(fixture.t.root)),
      ];
      if (headResponse.statusCode >= 500 || headResponse.statusCode !== get.statusCode)
        failures.push(`${route.url}: GET ${get.statusCode}, HEAD ${headResponse.statusCode}`);
      if (headResponse.body !== '') failures.push(`${route.url}: HEAD answered a body`);
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('answers 200 with headers and no body when allowed, 403 for a role without the permission, 404 where GET is', async () => {
    const me = await head('/api/users/me', auth(fixture.admin));
    expect(me.statusCode).toBe(200);
    expect(me.headers['content-type']).toContain('application/json');
    expect(me.body).toBe('');
    const get = await inject('GET', '/api/users/me');
    expect(Number(me.headers['content-length'])).toBe(Buffer.byteLength(get.body));

    const refused = fixture.t.app.protectedRoutes.find(
      (r) => r.method === 'GET' && !r.url.includes(':') && !isAllowed('guest', r.permission),
    )!;
    expect(refused).toBeDefined();
    expect((await head(refused.url, auth(guest))).statusCode).toBe(403);
    expect(
      (await fixture.t.app.inject({ method: 'GET', url: refused.url, headers: auth(guest) })).statusCode,
    ).toBe(403);

    const missing = `/api/companies/${randomUUID()}`;
    expect((await inject('GET', missing)).statusCode).toBe(404);
    expect((await head(missing, auth(fixture.admin))).statusCode).toBe(404);
  });
});

describe('probe 3: validation errors do not amplify requests', () => {
  it('answers a sign-in body with 60,000 unknown fields with 400, at most 20 issues and under 10 KB', async () => {
    const fields = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`f${i}`, 1]));
    const response = await fixture.t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'someone@test.local', password: 'whatever', ...fields },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(10_000);
    const body = response.json();
    expect(body.code).toBe('validation_failed');
    expect(body.errors.length).toBeLessThanOrEqual(20);
    expect(body.errors[0]).toEqual({
      pointer: '/f0',
      message: 'is not an accepted property',
      in: 'body',
      keyword: 'additionalProperties',
    });
    expect(body.errorsTotal).toBe(60_000);
    expect(body.detail).toContain('59980 more');
  });

  it('keeps the answer small when the unknown property names are long', async () => {
    const fields = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}${'k'.repeat(5_000)}`, 1]));
    const response = await fixture.t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'someone@test.local', password: 'whatever', ...fields },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body.length).toBeLessThan(10_000);
    expect(response.json().errorsTotal).toBe(50);
  });

  it('lists every issue, without errorsTotal, when there are few', async () => {
    const response = await fixture.t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'someone@test.local', password: 'whatever', a: 1, b: 2 },
    });
    expect(response.statusCode).toBe(400);
    expect(pointersOf(response)).toEqual(['/a', '/b']);
    expect(response.json()).not.toHaveProperty('errorsTotal');
  });
});

describe('probe 3: label objects', () => {
  it('answers 400 with a pointer, not 500, to a label object with an operator-like key', async () => {
    const attempts: Array<['POST' | 'PATCH', string, unknown, string]> = [
      ['POST', '/api/statuses', { entity: 'order', internalLabel: { $ne: null } }, '/internalLabel'],
      [
        'POST',
        '/api/statuses',
        { entity: 'order', internalLabel: 'X', externalLabel: { $ne: null } },
        '/externalLabel',
      ],
      ['POST', '/api/statuses', { entity: 'order', internalLabel: { en: 'Won', $gt: '' } }, '/internalLabel'],
      ['POST', '/api/statuses', { entity: 'order', internalLabel: { en: { $ne: null } } }, '/internalLabel'],
      ['POST', '/api/corrugated-liners', { name: 'K', label: { $ne: null } }, '/label'],
      ['POST', '/api/corrugated-liners', { name: 'K', label: { 'en-US': { $ne: null } } }, '/label'],
    ];
    const failures: string[] = [];
    for (const [method, url, payload, pointer] of attempts) {
      const response = await inject(method, url, payload);
      if (response.statusCode !== 400 || !pointersOf(response).some((p) => p.startsWith(pointer)))
        failures.push(`${method} ${url} ${JSON.stringify(payload)}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });

  it('still accepts labels per language', async () => {
    const response = await inject('POST', '/api/statuses', {
      entity: 'order',
      internalLabel: { en: 'Probe won', fr: 'Sonde gagnée' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      internalLabel: 'Probe won',
      internalLabels: { en: 'Probe won', fr: 'Sonde gagnée' },
    });
    const liner = await inject('POST', '/api/corrugated-liners', {
      name: 'K150',
      label: { 'en-US': 'Kraft 150', 'fr-FR': 'Kraft 150' },
    });
    expect(liner.statusCode, liner.body).toBe(201);
  });
});

describe('probe 3: slow requests time out', () => {
  let slow: App;
  let drop: () => Promise<void>;
  let port: number;
  const logged: Array<{ level: number; msg?: string }> = [];
  beforeAll(async () => {
    const opened = await openTestDatabase();
    drop = opened.drop;
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(JSON.parse(String(chunk)));
        done();
      },
    });
    slow = await buildApp({
      config: testConfig({ requestTimeoutMs: 300 }),
      database: opened.database,
      runWorkers: false,
      logger: { level: 'info', stream },
      lazySchemas: true,
    });
    await slow.listen({ port: 0, host: '127.0.0.1' });
    port = (slow.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await slow?.close();
    await drop?.();
  });

  /** What the server does with a request that stops half-way: its answer (if any) once it closes. */
  const stall = (start: string) =>
    new Promise<{ answer: string; closed: boolean }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      // Generous: the server is configured to give up after 300 ms.
      const guard = setTimeout(() => {
        socket.destroy();
        resolve({ answer, closed: false });
      }, 15_000);
      socket.setEncoding('utf8');
      socket.on('connect', () => socket.write(start));
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(guard);
        resolve({ answer, closed: true });
      });
    });

  it('answers 408 or closes the connection when a body stops arriving, and logs no error', async () => {
    const result = await stall(
      'POST /api/sign-in HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
    );
    expect(result.closed).toBe(true);
    if (result.answer) expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
    // The body that never completed is logged as such, not as a fault.
    await expect
      .poll(() => logged.some((line) => line.msg === 'request cut off before its body arrived'))
      .toBe(true);
    expect(logged.filter((line) => line.level >= 50)).toEqual([]);
  }, 30_000);

  it('answers 408 or closes the connection when headers stop arriving', async () => {
    const result = await stall('GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(result.closed).toBe(true);
    if (result.answer) expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);
});
