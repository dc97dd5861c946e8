import { and, asc, desc, eq, gte, ilike, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope, isCompanyScoped } from '../../platform/actor.ts';
import type { CrudFields, CrudQuery } from '../../platform/crud-query.ts';
import { entity } from '../../platform/events.ts';
import { afterCursor, inOrderOf, type Keyset, keysetOf, pageOfIds } from '../../platform/list-paging.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { externalIdTaken } from '../../platform/references.ts';
import { CompanySchema } from './schemas.ts';

export const COMPANY_PAGE = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    name: companies.name,
    externalId: companies.externalId,
    createdAt: companies.createdAt,
    updatedAt: companies.updatedAt,
  },
  tieBreaker: companies.id,
  defaultSort: { field: 'name', direction: 'ASC' as const },
};

export const COMPANY_ENTITY = entity('COMPANY', 'companies', 'companies', { schema: CompanySchema });

export const companyColumns = {
  id: companies.id,
  organisationId: companies.organisationId,
  name: companies.name,
  externalId: companies.externalId,
  parentId: companies.parentId,
  email: companies.email,
  phoneNumber: companies.phoneNumber,
  website: companies.website,
  vatNumber: companies.vatNumber,
  vatExempt: companies.vatExempt,
  vatExemptionReason: companies.vatExemptionReason,
  managedById: companies.managedById,
  collaboratorIds: companies.collaboratorIds,
  currencyId: companies.currencyId,
  customFields: companies.customFields,
  enabled: companies.enabled,
  createdById: companies.createdById,
  createdAt: companies.createdAt,
  updatedAt: companies.updatedAt,
  deletedAt: companies.deletedAt,
};

export type CompanyRow = typeof companies.$inferSelect;

/** The fields the crud grammar (`s`, `filter`, `or`, `sort`) may name. */
export const COMPANY_CRUD_FIELDS: CrudFields = {
  id: { column: companies.id, type: 'uuid' },
  name: { column: companies.name, type: 'string' },
  externalId: { column: companies.externalId, type: 'string' },
  parentId: { column: companies.parentId, type: 'uuid' },
  email: { column: companies.email, type: 'string' },
  phoneNumber: { column: companies.phoneNumber, type: 'string' },
  website: { column: companies.website, type: 'string' },
  vatNumber: { column: companies.vatNumber, type: 'string' },
  phone: { column: companies.phoneNumber, type: 'string' },
  vat: { column: companies.vatNumber, type: 'string' },
  managedById: { column: companies.managedById, type: 'uuid' },
  currencyId: { column: companies.currencyId, type: 'uuid' },
  enabled: { column: companies.enabled, type: 'boolean' },
  createdAt: { column: companies.createdAt, type: 'date' },
  updatedAt: { column: companies.updatedAt, type: 'date' },
};

/** Live companies of the actor's organisation that the actor may see. */
export function visibleCompanies(actor: Actor): SQL {
  return and(
    eq(companies.organisationId, actor.organisationId),
    isNull(companies.deletedAt),
    inCompanyScope(actor, companies.id),
  )!;
}

/** The ids of a window of companies (an index-only scan for the default order, any offset). */
export async function companyIdsOf(
  db: Executor,
  where: SQL | undefined,
  orderBy: SQL[],
  offset: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: companies.id })
    .from(companies)
    .where(where)
    .orderBy(...orderBy)
    .offset(offset)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The companies of these ids (found by a list query just before), in the order of `ids`. */
export async function companiesByIds(db: Executor, ids: string[]) {
  if (!ids.length) return [];
  const rows = await db.select(companyColumns).from(companies).where(inArray(companies.id, ids));
  return inOrderOf(ids, rows);
}

/** A live company of the organisation (ignoring the actor's company scope). */
export async function findCompany(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select(companyColumns)
    .from(companies)
    .where(
      and(eq(companies.id, id), eq(companies.organisationId, organisationId), isNull(companies.deletedAt)),
    )
    .limit(1);
  return row;
}

/** A live company the actor may see, or undefined. */
export async function findVisibleCompany(db: Executor, actor: Actor, id: string) {
  const [row] = await db
    .select(companyColumns)
    .from(companies)
    .where(and(eq(companies.id, id), visibleCompanies(actor)))
    .limit(1);
  return row;
}

/** The company and its ancestors, nearest first (bounded, so a corrupt cycle cannot loop forever). */
export async function ancestorsOf(db: Executor, organisationId: string, id: string): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select c.id, c.parent_id, 1 from companies c
       where c.id = ${id} and c.organisation_id = ${organisationId}
      union all
      select c.id, c.parent_id, chain.depth + 1 from companies c
        join chain on c.id = chain.parent_id
       where c.organisation_id = ${organisationId} and chain.depth < 1000
    )
    select id from chain order by depth`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

export async function hasLiveChildren(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        eq(companies.organisationId, organisationId),
        eq(companies.parentId, id),
        isNull(companies.deletedAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Case-insensitive "contains" on name or external id. */
export function companyTextSearch(text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(ilike(companies.name, pattern), ilike(companies.externalId, pattern))!;
}

/**
 * Serialises changes of the company tree of one organisation, so that two concurrent re-parentings
 * cannot together build a cycle that neither would see alone.
 */
export async function lockCompanyTree(db: Executor, organisationId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`company-tree:${organisationId}`}))`);
}

