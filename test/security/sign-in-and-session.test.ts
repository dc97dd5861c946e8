/**
 * Sign-in and session defects found by the hostile probe of issue 23 (probe 3):
 *
 * - concurrent sign-ins each read the lock before any failure was recorded, so 30 at once checked
 *   29 passwords against a limit of 5 (and on several nodes alike): every attempt must now reserve
 *   its place in the count before its password is checked;
 * - a signed-out browser session could be refreshed forever with its old cookies: signing out now
 *   ends the session in the database, for every node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import {
  auth,
  buildPeerApp,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  PASSWORD,
  type TestApp,
} from '../helpers/app.ts';
import { expectProblem } from '../helpers/http.ts';
import { TEST_DATABASE_URL } from '../helpers/pg-admin.ts';

const LIMIT = 5;
/** platform throttle: an address is allowed four times the failures of an account. */
const ADDRESS_LIMIT = LIMIT * 4;
const throttleConfig = { signInThrottle: { maxFailures: LIMIT, windowSeconds: 600, lockSeconds: 600 } };

let t: TestApp;
let admin: Credentials;

beforeAll(async () => {
  t = await buildTestApp({ config: throttleConfig });
  admin = await makeOrganisation(t);
});
afterAll(() => t.close());

let addresses = 0;
/** A client address of its own for each test, so the per-address counts do not mix. */
const newAddress = () => `10.23.${Math.floor(++addresses / 250)}.${addresses % 250}`;

const signInOn = (app: App, username: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/sign-in', payload: { username, password }, remoteAddress });

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('probe 3: concurrent sign-ins cannot check more passwords than the limit', () => {
  it('30 concurrent wrong passwords: exactly the limit are checked, the rest are throttled, then the right one is refused', async () => {
    const user = await makeUser(t, admin, 'sales');
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signInOn(t.app, user.email, `wrong-password-${i}`, address)),
    );
    const statuses = answers.map((a) => a.statusCode);
    // Every attempt reserves its place before its password is checked, whatever the interleaving.
    expect(count(statuses, 401), statuses.join(',')).toBe(LIMIT);
    expect(count(statuses, 429), statuses.join(',')).toBe(30 - LIMIT);
    for (const throttled of answers.filter((a) => a.statusCode === 429)) {
      expect(throttled.json().code).toBe('too_many_requests');
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    }
    const right = await signInOn(t.app, user.email, PASSWORD, address);
    expectProblem(right, 429, 'too_many_requests');
  });

  it('30 concurrent wrong passwords and the right one last (the probe): no more checks than the limit', async () => {
    const user = await makeUser(t, admin, 'sales');
    const address = newAddress();
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => signInOn(t.app, user.email, `wrong-password-${i}`, address)),
      signInOn(t.app, user.email, PASSWORD, address),
    ]);
    const statuses = answers.map((a) => a.statusCode);
    const right = statuses.at(-1)!;
    const checked = statuses.filter((s) => s !== 429).length;
    expect(
      statuses.every((s) => s === 401 || s === 429 || s === 200),
      statuses.join(','),
    ).toBe(true);
    if (right === 429) {
      // The limit was used up by wrong passwords: the right one was refused without being checked.
      expect(checked, statuses.join(',')).toBe(LIMIT);
    } else {
      // The right password won one of the first LIMIT places; its success forgives the account's
      // failures (as a success always has), so attempts that reserve after it start a new count.
      // Still nowhere near the probe's 29: at most one full count on each side of the success.
      expect(right).toBe(200);
      expect(checked, statuses.join(',')).toBeLessThanOrEqual(2 * LIMIT);
    }
  });

  it('150 concurrent attempts on unknown accounts from one address check at most the address limit', async () => {
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => signInOn(t.app, `nobody-${i}@probe.local`, 'guess', address)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(count(statuses, 401), statuses.join(',')).toBe(ADDRESS_LIMIT);
    expect(count(statuses, 429)).toBe(150 - ADDRESS_LIMIT);
  });

  it('a refused attempt uses nothing of the other count: a locked account does not eat into its address', async () => {
    const user = await makeUser(t, admin, 'sales');
    const address = newAddress();
    for (let i = 0; i < LIMIT; i++)
      expect((await signInOn(t.app, user.email, 'wrong', address)).statusCode).toBe(401);
    for (let i = 0; i < 3 * LIMIT; i++)
      expect((await signInOn(t.app, user.email, 'wrong', address)).statusCode).toBe(429);
    // LIMIT failures counted for the address, not 4 * LIMIT: another account from it still signs in.
    const other = await makeUser(t, admin, 'sales');
    expect((await signInOn(t.app, other.email, PASSWORD, address)).statusCode).toBe(200);
  });

  it('a success forgives the account its failures and takes nothing from its address', async () => {
    const user = await makeUser(t, admin, 'sales');
    const address = newAddress();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LIMIT - 1; i++)
        expect((await signInOn(t.app, user.email, 'wrong', address)).statusCode).toBe(401);
      expect((await signInOn(t.app, user.email, PASSWORD, address)).statusCode).toBe(200);
    }
    // The address counted 2 * (LIMIT - 1) failures and no successes: it allows the rest.
    const rest = ADDRESS_LIMIT - 2 * (LIMIT - 1);
    for (let i = 0; i < rest; i++)
      expect((await signInOn(t.app, `guess-${i}@probe.local`, 'x', address)).statusCode).toBe(401);
    expect((await signInOn(t.app, 'guess-last@probe.local', 'x', address)).statusCode).toBe(429);
  });
});

