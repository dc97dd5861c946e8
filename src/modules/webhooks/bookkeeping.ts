import pg from 'pg';
import type { Database, SqlResult } from '../../db/client.ts';

export type Bookkeeping = {
  /** `name` makes it a prepared statement on PostgreSQL: planned once per connection. */
  query<R = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<SqlResult<R>>;
  close(): Promise<void>;
};

/**
 * The connection the delivery machinery writes its own bookkeeping through (dispatch marks, claims,
 * attempt records). On PostgreSQL it is a small pool of its own with `synchronous_commit = off`:
 * these commits do not wait for the WAL flush, so they neither slow down nor queue behind the
 * business writes' commits. A database crash can lose the last fraction of a second of them, which
 * only means an event is dispatched again or an attempt is made again: delivery stays at least once.
 * Business data and events are written through the main pool with full durability as before.
 */
export function createBookkeeping(database: Database): Bookkeeping {
  if (database.kind !== 'postgres' || !database.pool) {
    return { query: (text, params) => database.query(text, params), close: async () => {} };
  }
  const pool = new pg.Pool({
    ...database.pool.options,
    max: 4,
    idleTimeoutMillis: 30_000,
    options: '-c synchronous_commit=off',
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Queries report their own errors.
  });
  return {
    query: async <R>(text: string, params?: unknown[], name?: string) => {
      const result = await pool.query({ text, values: params as unknown[], ...(name ? { name } : {}) });
      return { rows: result.rows as R[] };
    },
    close: () => pool.end(),
  };
}
