/**
 * Sliding browser sessions (issue 26; docs/security.md "Sliding sessions", docs/web.md "Sessions"):
 * a short access token, a refresh token rotated at every refresh, reuse detection that ends the
 * whole session, idle and absolute limits, all in the database (every node). Expiry is reached by
 * moving the session's limits into the past in the database, never by waiting.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { sessionRefreshTokens, userSessions, users } from '../../src/db/schema/platform.ts';
import {
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

const sessions = { accessSeconds: 60, idleSeconds: 600, maxSeconds: 3600, reuseGraceSeconds: 30 };

let t: TestApp;
let admin: Credentials;
beforeAll(async () => {
  t = await buildTestApp({ config: { sessions } });
  admin = await makeOrganisation(t);
});
afterAll(() => t.close());

type Cookie = { name: string; value: string; path?: string; expires?: Date };
type Answer = {
  token: string;
  csrfToken: string;
  expiresAt: string;
  expiresInSeconds: number;
  sessionExpiresAt: string;
  sessionExpiresInSeconds: number;
};
/** What a browser holds: the three cookies, and the answer's tokens. */
type Browser = { access?: string; refresh?: string; csrf: string; answer: Answer };

function update(browser: Browser | undefined, response: { cookies: unknown[]; json(): unknown }): Browser {
  const cookies = response.cookies as Cookie[];
  const value = (name: string) => cookies.find((c) => c.name === name)?.value;
  const answer = response.json() as Answer;
  return {
    access: value('pqs_session') ?? browser?.access,
    refresh: value('pqs_refresh') ?? browser?.refresh,
    csrf: value('pqs_csrf') ?? browser!.csrf,
    answer,
  };
}

async function signInOn(app: App, username: string): Promise<Browser> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/session',
    payload: { username, password: PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  return update(undefined, response);
}

/** A refresh as the web app sends it: the refresh and CSRF cookies and the CSRF header (the access cookie may be gone). */
const refreshOn = (app: App, browser: Pick<Browser, 'refresh' | 'csrf'>, csrfHeader = browser.csrf) =>
  app.inject({
    method: 'POST',
    url: '/api/session/refresh',
    headers: {
      cookie: `pqs_refresh=${browser.refresh}; pqs_csrf=${browser.csrf}`,
      'x-csrf-token': csrfHeader,
    },
  });

const meWith = (app: App, token: string) =>
  app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });

const sessionIdOf = async (browser: Browser) => {
  const hash = (await import('../../src/platform/auth.ts')).hashAccessToken(browser.refresh!);
  const [row] = await t.app.ctx.db
    .select({ sessionId: sessionRefreshTokens.sessionId })
    .from(sessionRefreshTokens)
    .where(eq(sessionRefreshTokens.tokenHash, hash));
  return row!.sessionId;
};

