import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/db/schema/platform.ts';
import { isAllowed, PERMISSIONS } from '../../src/platform/permissions.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';

let t: TestApp;
const users = {} as Record<Role, Credentials>;

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await makeOrganisation(t);
  users.superadmin = t.root;
  users.admin = admin;
  for (const role of ['sales', 'external_sales', 'contact', 'guest'] as const)
    users[role] = await makeUser(t, admin, role);
});
afterAll(() => t.close());

const ROLE_REFUSAL = 'Your role does not allow this operation';

describe('the permission matrix', () => {
  it('is enforced on every protected route for every role, before validation, and nothing answers 5xx', async () => {
    expect(t.app.protectedRoutes.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of t.app.protectedRoutes) {
      // Every path parameter gets an id that exists nowhere: allowed roles must get a 4xx, never a 5xx.
      const url = route.url.replace(/:[A-Za-z]+/g, () => randomUUID());
      const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      for (const role of ROLES) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: auth(users[role]),
          ...(hasBody ? { payload: {} } : {}),
        });
        const allowed = isAllowed(role, route.permission);
        const refusedForRole = response.statusCode === 403 && response.json().detail === ROLE_REFUSAL;
        const where = `${route.method} ${route.url} as ${role} -> ${response.statusCode}`;
        if (response.statusCode >= 500) failures.push(`${where} (server error)`);
        else if (allowed && (refusedForRole || response.statusCode === 401))
          failures.push(`${where} (should be allowed)`);
        else if (!allowed && !refusedForRole) failures.push(`${where} (should be refused)`);
      }
    }
    expect(failures).toEqual([]);
    // Every route times every role, one after the other: it grows with the API (the 30 s default
    // was reached on a loaded machine).
  }, 120_000);

  it('answers 401 before anything else when no credential is sent', async () => {
    for (const route of t.app.protectedRoutes.slice(0, 40)) {
      const response = await t.app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:[A-Za-z]+/g, 'x'),
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('lets only a superadmin create organisations', async () => {
    const payload = {
      name: 'Tenant',
      admin: { email: `${randomUUID()}@test.local`, password: 'long-enough-password' },
    };
    for (const role of ['admin', 'sales', 'guest'] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/organisations',
        headers: auth(users[role]),
        payload,
      });
      expect(response.statusCode).toBe(403);
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/organisations',
      headers: auth(t.root),
      payload,
    });
    expect(created.statusCode).toBe(201);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/organisations',
      headers: auth(t.root),
      payload,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('username_taken');
  });

  it('publishes each role with its permissions at /api/roles', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/roles', headers: auth(users.guest) });
    expect(response.statusCode).toBe(200);
    const roles = response.json() as { name: Role; permissions: string[] }[];
    expect(roles.map((r) => r.name).sort()).toEqual([...ROLES].sort());
    const guest = roles.find((r) => r.name === 'guest')!;
    expect(
      guest.permissions.every(
        (p) => (!p.endsWith(':write') && !p.endsWith(':manage')) || p === 'access_tokens:manage',
      ),
    ).toBe(true);
    expect(roles.find((r) => r.name === 'superadmin')!.permissions).toEqual(Object.keys(PERMISSIONS));
  });
});

/**
 * Every "act as someone stronger" path (issue 14, defect 1): who may mint, list or revoke an
 * access token for whom follows the role hierarchy (oneself; an admin for users below admin; a
 * superadmin for anyone), and no user management path lets a role reach above itself.
 */
