import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { type AddressType, addresses } from '../../db/schema/organisation-data.ts';
import type { Actor } from '../../platform/actor.ts';
import { type CrudFields, parseCrudQuery } from '../../platform/crud-query.ts';
import { crudParams } from '../../platform/crud-search.ts';
import { notFound } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { assertUsableCompany } from '../companies/references.ts';
import { COMPANY_ENTITY, findVisibleCompany } from '../companies/repository.ts';
import {
  ADDRESS_ENTITY,
  addressColumns,
  clearDefaults,
  findVisibleAddress,
  visibleAddresses,
} from './repository.ts';
import type { CreateAddress, UpdateAddress } from './schemas.ts';

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

export type AddressListQuery = PageQuery & { companyId?: string; type?: AddressType; s?: string };

export const ADDRESS_SEARCH = { defaultLimit: 25, maxLimit: 100 };

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

/** One default address per company and type: the new default takes over, the old one is updated too. */
async function takeOverDefault(
  tx: Executor,
  record: EventRecorder,
  companyId: string,
  type: AddressType,
  exceptId?: string,
) {
  for (const previous of await clearDefaults(tx, companyId, type, exceptId)) {
    await record({
      on: ADDRESS_ENTITY,
      type: 'UPDATE',
      entityId: previous.id,
      snapshot: previous,
      relation: COMPANY_ENTITY,
      relationId: companyId,
      updatedColumns: ['isDefault'],
    });
  }
}

/** Inserts one address in the caller's transaction, with its event. */
async function insertAddress(tx: Executor, record: EventRecorder, actor: Actor, input: CreateAddress) {
  await assertUsableCompany(tx, actor, input.companyId);
  const type = input.type ?? 'shipping';
  if (input.isDefault) await takeOverDefault(tx, record, input.companyId, type);
  const [address] = await tx
    .insert(addresses)
    .values({
      organisationId: actor.organisationId,
      companyId: input.companyId,
      type,
      name: input.name ?? null,
      street1: input.street1,
      street2: input.street2 ?? null,
      street3: input.street3 ?? null,
      postcode: input.postcode ?? null,
      city: input.city,
      region: input.region ?? null,
      countryCode: input.countryCode,
      isDefault: input.isDefault ?? false,
      position: input.position ?? null,
      externalId: input.externalId ?? null,
      createdById: actor.userId,
    })
    .returning(addressColumns);
  await record({
    on: ADDRESS_ENTITY,
    type: 'CREATE',
    entityId: address!.id,
    snapshot: address,
    relation: COMPANY_ENTITY,
    relationId: address!.companyId,
  });
  return address!;
}

export function createAddressService(ctx: Pick<AppContext, 'db' | 'change'>) {
  const { db } = ctx;

  return {
    async get(actor: Actor, id: string) {
      const address = await findVisibleAddress(db, actor, id);
      if (!address) throw notFound('Address');
      return address;
    },

    async list(actor: Actor, query: AddressListQuery) {
      const page = resolvePage(query, ADDRESS_PAGE);
      const where = and(
        visibleAddresses(actor),
        query.companyId ? eq(addresses.companyId, query.companyId) : undefined,
        query.type ? eq(addresses.type, query.type) : undefined,
      );
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
      return pageResult(rows, count?.total ?? 0, page);
    },

    /**
     * The crud grammar of HIPE's search: `s` is JSON (`{"city": {"$contL": "lyon"}}`) or plain text
     * (a "contains" on name, street, postcode, city or externalId; "" matches all). A plain array,
     * or the page envelope when `page` is given.
     */
    async search(actor: Actor, query: AddressListQuery) {
      const text = query.s?.trim() ?? '';
      const s = text.startsWith('{')
        ? text
        : text
          ? JSON.stringify({
              $or: ['name', 'street1', 'postcode', 'city', 'externalId'].map((f) => ({
                [f]: { $contL: text },
              })),
            })
          : undefined;
      const crud = parseCrudQuery(crudParams({ s, limit: query.limit, page: query.page }), {
        fields: ADDRESS_CRUD_FIELDS,
        ...ADDRESS_SEARCH,
        defaultSort: [desc(addresses.createdAt), asc(addresses.id)],
      });
      const where = and(
        visibleAddresses(actor),
        crud.where,
        query.companyId ? eq(addresses.companyId, query.companyId) : undefined,
        query.type ? eq(addresses.type, query.type) : undefined,
      );
      const rows = await db
        .select(addressColumns)
        .from(addresses)
        .where(where)
        .orderBy(...crud.orderBy)
        .limit(crud.limit)
        .offset(crud.offset);
      if (!crud.page) return rows;
      const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(addresses).where(where);
      return pageResult(rows, count?.total ?? 0, { page: crud.page, limit: crud.limit });
    },

    /** Every live address of a company: defaults first, then by type and age. */
    async listForCompany(actor: Actor, companyId: string) {
      if (!(await findVisibleCompany(db, actor, companyId))) throw notFound('Company');
      return db
        .select(addressColumns)
        .from(addresses)
        .where(and(visibleAddresses(actor), eq(addresses.companyId, companyId)))
        .orderBy(desc(addresses.isDefault), asc(addresses.type), asc(addresses.createdAt), asc(addresses.id))
        .limit(1000);
    },

    create(actor: Actor, input: CreateAddress) {
      return ctx.change(actor, (tx, record) => insertAddress(tx, record, actor, input));
    },

    /** Several addresses in one transaction: all are created, or none (the first refusal answers). */
    createMany(actor: Actor, inputs: CreateAddress[]) {
      return ctx.change(actor, async (tx, record) => {
        const created = [];
        for (const input of inputs) created.push(await insertAddress(tx, record, actor, input));
        return created;
      });
    },

    update(actor: Actor, id: string, input: UpdateAddress) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findVisibleAddress(tx, actor, id);
        if (!current) throw notFound('Address');
        if (input.companyId && input.companyId !== current.companyId) {
          await assertUsableCompany(tx, actor, input.companyId);
        }
        const next = { ...current, ...input };
        const changed = changedFields(current, next);
        if (changed.length === 0) return current;
        if (next.isDefault) await takeOverDefault(tx, record, next.companyId, next.type, id);
        const [address] = await tx
          .update(addresses)
          .set({ ...input, updatedAt: new Date() })
          .where(and(eq(addresses.id, id), eq(addresses.organisationId, actor.organisationId)))
          .returning(addressColumns);
        await record({
          on: ADDRESS_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: address,
          relation: COMPANY_ENTITY,
          relationId: address!.companyId,
          updatedColumns: changed,
        });
        return address!;
      });
    },

    remove(actor: Actor, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findVisibleAddress(tx, actor, id);
        if (!current) throw notFound('Address');
        const now = new Date();
        const [address] = await tx
          .update(addresses)
          .set({ deletedAt: now, updatedAt: now })
          .where(and(eq(addresses.id, id), sql`${addresses.deletedAt} is null`))
          .returning(addressColumns);
        if (!address) throw notFound('Address');
        await record({
          on: ADDRESS_ENTITY,
          type: 'DELETE',
          entityId: id,
          snapshot: address,
          relation: COMPANY_ENTITY,
          relationId: address.companyId,
        });
        return { id, deleted: true as const };
      });
    },
  };
}
