import type { Tx } from '../../db/client.ts';
import type { ImportStats } from '../../db/schema/imports.ts';
import type { ChangeActor } from '../../platform/events.ts';
import type { CustomFieldDefinition } from '../custom-fields/validate.ts';
import type { Header } from './csv.ts';
import type { heapGuard } from './memory.ts';
import type { ImportRow } from './repository.ts';
import type { ImportType } from './types.ts';

/** What a run knows about the import it works on. */
export type Run = {
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
 * What the passes of a run ask of the processor that holds the import: every write is fenced by
 * the processor's worker id, and a stopping process leaves the import to be resumed.
 */
export type RunFence = {
  /** The process is stopping: passes end with Interrupted between batches. */
  stopping(): boolean;
  /** Shows the worker is alive; throws Halted when the import was cancelled or taken over. */
  heartbeat(row: ImportRow): Promise<void>;
  /** Saves the outcome of a batch with the checkpoint, in the batch's transaction (Halted if no longer ours). */
  checkpoint(tx: Tx, run: Run, processedRows: number, stats: ImportStats): Promise<void>;
};

/** The process is stopping: the import is left to be resumed from its checkpoint. */
export class Interrupted extends Error {}
/** The import was cancelled, or another worker took it over: stop without touching it. */
export class Halted extends Error {}

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export const actorOf = (row: Pick<ImportRow, 'organisationId' | 'createdById'>): ChangeActor => ({
  organisationId: row.organisationId,
  userId: row.createdById,
});
