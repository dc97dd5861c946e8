import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { TEST_DATABASE_URL, withAdminClient } from './pg-admin.ts';

/**
 * A fresh database for one test file, copied from the migrated template made by global-setup.ts:
 * a PGlite data-directory dump, or a PostgreSQL database created from the template database.
 */
export async function openTestDatabase(): Promise<{
  database: Database;
  drop: () => Promise<void>;
  /** The copy's connection string on PostgreSQL (another node may open it); undefined on PGlite. */
  url?: string;
}> {
  const template = inject('dbTemplate');
  if (!template) throw new Error('No template database: run the tests through vitest (global-setup.ts)');
  const serverUrl = TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `test_${randomBytes(6).toString('hex')}`;
    await withAdminClient(serverUrl, (c) => c.query(`create database "${name}" template "${template}"`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
    return {
      database,
      url: url.toString(),
      drop: async () => {
        await database.close().catch(() => {});
        await withAdminClient(serverUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
      },
    };
  }
  const dump = await readFile(template);
  const database = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([dump]) });
  return { database, drop: () => database.close().catch(() => {}) };
}
