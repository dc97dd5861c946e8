import { type App, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import type { Role } from '../../src/db/schema/platform.ts';
import { users } from '../../src/db/schema/platform.ts';
import { organisationsModule } from '../../src/modules/organisations/module.ts';
import { hashPassword } from '../../src/platform/passwords.ts';
import { openTestDatabase } from './database.ts';

export const SUPERADMIN = { email: 'root@test.local', password: 'superadmin-password' };
export const PASSWORD = 'correct-horse-battery';

export type TestApp = {
  app: App;
  /** Superadmin of the bootstrap organisation. */
  root: Credentials;
  /** The test database's connection string on PostgreSQL (see buildPeerApp); undefined on PGlite. */
  databaseUrl?: string;
  close(): Promise<void>;
};

export type Credentials = {
  userId: string;
  organisationId: string;
  token: string;
  role: Role;
  email: string;
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      ENCRYPTION_KEY: 'test-encryption-key-test-encryption-key-0123',
      DATA_DIR: 'test/.tmp',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: SUPERADMIN.email,
      ADMIN_PASSWORD: SUPERADMIN.password,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost,::1',
    }),
    ...overrides,
  };
}

/** The real app on a fresh database copied from the migrated template, with its superadmin. */
export async function buildTestApp(
  options: { config?: Partial<Config>; runWorkers?: boolean; now?: () => Date } = {},
): Promise<TestApp> {
  const { database, drop, url } = await openTestDatabase();
  const app = await buildApp({
    config: testConfig(options.config),
    database,
    runWorkers: options.runWorkers ?? false,
    logger: false,
    now: options.now,
    // Only the routes a file calls are compiled (about 2.5 s of CPU less per app; the service and
    // the e2e tests compile every route at start).
    lazySchemas: true,
  });
  await organisationsModule.services(app.ctx).organisations.bootstrap();
  const root = await signIn(app, SUPERADMIN.email, SUPERADMIN.password);
  return {
    app,
    root,
    databaseUrl: url,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/**
 * Another node on the database of `t`: a second app with its own connection pool, sharing only the
 * database, as two service processes do (lighter than test/platform/multi-node.test.ts's real processes).
 * PostgreSQL only: an embedded PGlite database belongs to one app. Close it before `t`.
 */
export async function buildPeerApp(
  t: TestApp,
  options: { config?: Partial<Config> } = {},
): Promise<{ app: App; close(): Promise<void> }> {
  if (!t.databaseUrl) throw new Error('buildPeerApp needs PostgreSQL (DATABASE_URL)');
  const database = await openDatabase({ kind: 'postgres', url: t.databaseUrl, poolSize: 5 });
  const app = await buildApp({
    config: testConfig(options.config),
    database,
    runWorkers: false,
    logger: false,
    lazySchemas: true,
  });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close().catch(() => {});
    },
  };
}

export async function signIn(app: App, email: string, password: string): Promise<Credentials> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/sign-in',
    payload: { username: email, password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const { token } = response.json();
  const me = await app.inject({
    method: 'GET',
    url: '/api/users/me',
    headers: { authorization: `Bearer ${token}` },
  });
  const user = me.json();
  return { userId: user.id, organisationId: user.organisationId, token, role: user.role, email };
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}-${Date.now().toString(36)}`;

/** A new tenant through the public API, with its admin signed in. */
export async function makeOrganisation(t: TestApp, name = unique('org')): Promise<Credentials> {
  const email = `${unique('admin')}@test.local`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/organisations',
    headers: auth(t.root),
    payload: { name, admin: { email, password: PASSWORD } },
  });
  if (response.statusCode !== 201) throw new Error(`organisation: ${response.statusCode} ${response.body}`);
  return signIn(t.app, email, PASSWORD);
}

/**
 * A user of the given role in the organisation of `admin`, written straight to the database so
 * platform tests do not depend on the users module.
 */
export async function makeUser(t: TestApp, admin: Credentials, role: Role): Promise<Credentials> {
  const email = `${unique(role)}@test.local`;
  await t.app.ctx.db.insert(users).values({
    organisationId: admin.organisationId,
    role,
    username: email,
    email,
    passwordHash: await hashPassword(PASSWORD),
  });
  return signIn(t.app, email, PASSWORD);
}

export const auth = (credentials: Pick<Credentials, 'token'>) => ({
  authorization: `Bearer ${credentials.token}`,
});