/** Whether another company of the organisation has this externalId. */
export function companyExternalIdTaken(
  db: Executor,
  organisationId: string,
  externalId: string,
  exceptId?: string,
) {
  return externalIdTaken(db, companies, organisationId, externalId, exceptId);
}

export async function insertCompany(db: Executor, values: typeof companies.$inferInsert) {
  const [company] = await db.insert(companies).values(values).returning(companyColumns);
  return company!;
}

/** Updates a company of the organisation; undefined when there is none. */
export async function updateCompany(
  db: Executor,
  organisationId: string,
  id: string,
  values: Partial<typeof companies.$inferInsert>,
) {
  const [company] = await db
    .update(companies)
    .set(values)
    .where(and(eq(companies.id, id), eq(companies.organisationId, organisationId)))
    .returning(companyColumns);
  return company;
}

/** Archives a live company of the organisation; undefined when it was not live. */
export async function archiveCompany(db: Executor, organisationId: string, id: string) {
  const now = new Date();
  const [company] = await db
    .update(companies)
    .set({ deletedAt: now, updatedAt: now })
    .where(
      and(
        eq(companies.id, id),
        eq(companies.organisationId, organisationId),
        sql`${companies.deletedAt} is null`,
      ),
    )
    .returning(companyColumns);
  return company;
}

/** The crud grammar's default order, and its reverse (a far page of the whole list is read from the end). */
export const COMPANY_SEARCH_ORDER = [asc(companies.name), asc(companies.id)];
const COMPANY_SEARCH_REVERSE_ORDER = [desc(companies.name), desc(companies.id)];

/** The crud window as a page request (only the default order has a reverse: see `whole` below). */
function crudPage(crud: CrudQuery): PageRequest {
  return {
    page: crud.page ?? 1,
    limit: crud.limit,
    offset: crud.offset,
    orderBy: crud.orderBy,
    reverseOrderBy: crud.orderBy === COMPANY_SEARCH_ORDER ? COMPANY_SEARCH_REVERSE_ORDER : crud.orderBy,
    sortField: 'name',
    direction: 'ASC',
  };
}

/** The cursor `after` continues the default order (name, then id) within the organisation. */
function nameKeyset(actor: Actor, after: string | undefined): Keyset | undefined {
  return after
    ? {
        after,
        column: companies.name,
        direction: 'ASC',
        scope: eq(companies.organisationId, actor.organisationId),
      }
    : undefined;
}

/**
 * The ids of a crud search window of the companies the actor may see (after the cursor when
 * given, in the default order): no count, index-only for the default sort.
 */
export async function searchCompanyIds(db: Executor, actor: Actor, crud: CrudQuery, after?: string) {
  const where = and(visibleCompanies(actor), crud.where);
  const keyset = nameKeyset(actor, after);
  const from = keyset ? and(where, await afterCursor(db, companies, companies.id, keyset)) : where;
  return companyIdsOf(db, from, crud.orderBy, keyset ? 0 : crud.offset, crud.limit);
}

/**
 * A counted page of a crud search. The whole organisation in the default order: exact total from
 * live_counts, far pages read from the end; otherwise a capped count (platform/list-paging.ts).
 */
export function searchCompanyPage(db: Executor, actor: Actor, crud: CrudQuery, after?: string) {
  const whole = !crud.where && !isCompanyScoped(actor) && crud.orderBy === COMPANY_SEARCH_ORDER;
  return pageOfIds(db, {
    table: companies,
    id: companies.id,
    where: and(visibleCompanies(actor), crud.where),
    page: crudPage(crud),
    wholeOrganisation: whole ? { organisationId: actor.organisationId, entity: 'companies' } : undefined,
    keyset: nameKeyset(actor, after),
    selective: Boolean(crud.where),
  });
}

export type CompanyFilter = {
  search?: string;
  parentId?: string;
  managedById?: string;
  createdById?: string;
  createdFrom?: Date;
  createdUntil?: Date;
};

/**
 * A counted page of the ids of the companies the actor may see that match the filter, after the
 * cursor when given (the whole organisation's total comes from live_counts).
 */
export function listCompanyIdsPage(
  db: Executor,
  actor: Actor,
  filter: CompanyFilter,
  page: PageRequest,
  after?: string,
) {
  const where = and(
    visibleCompanies(actor),
    filter.search ? companyTextSearch(filter.search) : undefined,
    filter.parentId ? eq(companies.parentId, filter.parentId) : undefined,
    filter.managedById ? eq(companies.managedById, filter.managedById) : undefined,
    filter.createdById ? eq(companies.createdById, filter.createdById) : undefined,
    filter.createdFrom ? gte(companies.createdAt, filter.createdFrom) : undefined,
    filter.createdUntil ? lte(companies.createdAt, filter.createdUntil) : undefined,
  );
  const filtered =
    filter.search ||
    filter.parentId ||
    filter.managedById ||
    filter.createdById ||
    filter.createdFrom ||
    filter.createdUntil;
  const whole = !filtered && !isCompanyScoped(actor);
  return pageOfIds(db, {
    table: companies,
    id: companies.id,
    where,
    page,
    wholeOrganisation: whole ? { organisationId: actor.organisationId, entity: 'companies' } : undefined,
    keyset: after
      ? keysetOf(COMPANY_PAGE, page, after, eq(companies.organisationId, actor.organisationId))
      : undefined,
    selective: Boolean(filter.search),
  });
}
