import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { IMPORT_STATUS, type ImportStats, type ImportStatus } from '../../db/schema/imports.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { liveDefinitions } from '../custom-fields/validate.ts';
import type { ChunkedFileStore } from '../files/chunks.ts';
import { checkFile } from './check-pass.ts';
import { messageOf } from './db-errors.ts';
import { importTypeOf } from './import-types.ts';
import { clearKeys } from './keys-repository.ts';
import { resultMail } from './mail.ts';
import { heapGuard } from './memory.ts';
import { IMPORT_ENTITY, type ImportRow, presentImport, updateImport } from './repository.ts';
import { actorOf, Halted, Interrupted, type Run, type RunFence } from './run.ts';
import {
  findImportActor,
  findImportById,
  findImportStatus,
  findImportsToRecover,
  findUserEmail,
  lockImport,
  releaseUnfinishedImports,
  updateHeldImport,
  updateHeldImportIn,
  updateHeldUnfinishedImport,
  updateImportIfStatus,
} from './run-repository.ts';
import { createWritePass, FIRST_ANALYSE } from './write-pass.ts';

export const IMPORT_JOB = 'imports.process';
export type ImportJob = { importId: string };

/** Unexpected failures before an import ends CRASH. */
const MAX_ATTEMPTS = 3;
/** Interruptions (restarts) before an import ends CRASH. */
const MAX_RESUMES = 10;

const { REQUESTED, IN_PROGRESS, DONE, FAILED, CRASH } = IMPORT_STATUS;
const UNFINISHED: ImportStatus[] = [REQUESTED, IN_PROGRESS, DONE];

const finishedStats = (stats: ImportStats, extra: Partial<ImportStats> = {}): ImportStats => {
  const finishedAt = new Date();
  const started = stats.startedAt ? Date.parse(stats.startedAt) : finishedAt.getTime();
  return {
    ...stats,
    ...extra,
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - started,
  };
};

/**
 * Processes imports: a durable job per import (`imports.process`), which claims the import, checks
 * the whole file before writing anything, then writes it in batches (each one transaction with
 * its events and the checkpoint `processedRows`), archives absent records (allowDelete), and
 * e-mails the result. A run interrupted by a stop or a crash resumes after the last committed
 * batch; see docs/imports.md.
 */
