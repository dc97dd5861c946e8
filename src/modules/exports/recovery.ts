/**
 * Exports left behind by a crash. An export is written by its pg-boss job (`exports.run`); when the
 * process running it dies, the export stays "in progress" (2) until pg-boss expires the job (an
 * hour) and retries it, and when the job was never queued (the process died between the commit of
 * the request and the send), it stays "requested" (1) for ever. The sweep, run at start-up and
 * every minute on every node, hands such exports back to the queue:
 *
 * - in progress with no change for `staleAfterMs`: the interrupted run counts as a failed attempt;
 *   requested again (and queued) while attempts are left, else 7 CRASH with the reason;
 * - requested with no change for a minute: queued again (pg-boss keeps one queued job per export).
 *
 * A run claims its export atomically (service.ts), so a sweep racing a slow run never writes the
 * file twice.
 */
import type { AppContext } from '../../context.ts';
import { IMPORT_STATUS } from '../../db/schema/imports.ts';
import { findStaleExports, updateExportIfUnchanged } from './repository.ts';
import {
  EXPORT_ATTEMPTS,
  EXPORT_ENTITY,
  EXPORT_JOB,
  EXPORT_STALE_AFTER_MS,
  type ExportJob,
  presentExport,
} from './service.ts';
/** A requested export not picked up this long has lost its job. */
export const EXPORT_UNQUEUED_AFTER_MS = 60_000;
export const EXPORT_SWEEP_INTERVAL_MS = 60_000;

export function createExportRecovery(
  ctx: Pick<AppContext, 'db' | 'change' | 'jobs' | 'log'>,
  staleAfterMs = EXPORT_STALE_AFTER_MS,
) {
  /** Hands stale exports back to the queue (or ends them in 7 CRASH); answers how many it touched. */
  async function recover(now = new Date()): Promise<number> {
    const stale = await findStaleExports(
      ctx.db,
      new Date(now.getTime() - staleAfterMs),
      new Date(now.getTime() - EXPORT_UNQUEUED_AFTER_MS),
    );
    let touched = 0;
    for (const row of stale) {
      const interrupted = row.status === IMPORT_STATUS.IN_PROGRESS;
      const attempts = interrupted ? row.attempts + 1 : row.attempts;
      const crashed = attempts >= EXPORT_ATTEMPTS;
      const updated = await ctx.change(
        { organisationId: row.organisationId, userId: null },
        async (tx, record) => {
          // Only if nothing moved it since it was read (another node's sweep, a finishing run).
          const next = await updateExportIfUnchanged(tx, row, {
            attempts,
            status: crashed ? IMPORT_STATUS.CRASH : IMPORT_STATUS.REQUESTED,
            stats: interrupted
              ? { ...row.stats, reason: 'interrupted: the process writing it stopped' }
              : row.stats,
            updatedAt: now,
          });
          if (next && crashed) {
            await record({
              on: EXPORT_ENTITY,
              type: 'UPDATE',
              entityId: row.id,
              snapshot: presentExport(next),
            });
          }
          return next;
        },
      );
      if (!updated) continue;
      touched++;
      if (!crashed)
        await ctx.jobs.send<ExportJob>(EXPORT_JOB, { exportId: row.id }, { singletonKey: row.id });
    }
    if (touched) ctx.log.info({ touched }, 'exports handed back after an interruption');
    return touched;
  }
  return { recover };
}
