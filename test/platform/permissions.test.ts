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
  });

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