type Cookie = { name: string; value: string };

/** A browser session through POST /api/session: its cookies (header form), CSRF token and bearer token. */
async function openSession(app: App, username: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/session',
    payload: { username, password: PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  return sessionOf(response);
}

function sessionOf(response: { cookies: unknown[]; json(): { token: string; csrfToken: string } }) {
  const cookies = response.cookies as Cookie[];
  const value = (name: string) => cookies.find((c) => c.name === name)!.value;
  const { token, csrfToken } = response.json();
  return {
    token,
    csrf: csrfToken,
    cookie: `pqs_session=${value('pqs_session')}; pqs_refresh=${value('pqs_refresh')}; pqs_csrf=${value('pqs_csrf')}`,
  };
}

type Session = Awaited<ReturnType<typeof openSession>>;

const refreshOn = (app: App, session: Session) =>
  app.inject({
    method: 'POST',
    url: '/api/session/refresh',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
  });
const signOutOn = (app: App, session: Session) =>
  app.inject({ method: 'DELETE', url: '/api/session', headers: { cookie: session.cookie } });
const meOn = (app: App, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/api/users/me', headers });

describe('probe 3: a signed-out session stays signed out', () => {
  it('refreshes before sign-out; after DELETE /api/session its old cookies refresh to 401, again and again', async () => {
    const user = await makeUser(t, admin, 'sales');
    const first = await openSession(t.app, user.email);
    const refreshed = await refreshOn(t.app, first);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const second = sessionOf(refreshed);
    expect((await refreshOn(t.app, second)).statusCode).toBe(200);

    expect((await signOutOn(t.app, second)).statusCode).toBe(204);
    for (const old of [first, second, first, second]) {
      expectProblem(await refreshOn(t.app, old), 401, 'session_ended');
    }
    // The session's tokens stop working everywhere, as a cookie and as a bearer token.
    expectProblem(await meOn(t.app, { cookie: first.cookie }), 401, 'session_ended');
    expectProblem(await meOn(t.app, auth(second)), 401, 'session_ended');
  });

  it("signing out ends that session only: the user's other sessions and bearer tokens keep working", async () => {
    const user = await makeUser(t, admin, 'sales');
    const laptop = await openSession(t.app, user.email);
    const phone = await openSession(t.app, user.email);
    expect((await signOutOn(t.app, laptop)).statusCode).toBe(204);
    expectProblem(await refreshOn(t.app, laptop), 401, 'session_ended');
    const refreshed = await refreshOn(t.app, phone);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await meOn(t.app, { cookie: sessionOf(refreshed).cookie })).statusCode).toBe(200);
    expect((await meOn(t.app, auth(user))).statusCode).toBe(200);
  });

  it('refuses to refresh a bearer token of POST /api/sign-in put in the session cookie', async () => {
    const user = await makeUser(t, admin, 'sales');
    const csrf = t.app.ctx.session.csrfFor(user.token);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/session/refresh',
      headers: { cookie: `pqs_session=${user.token}; pqs_csrf=${csrf}`, 'x-csrf-token': csrf },
    });
    expectProblem(response, 401, 'session_required');
  });

  it('signing out without a session cookie, or with a forged one, only clears the cookies', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(204);
    const forged = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: 'pqs_session=not-a-token' },
    });
    expect(forged.statusCode).toBe(204);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('probe 3 on two nodes sharing one PostgreSQL database', () => {
  let peer: Awaited<ReturnType<typeof buildPeerApp>>;
  beforeAll(async () => {
    peer = await buildPeerApp(t, { config: throttleConfig });
  });
  afterAll(() => peer?.close());

  it('30 concurrent wrong passwords spread over both nodes: exactly the limit are checked', async () => {
    const user = await makeUser(t, admin, 'sales');
    const address = newAddress();
    const nodes = [t.app, peer.app];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signInOn(nodes[i % 2]!, user.email, `wrong-${i}`, address)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(count(statuses, 401), statuses.join(',')).toBe(LIMIT);
    expect(count(statuses, 429)).toBe(30 - LIMIT);
    for (const app of nodes) expectProblem(await signInOn(app, user.email, PASSWORD, address), 429);
  });

  it('a session signed out on one node cannot be refreshed on the other', async () => {
    const user = await makeUser(t, admin, 'sales');
    const session = await openSession(t.app, user.email);
    expect((await refreshOn(peer.app, session)).statusCode).toBe(200);
    expect((await signOutOn(peer.app, session)).statusCode).toBe(204);
    for (const app of [t.app, peer.app, t.app])
      expectProblem(await refreshOn(app, session), 401, 'session_ended');
  });
});