describe('sliding sessions: refresh and rotation', () => {
  it('signs in with a short access token and a session that lasts the idle limit', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    expect(browser.refresh).toMatch(/^pqr_/);
    expect(browser.answer.expiresInSeconds).toBeLessThanOrEqual(sessions.accessSeconds);
    expect(browser.answer.expiresInSeconds).toBeGreaterThan(sessions.accessSeconds - 10);
    expect(browser.answer.sessionExpiresInSeconds).toBeLessThanOrEqual(sessions.idleSeconds);
    expect(browser.answer.sessionExpiresInSeconds).toBeGreaterThan(sessions.idleSeconds - 10);
    expect(new Date(browser.answer.sessionExpiresAt) > new Date(browser.answer.expiresAt)).toBe(true);
  });

  it('rotates: each refresh answers a new access token and a new refresh token, without the access cookie', async () => {
    const user = await makeUser(t, admin, 'sales');
    let browser = await signInOn(t.app, user.email);
    const seen = new Set([browser.refresh]);
    for (let i = 0; i < 3; i++) {
      const response = await refreshOn(t.app, browser);
      expect(response.statusCode, response.body).toBe(200);
      browser = update(browser, response);
      expect(seen.has(browser.refresh)).toBe(false);
      seen.add(browser.refresh);
      // The CSRF token belongs to the session: it stays the same across refreshes.
      expect(browser.answer.csrfToken).toBe(browser.csrf);
      const me = await meWith(t.app, browser.answer.token);
      expect(me.json().id).toBe(user.userId);
    }
    const rows = await t.app.ctx.db
      .select({ usedAt: sessionRefreshTokens.usedAt })
      .from(sessionRefreshTokens)
      .where(eq(sessionRefreshTokens.sessionId, await sessionIdOf(browser)));
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.usedAt === null)).toHaveLength(1);
  });

  it('refuses a refresh without the CSRF header, or with another session’s, and rotates nothing', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    const other = await signInOn(t.app, user.email);
    expectProblem(await refreshOn(t.app, browser, ''), 403, 'csrf_failed');
    expectProblem(await refreshOn(t.app, browser, other.csrf), 403, 'csrf_failed');
    // Nothing was used up: the browser's refresh token still rotates normally.
    expect((await refreshOn(t.app, browser)).statusCode).toBe(200);
  });

  it('answers session_required without a refresh cookie, or with an unknown or header credential', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/api/session/refresh' }),
      401,
      'session_required',
    );
    expectProblem(
      await refreshOn(t.app, { refresh: 'pqr_unknown', csrf: browser.csrf }),
      401,
      'session_required',
    );
    const withHeader = await t.app.inject({
      method: 'POST',
      url: '/api/session/refresh',
      headers: {
        cookie: `pqs_refresh=${browser.refresh}`,
        'x-csrf-token': browser.csrf,
        authorization: `Bearer ${browser.answer.token}`,
      },
    });
    expectProblem(withHeader, 401, 'session_required');
  });
});

describe('sliding sessions: reuse detection', () => {
  it('a rotated refresh token that comes back after the grace ends the whole session, its access tokens too', async () => {
    const user = await makeUser(t, admin, 'sales');
    const stolen = await signInOn(t.app, user.email);
    const other = await signInOn(t.app, user.email);
    const legit = update(stolen, await refreshOn(t.app, stolen));
    expect((await meWith(t.app, legit.answer.token)).statusCode).toBe(200);
    // The rotation happened longer ago than the grace.
    await t.app.ctx.db
      .update(sessionRefreshTokens)
      .set({ usedAt: sql`now() - interval '1 hour'` })
      .where(eq(sessionRefreshTokens.sessionId, await sessionIdOf(legit)));

    expectProblem(await refreshOn(t.app, stolen), 401, 'refresh_token_reused');
    // The family is ended: the current refresh token, and every access token of the session.
    expectProblem(await refreshOn(t.app, legit), 401, 'session_ended');
    expectProblem(await meWith(t.app, legit.answer.token), 401, 'session_ended');
    expectProblem(await meWith(t.app, stolen.answer.token), 401, 'session_ended');
    // And stays ended, whichever token comes back.
    expectProblem(await refreshOn(t.app, stolen), 401, 'session_ended');
    const [row] = await t.app.ctx.db
      .select({ endReason: userSessions.endReason })
      .from(userSessions)
      .where(eq(userSessions.id, await sessionIdOf(legit)));
    expect(row!.endReason).toBe('refresh_reused');
    // The user's other session is not affected.
    expect((await refreshOn(t.app, other)).statusCode).toBe(200);
  });

  it('within the grace (two tabs refreshing at once) both get an access token; only one rotates', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    const answers = await Promise.all([refreshOn(t.app, browser), refreshOn(t.app, browser)]);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const rotated = answers.filter((a) => (a.cookies as Cookie[]).some((c) => c.name === 'pqs_refresh'));
    expect(rotated).toHaveLength(1);
    for (const a of answers) expect((await meWith(t.app, a.json().token)).statusCode).toBe(200);
    // The session goes on with the rotated token.
    const next = update(browser, rotated[0]!);
    expect((await refreshOn(t.app, next)).statusCode).toBe(200);
  });

  it('a signed-out session stays ended: its refresh tokens, old and current, answer session_ended', async () => {
    const user = await makeUser(t, admin, 'sales');
    const first = await signInOn(t.app, user.email);
    const second = update(first, await refreshOn(t.app, first));
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: `pqs_session=${second.access}; pqs_refresh=${second.refresh}` },
    });
    expect(out.statusCode).toBe(204);
    for (const b of [second, first, second]) expectProblem(await refreshOn(t.app, b), 401, 'session_ended');
    expectProblem(await meWith(t.app, second.answer.token), 401, 'session_ended');
  });

  it('signing out with the refresh cookie alone (access token expired) ends the session', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie: `pqs_refresh=${browser.refresh}` },
    });
    expect(out.statusCode).toBe(204);
    expectProblem(await refreshOn(t.app, browser), 401, 'session_ended');
  });
});

