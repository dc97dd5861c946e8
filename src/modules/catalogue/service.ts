import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../platform/actor.ts';
import { badRequest, notFound, type ProblemIssue } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { defaultCatalogue } from '../../pricing/default-catalogue.ts';
import { entryFor } from './audience.ts';
import {
  CATALOGUE_ENTITY,
  type CatalogueEntry,
  findCatalogueEntryByCode,
  findEntry,
  listEntries,
  SETTINGS_CODE,
  SETTINGS_KIND,
  updateEntry,
} from './repository.ts';

export type EntryPatch = {
  name?: string;
  /** Names per language; null removes one (the entry's `name` shows instead). */
  names?: Partial<Record<string, string | null>>;
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
  names: entry.names ?? {},
  enabled: entry.enabled,
  position: entry.position,
  createdAt: entry.createdAt,
  updatedAt: entry.updatedAt,
});

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** String fields whose values the engine knows (src/pricing/catalogue.ts). */
const ENUMS: Record<string, readonly string[]> = {
  grain: ['LONG', 'SHORT'],
  requiredGrain: ['BLANK_WIDTH', 'BLANK_HEIGHT', 'ANY'],
  requiredFlute: ['BLANK_WIDTH', 'BLANK_HEIGHT', 'ANY'],
  speedBasis: ['UNIT', 'PACKAGE'],
  corrugatedPacking: ['BUNDLE', 'AS_BRIEF'],
};

/** Fractions (0..1) among the optional fields; other numbers only need to be >= 0. */
const FRACTIONS = new Set(['wasteRate', 'grammageTolerance', 'rate', 'defaultCommercialMargin']);

/**
 * The shape of a record of a collection as the engine's catalogue has it: every field any record of
 * the current default catalogue has (nested objects and array elements merged likewise), with a
 * sample value giving its type. It lets an edit add an optional field the stored record lacks
 * (e.g. `wasteByRunLength` on a machine rate, `grain` on a sheet format).
 */
function shapeOf(samples: unknown[]): unknown {
  const present = samples.filter((s) => s !== undefined && s !== null);
  if (present.length === 0) return samples[0];
  if (present.every((s) => Array.isArray(s))) return [shapeOf((present as unknown[][]).flat())];
  if (present.every((s) => typeOf(s) === 'object')) {
    const keys = new Set(present.flatMap((s) => Object.keys(s as object)));
    return Object.fromEntries(
      [...keys].map((key) => [key, shapeOf(present.map((s) => (s as Record<string, unknown>)[key]))]),
    );
  }
  return present[0];
}

/** Optional fields of the engine's records that no default record sets (samples give their types). */
const OPTIONAL_FIELDS: Record<string, Record<string, unknown>> = {
  products: { requiredGrain: 'ANY', mixedGrainAllowed: false, requiredFlute: 'ANY' },
};

const shapes = new Map<string, unknown>();
function shapeOfKind(kind: string): unknown {
  if (!shapes.has(kind)) {
    const defaults = defaultCatalogue();
    const records =
      kind === SETTINGS_KIND
        ? [defaults.settings]
        : ((defaults as unknown as Record<string, unknown[]>)[kind] ?? []);
    shapes.set(kind, shapeOf([...records, OPTIONAL_FIELDS[kind]]));
  }
  return shapes.get(kind);
}

/**
 * Checks an edit against the stored record: its fields and the optional fields the engine's
 * catalogue knows for the collection (`shape`), each keeping its JSON type, numbers finite and not
 * negative (rates, speeds, times, prices; fractions at most 1), known enumerations, nested objects
 * and array elements checked likewise. Reference fields (ids) and the record's identity cannot be
 * changed here.
 */
