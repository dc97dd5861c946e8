import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { IMPORT_STATUS, type ImportStats, type ImportStatus, imports } from '../../db/schema/imports.ts';
import { users } from '../../db/schema/platform.ts';
import type { ChangeActor } from '../../platform/events.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { type CustomFieldDefinition, liveDefinitions } from '../custom-fields/validate.ts';
import type { ChunkedFileStore } from '../files/chunks.ts';
import { recordAll } from './bulk.ts';
import { csvRecords, type Header, isBlank, isCsvError, readHeader, toInputRow } from './csv.ts';
import { messageOf, sqlState } from './db-errors.ts';
import { importTypeOf } from './import-types.ts';
import { clearKeys, saveKeys } from './keys.ts';
import { resultMail } from './mail.ts';
import { heapGuard } from './memory.ts';
import { IMPORT_ENTITY, type ImportRow, presentImport } from './repository.ts';
import {
  type BatchContext,
  type BatchOutcome,
  emptyOutcome,
  type ImportType,
  type InputRow,
} from './types.ts';

export const IMPORT_JOB = 'imports.process';
export type ImportJob = { importId: string };

/** Errors kept in `stats.errors`. */
export const MAX_ERRORS = 100;
/** Unexpected failures before an import ends CRASH. */
const MAX_ATTEMPTS = 3;
/** Interruptions (restarts) before an import ends CRASH. */
const MAX_RESUMES = 10;
/** Records archived per transaction by allowDelete. */
const DELETE_BATCH = 1000;
/** Rows written before the first mid-import analyse (see analyseAsItGrows). */
const FIRST_ANALYSE = 5000;
/** How often a worker checking a large file shows it is alive. */
const HEARTBEAT_MS = 5000;

const { REQUESTED, IN_PROGRESS, DONE, FAILED, CRASH } = IMPORT_STATUS;
const UNFINISHED: ImportStatus[] = [REQUESTED, IN_PROGRESS, DONE];

/** The process is stopping: the import is left to be resumed from its checkpoint. */
class Interrupted extends Error {}
/** The import was cancelled, or another worker took it over: stop without touching it. */
class Halted extends Error {}
/** Ends the transaction of a dry-run batch without keeping anything. */
class DryRunRollback extends Error {}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** SQLSTATE classes of errors a row can cause (bad data, constraint violations). */
const ROW_ERROR_CLASSES = new Set(['22', '23']);

function merge(into: BatchOutcome, from: BatchOutcome): BatchOutcome {
  into.created += from.created;
  into.updated += from.updated;
  into.unchanged += from.unchanged;
  into.failed += from.failed;
  into.errors.push(...from.errors);
  into.changes.push(...from.changes);
  into.keys.push(...from.keys);
  into.createdKeys.push(...from.createdKeys);
  return into;
}

function addToStats(stats: ImportStats, out: BatchOutcome, rowsRead: number, deleted = 0): ImportStats {
  // In file order (a stable sort keeps the order of the errors of one row).
  out.errors.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  const errors =
    stats.errors.length < MAX_ERRORS ? [...stats.errors, ...out.errors].slice(0, MAX_ERRORS) : stats.errors;
  return {
    ...stats,
    rowsRead,
    created: stats.created + out.created,
    updated: stats.updated + out.updated,
    unchanged: stats.unchanged + out.unchanged,
    failed: stats.failed + out.failed,
    deleted: stats.deleted + deleted,
    errors,
  };
}

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

/** What a run knows about the import it works on. */
type Run = {
  row: ImportRow;
  type: ImportType;
  definitions: Map<string, CustomFieldDefinition>;
  header?: Header;
  cache: Map<string, unknown>;
  heap: ReturnType<typeof heapGuard>;
  /** Rows after which the written table is analysed again. */
  nextAnalyse: number;
};

/**
 * Processes imports: a durable job per import (`imports.process`), which claims the import, checks
 * the whole file before writing anything, then writes it in batches (each one transaction with
 * its events and the checkpoint `processedRows`), archives absent records (allowDelete), and
 * e-mails the result. A run interrupted by a stop or a crash resumes after the last committed
 * batch; see docs/imports.md.
 */
