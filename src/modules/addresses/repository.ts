import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type AddressType, addresses } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { entity } from '../../platform/events.ts';
import { AddressSchema } from './schemas.ts';

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
