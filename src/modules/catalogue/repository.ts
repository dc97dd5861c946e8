import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { catalogueEntries, catalogueVersions } from '../../db/schema/catalogue.ts';
import { entity } from '../../platform/events.ts';
import type { Catalogue, PricingSettings } from '../../pricing/index.ts';

export const CATALOGUE_ENTITY = entity('CATALOGUE_ENTRY', 'catalogue_entries');

/** The collections of the engine's catalogue, as stored in `catalogue_entries.kind`. */
export const CATALOGUE_KINDS = [
  'productCategories',
  'products',
  'matters',
  'materialTypes',
  'materialReferences',
  'corrugatedMaterials',
  'operations',
  'machines',
  'consumables',
  'toolingRules',
  'packingCases',
  'pallets',
  'deliveryZones',
] as const satisfies readonly Exclude<keyof Catalogue, 'settings'>[];
export type CatalogueKind = (typeof CATALOGUE_KINDS)[number];

/** The organisation's pricing settings are one entry of their own kind. */
export const SETTINGS_KIND = 'settings';
export const SETTINGS_CODE = 'settings';

/**
 * Fields that refer to another collection: seeding maps the default catalogue's codes to row ids
 * through them. A reference field not listed here makes seeding fail loudly (see seed.ts).
 */
export const REFERENCE_FIELDS: Record<string, CatalogueKind> = {
  categoryId: 'productCategories',
  allowedMatterIds: 'matters',
  matterId: 'matters',
  materialTypeId: 'materialTypes',
  materialReferenceId: 'materialReferences',
  corrugatedMaterialId: 'corrugatedMaterials',
  operationId: 'operations',
  machineId: 'machines',
};

export type CatalogueRow = typeof catalogueEntries.$inferSelect;

export const entryColumns = {
  id: catalogueEntries.id,
  kind: catalogueEntries.kind,
  code: catalogueEntries.code,
  name: catalogueEntries.name,
  names: catalogueEntries.names,
  data: catalogueEntries.data,
  enabled: catalogueEntries.enabled,
  position: catalogueEntries.position,
  createdAt: catalogueEntries.createdAt,
  updatedAt: catalogueEntries.updatedAt,
};
export type CatalogueEntry = Pick<CatalogueRow, keyof typeof entryColumns>;

const live = (organisationId: string) =>
  and(eq(catalogueEntries.organisationId, organisationId), isNull(catalogueEntries.deletedAt));

export function listEntries(db: Executor, organisationId: string, kind?: string) {
  return db
    .select(entryColumns)
    .from(catalogueEntries)
    .where(and(live(organisationId), kind ? eq(catalogueEntries.kind, kind) : undefined))
    .orderBy(asc(catalogueEntries.kind), asc(catalogueEntries.position), asc(catalogueEntries.code));
}

/** A live entry of the kind; `lock` holds it (FOR UPDATE) until the transaction ends. */
export async function findEntry(
  db: Executor,
  organisationId: string,
  kind: string,
  id: string,
  lock = false,
) {
  const query = db
    .select(entryColumns)
    .from(catalogueEntries)
    .where(and(live(organisationId), eq(catalogueEntries.kind, kind), eq(catalogueEntries.id, id)));
  const [row] = await (lock ? query.for('update') : query).limit(1);
  return row;
}

/** Updates an entry (found and checked by the caller); returns it as the API reads it. */
export async function updateEntry(db: Executor, id: string, values: Partial<CatalogueRow>) {
  const [row] = await db
    .update(catalogueEntries)
    .set(values)
    .where(eq(catalogueEntries.id, id))
    .returning(entryColumns);
  return row!;
}

/**
 * Stores a new organisation's catalogue: its entries (answered whole) and the default version it
 * is at.
 */
export async function insertCatalogue(
  tx: Executor,
  organisationId: string,
  rows: (typeof catalogueEntries.$inferInsert)[],
  version: number,
) {
  const inserted = await tx.insert(catalogueEntries).values(rows).returning();
  await tx.insert(catalogueVersions).values({ organisationId, version });
  return inserted;
}

export async function findCatalogueEntryByCode(
  db: Executor,
  organisationId: string,
  kind: string,
  code: string,
) {
  const [row] = await db
    .select(entryColumns)
    .from(catalogueEntries)
    .where(and(live(organisationId), eq(catalogueEntries.kind, kind), eq(catalogueEntries.code, code)))
    .limit(1);
  return row;
}

/** A fingerprint that changes whenever any entry of the organisation changes (edits bump updated_at). */
export async function catalogueFingerprint(db: Executor, organisationId: string): Promise<string> {
  const [row] = await db
    .select({
      fingerprint: sql<string>`coalesce(max(${catalogueEntries.updatedAt})::text, '') || ':' || count(*)`,
    })
    .from(catalogueEntries)
    .where(eq(catalogueEntries.organisationId, organisationId));
  return row?.fingerprint ?? '';
}

/**
 * A corrugated composition or board without the numbers the engine prices with (one created
 * through HIPE's corrugated resources before it has a price) is left out of pricing.
 */
function priceable(row: Pick<CatalogueRow, 'kind' | 'data'>) {
  const has = (field: string) => typeof row.data[field] === 'number';
  if (row.kind === 'corrugatedMaterials') return has('grammage') && has('pricePerSquareMetre');
  if (row.kind === 'materialReferences') return has('grammage');
  return true;
}

/** The names per language of the organisation's records, by record id (catalogueNameIn reads them). */
export type CatalogueNames = Map<string, Partial<Record<string, string>>>;

export const namesOf = (rows: Pick<CatalogueRow, 'id' | 'names'>[]): CatalogueNames =>
  new Map(rows.filter((r) => r.names && Object.keys(r.names).length).map((r) => [r.id, r.names]));

/** A record's name in `language`, else its `name` (the catalogue's own, usually English). */
export function catalogueNameIn(
  names: CatalogueNames | undefined,
  record: { id: string; name: string },
  language: string,
): string {
  return names?.get(record.id)?.[language]?.trim() || record.name;
}

/** Builds the engine's catalogue from the stored entries: record id = row id. */
export function toCatalogue(
  rows: Pick<CatalogueRow, 'id' | 'kind' | 'code' | 'name' | 'data' | 'enabled'>[],
): Catalogue {
  const catalogue = Object.fromEntries(CATALOGUE_KINDS.map((kind) => [kind, [] as unknown[]])) as Record<
    string,
    unknown[]
  >;
  let settings: PricingSettings | undefined;
  for (const row of rows) {
    if (row.kind === SETTINGS_KIND) settings = row.data as unknown as PricingSettings;
    else if (row.enabled && catalogue[row.kind] && priceable(row))
      catalogue[row.kind]!.push({ ...row.data, id: row.id, code: row.code, name: row.name });
  }
  if (!settings) throw new Error('The organisation has no pricing settings in its catalogue');
  return { ...(catalogue as unknown as Omit<Catalogue, 'settings'>), settings };
}
