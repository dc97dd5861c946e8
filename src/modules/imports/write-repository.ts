/**
 * The SQL of the per-type import writers (articles.ts, companies.ts, orders.ts): the lookups of a
 * batch's existing records and the archiving of the records an import with allowDelete did not name.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, rowsOf, type Tx } from '../../db/client.ts';
import { articles, orderItems, orders } from '../../db/schema/orders.ts';
import { statuses } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { companyColumns } from '../companies/repository.ts';
import { archiveAbsentRows, countAbsentRows, inList } from './bulk-repository.ts';

/** The import whose file names the records kept (its keys in import_keys), in its organisation. */
export type ImportScope = { organisationId: string; importId: string };

// Articles

/** Live articles of the organisation by code (`codes` lower-cased). */
export async function findArticlesByCode(tx: Tx, organisationId: string, codes: string[]) {
  return tx
    .select()
    .from(articles)
    .where(
      and(
        eq(articles.organisationId, organisationId),
        isNull(articles.deletedAt),
        inList(sql`lower(${articles.code})`, codes),
      ),
    );
}

const absentArticles = (c: ImportScope) => sql`
  select a.id from articles a
   where a.organisation_id = ${c.organisationId} and a.deleted_at is null
     and not exists (select 1 from import_keys k where k.import_id = ${c.importId} and k.key = lower(a.code))`;

/** Archives at most `limit` absent articles; answers them as archived. */
export async function archiveAbsentArticles(tx: Tx, c: ImportScope, limit: number) {
  const ids = await archiveAbsentRows(tx, articles, absentArticles(c), limit);
  if (ids.length === 0) return [];
  return tx.select().from(articles).where(inList(articles.id, ids));
}

export const countAbsentArticles = (tx: Tx, c: ImportScope) => countAbsentRows(tx, absentArticles(c));

// Companies

const selectCompanies = (db: Executor) => db.select(companyColumns).from(companies);

export type CompanyRow = Awaited<ReturnType<typeof selectCompanies>>[number];

/** Live companies of the organisation by external id. */
export async function findCompaniesByExternalId(tx: Tx, organisationId: string, keys: string[]) {
  return selectCompanies(tx).where(
    and(
      eq(companies.organisationId, organisationId),
      isNull(companies.deletedAt),
      inList(companies.externalId, keys),
    ),
  );
}

/** Companies by id (the caller wrote them in its organisation). */
export const findCompaniesById = (tx: Tx, ids: string[]) =>
  selectCompanies(tx).where(inList(companies.id, ids));

/** Serialises changes of the company tree of an organisation (the same lock as the companies service). */
export async function lockCompanyTree(db: Executor, organisationId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`company-tree:${organisationId}`}))`);
}

/** Each company of `ids` and its ancestors: id -> parent id. */
export async function companyAncestry(
  db: Executor,
  organisationId: string,
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute<{ id: string; parent_id: string | null }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select c.id, c.parent_id, 1 from companies c
       where c.organisation_id = ${organisationId} and ${inList(sql`c.id`, ids, 'uuid')}
      union
      select c.id, c.parent_id, chain.depth + 1 from companies c
        join chain on c.id = chain.parent_id
       where c.organisation_id = ${organisationId} and chain.depth < 1000
    )
    select distinct id, parent_id from chain`);
  const rows = rowsOf<{ id: string; parent_id: string | null }>(result);
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}

/** Live companies with an external id that the file does not name, except ancestors of companies that stay. */
const absentCompanies = (c: ImportScope) => sql`
  with recursive absent as (
    select c.id from companies c
     where c.organisation_id = ${c.organisationId} and c.deleted_at is null and c.external_id is not null
       and not exists (select 1 from import_keys k where k.import_id = ${c.importId} and k.key = c.external_id)
  ), kept(id, depth) as (
    select c.parent_id, 1 from companies c
     where c.organisation_id = ${c.organisationId} and c.deleted_at is null and c.parent_id is not null
       and not exists (select 1 from absent a where a.id = c.id)
    union
    select p.parent_id, k.depth + 1 from kept k join companies p on p.id = k.id
     where p.parent_id is not null and k.depth < 100
  )
  select a.id from absent a where not exists (select 1 from kept k where k.id = a.id)`;

/** Archives at most `limit` absent companies; answers them as archived. */
export async function archiveAbsentCompanies(tx: Tx, c: ImportScope, limit: number) {
  const ids = await archiveAbsentRows(tx, companies, absentCompanies(c), limit);
  if (ids.length === 0) return [];
  return findCompaniesById(tx, ids);
}

export const countAbsentCompanies = (tx: Tx, c: ImportScope) => countAbsentRows(tx, absentCompanies(c));

// Orders

/** The organisation's live order statuses, in their order. */
export async function findOrderStatuses(tx: Tx, organisationId: string) {
  return tx
    .select({ id: statuses.id, label: statuses.internalLabel, isDefault: statuses.isDefault })
    .from(statuses)
    .where(
      and(
        eq(statuses.organisationId, organisationId),
        eq(statuses.entity, 'order'),
        isNull(statuses.deletedAt),
      ),
    )
    .orderBy(statuses.position);
}

/** Live orders of the organisation by external id. */
export async function findOrdersByExternalId(tx: Tx, organisationId: string, keys: string[]) {
  return tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.organisationId, organisationId),
        isNull(orders.deletedAt),
        inList(orders.externalId, keys),
      ),
    );
}

const absentOrders = (c: ImportScope) => sql`
  select o.id from orders o
   where o.organisation_id = ${c.organisationId} and o.deleted_at is null and o.external_id is not null
     and not exists (select 1 from import_keys k where k.import_id = ${c.importId} and k.key = o.external_id)`;

/** Archives at most `limit` absent orders and their live items; answers both as archived. */
export async function archiveAbsentOrders(tx: Tx, c: ImportScope, limit: number) {
  const ids = await archiveAbsentRows(tx, orders, absentOrders(c), limit);
  if (ids.length === 0) return { rows: [], items: [] };
  const items = await tx
    .update(orderItems)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(inList(orderItems.orderId, ids), isNull(orderItems.deletedAt)))
    .returning();
  const rows = await tx.select().from(orders).where(inList(orders.id, ids));
  return { rows, items };
}

export const countAbsentOrders = (tx: Tx, c: ImportScope) => countAbsentRows(tx, absentOrders(c));
