import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { catalogueEntries } from '../../db/schema/catalogue.ts';
import type { Actor } from '../../platform/actor.ts';
import { badRequest, notFound, type ProblemIssue } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import {
  CATALOGUE_ENTITY,
  type CatalogueEntry,
  entryColumns,
  findEntry,
  listEntries,
  SETTINGS_CODE,
  SETTINGS_KIND,
} from './repository.ts';

export type EntryPatch = {
  name?: string;
  enabled?: boolean;
  position?: number;
  data?: Record<string, unknown>;
};

/** The API view of an entry: its own fields beside id, code and name. */
export const present = (entry: CatalogueEntry) => ({
  ...entry.data,
  id: entry.id,
  kind: entry.kind,
  code: entry.code,
  name: entry.name,
  enabled: entry.enabled,
  position: entry.position,
  createdAt: entry.createdAt,
  updatedAt: entry.updatedAt,
});

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Checks an edit against the stored record: only existing fields, each keeping its JSON type,
 * numbers finite and not negative (rates, speeds, times, prices), nested objects checked likewise.
 * Reference fields (ids) and the record's identity cannot be changed here.
 */
function checkEdit(current: unknown, incoming: unknown, pointer: string, issues: ProblemIssue[]) {
  if (typeOf(current) !== typeOf(incoming)) {
    issues.push({
      pointer,
      message: `must be ${typeOf(current) === 'array' ? 'an array' : `a ${typeOf(current)}`}`,
      in: 'body',
    });
    return;
  }
  if (typeof incoming === 'number' && (!Number.isFinite(incoming) || incoming < 0)) {
    issues.push({ pointer, message: 'must be a number >= 0', in: 'body' });
  } else if (typeOf(incoming) === 'object') {
    for (const [key, value] of Object.entries(incoming as Record<string, unknown>)) {
      if (/Ids?$/.test(key))
        issues.push({ pointer: `${pointer}/${key}`, message: 'references cannot be edited', in: 'body' });
      else if (!(key in (current as Record<string, unknown>))) {
        issues.push({ pointer: `${pointer}/${key}`, message: 'is not a field of this record', in: 'body' });
      } else checkEdit((current as Record<string, unknown>)[key], value, `${pointer}/${key}`, issues);
    }
  } else if (typeOf(incoming) === 'array') {
    (incoming as unknown[]).forEach((value, i) => {
      const sample = (current as unknown[])[i] ?? (current as unknown[])[0];
      if (sample !== undefined) checkEdit(sample, value, `${pointer}/${i}`, issues);
    });
  }
}

function mergeDeep(
  current: Record<string, unknown>,
  incoming: Record<string, unknown>,
): Record<string, unknown> {
  const result = { ...current };
  for (const [key, value] of Object.entries(incoming)) {
    const existing = current[key];
    result[key] =
      typeOf(value) === 'object' && typeOf(existing) === 'object'
        ? mergeDeep(existing as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}

export function createCatalogueService(ctx: AppContext) {
  return {
    list: async (actor: Actor, kind: string) =>
      (await listEntries(ctx.db, actor.organisationId, kind)).map(present),

    async get(actor: Actor, kind: string, id: string) {
      const entry = await findEntry(ctx.db, actor.organisationId, kind, id);
      if (!entry) throw notFound('Catalogue entry');
      return present(entry);
    },

    async settingsEntry(actor: Actor) {
      const [entry] = await ctx.db
        .select(entryColumns)
        .from(catalogueEntries)
        .where(
          and(
            eq(catalogueEntries.organisationId, actor.organisationId),
            eq(catalogueEntries.kind, SETTINGS_KIND),
            eq(catalogueEntries.code, SETTINGS_CODE),
            isNull(catalogueEntries.deletedAt),
          ),
        )
        .limit(1);
      if (!entry) throw notFound('Pricing settings');
      return entry;
    },

    /** Edits an entry (rates, speeds, names); the next pricing of any node uses the new values. */
    async update(actor: Actor, kind: string, id: string, patch: EntryPatch) {
      return ctx.change(actor, async (tx, record) => {
        const [current] = await tx
          .select(entryColumns)
          .from(catalogueEntries)
          .where(
            and(
              eq(catalogueEntries.organisationId, actor.organisationId),
              eq(catalogueEntries.kind, kind),
              eq(catalogueEntries.id, id),
              isNull(catalogueEntries.deletedAt),
            ),
          )
          .for('update')
          .limit(1);
        if (!current) throw notFound('Catalogue entry');
        const issues: ProblemIssue[] = [];
        if (patch.data) checkEdit(current.data, patch.data, '/data', issues);
        if (issues.length) throw badRequest('Some catalogue values are not valid', issues);
        const next = {
          name: patch.name ?? current.name,
          enabled: patch.enabled ?? current.enabled,
          position: patch.position ?? current.position,
          data: patch.data ? mergeDeep(current.data, patch.data) : current.data,
        };
        const updatedColumns = changedFields(current, next);
        if (updatedColumns.length === 0) return present(current);
        const [updated] = await tx
          .update(catalogueEntries)
          .set({ ...next, updatedAt: new Date() })
          .where(eq(catalogueEntries.id, id))
          .returning(entryColumns);
        await record({
          on: CATALOGUE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: present(updated!),
          updatedColumns,
        });
        return present(updated!);
      });
    },
  };
}
