import { v7 as uuidv7 } from 'uuid';
import type { OrganisationSeeder } from '../../context.ts';
import type { catalogueEntries } from '../../db/schema/catalogue.ts';
import type { Catalogue } from '../../pricing/index.ts';
import { defaultNamesOf } from './default-names.ts';
import {
  CATALOGUE_ENTITY,
  CATALOGUE_KINDS,
  type CatalogueKind,
  insertCatalogue,
  REFERENCE_FIELDS,
  SETTINGS_CODE,
  SETTINGS_KIND,
} from './repository.ts';
import { present } from './service.ts';
import { CATALOGUE_VERSION } from './versions.ts';

type Row = typeof catalogueEntries.$inferInsert;

export type IdMaps = Map<CatalogueKind, Map<string, string>>;

/**
 * Rewrites every reference field (`...Id`, `...Ids`) of a record's data from codes to row ids through
 * the code -> id map of its collection; `missing` answers for a code the map lacks.
 */
export function remapReferences(
  value: unknown,
  path: string,
  ids: IdMaps,
  missing: (kind: CatalogueKind, code: string, path: string) => string,
): unknown {
  if (Array.isArray(value)) return value.map((v, i) => remapReferences(v, `${path}/${i}`, ids, missing));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (!/Ids?$/.test(key)) return [key, remapReferences(v, `${path}/${key}`, ids, missing)];
      const kind = REFERENCE_FIELDS[key];
      if (!kind) throw new Error(`Catalogue field ${path}/${key} refers to an unknown collection`);
      const lookup = (code: unknown) =>
        ids.get(kind)?.get(String(code)) ?? missing(kind, String(code), `${path}/${key}`);
      return [key, Array.isArray(v) ? v.map(lookup) : v === null ? null : lookup(v)];
    }),
  );
}

/**
 * Turns a catalogue whose records refer to each other by code (the default catalogue) into rows
 * with UUID ids, rewriting every reference field through the code -> id map of its collection.
 */
export function catalogueRows(
  catalogue: Catalogue,
  organisationId: string,
  createdById: string | null,
): Row[] {
  const ids: IdMaps = new Map(
    CATALOGUE_KINDS.map((kind) => [kind, new Map(catalogue[kind].map((record) => [record.id, uuidv7()]))]),
  );
  const remap = (value: unknown, path: string) =>
    remapReferences(value, path, ids, (kind, code, at) => {
      throw new Error(`Catalogue field ${at} refers to a missing ${kind} "${code}"`);
    });
  const rows: Row[] = [
    {
      id: uuidv7(),
      organisationId,
      kind: SETTINGS_KIND,
      code: SETTINGS_CODE,
      name: 'Pricing settings',
      data: catalogue.settings as never,
      createdById,
    },
  ];
  for (const kind of CATALOGUE_KINDS) {
    catalogue[kind].forEach((record, position) => {
      const { id, code, name, ...data } = record as { id: string; code: string; name: string };
      rows.push({
        id: ids.get(kind)!.get(id)!,
        organisationId,
        kind,
        code,
        name,
        names: defaultNamesOf(kind, code, name),
        data: remap(data, `/${kind}/${code}`) as Record<string, unknown>,
        position,
        createdById,
      });
    });
  }
  return rows;
}

/** Seeds a new organisation with the given catalogue, one event per entry. */
export const catalogueSeeder =
  (catalogue: () => Catalogue): OrganisationSeeder =>
  async (tx, organisation, record) => {
    const rows = catalogueRows(catalogue(), organisation.id, organisation.adminUserId);
    const inserted = await insertCatalogue(tx, organisation.id, rows, CATALOGUE_VERSION);
    for (const row of inserted) {
      // The entry as GET answers it (its event delivers the GET presenter's output).
      await record({ on: CATALOGUE_ENTITY, type: 'CREATE', entityId: row.id, snapshot: present(row) });
    }
  };
