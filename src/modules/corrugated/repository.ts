/**
 * Data access of the corrugated resources: rows of `catalogue_entries` of one kind (plus, for the
 * kinds shared with other records, a condition such as "of the corrugated matter"), scoped to the
 * organisation, soft-deleted. Pure SQL; the rules are in service.ts and resources.ts.
 */
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { briefElements, briefs } from '../../db/schema/briefs.ts';
import { catalogueEntries } from '../../db/schema/catalogue.ts';
import { type CatalogueEntry, entryColumns } from '../catalogue/repository.ts';

export type Entry = CatalogueEntry;

/** `data->>'field'` of an entry, as text. */
export const dataText = (field: string) => sql<string | null>`(${catalogueEntries.data}->>${field})`;
/** `data->>'field'` of an entry, as a number (null when absent). */
export const dataNumber = (field: string) =>
  sql<number | null>`((${catalogueEntries.data}->>${field})::numeric)`;

/** A condition on entries (list filters, scopes). */
export type Condition = SQL;

/** No entry at all (a scope when what it hangs from is missing). */
export const NO_ENTRY: Condition = sql`false`;

/** Both conditions. */
export const bothOf = (a: Condition, b: Condition): Condition => sql`${a} and ${b}`;

/** The entry's name contains `value` (case-insensitive, LIKE's wildcards taken literally). */
export const nameContains = (value: string): Condition =>
  sql`${catalogueEntries.name} ilike ${`%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;

/** `data->>'field'` equals the number. */
export const dataNumberIs = (field: string, value: number): Condition => sql`${dataNumber(field)} = ${value}`;

/** `data->>'field'` equals the text. */
export const dataTextIs = (field: string, value: string): Condition => sql`${dataText(field)} = ${value}`;

/** `data` has no `validFrom` after `day` and no `validTo` before it. */
export const validOn = (day: string | null): Condition =>
  sql`(${dataText('validFrom')} is null or ${dataText('validFrom')} <= ${day}) and (${dataText('validTo')} is null or ${dataText('validTo')} >= ${day})`;

/** The sorts every kind has: by name, by creation. */
export const ENTRY_SORTS = {
  name: sql`${catalogueEntries.name}`,
  createdAt: sql`${catalogueEntries.createdAt}`,
};

/** The id of the corrugated matter of the organisation's catalogue (its flutes and boards hang from it), if any. */
export async function corrugatedMatterId(db: Executor, organisationId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: catalogueEntries.id })
    .from(catalogueEntries)
    .where(bothOf(liveOf(organisationId, 'matters'), sql`${dataText('kind')} = 'CORRUGATED'`))
    .limit(1);
  return row?.id;
}

/** The id and data of the organisation's live entries of a kind. */
export function liveEntryData(db: Executor, organisationId: string, kind: string) {
  return db
    .select({ id: catalogueEntries.id, data: catalogueEntries.data })
    .from(catalogueEntries)
    .where(liveOf(organisationId, kind));
}

export function liveOf(organisationId: string, kind: string, scope?: SQL) {
  return and(
    eq(catalogueEntries.organisationId, organisationId),
    eq(catalogueEntries.kind, kind),
    isNull(catalogueEntries.deletedAt),
    scope,
  )!;
}

export async function findOne(db: Executor, where: SQL, id: string, forUpdate = false) {
  const query = db
    .select(entryColumns)
    .from(catalogueEntries)
    .where(and(where, eq(catalogueEntries.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findMany(db: Executor, where: SQL, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select(entryColumns)
    .from(catalogueEntries)
    .where(
      and(
        where,
        sql`${catalogueEntries.id} in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      ),
    );
}

/** A page of the entries matching `where` and every condition, with the total. */
export async function listPage(
  db: Executor,
  live: SQL,
  conditions: SQL[],
  order: { by: SQL | typeof catalogueEntries.name; desc: boolean },
  page: { limit: number; offset: number },
) {
  const where = and(live, ...conditions)!;
  const direction = order.desc ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select(entryColumns)
      .from(catalogueEntries)
      .where(where)
      .orderBy(sql`${direction(order.by)} nulls last`, asc(catalogueEntries.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(catalogueEntries).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function codeTaken(
  db: Executor,
  organisationId: string,
  kind: string,
  code: string,
  exceptId?: string,
) {
  const [row] = await db
    .select({ id: catalogueEntries.id })
    .from(catalogueEntries)
    .where(
      and(
        liveOf(organisationId, kind),
        eq(catalogueEntries.code, code),
        exceptId ? sql`${catalogueEntries.id} <> ${exceptId}::uuid` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export type EntryValues = {
  code: string;
  name: string;
  enabled: boolean;
  data: Record<string, unknown>;
};

export async function insertEntry(
  db: Executor,
  organisationId: string,
  kind: string,
  values: EntryValues,
  createdById: string | null,
  at: Date,
) {
  const [row] = await db
    .insert(catalogueEntries)
    .values({ organisationId, kind, ...values, createdById, createdAt: at, updatedAt: at })
    .returning(entryColumns);
  return row!;
}

export async function updateEntry(db: Executor, id: string, values: Partial<EntryValues>, at: Date) {
  const [row] = await db
    .update(catalogueEntries)
    .set({ ...values, updatedAt: at })
    .where(eq(catalogueEntries.id, id))
    .returning(entryColumns);
  return row!;
}

export async function softDelete(db: Executor, id: string, at: Date) {
  const [row] = await db
    .update(catalogueEntries)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(catalogueEntries.id, id), isNull(catalogueEntries.deletedAt)))
    .returning(entryColumns);
  return row;
}

/**
 * The price (per m2) of a composition valid at `today` (an ISO timestamp) in the currency, the
 * latest start first; undefined when none is.
 */
export async function validPriceOf(
  db: Executor,
  organisationId: string,
  priceKind: string,
  compositionId: string,
  currency: string,
  today: string,
) {
  const [current] = await db
    .select({ price: dataNumber('price') })
    .from(catalogueEntries)
    .where(
      and(
        liveOf(organisationId, priceKind),
        sql`${dataText('compositionId')} = ${compositionId}`,
        sql`${dataText('currency')} = ${currency}`,
        sql`(${dataText('validFrom')} is null or ${dataText('validFrom')} <= ${today})`,
        sql`(${dataText('validTo')} is null or ${dataText('validTo')} >= ${today})`,
      ),
    )
    .orderBy(sql`${dataText('validFrom')} desc nulls last`, sql`${catalogueEntries.createdAt} desc`)
    .limit(1);
  return current;
}

/** A live brief with a live element made of the composition, or undefined. */
export async function briefUsingComposition(db: Executor, compositionId: string) {
  const [used] = await db
    .select({ briefId: briefElements.briefId })
    .from(briefElements)
    .innerJoin(briefs, eq(briefs.id, briefElements.briefId))
    .where(
      and(
        eq(briefElements.corrugatedMaterialId, compositionId),
        isNull(briefElements.deletedAt),
        isNull(briefs.deletedAt),
      ),
    )
    .limit(1);
  return used;
}

/** The ids of the composition's live prices. */
export function pricesOfComposition(
  db: Executor,
  organisationId: string,
  priceKind: string,
  compositionId: string,
) {
  return db
    .select({ id: catalogueEntries.id })
    .from(catalogueEntries)
    .where(and(liveOf(organisationId, priceKind), sql`${dataText('compositionId')} = ${compositionId}`));
}