export function createImportProcessor(
  ctx: Pick<AppContext, 'db' | 'database' | 'change' | 'config' | 'jobs' | 'log'>,
  deps: { store: ChunkedFileStore; mailer: Mailer },
) {
  const { store, mailer } = deps;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const running = new Map<string, Promise<void>>();
  /**
   * How often each process sweeps for imports left without a live worker: a quarter of the stale
   * window, at most 30 s. A worker silent for the rest of the window is taken for dead, so a resume
   * begins within IMPORT_STALE_AFTER_SECONDS of a crash (a live one shows a sign of life with every
   * batch, and every 5 s while it checks a file).
   */
  const sweepIntervalMs = Math.max(1000, Math.min(30_000, (ctx.config.imports.staleAfterSeconds * 1000) / 4));
  const staleMs = () => ctx.config.imports.staleAfterSeconds * 1000 - sweepIntervalMs;
  let stopping = false;
  let sweeps = 0;

  async function enqueue(importId: string, startAfterSeconds?: number) {
    await ctx.jobs.send<ImportJob>(
      IMPORT_JOB,
      { importId },
      { singletonKey: importId, ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}) },
    );
  }

  /** Takes the import for this process (REQUESTED -> IN_PROGRESS), unless another live worker has it. */
  async function claim(importId: string): Promise<ImportRow | undefined> {
    const peek = await findImportActor(ctx.db, importId);
    if (!peek) return undefined;
    return ctx.change(actorOf(peek), async (tx, record) => {
      const row = await lockImport(tx, importId);
      if (!row || !UNFINISHED.includes(row.status)) return undefined;
      const stale = row.heartbeatAt && row.heartbeatAt.getTime() < Date.now() - staleMs();
      if (row.workerId && row.workerId !== workerId && !stale) return undefined;
      if (row.status === DONE && row.stats.notification) return undefined;
      const now = new Date();
      const stats: ImportStats = { ...row.stats };
      if (row.status === REQUESTED) stats.startedAt = now.toISOString();
      if (row.status === IN_PROGRESS) stats.resumed = (stats.resumed ?? 0) + 1;
      const claimed = await updateImport(tx, importId, {
        status: row.status === REQUESTED ? IN_PROGRESS : row.status,
        stats,
        workerId,
        heartbeatAt: now,
        updatedAt: now,
      });
      if (row.status === REQUESTED) {
        await record({
          on: IMPORT_ENTITY,
          type: 'UPDATE',
          entityId: importId,
          snapshot: presentImport(claimed),
          updatedColumns: ['status', 'stats'],
        });
      }
      return claimed;
    });
  }

  /** Moves a claimed import to another status, with its event. */
  async function transition(row: ImportRow, status: ImportStatus, stats: ImportStats): Promise<ImportRow> {
    return ctx.change(actorOf(row), async (tx, record) => {
      const now = new Date();
      const updated = await updateHeldUnfinishedImport(tx, row.id, workerId, UNFINISHED, {
        status,
        stats,
        heartbeatAt: now,
        updatedAt: now,
      });
      if (!updated) throw new Halted();
      await record({
        on: IMPORT_ENTITY,
        type: 'UPDATE',
        entityId: row.id,
        snapshot: presentImport(updated),
        updatedColumns: ['status', 'stats'],
      });
      return updated;
    });
  }

  /** Shows the worker is alive; stops when the import was cancelled or taken over. */
  async function heartbeat(row: ImportRow) {
    if (stopping) throw new Interrupted();
    const alive = await updateHeldImportIn(ctx.db, row.id, workerId, IN_PROGRESS, {
      heartbeatAt: new Date(),
    });
    if (!alive) throw new Halted();
  }

  /** Saves the outcome of a batch with the checkpoint, in the batch's transaction. */
  async function checkpoint(tx: Tx, run: Run, processedRows: number, stats: ImportStats) {
    const now = new Date();
    const saved = await updateHeldImportIn(tx, run.row.id, workerId, IN_PROGRESS, {
      processedRows,
      stats,
      heartbeatAt: now,
      updatedAt: now,
    });
    if (!saved) throw new Halted();
  }

  const fence: RunFence = { stopping: () => stopping, heartbeat, checkpoint };
  const { processRows, deleteAbsent } = createWritePass(ctx, { store, fence });

  /** E-mails the result to the creator; DONE becomes SENT (also when the message stays in the outbox). */
  async function notify(row: ImportRow) {
    const creator = row.createdById ? await findUserEmail(ctx.db, row.createdById) : undefined;
    const mail = resultMail(row, ctx.config.publicBaseUrl);
    const result = await mailer.send({
      organisationId: row.organisationId,
      kind: 'import_result',
      to: creator?.email ? [creator.email] : [],
      subject: mail.subject,
      text: mail.text,
    });
    const notification = {
      emailId: result.id,
      status: result.status,
      at: new Date().toISOString(),
      ...(result.error ? { error: result.error.slice(0, 500) } : {}),
    };
    const status = row.status === DONE && result.status !== 'failed' ? IMPORT_STATUS.SENT : row.status;
    await ctx.change(actorOf(row), async (tx, record) => {
      const updated = await updateImportIfStatus(tx, row.id, row.status, {
        status,
        stats: { ...row.stats, notification },
        workerId: null,
        heartbeatAt: null,
        updatedAt: new Date(),
      });
      if (!updated) return;
      await record({
        on: IMPORT_ENTITY,
        type: 'UPDATE',
        entityId: row.id,
        snapshot: presentImport(updated),
        updatedColumns: status === row.status ? ['stats'] : ['status', 'stats'],
      });
    });
  }

  /** Ends the import CRASH (a refused file: `refused`, nothing written; or a failure), and tells the creator. */
  async function end(
    row: ImportRow,
    status: typeof FAILED | typeof CRASH,
    reason: string,
    extra: { refused?: true } = {},
  ) {
    const ended = await transition(row, status, finishedStats(row.stats, { reason, ...extra }));
    await clearKeys(ctx.db, row.id);
    await notify(ended);
  }

  async function analyse(table: string) {
    if (ctx.database.kind !== 'pglite') return;
    // PGlite runs no autoanalyze: without fresh statistics the planner picks poor plans after a bulk load.
    await ctx.database.query(`analyze "${table}"`);
    await ctx.database.query('analyze "events"');
  }

  async function work(importId: string) {
    let row = await claim(importId);
    if (!row) return;
    try {
      if (row.status === DONE) {
        await notify(row);
        return;
      }
      const type = importTypeOf(row.type);
      if (!type) return await end(row, CRASH, `Unknown import type ${row.type}`);
      if ((row.stats.resumed ?? 0) > MAX_RESUMES) {
        return await end(row, CRASH, `Interrupted more than ${MAX_RESUMES} times`);
      }
      if (!row.fileId || row.fileArchived || !(await store.hasContent(row.fileId))) {
        return await end(row, CRASH, 'The file of the import is no longer stored');
      }
      const run: Run = {
        row,
        type,
        definitions: await liveDefinitions(ctx.db, row.organisationId, type.customFieldEntity),
        cache: new Map(),
        heap: heapGuard(),
        nextAnalyse: Math.max(FIRST_ANALYSE, row.processedRows * 4),
      };
      if (row.stats.rowsTotal === null) {
        const checked = await checkFile(run, { store, fence });
        // A refused file ends in 7 CRASH, the specification's "crashed or failed" (clients that know
        // only its codes would poll a 6 forever); `stats.refused` tells it from an unexpected failure.
        if ('reason' in checked) return await end(run.row, CRASH, checked.reason, { refused: true });
        const stats = { ...run.row.stats, rowsTotal: checked.rowsTotal };
        await ctx.db.transaction((tx) => checkpoint(tx as Tx, run, run.row.processedRows, stats));
        run.row = { ...run.row, stats };
      }
      if (run.row.processedRows < (run.row.stats.rowsTotal ?? 0)) await processRows(run);
      if (run.row.allowDelete) await deleteAbsent(run);
      row = run.row;
      const done = await transition(row, DONE, finishedStats(row.stats));
      await clearKeys(ctx.db, row.id);
      if (!row.dryRun) await analyse(type.entity.tableName);
      await notify(done);
    } catch (error) {
      if (error instanceof Interrupted) {
        await updateHeldImport(ctx.db, importId, workerId, { workerId: null, heartbeatAt: null });
        ctx.log.info({ importId }, 'import interrupted: it resumes from its checkpoint');
        return;
      }
      if (error instanceof Halted) {
        const current = await findImportStatus(ctx.db, importId);
        if (current?.status === IMPORT_STATUS.ABORTED) await clearKeys(ctx.db, importId);
        return;
      }
      ctx.log.error({ err: error, importId }, 'import failed');
      const current = await findImportById(ctx.db, importId);
      if (!current || current.workerId !== workerId || !UNFINISHED.includes(current.status)) return;
      const attempts = current.attempts + 1;
      if (attempts < MAX_ATTEMPTS) {
        await updateHeldImport(ctx.db, importId, workerId, { attempts, workerId: null, heartbeatAt: null });
        await enqueue(importId, 5 * attempts);
        return;
      }
      await updateHeldImport(ctx.db, importId, workerId, { attempts });
      const reason = `Processing failed ${attempts} times; last error: ${messageOf(error)}`;
      try {
        await end({ ...current, attempts }, CRASH, reason.slice(0, 2000));
      } catch (endError) {
        if (!(endError instanceof Halted)) throw endError;
      }
    }
  }

  /** Runs the import in this process (once at a time per import). */
  async function run(importId: string): Promise<void> {
    if (stopping) return;
    const current = running.get(importId);
    if (current) return current;
    const promise = work(importId).finally(() => running.delete(importId));
    running.set(importId, promise);
    return promise;
  }

  /**
   * Frees the job slot of an import whose worker is gone: its job stays `active` in pg-boss (until
   * a missed heartbeat or its expiry), and a stately queue runs no other job of the same import
   * meanwhile. Failing it is safe even if its worker were alive: the import row, not the job, says
   * who works on it (claim and checkpoints are fenced by workerId).
   */
  async function releaseJob(importId: string) {
    const jobs = await ctx.jobs.boss.findJobs(IMPORT_JOB, { key: importId });
    const active = jobs.filter((job) => job.state === 'active').map((job) => job.id);
    if (active.length === 0) return;
    await ctx.jobs.boss.fail(IMPORT_JOB, active, {
      message: 'the worker of the import stopped showing signs of life',
    });
    ctx.log.warn({ importId, jobs: active }, 'import job of a dead worker released');
  }

  /**
   * Queues a job for every import that still has work to do and no live worker: at start-up
   * (on PGlite, which one process owns, every unfinished import), then periodically for imports
   * whose worker stopped showing signs of life.
   */
  async function recover(startup: boolean): Promise<number> {
    if (startup && ctx.database.kind === 'pglite') {
      await releaseUnfinishedImports(ctx.db, UNFINISHED);
    }
    const now = Date.now();
    const rows = await findImportsToRecover(
      ctx.db,
      UNFINISHED,
      new Date(now - staleMs()),
      // A request just made has its job queued already.
      startup ? undefined : new Date(now - Math.min(30_000, staleMs())),
    );
    // Uploads cut short by a stop leave hidden, never completed files: removed after a day.
    if (startup || ++sweeps % 20 === 0) await store.purgeAbandoned(24 * 3600_000);
    let queued = 0;
    for (const row of rows) {
      if (row.status === DONE && row.stats.notification) continue;
      await releaseJob(row.id);
      await enqueue(row.id);
      queued++;
    }
    if (queued) ctx.log.info({ queued, startup }, 'imports queued for recovery');
    return queued;
  }

  return {
    workerId,
    sweepIntervalMs,
    run,
    enqueue,
    recover,
    /** Stops between batches: running imports keep their checkpoint and resume later. */
    async stop(timeoutMs = 20_000) {
      stopping = true;
      const all = Promise.allSettled([...running.values()]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    },
  };
}

export type ImportProcessor = ReturnType<typeof createImportProcessor>;
