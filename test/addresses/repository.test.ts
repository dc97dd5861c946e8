/**
 * The addresses repository on the real database (PGlite, or PostgreSQL with DATABASE_URL): the
 * addresses a listing sees (tenant, live addresses of live companies, filters) and their order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import {
  ADDRESS_PAGE,
  insertAddress,
  listVisibleAddresses,
  softDeleteAddress,
  updateAddress,
  visibleAddressesOfCompany,
} from '../../src/modules/addresses/repository.ts';
import { archiveCompany, insertCompany } from '../../src/modules/companies/repository.ts';
import type { Actor } from '../../src/platform/actor.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import type { TestApp } from '../helpers/app.ts';
import { buildTwoTenants } from '../helpers/tenants.ts';

describe('addresses repository', () => {
  let t: TestApp;
  let db: Db;
  let admin: Actor;
  let other: Actor;
  let acme: string;
  const ids: Record<string, string> = {};
  const namesOf = (rows: { id: string }[]) =>
    rows.map((row) => Object.entries(ids).find(([, id]) => id === row.id)?.[0]);

  beforeAll(async () => {
    ({ t, db, admin, other } = await buildTwoTenants());
    acme = (await insertCompany(db, { organisationId: admin.organisationId, name: 'Acme' })).id;
    const gone = (await insertCompany(db, { organisationId: admin.organisationId, name: 'Gone' })).id;
    const address = async (
      name: string,
      companyId: string,
      type: 'shipping' | 'billing',
      isDefault: boolean,
      day: number,
    ) => {
      const row = await insertAddress(db, {
        organisationId: admin.organisationId,
        companyId,
        type,
        name,
        street1: '1 Main Street',
        city: 'Lyon',
        countryCode: 'FR',
        isDefault,
        createdAt: new Date(Date.UTC(2026, 0, day)),
      });
      ids[name] = row.id;
    };
    await address('old shipping', acme, 'shipping', false, 1);
    await address('new shipping', acme, 'shipping', false, 2);
    await address('billing', acme, 'billing', false, 3);
    await address('default shipping', acme, 'shipping', true, 4);
    await address('deleted', acme, 'shipping', false, 5);
    await address('of a gone company', gone, 'billing', false, 6);
    expect(await softDeleteAddress(db, ids.deleted!)).toBeDefined();
    await archiveCompany(db, admin.organisationId, gone);
  });
  afterAll(() => t.close());

  it("lists a company's live addresses: defaults first, then by type and age", async () => {
    expect(namesOf(await visibleAddressesOfCompany(db, admin, acme))).toEqual([
      'default shipping',
      'billing',
      'old shipping',
      'new shipping',
    ]);
    expect(await visibleAddressesOfCompany(db, other, acme)).toEqual([]);
  });

  it('pages the addresses of live companies of the tenant, with the filters', async () => {
    const page = resolvePage({ sort: 'createdAt,ASC' }, ADDRESS_PAGE);
    const all = await listVisibleAddresses(db, admin, {}, page);
    expect({ names: namesOf(all.rows), total: all.total }).toEqual({
      names: ['old shipping', 'new shipping', 'billing', 'default shipping'],
      total: 4,
    });
    const billing = await listVisibleAddresses(db, admin, { type: 'billing' }, page);
    expect(namesOf(billing.rows)).toEqual(['billing']);
    expect((await listVisibleAddresses(db, other, {}, page)).total).toBe(0);
  });

  it('soft-deletes a live address once; updates only addresses of the organisation', async () => {
    expect(await softDeleteAddress(db, ids.deleted!)).toBeUndefined();
    expect(await updateAddress(db, other.organisationId, ids.billing!, { city: 'Paris' })).toBeUndefined();
    expect((await updateAddress(db, admin.organisationId, ids.billing!, { city: 'Paris' }))?.city).toBe(
      'Paris',
    );
  });
});
