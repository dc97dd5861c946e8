/**
 * Data access of the corrugated resources: rows of `catalogue_entries` of one kind (plus, for the
 * kinds shared with other records, a condition such as "of the corrugated matter"), scoped to the
 * organisation, soft-deleted. Pure SQL; the rules are in service.ts and resources.ts.
 */
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { catalogueEntries } from '../../db/schema/catalogue.ts';
import { type CatalogueEntry, entryColumns } from '../catalogue/repository.ts';

export type Entry = CatalogueEntry;

/** `data->>'field'` of an entry, as text. */
export const dataText = (field: string) => sql<string | null>`(${catalogueEntries.data}->>${field})`;
/** `data->>'field'` of an entry, as a number (null when absent). */
export const dataNumber = (field: string) =>
  sql<number | null>`((${catalogueEntries.data}->>${field})::numeric)`;

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

export async function listPage(
  db: Executor,
  where: SQL,
  order: { by: SQL | typeof catalogueEntries.name; desc: boolean },
  page: { limit: number; offset: number },
) {
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