describe('sliding sessions: expiry', () => {
  it('past its idle limit the session cannot be refreshed, and stays so', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    await t.app.ctx.db
      .update(userSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(userSessions.id, await sessionIdOf(browser)));
    expectProblem(await refreshOn(t.app, browser), 401, 'session_expired');
    expectProblem(await refreshOn(t.app, browser), 401, 'session_expired');
  });

  it('a refresh moves the idle limit forward but never past the absolute limit', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    const sessionId = await sessionIdOf(browser);
    await t.app.ctx.db
      .update(userSessions)
      .set({ maxExpiresAt: sql`now() + interval '120 seconds'` })
      .where(eq(userSessions.id, sessionId));
    const response = await refreshOn(t.app, browser);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as Answer;
    expect(answer.sessionExpiresInSeconds).toBeLessThanOrEqual(120);
    // The access token does not outlive its session either.
    expect(new Date(answer.expiresAt) <= new Date(answer.sessionExpiresAt)).toBe(true);
    await t.app.ctx.db
      .update(userSessions)
      .set({ maxExpiresAt: sql`now() - interval '1 second'`, expiresAt: sql`now() - interval '1 second'` })
      .where(eq(userSessions.id, sessionId));
    expectProblem(await refreshOn(t.app, update(browser, response)), 401, 'session_expired');
  });

  it('a password change (token version) ends the session’s refreshes', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    await t.app.ctx.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.userId));
    expectProblem(await refreshOn(t.app, browser), 401, 'token_revoked');
  });
});

describe.skipIf(!TEST_DATABASE_URL)('sliding sessions on two nodes sharing one PostgreSQL database', () => {
  let peer: Awaited<ReturnType<typeof buildPeerApp>>;
  beforeAll(async () => {
    peer = await buildPeerApp(t, { config: { sessions } });
  });
  afterAll(() => peer?.close());

  it('rotates on one node, refreshes on the other; a reuse seen by the other ends the session on both', async () => {
    const user = await makeUser(t, admin, 'sales');
    const first = await signInOn(t.app, user.email);
    const second = update(first, await refreshOn(peer.app, first));
    const third = update(second, await refreshOn(t.app, second));
    expect((await meWith(peer.app, third.answer.token)).statusCode).toBe(200);
    await t.app.ctx.db
      .update(sessionRefreshTokens)
      .set({ usedAt: sql`now() - interval '1 hour'` })
      .where(eq(sessionRefreshTokens.sessionId, await sessionIdOf(third)));
    expectProblem(await refreshOn(peer.app, first), 401, 'refresh_token_reused');
    for (const app of [t.app, peer.app]) {
      expectProblem(await refreshOn(app, third), 401, 'session_ended');
      expectProblem(await meWith(app, third.answer.token), 401, 'session_ended');
    }
  });

  it('concurrent refreshes of one token on both nodes rotate it once', async () => {
    const user = await makeUser(t, admin, 'sales');
    const browser = await signInOn(t.app, user.email);
    const answers = await Promise.all([refreshOn(t.app, browser), refreshOn(peer.app, browser)]);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(answers.filter((a) => (a.cookies as Cookie[]).some((c) => c.name === 'pqs_refresh'))).toHaveLength(
      1,
    );
  });
});
