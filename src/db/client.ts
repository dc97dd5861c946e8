import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { createPgliteDataDirectory } from './pglite-data-directory.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Db | Tx;

export type SqlResult<R> = { rows: R[] };

/**
 * The rows of `db.execute(sql...)`: both drivers answer `{ rows }` (node-postgres' QueryResult,
 * PGlite's Results), which Drizzle's shared PgDatabase type does not say; the row type is the
 * caller's, as the SQL is.
 */
export const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] =>
  (result as { rows?: T[] }).rows ?? (result as T[]);

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Plain parameterised SQL, for the job queue adapter and maintenance statements. */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<R>>;
  close(): Promise<void>;
  pglite?: PGlite;
  pool?: pg.Pool;
};

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

// Return timestamps as Date, numerics as numbers, and bigint counts as numbers on node-postgres,
// so both drivers hand the same JavaScript values to the services.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** See `pgliteOptions` below. */
const PGLITE_DATABASE = 'template1';

/**
 * PostgreSQL's page cache inside PGlite. 0.3 fixed it at 128 MB, which the WebAssembly memory kept
 * for the life of the process once filled; the operating system caches the data files anyway
 * (PGlite reads them through Node's fs), so a small pool costs little: 16 MB held the idle
 * service about 110 MB lower (bench/RESULTS.md, "PGlite 0.4").
 */
const PGLITE_SHARED_BUFFERS = '16MB';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries report their own errors.
    });
    const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      pool,
      query: async (text, params) => {
        const result = await pool.query(text, params as unknown[]);
        return { rows: result.rows };
      },
      close: () => pool.end(),
    };
  }
  // Loaded only when used: a process on PostgreSQL never pays for PGlite's code (a few MB of heap).
  const [{ PGlite }, { drizzle: drizzlePglite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const pgliteOptions = {
    loadDataDir: options.loadDataDir,
    // pg_trgm backs the trigram indexes of `$cont` searches (migration heavy_lists): PGlite ships
    // it as an extension bundle that must be given here before CREATE EXTENSION can find it.
    extensions: { pg_trgm },
    // PGlite 0.3 kept everything in template1 and 0.4 opens `postgres` by default: the data
    // directories (and test dumps) made by 0.3 hold our tables in template1, so we stay there.
    database: PGLITE_DATABASE,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  };
  let pglite: PGlite;
  if (options.dataDir) {
    const directory = join(options.dataDir, 'pgdata');
    const { database, startParams } = pgliteOptions;
    await createPgliteDataDirectory(directory, { database, startParams });
    pglite = new PGlite(directory, pgliteOptions);
  } else {
    pglite = new PGlite(pgliteOptions);
  }
  await pglite.waitReady;
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    query: async (text, params) => {
      const result = await pglite.query(text, params as unknown[]);
      return { rows: result.rows as never[] };
    },
    close: () => pglite.close(),
  };
}
