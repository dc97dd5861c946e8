import { and, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { importKeys } from '../../db/schema/imports.ts';
import { inList } from './bulk-repository.ts';

const KEYS_PER_INSERT = 5000;

/** Adds keys met in the file (and, for dry runs, the placeholder ids of records "created"). */
export async function saveKeys(
  tx: Tx,
  importId: string,
  keys: string[],
  created: Array<{ key: string; id: string }>,
): Promise<void> {
  const byKey = new Map<string, string | null>();
  for (const key of keys) byKey.set(key, null);
  for (const entry of created) byKey.set(entry.key, entry.id);
  const rows = [...byKey].map(([key, entityId]) => (entityId ? { k: key, e: entityId } : { k: key }));
  for (let start = 0; start < rows.length; start += KEYS_PER_INSERT) {
    const json = JSON.stringify(rows.slice(start, start + KEYS_PER_INSERT));
    await tx.execute(sql`insert into import_keys (import_id, key, entity_id)
      select ${importId}::uuid, v.k, v.e from jsonb_to_recordset(${json}::jsonb) as v(k text, e uuid)
      on conflict (import_id, key) do update set entity_id = coalesce(excluded.entity_id, import_keys.entity_id)`);
  }
}

/** Placeholder ids of records a dry run "created" earlier in the file, by key. */
export async function dryRunReferences(
  db: Executor,
  importId: string,
  keys: string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: importKeys.key, entityId: importKeys.entityId })
    .from(importKeys)
    .where(and(eq(importKeys.importId, importId), inList(importKeys.key, keys)));
  return new Map(rows.filter((r) => r.entityId).map((r) => [r.key, r.entityId!]));
}

export async function clearKeys(db: Executor, importId: string): Promise<void> {
  await db.delete(importKeys).where(eq(importKeys.importId, importId));
}
