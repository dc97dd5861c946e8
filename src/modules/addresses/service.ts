import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { parseCrudQuery } from '../../platform/crud-query.ts';
import { crudParams } from '../../platform/crud-search.ts';
import { notFound } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { assertUsableCompany } from '../companies/references.ts';
import { COMPANY_ENTITY, findVisibleCompany } from '../companies/repository.ts';
import {
  ADDRESS_CRUD_FIELDS,
  ADDRESS_ENTITY,
  ADDRESS_PAGE,
  type AddressType,
  addressSearchOrder,
  clearDefaults,
  findVisibleAddress,
  insertAddress,
  listVisibleAddresses,
  searchVisibleAddresses,
  softDeleteAddress,
  updateAddress,
  visibleAddressesOfCompany,
} from './repository.ts';
import type { CreateAddress, UpdateAddress } from './schemas.ts';

export { ADDRESS_CRUD_FIELDS, ADDRESS_PAGE };

export type AddressListQuery = PageQuery & { companyId?: string; type?: AddressType; s?: string };

export const ADDRESS_SEARCH = { defaultLimit: 25, maxLimit: 100 };

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
async function addAddress(tx: Executor, record: EventRecorder, actor: Actor, input: CreateAddress) {
  await assertUsableCompany(tx, actor, input.companyId);
  const type = input.type ?? 'shipping';
  if (input.isDefault) await takeOverDefault(tx, record, input.companyId, type);
  const address = await insertAddress(tx, {
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
  });
  await record({
    on: ADDRESS_ENTITY,
    type: 'CREATE',
    entityId: address.id,
    snapshot: address,
    relation: COMPANY_ENTITY,
    relationId: address.companyId,
  });
  return address;
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
      const { rows, total } = await listVisibleAddresses(
        db,
        actor,
        { companyId: query.companyId, type: query.type },
        page,
      );
      return pageResult(rows, total, page);
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
        defaultSort: addressSearchOrder(),
      });
      const { rows, total } = await searchVisibleAddresses(
        db,
        actor,
        { companyId: query.companyId, type: query.type },
        crud,
      );
      if (!crud.page) return rows;
      return pageResult(rows, total ?? 0, { page: crud.page, limit: crud.limit });
    },

    /** Every live address of a company: defaults first, then by type and age. */
    async listForCompany(actor: Actor, companyId: string) {
      if (!(await findVisibleCompany(db, actor, companyId))) throw notFound('Company');
      return visibleAddressesOfCompany(db, actor, companyId);
    },

    create(actor: Actor, input: CreateAddress) {
      return ctx.change(actor, (tx, record) => addAddress(tx, record, actor, input));
    },

    /** Several addresses in one transaction: all are created, or none (the first refusal answers). */
    createMany(actor: Actor, inputs: CreateAddress[]) {
      return ctx.change(actor, async (tx, record) => {
        const created = [];
        for (const input of inputs) created.push(await addAddress(tx, record, actor, input));
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
        const address = await updateAddress(tx, actor.organisationId, id, {
          ...input,
          updatedAt: new Date(),
        });
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
        const address = await softDeleteAddress(tx, id);
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
