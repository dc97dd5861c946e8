import { and, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import type { CrudFields } from '../../platform/crud-query.ts';
import { entity } from '../../platform/events.ts';
import { inOrderOf } from '../../platform/list-paging.ts';
import { CompanySchema } from './schemas.ts';

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
