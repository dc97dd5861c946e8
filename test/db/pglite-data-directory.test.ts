/**
 * A PGlite data directory (DATA_DIR, what `npm start` uses without DATABASE_URL): created in a
 * child process when new, then opened by the service; our tables live in template1, where PGlite
 * 0.3 put them (0.4 opens `postgres` by default); PostgreSQL's page cache is 16 MB, not 128.
 * Runs on PGlite whatever the suite's database: it is about the embedded database itself.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';

describe('PGlite data directory', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pglite-dir-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is created when new, keeps what was written across a reopen, in template1 with 16 MB of buffers', async () => {
    const directory = join(dataDir, 'nested', 'service');
    const first = await openDatabase({ kind: 'pglite', dataDir: directory });
    expect(existsSync(join(directory, 'pgdata', 'PG_VERSION'))).toBe(true);
    const settings = await first.query<{ database: string; buffers: string }>(
      `select current_database() as database, current_setting('shared_buffers') as buffers`,
    );
    expect(settings.rows[0]).toEqual({ database: 'template1', buffers: '16MB' });
    await first.query('create table kept (id int primary key, name text)');
    await first.query(`insert into kept values (1, 'carton')`);
    await first.close();

    const again = await openDatabase({ kind: 'pglite', dataDir: directory });
    const rows = await again.query<{ name: string }>('select name from kept');
    expect(rows.rows).toEqual([{ name: 'carton' }]);
    await again.close();
  });

  it('says which directory it could not create', async () => {
    const blocked = join(dataDir, 'a-file');
    writeFileSync(blocked, 'not a directory');
    await expect(openDatabase({ kind: 'pglite', dataDir: join(blocked, 'inside') })).rejects.toThrow(
      /not a directory|ENOTDIR|could not create the PGlite data directory/i,
    );
  });
});
