import { and, asc, desc, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type AddressType, addresses } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import type { CrudFields, CrudQuery } from '../../platform/crud-query.ts';
import { entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { AddressSchema } from './schemas.ts';

export type { AddressType };

export const ADDRESS_ENTITY = entity('ADDRESS', 'addresses', 'addresses', { schema: AddressSchema });

export const addressColumns = {
  id: addresses.id,
  organisationId: addresses.organisationId,
  companyId: addresses.companyId,
  type: addresses.type,
  name: addresses.name,
  street1: addresses.street1,
  street2: addresses.street2,
  street3: addresses.street3,
  postcode: addresses.postcode,
  city: addresses.city,
  region: addresses.region,
  countryCode: addresses.countryCode,
  isDefault: addresses.isDefault,
  position: addresses.position,
  externalId: addresses.externalId,
  createdById: addresses.createdById,
  createdAt: addresses.createdAt,
  updatedAt: addresses.updatedAt,
  deletedAt: addresses.deletedAt,
};

/** Live addresses of live companies of the organisation that the actor may see. */
export function visibleAddresses(actor: Actor): SQL {
  return and(
    eq(addresses.organisationId, actor.organisationId),
    isNull(addresses.deletedAt),
    sql`exists (select 1 from ${companies} where ${companies.id} = ${addresses.companyId} and ${companies.deletedAt} is null)`,
    inCompanyScope(actor, addresses.companyId),
  )!;
}

export async function findVisibleAddress(db: Executor, actor: Actor, id: string) {
  const [row] = await db
    .select(addressColumns)
    .from(addresses)
    .where(and(eq(addresses.id, id), visibleAddresses(actor)))
    .limit(1);
  return row;
}

/** Clears the default flag of the company's other live addresses of the type; returns them. */
export async function clearDefaults(db: Executor, companyId: string, type: AddressType, exceptId?: string) {
  return db
    .update(addresses)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(
      and(
        eq(addresses.companyId, companyId),
        eq(addresses.type, type),
        eq(addresses.isDefault, true),
        isNull(addresses.deletedAt),
        exceptId ? ne(addresses.id, exceptId) : undefined,
      ),
    )
    .returning(addressColumns);
}

export const ADDRESS_PAGE = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    createdAt: addresses.createdAt,
    updatedAt: addresses.updatedAt,
    name: addresses.name,
    city: addresses.city,
    type: addresses.type,
  },
  tieBreaker: addresses.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' as const },
};

/** The fields the crud grammar (`s`) may name on addresses, under our names and HIPE's. */
export const ADDRESS_CRUD_FIELDS: CrudFields = {
  id: { column: addresses.id, type: 'uuid' },
  companyId: { column: addresses.companyId, type: 'uuid' },
  type: { column: addresses.type, type: 'string' },
  name: { column: addresses.name, type: 'string' },
  street1: { column: addresses.street1, type: 'string' },
  address: { column: addresses.street1, type: 'string' },
  postcode: { column: addresses.postcode, type: 'string' },
  zipCode: { column: addresses.postcode, type: 'string' },
  city: { column: addresses.city, type: 'string' },
  region: { column: addresses.region, type: 'string' },
  state: { column: addresses.region, type: 'string' },
  countryCode: { column: addresses.countryCode, type: 'string' },
  country: { column: addresses.countryCode, type: 'string' },
  externalId: { column: addresses.externalId, type: 'string' },
  createdAt: { column: addresses.createdAt, type: 'date' },
  updatedAt: { column: addresses.updatedAt, type: 'date' },
};

/** The order of a crud search that names none: newest first. */
export const addressSearchOrder = () => [desc(addresses.createdAt), asc(addresses.id)];

export type AddressFilter = { companyId?: string; type?: AddressType };

const addressFilter = (actor: Actor, filter: AddressFilter, more?: SQL) =>
  and(
    visibleAddresses(actor),
    more,
    filter.companyId ? eq(addresses.companyId, filter.companyId) : undefined,
    filter.type ? eq(addresses.type, filter.type) : undefined,
  );

/** A page of the addresses the actor may see (of one company, of one type), with the total. */
export async function listVisibleAddresses(
  db: Executor,
  actor: Actor,
  filter: AddressFilter,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const where = addressFilter(actor, filter);
  const [rows, [count]] = await Promise.all([
    db
      .select(addressColumns)
      .from(addresses)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(addresses).where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** A crud search of the addresses the actor may see; the total only when a page was asked. */
export async function searchVisibleAddresses(
  db: Executor,
  actor: Actor,
  filter: AddressFilter,
  crud: CrudQuery,
) {
  const where = addressFilter(actor, filter, crud.where);
  const rows = await db
    .select(addressColumns)
    .from(addresses)
    .where(where)
    .orderBy(...crud.orderBy)
    .limit(crud.limit)
    .offset(crud.offset);
  if (!crud.page) return { rows };
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(addresses).where(where);
  return { rows, total: count?.total ?? 0 };
}

/** Every address of a company that the actor may see: defaults first, then by type and age. */
export function visibleAddressesOfCompany(db: Executor, actor: Actor, companyId: string) {
  return db
    .select(addressColumns)
    .from(addresses)
    .where(and(visibleAddresses(actor), eq(addresses.companyId, companyId)))
    .orderBy(desc(addresses.isDefault), asc(addresses.type), asc(addresses.createdAt), asc(addresses.id))
    .limit(1000);
}

export async function insertAddress(db: Executor, values: typeof addresses.$inferInsert) {
  const [address] = await db.insert(addresses).values(values).returning(addressColumns);
  return address!;
}

/** Updates an address of the organisation; undefined when there is none. */
export async function updateAddress(
  db: Executor,
  organisationId: string,
  id: string,
  values: Partial<typeof addresses.$inferInsert>,
) {
  const [address] = await db
    .update(addresses)
    .set(values)
    .where(and(eq(addresses.id, id), eq(addresses.organisationId, organisationId)))
    .returning(addressColumns);
  return address;
}

/** Soft-deletes a live address; undefined when it was not live. */
export async function softDeleteAddress(db: Executor, id: string) {
  const now = new Date();
  const [address] = await db
    .update(addresses)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(addresses.id, id), sql`${addresses.deletedAt} is null`))
    .returning(addressColumns);
  return address;
}
