import type { Db } from '../../src/db/client.ts';
import type { Actor } from '../../src/platform/actor.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from './app.ts';

/** The actor a repository function is called with for a signed-in user (no companies linked). */
export const actorOf = (credentials: Credentials, overrides: Partial<Actor> = {}): Actor => ({
  userId: credentials.userId,
  organisationId: credentials.organisationId,
  role: credentials.role,
  companyIds: [],
  credential: 'jwt',
  ...overrides,
});

/**
 * A test app with two tenants, the setting of the repository tests: what one tenant writes, the
 * other must not see. `credentials` signs in the first tenant's admin for HTTP calls.
 */
export async function buildTwoTenants(): Promise<{
  t: TestApp;
  db: Db;
  admin: Actor;
  other: Actor;
  credentials: Credentials;
}> {
  const t = await buildTestApp();
  const credentials = await makeOrganisation(t);
  const other = actorOf(await makeOrganisation(t));
  return { t, db: t.app.ctx.db, admin: actorOf(credentials), other, credentials };
}
