/**
 * npm run bench:test-setup — what one test file pays before its first test (issue 31: `npm test`
 * under 6 minutes on 2 cores with PGlite). Run by vitest (bench/test-setup/vitest.config.ts) with
 * the tests' own global setup, so the template database and the module transforms are the tests'.
 * Times, once: the template (global setup) and the import of the app and helpers; then per
 * simulated file: buildTestApp (database copy from the template, app, bootstrap, superadmin
 * signed in), one makeOrganisation, one makeUser, close. Reports wall time and this process's CPU
 * time per step (median): CPU time is what a loaded machine cannot hide, other work inflates the
 * wall time only. Not a test: it asserts nothing and is not part of `npm test`.
 *
 * Environment: BENCH_FILES (default 5), DATABASE_URL (PostgreSQL instead of PGlite, as the tests).
 */

import { performance } from 'node:perf_hooks';
import { cpuUsage } from 'node:process';
import { inject, it } from 'vitest';

const FILES = Number(process.env.BENCH_FILES || 5);

it('test file setup', async () => {
  const steps = new Map<string, { wall: number[]; cpu: number[] }>();
  async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const w0 = performance.now();
    const c0 = cpuUsage();
    const result = await fn();
    const c = cpuUsage(c0);
    const entry = steps.get(name) ?? { wall: [], cpu: [] };
    entry.wall.push(performance.now() - w0);
    entry.cpu.push((c.user + c.system) / 1000);
    steps.set(name, entry);
    return result;
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

  const { buildTestApp, makeOrganisation, makeUser, testConfig, signIn, SUPERADMIN } = await step(
    'import the app and helpers',
    () => import('../../test/helpers/app.ts'),
  );
  const { openTestDatabase } = await import('../../test/helpers/database.ts');
  const { buildApp } = await import('../../src/app.ts');
  const { organisationsModule } = await import('../../src/modules/organisations/module.ts');
  for (let i = 0; i < FILES; i++) {
    // buildTestApp's steps one by one, then buildTestApp itself.
    const { database, drop } = await step('  - database copied from the template', () => openTestDatabase());
    const app = await step('  - buildApp', () =>
      buildApp({ config: testConfig(), database, runWorkers: false, logger: false, lazySchemas: true }),
    );
    await step('  - bootstrap (superadmin and its organisation)', () =>
      organisationsModule.services(app.ctx).organisations.bootstrap(),
    );
    await step('  - superadmin signed in (the app gets ready: schemas compiled)', () =>
      signIn(app, SUPERADMIN.email, SUPERADMIN.password),
    );
    await app.close();
    await drop();
    const t = await step('buildTestApp: database copy, app, bootstrap, sign-in', () => buildTestApp());
    const admin = await step('makeOrganisation (a tenant, seeded, its admin signed in)', () =>
      makeOrganisation(t),
    );
    await step('makeUser (a user, signed in)', () => makeUser(t, admin, 'sales'));
    await step('close', () => t.close());
  }
  const template = inject('templateSetup');
  const lines = [
    `### Test file setup (npm run bench:test-setup) — ${new Date().toISOString().slice(0, 16)}Z`,
    '',
    `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${FILES} simulated files, Node ${process.version}`,
    '',
    '| step | wall, median (ms) | CPU of the process, median (ms) |',
    '|---|---|---|',
    `| template: migrations + job tables, dumped (global setup, once per run) | ${template.wall.toFixed(0)} | ${template.cpu.toFixed(0)} (main process) |`,
    ...[...steps].map(
      ([name, s]) => `| ${name} | ${median(s.wall).toFixed(0)} | ${median(s.cpu).toFixed(0)} |`,
    ),
  ];
  console.log(`\n${lines.join('\n')}\n`);
});
