import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Credentials, makeOrganisation, PASSWORD, type TestApp } from '../helpers/app.ts';
import { expectProblem, requests } from '../helpers/http.ts';

let t: TestApp;
const http = requests(() => t);
let admin: Credentials;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
});
afterAll(() => t.close());

type Cookie = { name: string; value: string; httpOnly?: boolean; sameSite?: string; path?: string };

async function openSession() {
  const response = await http.post(null, '/api/session', { username: admin.email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  const cookies = response.cookies as Cookie[];
  const session = cookies.find((c) => c.name === 'pqs_session')!;
  const csrf = cookies.find((c) => c.name === 'pqs_csrf')!;
  const refresh = cookies.find((c) => c.name === 'pqs_refresh')!;
  const body = response.json() as { token: string; csrfToken: string; expiresAt: string };
  return {
    session,
    csrf,
    refresh,
    body,
    cookie: `pqs_session=${session.value}; pqs_refresh=${refresh.value}; pqs_csrf=${csrf.value}`,
  };
}

describe('browser session (cookie) beside bearer tokens', () => {
  it('sets httpOnly SameSite=Strict session and refresh cookies and a readable CSRF cookie', async () => {
    const { session, csrf, refresh, body } = await openSession();
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Strict');
    expect(session.path).toBe('/');
    // The refresh token is sent only to /api/session (refresh, sign-out), never to other routes.
    expect(refresh.httpOnly).toBe(true);
    expect(refresh.sameSite).toBe('Strict');
    expect(refresh.path).toBe('/api/session');
    expect(body).not.toHaveProperty('refreshToken');
    expect(csrf.httpOnly).toBeFalsy();
    expect(csrf.sameSite).toBe('Strict');
    expect(csrf.value).toBe(body.csrfToken);
    // The bearer token of the answer works on its own.
    const me = await http.get(null, '/api/users/me', { authorization: `Bearer ${body.token}` });
    expect(me.json().id).toBe(admin.userId);
  });

  it('refuses wrong credentials like /sign-in, setting no cookie', async () => {
    const response = await http.post(null, '/api/session', {
      username: admin.email,
      password: 'wrong-password',
    });
    expectProblem(response, 401, 'invalid_credentials');
    expect(response.cookies).toHaveLength(0);
  });

  it('authenticates reads by the cookie, through the permission matrix', async () => {
    const { cookie } = await openSession();
    const me = await http.get(null, '/api/users/me', { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(admin.userId);
    const orgs = await http.post(null, '/api/organisations', {}, { cookie, 'x-csrf-token': 'x' });
    expect([403]).toContain(orgs.statusCode); // CSRF or role: either way refused
  });

  it('refuses a cookie-authenticated write without the CSRF header, or with a wrong one, and changes nothing', async () => {
    const { cookie, csrf } = await openSession();
    const without = await http.post(null, '/api/companies', { name: 'Forged Ltd' }, { cookie });
    expectProblem(without, 403, 'csrf_failed');
    const wrong = await http.post(
      null,
      '/api/companies',
      { name: 'Forged Ltd' },
      { cookie, 'x-csrf-token': `${csrf.value.slice(0, -2)}xx` },
    );
    expectProblem(wrong, 403, 'csrf_failed');
    const list = await http.get(null, '/api/companies?s={"name":"Forged Ltd"}', { cookie });
    expect(JSON.stringify(list.json())).not.toContain('Forged Ltd');
    const ok = await http.post(
      null,
      '/api/companies',
      { name: 'Real Ltd' },
      { cookie, 'x-csrf-token': csrf.value },
    );
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("does not accept another session's CSRF token", async () => {
    const first = await openSession();
    const second = await openSession();
    expect(second.session.value).not.toBe(first.session.value);
    const response = await http.post(
      null,
      '/api/companies',
      { name: 'Mixed Ltd' },
      { cookie: `pqs_session=${first.session.value}`, 'x-csrf-token': second.csrf.value },
    );
    expectProblem(response, 403, 'csrf_failed');
  });

  it('refreshes the bearer token from the refresh cookie (reload), with the CSRF header only', async () => {
    const { cookie, csrf } = await openSession();
    expectProblem(await http.post(null, '/api/session/refresh', undefined, { cookie }), 403, 'csrf_failed');
    const refreshed = await http.post(null, '/api/session/refresh', undefined, {
      cookie,
      'x-csrf-token': csrf.value,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const { token } = refreshed.json();
    const me = await http.get(null, '/api/users/me', { authorization: `Bearer ${token}` });
    expect(me.json().id).toBe(admin.userId);
    // A bearer token cannot be turned into a cookie session this way.
    expectProblem(
      await http.post(null, '/api/session/refresh', undefined, { authorization: `Bearer ${admin.token}` }),
      401,
      'session_required',
    );
    expectProblem(await http.post(null, '/api/session/refresh'), 401);
  });

  it('a header credential wins over the cookie (no CSRF check for bearer calls)', async () => {
    const { cookie } = await openSession();
    const response = await http.post(
      null,
      '/api/companies',
      { name: 'Bearer Ltd' },
      { cookie, authorization: `Bearer ${admin.token}` },
    );
    expect(response.statusCode).toBe(201);
  });

  it('signs out by clearing the three cookies', async () => {
    const response = await http.del(null, '/api/session');
    expect(response.statusCode).toBe(204);
    const cleared = response.cookies as (Cookie & { expires?: Date })[];
    expect(cleared.map((c) => c.name).sort()).toEqual(['pqs_csrf', 'pqs_refresh', 'pqs_session']);
    for (const c of cleared) expect(c.value).toBe('');
  });
});
