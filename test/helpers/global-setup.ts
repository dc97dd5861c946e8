import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase } from '../../src/db/client.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { createJobs } from '../../src/platform/jobs.ts';
import { TEST_DATABASE_URL, withAdminClient } from './pg-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: string;
  }
}

/**
 * Migrates one template database per test run (schema plus the job queue's own tables), which each
 * test file then copies: much faster than migrating from scratch per file.
 */
export default async function setup({ provide }: { provide: (key: 'dbTemplate', value: string) => void }) {
  const silent = pino({ level: 'silent' });
  const serverUrl = TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `test_template_${randomBytes(4).toString('hex')}`;
    await withAdminClient(serverUrl, (c) => c.query(`create database "${name}"`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
    await runMigrations(database);
    const jobs = createJobs(database, silent);
    await jobs.start({ runWorkers: false });
    await jobs.stop();
    await database.close();
    provide('dbTemplate', name);
    return async () => {
      await withAdminClient(serverUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    };
  }
  const dir = join(process.cwd(), 'test', '.tmp');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `template-${process.pid}.tar`);
  const database = await openDatabase({ kind: 'pglite' });
  await runMigrations(database);
  const jobs = createJobs(database, silent);
  await jobs.start({ runWorkers: false });
  await jobs.stop();
  const dump = await database.pglite!.dumpDataDir('none');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  provide('dbTemplate', file);
  return async () => {
    await rm(file, { force: true });
  };
}
