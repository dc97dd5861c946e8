import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { createJobs, PGBOSS_SCHEMA, PGBOSS_V10_SCHEMA } from '../../src/platform/jobs.ts';
import { until } from '../fixtures/imports.ts';
import { openTestDatabase } from '../helpers/database.ts';

const silent = pino({ level: 'silent' });

async function exec(database: Database, sql: string) {
  if (database.kind === 'pglite') await database.pglite!.exec(sql);
  else await database.pool!.query(sql);
}

const schemaExists = async (database: Database, name: string) =>
  (await database.query('select 1 from pg_namespace where nspname = $1', [name])).rows.length > 0;

describe('moving from pg-boss 10 (schema 24) to pg-boss 12', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    // The database as pg-boss 10 left it: its schema, two queues, and jobs in every state.
    await exec(database, `drop schema ${PGBOSS_SCHEMA} cascade`);
    await exec(
      database,
      await readFile(new URL('../fixtures/pgboss-v10-schema.sql', import.meta.url), 'utf8'),
    );
    await exec(
      database,
      `select pgboss.create_queue('test.echo', '{"policy":"stately","retryLimit":3,"expireInSeconds":60}');
       select pgboss.create_queue('test.retired', '{"policy":"standard"}');
       insert into pgboss.job (name, data, state, singleton_key, policy) values
         ('test.echo', '{"n":1}', 'created', 'a', 'stately'),
         ('test.echo', '{"n":2}', 'active', 'b', 'stately'),
         ('test.echo', '{"n":3}', 'retry', null, 'stately'),
         ('test.echo', '{"n":4}', 'completed', null, 'stately'),
         ('test.echo', '{"n":5}', 'failed', null, 'stately'),
         ('test.retired', '{"n":6}', 'created', null, 'standard');`,
    );
  });
  afterAll(async () => {
    await drop();
  });

  it('sets the old schema aside, runs its unfinished jobs once on the new one, and drops it', {
    timeout: 60_000,
  }, async () => {
    const seen: number[] = [];
    const jobs = createJobs(database, silent);
    jobs.define<{ n: number }>('test.echo', async (batch) => {
      for (const job of batch) seen.push(job.data.n);
    });
    try {
      await jobs.start({ runWorkers: true });
      expect(await jobs.boss.schemaVersion()).toBeGreaterThanOrEqual(46);
      expect(await schemaExists(database, PGBOSS_V10_SCHEMA)).toBe(false);
      await until(async () => seen.length >= 3, 30_000);
      expect(seen.sort()).toEqual([1, 2, 3]);
      // The singleton key came along with the job.
      const moved = await jobs.boss.findJobs('test.echo', { key: 'a' });
      expect(moved).toHaveLength(1);
    } finally {
      await jobs.stop();
    }
    // A second start finds nothing to move and keeps the new schema.
    const again = createJobs(database, silent);
    again.define('test.echo', async () => {});
    await again.start({ runWorkers: false });
    expect(await again.boss.schemaVersion()).toBeGreaterThanOrEqual(46);
    await again.stop();
  });
});
