/**
 * npm run bench:http — an authenticated single-row read (GET /api/users/me) and a paginated list
 * (GET /api/users/pagination) of the real service, against bare Fastify + one SQL query on the same
 * PostgreSQL database, in the same run. Target: the authenticated read at >= 50 % of bare.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { createScratchDatabase, type LoadResult, load, machine, startServer } from './lib.ts';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const scratch = await createScratchDatabase('bench_http');
try {
  // Prepare: schema, the first organisation, 2,000 more users for the list, a token.
  const database = await openDatabase({ kind: 'postgres', url: scratch.url });
  await runMigrations(database);
  const config = loadConfig({
    JWT_SECRET,
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
    LOG_LEVEL: 'silent',
  });
  const setup = await buildApp({ config, database, logger: false, runWorkers: false });
  await organisationsModule.services(setup.ctx).organisations.bootstrap();
  await database.query(`insert into users (id, organisation_id, role, email, username, created_at)
    select gen_random_uuid(), (select organisation_id from users limit 1), 'sales', 'u' || g || '@bench.local',
           'u' || g || '@bench.local', now() - g * interval '1 minute' from generate_series(1, 2000) g`);
  await database.query('analyze');
  const signIn = await setup.inject({
    method: 'POST',
    url: '/api/sign-in',
    payload: { username: 'bench@example.com', password: 'bench-password' },
  });
  const { token } = signIn.json() as { token: string };
  const { rows: found } = await database.query<{ id: string; organisation_id: string }>(
    `select id, organisation_id from users where username = 'bench@example.com'`,
  );
  const me = found[0];
  await setup.close();
  await database.close();

  const env = { DATABASE_URL: scratch.url, JWT_SECRET };
  const app = await startServer('bench/http-server.ts', { ...env, MODE: 'app' });
  const bare = await startServer('bench/http-server.ts', { ...env, MODE: 'bare' });
  const authHeaders = { authorization: `Bearer ${token}` };
  const base = (port: number) => `http://127.0.0.1:${port}`;

  // Warm up both, then measure alternately so drift on a shared machine affects both alike.
  await load(`${base(app.port)}/api/users/me`, authHeaders, 2);
  await load(`${base(bare.port)}/user/${me!.id}`, {}, 2);
  const results: Record<string, LoadResult> = {};
  results['bare: 1 SQL query by id'] = await load(`${base(bare.port)}/user/${me!.id}`, {}, SECONDS);
  results['service: GET /api/users/me (JWT)'] = await load(
    `${base(app.port)}/api/users/me`,
    authHeaders,
    SECONDS,
  );
  results['bare: 1 SQL page of 25'] = await load(
    `${base(bare.port)}/users/${me!.organisation_id}`,
    {},
    SECONDS,
  );
  results['service: GET /api/users/pagination (25)'] = await load(
    `${base(app.port)}/api/users/pagination?limit=25&sort=createdAt,DESC`,
    authHeaders,
    SECONDS,
  );
  app.stop();
  bare.stop();

  const rows = Object.entries(results).map(
    ([name, r]) =>
      `| ${name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors + r.non2xx} |`,
  );
  const ratio = (a: string, b: string) =>
    ((results[a]!.requestsPerSecond / results[b]!.requestsPerSecond) * 100).toFixed(0);
  const meRatio = ratio('service: GET /api/users/me (JWT)', 'bare: 1 SQL query by id');
  const listRatio = ratio('service: GET /api/users/pagination (25)', 'bare: 1 SQL page of 25');
  console.log(
    `\n${new Date().toISOString().slice(0, 10)} · ${machine()} · PostgreSQL · 10 connections · ${SECONDS} s each\n`,
  );
  console.log('| run | req/s | p50 ms | p97.5 ms | p99 ms | errors |\n|---|--:|--:|--:|--:|--:|');
  console.log(rows.join('\n'));
  console.log(`\nauthenticated single-row read: ${meRatio} % of bare (target >= 50 %)`);
  console.log(`paginated list (with total count): ${listRatio} % of bare single query`);
} finally {
  await scratch.drop();
}
process.exit(0);
