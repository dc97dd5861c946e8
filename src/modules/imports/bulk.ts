/** A batch's pending updates, queued row by row and written in one statement (bulk-repository.ts). */
import type { Tx } from '../../db/client.ts';
import { writeRows } from './bulk-repository.ts';
import type { BatchOutcome } from './types.ts';
import { differences } from './values.ts';

/** A row of a batch that changed: its id, the fields that changed and all its values after the change. */
export type PendingUpdate = { id: string; changed: string[]; values: Record<string, unknown> };

/** The changed rows of a batch and the columns their one update statement sets. */
export type PendingUpdates = { updates: PendingUpdate[]; updateFields: Set<string> };

export const pendingUpdates = (): PendingUpdates => ({ updates: [], updateFields: new Set() });

/**
 * Queues the update of an existing row to `next` when they differ, and answers the fields that
 * changed (none: the row is unchanged). The update sets the changed fields, or every field of
 * `next` with `setAll` (a company import writes its whole row so the parent overlay holds).
 */
export function queueUpdate(
  pending: PendingUpdates,
  current: Record<string, unknown> & { id: string },
  next: Record<string, unknown>,
  options: { setAll?: boolean } = {},
): string[] {
  const changed = differences(current, next);
  if (changed.length === 0) return changed;
  for (const field of options.setAll ? Object.keys(next) : changed) pending.updateFields.add(field);
  pending.updates.push({ id: current.id, changed, values: { ...current, ...next } });
  return changed;
}

/** Writes a batch's rows (writeRows) and adds their events and counts to the batch's outcome. */
export async function writeBatch(
  tx: Tx,
  out: BatchOutcome,
  batch: Omit<Parameters<typeof writeRows>[1], 'updates' | 'updateFields'> & PendingUpdates,
): Promise<BatchOutcome> {
  out.changes.push(...(await writeRows(tx, batch)));
  out.created += batch.creates.length;
  out.updated += batch.updates.length;
  return out;
}
