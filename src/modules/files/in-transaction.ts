/**
 * File changes inside a caller's transaction (the file service's `remove` opens its own): for
 * modules that replace a generated file in the same transaction as they store the new one.
 */
import type { Tx } from '../../db/client.ts';
import type { EventRecorder } from '../../platform/events.ts';
import {
  type AttachmentTarget,
  FILE_ENTITY,
  PARENT_ENTITIES,
  softDeleteLabelledFiles,
} from './repository.ts';

/**
 * Soft-deletes the live files of a record that carry `label` (e.g. the previous French PDF of a
 * quote) with one FILE DELETE event each; returns them.
 */
export async function removeLabelledFilesInTransaction(
  tx: Tx,
  actor: { organisationId: string },
  target: AttachmentTarget,
  label: string,
  record: EventRecorder,
) {
  const removed = await softDeleteLabelledFiles(tx, actor.organisationId, target, label);
  for (const file of removed) {
    await record({
      on: FILE_ENTITY,
      type: 'DELETE',
      entityId: file.id,
      snapshot: file,
      relation: PARENT_ENTITIES[target.entity],
      relationId: target.entityId,
    });
  }
  return removed;
}
