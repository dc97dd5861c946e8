import { isDeepStrictEqual } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { EventRecorder } from '../../platform/events.ts';
import type { Catalogue } from '../../pricing/index.ts';
import {
  CATALOGUE_ENTITY,
  CATALOGUE_KINDS,
  type CatalogueKind,
  SETTINGS_CODE,
  SETTINGS_KIND,
} from './repository.ts';
import { type IdMaps, remapReferences } from './seed.ts';
import { present } from './service.ts';
import {
  insertEntry,
  liveEntriesOf,
  lockCatalogueVersion,
  organisationsBehind,
  setEntryNameAndData,
  storeCatalogueVersion,
} from './upgrade-repository.ts';
import { CATALOGUE_VERSION, catalogueOfVersion, FIRST_VERSION } from './versions.ts';

const REMOVE = Symbol('remove');
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Three-way merge of one value: `base` the previous default, `next` the new default, `mine` the
 * stored value. An untouched value (still the previous default) takes the new default; an edited
 * value is kept, but objects are merged field by field (so new fields reach edited records) and
 * arrays of records of unchanged length element by element. A default field dropped by the new
 * version is removed only where it was untouched.
 */
export function mergeDefaults(base: unknown, next: unknown, mine: unknown): unknown {
  if (isDeepStrictEqual(mine, base)) return next === undefined ? REMOVE : next;
  if (isObject(mine) && isObject(next)) {
    const baseObject = isObject(base) ? base : {};
    const out: Record<string, unknown> = { ...mine };
    for (const key of new Set([...Object.keys(next), ...Object.keys(baseObject)])) {
      if (!(key in mine)) {
        // A field new in this version; one the estimator's record lacks otherwise is left alone.
        if (key in next && !(key in baseObject)) out[key] = next[key];
        continue;
      }
      if (!(key in baseObject)) continue; // the record has it already, not from the defaults
      const merged = mergeDefaults(baseObject[key], next[key], mine[key]);
      if (merged === REMOVE) delete out[key];
      else out[key] = merged;
    }
    return out;
  }
  if (
    Array.isArray(mine) &&
    Array.isArray(base) &&
    Array.isArray(next) &&
    mine.length === base.length &&
    base.length === next.length
  ) {
    return mine.map((element, i) => {
      const merged = mergeDefaults(base[i], next[i], element);
      return merged === REMOVE ? element : merged;
    });
  }
  return mine;
}

type StoredEntry = Awaited<ReturnType<typeof liveEntriesOf>>[number];

const MISSING = 'missing:';

/**
 * Applies one version step (`from` -> `from + 1`) to an organisation's stored entries: new records
 * (by code) added, new fields added, untouched default values updated, edits kept; one catalogue
 * event per created or updated entry. Returns the number of entries changed.
 */
