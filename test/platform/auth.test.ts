import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenSigner } from '../../src/platform/auth.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  PASSWORD,
  SUPERADMIN,
  signIn,
  type TestApp,
} from '../helpers/app.ts';

let t: TestApp;
let admin: Credentials;

beforeAll(async () => {
  t = await buildTestApp({
    config: { signInThrottle: { maxFailures: 3, windowSeconds: 60, lockSeconds: 120 } },
  });
  admin = await makeOrganisation(t);
});
afterAll(() => t.close());

const me = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/users/me', headers });

describe('sign-in', () => {
  it('returns a bearer token that identifies the user', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: SUPERADMIN.email.toUpperCase(), password: SUPERADMIN.password },
    });
    expect(response.statusCode).toBe(200);
    const { token, expiresAt } = response.json();
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    const user = (await me({ authorization: `Bearer ${token}` })).json();
    expect(user).toMatchObject({ email: SUPERADMIN.email, role: 'superadmin' });
    expect(user).not.toHaveProperty('passwordHash');
  });

  it('refuses a wrong password and an unknown user alike', async () => {
    for (const username of [SUPERADMIN.email, 'nobody@test.local']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/sign-in',
        payload: { username, password: 'wrong-password' },
        remoteAddress: '10.0.0.9',
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 401, code: 'invalid_credentials' });
    }
  });

  it('throttles an account after repeated failures, even with the right password, with Retry-After', async () => {
    const user = await makeUser(t, admin, 'sales');
    const attempt = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/sign-in',
        payload: { username: user.email, password },
        remoteAddress: '10.1.1.1',
      });
    for (let i = 0; i < 3; i++) expect((await attempt('nope-nope')).statusCode).toBe(401);
    const locked = await attempt(PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(100);
    expect(locked.json().code).toBe('too_many_requests');
  });

  it('throttles one address trying many accounts', async () => {
    let last = 0;
    for (let i = 0; i < 13; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/sign-in',
        payload: { username: `guess-${i}@test.local`, password: 'x' },
        remoteAddress: '10.2.2.2',
      });
      last = response.statusCode;
    }
    expect(last).toBe(429);
    // Another address is not affected.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: SUPERADMIN.email, password: SUPERADMIN.password },
      remoteAddress: '10.3.3.3',
    });
    expect(other.statusCode).toBe(200);
  });

  it('validates the body', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/sign-in', payload: { username: 'a' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({
      pointer: '/password',
      message: expect.any(String),
      in: 'body',
      keyword: 'required',
    });
  });
});

describe('bearer tokens', () => {
  it('refuses a missing credential with 401', async () => {
    const response = await me({});
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('unauthorized');
  });

  it('refuses an expired token', async () => {
    const key = new TextEncoder().encode(t.app.ctx.config.jwtSecret);
    const past = Math.floor(Date.now() / 1000) - 7200;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.userId)
      .setIssuer('packaging-quote-service')
      .setAudience('api')
      .setIssuedAt(past)
      .setExpirationTime(past + 3600)
      .sign(key);
    const response = await me({ authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('token_expired');
  });

  it('refuses a forged token (other key, alg none, tampered payload)', async () => {
    const forgedKey = new TextEncoder().encode('another-secret-another-secret-another-secret');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.userId)
      .setIssuer('packaging-quote-service')
      .setAudience('api')
      .setExpirationTime('1h')
      .sign(forgedKey);
    const [header, payload, signature] = admin.token.split('.');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const tamperedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: t.root.userId }),
    ).toString('base64url');
    for (const token of [
      forged,
      `${noneHeader}.${payload}.`,
      `${header}.${tamperedPayload}.${signature}`,
      'garbage',
    ]) {
      const response = await me({ authorization: `Bearer ${token}` });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('invalid_token');
    }
  });
});