describe('the role hierarchy', () => {
  const org = {} as Record<'admin' | 'otherAdmin' | 'superadmin' | 'sales' | 'contact', Credentials>;
  beforeAll(async () => {
    org.admin = await makeOrganisation(t);
    org.otherAdmin = await makeUser(t, org.admin, 'admin');
    org.superadmin = await makeUser(t, org.admin, 'superadmin');
    org.sales = await makeUser(t, org.admin, 'sales');
    org.contact = await makeUser(t, org.admin, 'contact');
  });

  const mint = (actor: Credentials, target: Credentials, payload: object = { name: 'app' }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${target.userId}`,
      headers: auth(actor),
      payload,
    });

  it('lets nobody mint an access token for a stronger or equal user other than themself', async () => {
    const cases: Array<[keyof typeof org, keyof typeof org, number]> = [
      ['admin', 'superadmin', 403],
      ['admin', 'otherAdmin', 403],
      ['admin', 'admin', 201],
      ['admin', 'sales', 201],
      ['admin', 'contact', 201],
      ['sales', 'contact', 403],
      ['sales', 'admin', 403],
      ['sales', 'sales', 201],
      ['contact', 'contact', 201],
      ['superadmin', 'admin', 201],
      ['superadmin', 'otherAdmin', 201],
    ];
    const failures: string[] = [];
    for (const [actor, target, expected] of cases) {
      const response = await mint(org[actor], org[target]);
      if (response.statusCode !== expected)
        failures.push(`${actor} -> ${target}: ${response.statusCode} (expected ${expected})`);
    }
    expect(failures).toEqual([]);
  });

  it('lets an admin neither list nor revoke the tokens of a superadmin or another admin', async () => {
    const created = await mint(org.superadmin, org.superadmin);
    expect(created.statusCode).toBe(201);
    for (const target of [org.superadmin, org.otherAdmin]) {
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/access-token/user/${target.userId}`,
        headers: auth(org.admin),
      });
      expect(list.statusCode).toBe(403);
    }
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/access-token/user/${org.superadmin.userId}/${created.json().id}`,
      headers: auth(org.admin),
    });
    expect(revoke.statusCode).toBe(403);
  });

  it('keeps an admin from any user change that reaches above admin', async () => {
    const attempts: Array<[string, 'POST' | 'PATCH' | 'DELETE', string, object | undefined]> = [
      ['promote oneself', 'PATCH', `/api/users/${org.admin.userId}`, { role: 'superadmin' }],
      ['promote another admin', 'PATCH', `/api/users/${org.otherAdmin.userId}`, { role: 'superadmin' }],
      ['promote a sales user', 'PATCH', `/api/users/${org.sales.userId}`, { role: 'superadmin' }],
      ['change a superadmin', 'PATCH', `/api/users/${org.superadmin.userId}`, { firstName: 'X' }],
      ['demote a superadmin', 'PATCH', `/api/users/${org.superadmin.userId}`, { role: 'guest' }],
      [
        'set a superadmin password',
        'PATCH',
        `/api/users/${org.superadmin.userId}`,
        { password: 'another-long-password' },
      ],
      [
        'set another admin password',
        'PATCH',
        `/api/users/${org.otherAdmin.userId}`,
        { password: 'another-long-password' },
      ],
      [
        'create a superadmin',
        'POST',
        '/api/users',
        { role: 'superadmin', email: `${randomUUID()}@test.local`, password: 'long-enough-password' },
      ],
      ['archive a superadmin', 'DELETE', `/api/users/${org.superadmin.userId}/archived`, undefined],
      [
        'create an organisation',
        'POST',
        '/api/organisations',
        { name: 'Mine', admin: { email: `${randomUUID()}@test.local`, password: 'long-enough-password' } },
      ],
    ];
    const failures: string[] = [];
    for (const [what, method, url, payload] of attempts) {
      const response = await t.app.inject({
        method,
        url,
        headers: auth(org.admin),
        ...(payload ? { payload } : {}),
      });
      if (response.statusCode !== 403) failures.push(`${what}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });

  it('keeps staff below admin from any user change or contact path that reaches above them', async () => {
    const attempts: Array<['POST' | 'PATCH' | 'DELETE', string, object | undefined]> = [
      ['PATCH', `/api/users/${org.sales.userId}`, { role: 'admin' }],
      ['PATCH', `/api/users/${org.admin.userId}`, { password: 'another-long-password' }],
      [
        'POST',
        '/api/users',
        { role: 'admin', email: `${randomUUID()}@test.local`, password: 'long-password-1' },
      ],
      ['DELETE', `/api/users/${org.admin.userId}/archived`, undefined],
      ['PATCH', `/api/users/contacts/${org.admin.userId}`, { firstName: 'X' }],
      ['POST', `/api/users/${org.contact.userId}/invite`, { password: 'another-long-password' }],
    ];
    const failures: string[] = [];
    for (const [method, url, payload] of attempts) {
      for (const actor of [org.sales, org.contact]) {
        const response = await t.app.inject({
          method,
          url,
          headers: auth(actor),
          ...(payload ? { payload } : {}),
        });
        if (![403, 404].includes(response.statusCode))
          failures.push(`${actor.role} ${method} ${url}: ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets a superadmin of the organisation act for anyone, and an admin token cannot create organisations', async () => {
    const promoted = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${org.otherAdmin.userId}`,
      headers: auth(org.superadmin),
      payload: { firstName: 'Promoted' },
    });
    expect(promoted.statusCode).toBe(200);
    const own = await mint(org.admin, org.admin);
    const organisation = await t.app.inject({
      method: 'POST',
      url: '/api/organisations',
      headers: { 'x-access-token': own.json().token },
      payload: {
        name: 'Mine',
        admin: { email: `${randomUUID()}@test.local`, password: 'long-enough-password' },
      },
    });
    expect(organisation.statusCode).toBe(403);
  });
});
