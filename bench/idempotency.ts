/**
 * npx tsx bench/idempotency.ts — the cost of an Idempotency-Key on a create: sequential
 * POST /api/companies through app.inject on a scratch PostgreSQL database (BENCH_DATABASE_URL),
 * without a key, with a new key each time, and replayed. Results in docs/idempotency.md.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { createScratchDatabase } from './lib.ts';

const scratch = await createScratchDatabase('bench_idem');
try {
  const database = await openDatabase({ kind: 'postgres', url: scratch.url });
  await runMigrations(database);
  const config = loadConfig({
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    ENCRYPTION_KEY: 'bench-encryption-key-bench-encryption-key-01',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, logger: false, runWorkers: false });
  await organisationsModule.services(app.ctx).organisations.bootstrap();
  const { token } = (
    await app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'bench@example.com', password: 'bench-password' },
    })
  ).json();
  const headers = { authorization: `Bearer ${token}` };
  let n = 0;
  const run = async (withKey: boolean, count: number) => {
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/companies',
        headers: withKey ? { ...headers, 'idempotency-key': `k-${++n}` } : headers,
        payload: { name: `C ${++n}` },
      });
      if (r.statusCode !== 201) throw new Error(r.body);
    }
    return (performance.now() - started) / count;
  };
  const replay = async (count: number) => {
    await app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: { ...headers, 'idempotency-key': 'replayed' },
      payload: { name: 'R' },
    });
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/companies',
        headers: { ...headers, 'idempotency-key': 'replayed' },
        payload: { name: 'R' },
      });
      if (r.headers['idempotent-replayed'] !== 'true') throw new Error(r.body);
    }
    return (performance.now() - started) / count;
  };
  await run(false, 200);
  await run(true, 200);
  const without: number[] = [],
    withK: number[] = [],
    rep: number[] = [];
  for (let round = 0; round < 5; round++) {
    without.push(await run(false, 300));
    withK.push(await run(true, 300));
    rep.push(await replay(300));
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(3);
  console.log(
    `median ms/request over 5 rounds of 300 sequential POST /api/companies: without key ${med(without)}, with a new key ${med(withK)}, replay ${med(rep)}`,
  );
  await app.close();
  await database.close();
} finally {
  await scratch.drop();
}
