import { fileURLToPath } from 'node:url';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.ts';

// Relative to this module; the compiled bundle gets a copy next to it (scripts/build.ts).
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies pending migrations. On PostgreSQL an advisory lock makes concurrent starts of several
 * nodes wait for each other instead of racing on the same DDL.
 */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    const client = await database.pool!.connect();
    try {
      await client.query('select pg_advisory_lock(727274)');
      await migrateNodePg(database.db as never, { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
    return;
  }
  await migratePglite(database.db as never, { migrationsFolder });
  // PGlite runs no autovacuum: give its planner statistics after schema changes.
  await database.query('analyze');
}
