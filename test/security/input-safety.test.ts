/**
 * Malformed input found by the hostile probe (issue 14, defects 4-6): each answers 400 with a
 * pointer and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { securityFixture } from './fixture.ts';

const fixture = securityFixture();
const { inject, newOrder, pointersOf } = fixture;

describe('defect 4: NUL characters', () => {
  it('refuses U+0000 in bodies, query strings, crud values and sign-in with 400', async () => {
    const attempts: Array<['GET' | 'POST', string, unknown, string]> = [
      ['POST', '/api/sign-in', { username: 'a\u0000b', password: 'x' }, '/username'],
      ['POST', '/api/companies', { name: 'Ac\u0000me' }, '/name'],
      ['GET', '/api/users?search=%00', undefined, '/search'],
      ['GET', '/api/companies/pagination?search=a%00b', undefined, '/search'],
      ['GET', `/api/users/contacts?s=${encodeURIComponent('{"firstName":"\\u0000"}')}`, undefined, '/s'],
      ['GET', '/api/users/contacts?filter=firstName||$eq||%00', undefined, '/filter'],
      ['GET', '/api/users/contacts?filter=firstName||$cont||a%00', undefined, '/filter'],
    ];
    const failures: string[] = [];
    for (const [method, url, payload, pointer] of attempts) {
      const response = await inject(method, url, payload);
      if (response.statusCode !== 400 || !pointersOf(response).some((p) => p.startsWith(pointer)))
        failures.push(`${method} ${url}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('defect 4: NUL characters in the credentials', () => {
  it('answers 401, never 5xx, for a NUL in an access token or a bearer token', async () => {
    for (const headers of [
      { 'x-access-token': 'pqs_\u0000abc' },
      { authorization: 'Bearer abc\u0000def' },
      { authorization: `Bearer ${fixture.admin.token}\u0000` },
    ]) {
      const response = await fixture.t.app.inject({ method: 'GET', url: '/api/users/me', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
    }
  });
});

describe('defect 5: dates outside the supported range', () => {
  it('answers 400 with a pointer for years outside 1900-9999', async () => {
    const orderId = await newOrder();
    const attempts: Array<['GET' | 'POST' | 'PATCH', string, unknown, string]> = [
      ['POST', '/api/orders', { billedAmount: 1, orderDate: '0000-01-01T00:00:00Z' }, '/orderDate'],
      ['PATCH', `/api/orders/${orderId}`, { expectedDeliveryDate: '0000-01-01' }, '/expectedDeliveryDate'],
      ['PATCH', `/api/orders/${orderId}`, { actualDeliveryDate: '1899-12-31' }, '/actualDeliveryDate'],
      [
        'POST',
        '/api/quotes',
        { companyId: fixture.companyId, validUntil: '0000-01-01T00:00:00Z' },
        '/validUntil',
      ],
      [
        'POST',
        `/api/access-token/user/${fixture.admin.userId}`,
        { name: 'x', expiresAt: '0000-01-01T00:00:00Z' },
        '/expiresAt',
      ],
      ['GET', '/api/users/contacts?filter=createdAt||$gt||99999-01-01', undefined, '/filter'],
      [
        'GET',
        `/api/users/contacts?s=${encodeURIComponent('{"createdAt":{"$gt":"-271821-04-20T00:00:00.000Z"}}')}`,
        undefined,
        '/s',
      ],
      ['GET', '/api/orders?orderDateFrom=0000-01-01', undefined, '/orderDateFrom'],
    ];
    const failures: string[] = [];
    for (const [method, url, payload, pointer] of attempts) {
      const response = await inject(method, url, payload);
      if (response.statusCode !== 400 || !pointersOf(response).some((p) => p.startsWith(pointer)))
        failures.push(`${method} ${url}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
    const fine = await inject('PATCH', `/api/orders/${orderId}`, { orderDate: '9999-12-31' });
    expect(fine.statusCode, fine.body).toBe(200);
  });
});

describe('defect 6: bounded integers', () => {
  it('answers 400 for page, limit and offset beyond their maxima', async () => {
    const urls = [
      '/api/briefs?page=1e400',
      '/api/briefs?limit=1e400',
      '/api/orders?page=99999999999',
      '/api/users/contacts?page=1e400',
      '/api/users/contacts?limit=1e400',
      '/api/users/contacts?offset=1e400',
      '/api/users/contacts?offset=-1',
      '/api/users/contacts?page=0',
    ];
    const failures: string[] = [];
    for (const url of urls) {
      const response = await inject('GET', url);
      if (response.statusCode !== 400) failures.push(`${url}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('found by the fuzz run (test/fuzz/openapi-fuzz.test.ts)', () => {
  it('refuses sort and search field names that are Object.prototype members with 400', async () => {
    const urls = [
      '/api/addresses?order=toString',
      '/api/quotes?order=__proto__',
      '/api/briefs?sort=constructor,ASC',
      `/api/users/contacts?s=${encodeURIComponent('{"toString":"x"}')}`,
      '/api/users/contacts?sort=hasOwnProperty,ASC',
    ];
    const failures: string[] = [];
    for (const url of urls) {
      const response = await inject('GET', url);
      if (response.statusCode !== 400) failures.push(`${url}: ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