describe('token lifetimes (issue 14, defects 7 and 9)', () => {
  const key = () => new TextEncoder().encode(t.app.ctx.config.jwtSecret);

  it('refuses a JWT without exp even when signed with the real key', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin.userId)
      .setIssuer('packaging-quote-service')
      .setAudience('api')
      .setIssuedAt()
      .sign(key());
    const response = await me({ authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('invalid_token');
  });

  it('refuses to create an access token that has already expired', async () => {
    const owner = await makeUser(t, admin, 'sales');
    for (const expiresAt of [new Date(Date.now() - 60_000).toISOString(), new Date().toISOString()]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/access-token/user/${owner.userId}`,
        headers: auth(owner),
        payload: { name: 'late', expiresAt },
      });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().errors[0].pointer).toBe('/expiresAt');
    }
    const future = await t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${owner.userId}`,
      headers: auth(owner),
      payload: { name: 'fine', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(future.statusCode).toBe(201);
  });

  it('revokes the bearer tokens issued before a password change, and keeps access tokens', async () => {
    const user = await makeUser(t, admin, 'sales');
    const second = await signIn(t.app, user.email, PASSWORD);
    const accessToken = await t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${user.userId}`,
      headers: auth(user),
      payload: { name: 'integration' },
    });
    expect(accessToken.statusCode).toBe(201);
    // Both bearer tokens work (and are in the verified-token cache) before the change.
    expect((await me(auth(user))).statusCode).toBe(200);
    expect((await me(auth(second))).statusCode).toBe(200);

    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.userId}`,
      headers: auth(admin),
      payload: { password: 'a-brand-new-password' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    for (const old of [user, second]) {
      const response = await me(auth(old));
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('token_revoked');
    }
    const fresh = await signIn(t.app, user.email, 'a-brand-new-password');
    expect((await me(auth(fresh))).statusCode).toBe(200);
    expect((await me({ 'x-access-token': accessToken.json().token })).statusCode).toBe(200);
  });
});

describe('access tokens', () => {
  it('are shown once, work as X-ACCESS-TOKEN, are listed without the secret, and stop working when revoked', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${admin.userId}`,
      headers: auth(admin),
      payload: { name: 'ERP' },
    });
    expect(created.statusCode).toBe(201);
    const { token, id } = created.json();
    expect(token).toMatch(/^pqs_/);

    const viaToken = await me({ 'x-access-token': token });
    expect(viaToken.statusCode).toBe(200);
    expect(viaToken.json().id).toBe(admin.userId);

    const list = await t.app.inject({
      method: 'GET',
      url: `/api/access-token/user/${admin.userId}`,
      headers: auth(admin),
    });
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).not.toHaveProperty('token');
    expect(list.json()[0].lastUsedAt).not.toBeNull();

    const stored = await t.app.ctx.database.query<{ token_hash: string }>(
      'select token_hash from access_tokens where id = $1',
      [id],
    );
    expect(stored.rows[0]!.token_hash).not.toContain(token);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/access-token/user/${admin.userId}/${id}`,
      headers: auth(admin),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await me({ 'x-access-token': token });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('invalid_access_token');
  });

  it('only admins manage the tokens of other users, and only within their organisation', async () => {
    const sales = await makeUser(t, admin, 'sales');
    const forOther = await t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${admin.userId}`,
      headers: auth(sales),
      payload: { name: 'x' },
    });
    expect(forOther.statusCode).toBe(403);
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${sales.userId}`,
      headers: auth(sales),
      payload: { name: 'mine' },
    });
    expect(own.statusCode).toBe(201);
    const byAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/access-token/user/${sales.userId}`,
      headers: auth(admin),
    });
    expect(byAdmin.statusCode).toBe(200);
    const otherTenant = await t.app.inject({
      method: 'GET',
      url: `/api/access-token/user/${sales.userId}`,
      headers: auth(t.root),
    });
    expect(otherTenant.statusCode).toBe(404);
  });
});

describe('bearer token verification cache', () => {
  const user = {
    id: '0190a0a0-0000-7000-8000-0000000000a1',
    organisationId: '0190a0a0-0000-7000-8000-0000000000b1',
    role: 'admin' as const,
    tokenVersion: 0,
  };

  it('answers a token it verified from memory until the token expires, then refuses it', async () => {
    const signer = createTokenSigner('cache-test-secret-cache-test-secret-0123', 60);
    const { token } = await signer.sign(user);
    expect(await signer.verify(token)).toEqual({ userId: user.id, version: 0 });
    expect(await signer.verify(token)).toEqual({ userId: user.id, version: 0 });
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    try {
      await expect(signer.verify(token)).rejects.toMatchObject({ status: 401, code: 'token_expired' });
      await expect(signer.verify(token)).rejects.toMatchObject({ status: 401, code: 'token_expired' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps nothing of a token that failed, nor of one signed with another key', async () => {
    const signer = createTokenSigner('cache-test-secret-cache-test-secret-0123', 60);
    const other = createTokenSigner('another-secret-another-secret-another-01', 60);
    const { token } = await other.sign(user);
    for (let i = 0; i < 2; i++) {
      await expect(signer.verify(token)).rejects.toMatchObject({ status: 401, code: 'invalid_token' });
    }
    const good = (await signer.sign(user)).token;
    const [header, payload] = good.split('.');
    await expect(signer.verify(`${header}.${payload}.${'A'.repeat(43)}`)).rejects.toMatchObject({
      code: 'invalid_token',
    });
    expect(await signer.verify(good)).toEqual({ userId: user.id, version: 0 });
  });
});