async function applyStep(
  tx: Tx,
  record: EventRecorder,
  organisationId: string,
  base: Catalogue,
  next: Catalogue,
): Promise<number> {
  const rows = await liveEntriesOf(tx, organisationId);
  const byKind = new Map<string, Map<string, StoredEntry>>();
  for (const row of rows) {
    if (!byKind.has(row.kind)) byKind.set(row.kind, new Map());
    byKind.get(row.kind)!.set(row.code, row);
  }
  const ids: IdMaps = new Map(
    CATALOGUE_KINDS.map((kind) => [
      kind,
      new Map([...(byKind.get(kind)?.values() ?? [])].map((row) => [row.code, row.id])),
    ]),
  );
  // Records new in this version (and never in the organisation's catalogue) get their ids first,
  // so new records may refer to each other.
  const added: { kind: CatalogueKind; code: string; id: string }[] = [];
  for (const kind of CATALOGUE_KINDS) {
    const before = new Set(base[kind].map((r) => r.code));
    for (const r of next[kind]) {
      if (before.has(r.code) || byKind.get(kind)?.has(r.code)) continue;
      const id = uuidv7();
      ids.get(kind)!.set(r.code, id);
      added.push({ kind, code: r.code, id });
    }
  }
  const remap = (value: unknown, path: string) =>
    remapReferences(value, path, ids, (kind, code) => `${MISSING}${kind}/${code}`);
  const refersToMissing = (value: unknown) => JSON.stringify(value).includes(`"${MISSING}`);

  let changed = 0;
  const update = async (row: StoredEntry, name: string, data: Record<string, unknown>) => {
    const after = { name, data };
    const updatedColumns = (['name', 'data'] as const).filter(
      (key) => !isDeepStrictEqual(row[key], after[key]),
    );
    if (updatedColumns.length === 0) return;
    const updated = await setEntryNameAndData(tx, row.id, after);
    await record({
      on: CATALOGUE_ENTITY,
      type: 'UPDATE',
      organisationId,
      entityId: row.id,
      snapshot: present(updated),
      updatedColumns: [...updatedColumns],
    });
    changed++;
  };

  const settings = byKind.get(SETTINGS_KIND)?.get(SETTINGS_CODE);
  if (settings) {
    const data = mergeDefaults(base.settings, next.settings, settings.data) as Record<string, unknown>;
    await update(settings, settings.name, data);
  }

  for (const kind of CATALOGUE_KINDS) {
    const previous = new Map(base[kind].map((r) => [r.code, r]));
    const maxPosition = Math.max(-1, ...[...(byKind.get(kind)?.values() ?? [])].map((r) => r.position));
    let position = maxPosition + 1;
    for (const r of next[kind]) {
      const { id: _id, code, name, ...fields } = r as { id: string; code: string; name: string };
      const path = `/${kind}/${code}`;
      const nextData = remap(fields, path) as Record<string, unknown>;
      const row = byKind.get(kind)?.get(code);
      if (row) {
        const old = previous.get(code) as { id: string; code: string; name: string } | undefined;
        const { id: _oid, code: _ocode, name: oldName, ...oldFields } = old ?? { id: '', code, name: '' };
        const baseData = old ? (remap(oldFields, path) as Record<string, unknown>) : {};
        const data = mergeDefaults(baseData, nextData, row.data) as Record<string, unknown>;
        if (refersToMissing(data)) continue; // would point at a record the organisation removed
        await update(row, old && row.name === oldName ? name : row.name, data);
        continue;
      }
      const fresh = added.find((a) => a.kind === kind && a.code === code);
      if (!fresh || refersToMissing(nextData)) continue; // removed by the organisation: not re-added
      const inserted = {
        id: fresh.id,
        organisationId,
        kind,
        code,
        name,
        data: nextData,
        position: position++,
        createdById: null,
      };
      const stored = await insertEntry(tx, inserted);
      await record({
        on: CATALOGUE_ENTITY,
        type: 'CREATE',
        organisationId,
        entityId: fresh.id,
        snapshot: present(stored),
      });
      changed++;
    }
  }
  return changed;
}

/**
 * Brings one organisation's catalogue to the current default version, step by step, in one
 * transaction. A transaction-scoped advisory lock per organisation serialises nodes starting
 * together; the version is re-read under it, so a second run (or a second node) finds nothing to do.
 */
export async function upgradeCatalogue(
  ctx: Pick<AppContext, 'change'>,
  organisationId: string,
  target = CATALOGUE_VERSION,
): Promise<{ from: number; to: number; changed: number }> {
  return ctx.change(null, async (tx, record) => {
    const current = await lockCatalogueVersion(tx, organisationId);
    const from = current ?? FIRST_VERSION;
    if (from >= target) return { from, to: from, changed: 0 };
    let changed = 0;
    for (let version = from; version < target; version++) {
      changed += await applyStep(
        tx,
        record,
        organisationId,
        catalogueOfVersion(version),
        catalogueOfVersion(version + 1),
      );
    }
    await storeCatalogueVersion(tx, organisationId, target);
    return { from, to: target, changed };
  });
}

/**
 * Upgrades every organisation whose catalogue is behind the current version (run at start-up by
 * every node; see upgradeCatalogue for why that is safe). An organisation that fails is logged and
 * retried at the next start; the others go on.
 */
export async function upgradeCatalogues(ctx: Pick<AppContext, 'change' | 'db' | 'log'>): Promise<void> {
  const behind = await organisationsBehind(ctx.db, SETTINGS_KIND, FIRST_VERSION, CATALOGUE_VERSION);
  for (const organisationId of behind) {
    try {
      const result = await upgradeCatalogue(ctx, organisationId);
      if (result.changed > 0 || result.from !== result.to)
        ctx.log.info({ organisationId, ...result }, 'catalogue upgraded to the new default version');
    } catch (err) {
      ctx.log.error({ err, organisationId }, 'catalogue upgrade failed; retried at the next start');
    }
  }
}
