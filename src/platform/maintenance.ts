import type { AppContext } from '../context.ts';

export const MAINTENANCE_JOB = 'maintenance.pglite';

/**
 * PGlite runs neither autovacuum nor autoanalyze, and without statistics its planner picks poor
 * plans on large tables. In embedded mode a scheduled job analyzes every hour and vacuums once a
 * night; PostgreSQL does both by itself, so nothing is scheduled there.
 */
export function registerPgliteMaintenance(ctx: AppContext) {
  if (ctx.database.kind !== 'pglite') return;
  const run = (statement: string) => async () => {
    const started = Date.now();
    await ctx.database.query(statement);
    ctx.log.info({ statement, ms: Date.now() - started }, 'embedded database maintenance done');
  };
  ctx.jobs.define(MAINTENANCE_JOB, run('analyze'));
  ctx.jobs.define(`${MAINTENANCE_JOB}.nightly`, run('vacuum analyze'));
  ctx.jobs.afterStart(async () => {
    await ctx.jobs.schedule(MAINTENANCE_JOB, '23 * * * *');
    await ctx.jobs.schedule(`${MAINTENANCE_JOB}.nightly`, '41 3 * * *');
  });
}
