import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { ImportStats } from '../../db/schema/imports.ts';
import type { ChunkedFileStore } from '../files/chunks.ts';
import { recordAll } from './bulk-repository.ts';
import { csvRecords, isBlank, readHeader, toInputRow } from './csv.ts';
import { messageOf, sqlState } from './db-errors.ts';
import { saveKeys } from './keys-repository.ts';
import { actorOf, Interrupted, type Run, type RunFence, yieldToEventLoop } from './run.ts';
import { type BatchContext, type BatchOutcome, emptyOutcome, type InputRow } from './types.ts';

/** Errors kept in `stats.errors`. */
export const MAX_ERRORS = 100;
/** Records archived per transaction by allowDelete. */
const DELETE_BATCH = 1000;
/** Rows written before the first mid-import analyse (see analyseAsItGrows). */
export const FIRST_ANALYSE = 5000;

/** Ends the transaction of a dry-run batch without keeping anything. */
class DryRunRollback extends Error {}

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

const isRowError = (error: unknown) => {
  const state = sqlState(error);
  return state !== undefined && ROW_ERROR_CLASSES.has(state.slice(0, 2));
};

/**
 * The write pass of an import, once its file is checked: reads the file again and writes its rows
 * in batches, each one transaction with its events, keys and the checkpoint `processedRows`
 * (rolled back for a dry run), then archives the records absent from the file (allowDelete).
 * The fence (the processor's) says whether the process is stopping and saves checkpoints only
 * while this worker still holds the import.
 */
export function createWritePass(
  ctx: Pick<AppContext, 'db' | 'database' | 'change' | 'config'>,
  deps: { store: ChunkedFileStore; fence: RunFence },
) {
  const { store, fence } = deps;
  const { checkpoint } = fence;

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
    if (fence.stopping()) throw new Interrupted();
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
          await recordAll(ctx.change.present, tx, record, row.organisationId, row.createdById, out.changes);
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
          if (fence.stopping()) throw new Interrupted();
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
      if (fence.stopping()) throw new Interrupted();
      const current = run.row;
      const stats = await ctx.change(actorOf(current), async (tx, record) => {
        const changes = await run.type.archiveAbsent(batchContext(run, tx), DELETE_BATCH);
        if (changes.length === 0) return undefined;
        await recordAll(ctx.change.present, tx, record, current.organisationId, current.createdById, changes);
        const deleted = changes.filter((c) => c.on === run.type.entity).length;
        const next = addToStats(current.stats, emptyOutcome(), current.processedRows, deleted);
        await checkpoint(tx, run, current.processedRows, next);
        return next;
      });
      if (!stats) return;
      run.row = { ...current, stats };
    }
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

  return { processRows, deleteAbsent };
}

export type WritePass = ReturnType<typeof createWritePass>;