function checkEdit(
  current: unknown,
  incoming: unknown,
  pointer: string,
  issues: ProblemIssue[],
  shape: unknown,
  key = '',
) {
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
  } else if (typeof incoming === 'number' && FRACTIONS.has(key) && incoming > 1) {
    issues.push({ pointer, message: 'must be a fraction between 0 and 1', in: 'body' });
  } else if (typeof incoming === 'string' && ENUMS[key] && !ENUMS[key].includes(incoming)) {
    issues.push({ pointer, message: `must be one of ${ENUMS[key].join(', ')}`, in: 'body' });
  } else if (typeOf(incoming) === 'object') {
    const known = (typeOf(shape) === 'object' ? shape : {}) as Record<string, unknown>;
    for (const [field, value] of Object.entries(incoming as Record<string, unknown>)) {
      const at = `${pointer}/${field}`;
      if (/Ids?$/.test(field)) {
        // A record's references stay as they are; resending them unchanged (a whole array of
        // machine rates, say) is fine.
        if (!isDeepStrictEqual((current as Record<string, unknown>)[field], value))
          issues.push({ pointer: at, message: 'references cannot be edited', in: 'body' });
      } else if (field in (current as Record<string, unknown>)) {
        checkEdit((current as Record<string, unknown>)[field], value, at, issues, known[field], field);
      } else if (known[field] !== undefined && known[field] !== null) {
        checkEdit(known[field], value, at, issues, known[field], field);
      } else issues.push({ pointer: at, message: 'is not a field of this record', in: 'body' });
    }
  } else if (typeOf(incoming) === 'array') {
    const elementShape = Array.isArray(shape) ? shape[0] : undefined;
    (incoming as unknown[]).forEach((value, i) => {
      const sample = (current as unknown[])[i] ?? (current as unknown[])[0] ?? elementShape;
      if (sample !== undefined) checkEdit(sample, value, `${pointer}/${i}`, issues, elementShape, key);
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

export function createCatalogueService(ctx: Pick<AppContext, 'db' | 'change'>) {
  return {
    /** The collection for the caller's audience (a buyer: no rates or prices, see audience.ts). */
    list: async (actor: Actor, kind: string) =>
      (await listEntries(ctx.db, actor.organisationId, kind)).map((entry) => present(entryFor(actor, entry))),

    async get(actor: Actor, kind: string, id: string) {
      const entry = await findEntry(ctx.db, actor.organisationId, kind, id);
      if (!entry) throw notFound('Catalogue entry');
      return present(entryFor(actor, entry));
    },

    /** GET /pricing-settings for the caller's audience (a buyer: the currency only). */
    async settings(actor: Actor) {
      return present(entryFor(actor, await this.settingsEntry(actor)));
    },

    async settingsEntry(actor: Actor) {
      const entry = await findCatalogueEntryByCode(
        ctx.db,
        actor.organisationId,
        SETTINGS_KIND,
        SETTINGS_CODE,
      );
      if (!entry) throw notFound('Pricing settings');
      return entry;
    },

    /** Edits an entry (rates, speeds, names); the next pricing of any node uses the new values. */
    async update(actor: Actor, kind: string, id: string, patch: EntryPatch) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findEntry(tx, actor.organisationId, kind, id, true);
        if (!current) throw notFound('Catalogue entry');
        const issues: ProblemIssue[] = [];
        if (patch.data) checkEdit(current.data, patch.data, '/data', issues, shapeOfKind(kind));
        if (issues.length) throw badRequest('Some catalogue values are not valid', issues);
        const names = { ...current.names };
        for (const [language, value] of Object.entries(patch.names ?? {})) {
          if (value === null || value === undefined || !value.trim()) delete names[language];
          else names[language] = value.trim();
        }
        const next = {
          name: patch.name ?? current.name,
          names,
          enabled: patch.enabled ?? current.enabled,
          position: patch.position ?? current.position,
          data: patch.data ? mergeDeep(current.data, patch.data) : current.data,
        };
        const updatedColumns = changedFields(current, next);
        if (updatedColumns.length === 0) return present(current);
        const updated = await updateEntry(tx, id, { ...next, updatedAt: new Date() });
        await record({
          on: CATALOGUE_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: present(updated),
          updatedColumns,
        });
        return present(updated);
      });
    },
  };
}