export function createImportProcessor(ctx: AppContext, deps: { store: ChunkedFileStore; mailer: Mailer }) {
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

  const actorOf = (row: Pick<ImportRow, 'organisationId' | 'createdById'>): ChangeActor => ({
    organisationId: row.organisationId,
    userId: row.createdById,
  });

  const mine = (id: string) => and(eq(imports.id, id), eq(imports.workerId, workerId));

  async function enqueue(importId: string, startAfterSeconds?: number) {
    await ctx.jobs.send<ImportJob>(
      IMPORT_JOB,
      { importId },
      { singletonKey: importId, ...(startAfterSeconds ? { startAfter: startAfterSeconds } : {}) },
    );
  }

  /** Takes the import for this process (REQUESTED -> IN_PROGRESS), unless another live worker has it. */
  async function claim(importId: string): Promise<ImportRow | undefined> {
    const [peek] = await ctx.db
      .select({ organisationId: imports.organisationId, createdById: imports.createdById })
      .from(imports)
      .where(eq(imports.id, importId));
    if (!peek) return undefined;
    return ctx.change(actorOf(peek), async (tx, record) => {
      const [row] = await tx.select().from(imports).where(eq(imports.id, importId)).for('update');
      if (!row || !UNFINISHED.includes(row.status)) return undefined;
      const stale = row.heartbeatAt && row.heartbeatAt.getTime() < Date.now() - staleMs();
      if (row.workerId && row.workerId !== workerId && !stale) return undefined;
      if (row.status === DONE && row.stats.notification) return undefined;
      const now = new Date();
      const stats: ImportStats = { ...row.stats };
      if (row.status === REQUESTED) stats.startedAt = now.toISOString();
      if (row.status === IN_PROGRESS) stats.resumed = (stats.resumed ?? 0) + 1;
      const [claimed] = await tx
        .update(imports)
        .set({
          status: row.status === REQUESTED ? IN_PROGRESS : row.status,
          stats,
          workerId,
          heartbeatAt: now,
          updatedAt: now,
        })
        .where(eq(imports.id, importId))
        .returning();
      if (row.status === REQUESTED) {
        await record({
          on: IMPORT_ENTITY,
          type: 'UPDATE',
          entityId: importId,
          snapshot: presentImport(claimed!),
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
      const [updated] = await tx
        .update(imports)
        .set({ status, stats, heartbeatAt: now, updatedAt: now })
        .where(and(mine(row.id), inArray(imports.status, UNFINISHED)))
        .returning();
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
    const [alive] = await ctx.db
      .update(imports)
      .set({ heartbeatAt: new Date() })
      .where(and(mine(row.id), eq(imports.status, IN_PROGRESS)))
      .returning({ id: imports.id });
    if (!alive) throw new Halted();
  }

  /** Saves the outcome of a batch with the checkpoint, in the batch's transaction. */
  async function checkpoint(tx: Tx, run: Run, processedRows: number, stats: ImportStats) {
    const now = new Date();
    const [saved] = await tx
      .update(imports)
      .set({ processedRows, stats, heartbeatAt: now, updatedAt: now })
      .where(and(mine(run.row.id), eq(imports.status, IN_PROGRESS)))
      .returning({ id: imports.id });
    if (!saved) throw new Halted();
  }

  const batchContext = (run: Run, tx: Tx): BatchContext => ({
    tx,
    organisationId: run.row.organisationId,
    actorId: run.row.createdById,
    importId: run.row.id,
    dryRun: run.row.dryRun,
    columns: run.header?.columns ?? new Set(),
    definitions: run.definitions,
    cache: run.cache,
  });

  /**
   * The whole file is read once before anything is written: a bad header, a file that is not
   * CSV, or a malformed record refuse it (FAILED) without partial writes. Returns the row count.
   */
  async function checkFile(run: Run): Promise<{ rowsTotal: number } | { reason: string }> {
    let header: Header | undefined;
    let count = 0;
    let beat = Date.now();
    try {
      for await (const record of csvRecords(store.read(run.row.fileId!), run.row.delimiter)) {
        if (!header) {
          if (isBlank(record)) continue;
          const read = readHeader(record, run.type, run.definitions, run.row.delimiter);
          if ('reason' in read) return read;
          header = read.header;
          continue;
        }
        count++;
        if ((count & 0x3ff) === 0) {
          run.heap.check();
          await yieldToEventLoop();
          if (Date.now() - beat > HEARTBEAT_MS) {
            beat = Date.now();
            await heartbeat(run.row);
          }
        }
      }
    } catch (error) {
      if (isCsvError(error)) return { reason: `The file is not valid CSV: ${error.message}` };
      throw error;
    }
    if (!header) return { reason: 'The file has no header row' };
    return { rowsTotal: count };
  }

  const isRowError = (error: unknown) => {
    const state = sqlState(error);
    return state !== undefined && ROW_ERROR_CLASSES.has(state.slice(0, 2));
  };

  /** Writes rows one at a time, each in a savepoint, so the rows the database refuses fail alone. */
  async function applyRowByRow(run: Run, tx: Tx, rows: InputRow[]): Promise<BatchOutcome> {
    const out = emptyOutcome();
    for (const row of rows) {
      try {
        merge(out, await tx.transaction((sp) => run.type.applyBatch(batchContext(run, sp as Tx), [row])));
      } catch (error) {
        if (!isRowError(error)) throw error;
        out.failed++;
        out.errors.push({ row: row.row, column: null, message: `could not be written: ${messageOf(error)}` });
        out.keys.push(...run.type.keysOf(row));
      }
    }
    return out;
  }

  /**
   * One batch: its writes, events, keys and checkpoint in one transaction (rolled back for a dry
   * run). When the database refuses the batch (a constraint the validation did not foresee), it
   * is replayed row by row.
   */
  async function writeBatch(run: Run, batch: Array<{ row: InputRow; shapeError?: string }>, upTo: number) {
    // PGlite answers within the same turn of the event loop: without this, an import would keep
    // HTTP requests (a cancellation among them) waiting until it ends.
    await yieldToEventLoop();
    if (stopping) throw new Interrupted();
    const { row } = run;
    const rows = batch.filter((item) => !item.shapeError).map((item) => item.row);
    const outcomeOf = async (tx: Tx, rowByRow: boolean) => {
      const out = emptyOutcome();
      for (const item of batch) {
        if (!item.shapeError) continue;
        out.failed++;
        out.errors.push({ row: item.row.row, column: null, message: `the record ${item.shapeError}` });
        out.keys.push(...run.type.keysOf(item.row));
      }
      if (rows.length === 0) return out;
      return merge(
        out,
        rowByRow
          ? await applyRowByRow(run, tx, rows)
          : await run.type.applyBatch(batchContext(run, tx), rows),
      );
    };
    const write = async (rowByRow: boolean): Promise<ImportStats> => {
      if (!row.dryRun) {
        return ctx.change(actorOf(row), async (tx, record) => {
          const out = await outcomeOf(tx, rowByRow);
          await recordAll(tx, record, row.organisationId, row.createdById, out.changes);
          if (row.allowDelete) await saveKeys(tx, row.id, out.keys, []);
          const next = addToStats(row.stats, out, upTo);
          await checkpoint(tx, run, upTo, next);
          return next;
        });
      }
      let out = emptyOutcome();
      try {
        await ctx.change(actorOf(row), async (tx) => {
          out = await outcomeOf(tx, rowByRow);
          throw new DryRunRollback();
        });
      } catch (error) {
        if (!(error instanceof DryRunRollback)) throw error;
      }
      return ctx.db.transaction(async (tx) => {
        await saveKeys(tx, row.id, row.allowDelete ? out.keys : [], out.createdKeys);
        const next = addToStats(row.stats, out, upTo);
        await checkpoint(tx, run, upTo, next);
        return next;
      });
    };
    let stats: ImportStats;
    try {
      stats = await write(false);
    } catch (error) {
      if (!isRowError(error)) throw error;
      stats = await write(true);
    }
    run.row = { ...row, stats, processedRows: upTo };
    run.heap.check();
    await analyseAsItGrows(run);
  }

  /** Reads the file from the start, skips the rows already committed, and writes the rest in batches. */
  async function processRows(run: Run) {
    const batchSize = ctx.config.imports.batchSize;
    const skip = run.row.processedRows;
    let index = 0;
    let batch: Array<{ row: InputRow; shapeError?: string }> = [];
    const batchKeys = new Set<string>();
    const flush = async (upTo: number) => {
      if (batch.length === 0 && upTo === run.row.processedRows) return;
      const rows = batch;
      batch = [];
      batchKeys.clear();
      await writeBatch(run, rows, upTo);
    };
    for await (const record of csvRecords(store.read(run.row.fileId!), run.row.delimiter)) {
      if (!run.header) {
        if (isBlank(record)) continue;
        const read = readHeader(record, run.type, run.definitions, run.row.delimiter);
        if ('reason' in read) throw new Error(`The header is no longer valid: ${read.reason}`);
        run.header = read.header;
        continue;
      }
      index++;
      if (index <= skip) {
        if ((index & 0x3ff) === 0) {
          await yieldToEventLoop();
          if (stopping) throw new Interrupted();
        }
        continue;
      }
      // A blank row still counts: the checkpoint of the next batch moves past it.
      if (isBlank(record)) continue;
      // Rows are numbered as records, the header being row 1.
      const item = toInputRow(run.header, record, index + 1);
      const keys = run.type.keysOf(item.row);
      // Two rows for one record never share a batch: the second sees the first committed.
      if (batch.length >= batchSize || keys.some((key) => batchKeys.has(key))) await flush(index - 1);
      batch.push(item);
      for (const key of keys) batchKeys.add(key);
    }
    await flush(index);
  }

  /** allowDelete: archives the records of the type absent from the file (counts them in a dry run). */
  async function deleteAbsent(run: Run) {
    const { row } = run;
    if (row.dryRun) {
      const count = await ctx.db.transaction((tx) => run.type.countAbsent(batchContext(run, tx as Tx)));
      const stats = await ctx.db.transaction(async (tx) => {
        const next = { ...row.stats, deleted: count };
        await checkpoint(tx, run, row.processedRows, next);
        return next;
      });
      run.row = { ...row, stats };
      return;
    }
    for (;;) {
      await yieldToEventLoop();
      if (stopping) throw new Interrupted();
      const current = run.row;
      const stats = await ctx.change(actorOf(current), async (tx, record) => {
        const changes = await run.type.archiveAbsent(batchContext(run, tx), DELETE_BATCH);
        if (changes.length === 0) return undefined;
        await recordAll(tx, record, current.organisationId, current.createdById, changes);
        const deleted = changes.filter((c) => c.on === run.type.entity).length;
        const next = addToStats(current.stats, emptyOutcome(), current.processedRows, deleted);
        await checkpoint(tx, run, current.processedRows, next);
        return next;
      });
      if (!stats) return;
      run.row = { ...current, stats };
    }
  }

  /** E-mails the result to the creator; DONE becomes SENT (also when the message stays in the outbox). */
  async function notify(row: ImportRow) {
    const [creator] = row.createdById
      ? await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, row.createdById))
      : [];
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
      const [updated] = await tx
        .update(imports)
        .set({
          status,
          stats: { ...row.stats, notification },
          workerId: null,
          heartbeatAt: null,
          updatedAt: new Date(),
        })
        .where(and(eq(imports.id, row.id), eq(imports.status, row.status)))
        .returning();
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

  /**
   * Statistics of a table that grows from nothing during an import are stale (PGlite never
   * refreshes them, PostgreSQL's autovacuum only once a minute), and a planner that believes the
   * table empty may scan it for every batch. Analysed at 5,000 rows, then each time it has grown
   * four times: a handful of analyses per import.
   */
  async function analyseAsItGrows(run: Run) {
    if (run.row.dryRun || run.row.processedRows < run.nextAnalyse) return;
    run.nextAnalyse = run.row.processedRows * 4;
    await ctx.database.query(`analyze "${run.type.entity.tableName}"`);
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
        const checked = await checkFile(run);
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
        await ctx.db.update(imports).set({ workerId: null, heartbeatAt: null }).where(mine(importId));
        ctx.log.info({ importId }, 'import interrupted: it resumes from its checkpoint');
        return;
      }
      if (error instanceof Halted) {
        const [current] = await ctx.db
          .select({ status: imports.status })
          .from(imports)
          .where(eq(imports.id, importId));
        if (current?.status === IMPORT_STATUS.ABORTED) await clearKeys(ctx.db, importId);
        return;
      }
      ctx.log.error({ err: error, importId }, 'import failed');
      const [current] = await ctx.db.select().from(imports).where(eq(imports.id, importId));
      if (!current || current.workerId !== workerId || !UNFINISHED.includes(current.status)) return;
      const attempts = current.attempts + 1;
      if (attempts < MAX_ATTEMPTS) {
        await ctx.db
          .update(imports)
          .set({ attempts, workerId: null, heartbeatAt: null })
          .where(mine(importId));
        await enqueue(importId, 5 * attempts);
        return;
      }
      await ctx.db.update(imports).set({ attempts }).where(mine(importId));
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
      await ctx.db
        .update(imports)
        .set({ workerId: null, heartbeatAt: null })
        .where(and(inArray(imports.status, UNFINISHED), isNotNull(imports.workerId)));
    }
    const now = Date.now();
    const rows = await ctx.db
      .select({ id: imports.id, status: imports.status, stats: imports.stats })
      .from(imports)
      .where(
        and(
          inArray(imports.status, UNFINISHED),
          or(isNull(imports.workerId), lt(imports.heartbeatAt, new Date(now - staleMs()))),
          // A request just made has its job queued already.
          startup ? undefined : lt(imports.updatedAt, new Date(now - Math.min(30_000, staleMs()))),
        ),
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
