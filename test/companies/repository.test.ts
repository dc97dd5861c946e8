/**
 * The companies repository on the real database (PGlite, or PostgreSQL with DATABASE_URL): which
 * companies a listing or a search sees (tenant, live rows, the actor's companies), in which order,
 * and the archive that touches live rows only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import {
  archiveCompany,
  COMPANY_PAGE,
  COMPANY_SEARCH_ORDER,
  companyExternalIdTaken,
  insertCompany,
  listCompanyIdsPage,
  searchCompanyIds,
  searchCompanyPage,
} from '../../src/modules/companies/repository.ts';
import type { Actor } from '../../src/platform/actor.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import type { TestApp } from '../helpers/app.ts';
import { buildTwoTenants } from '../helpers/tenants.ts';

describe('companies repository', () => {
  let t: TestApp;
  let db: Db;
  let admin: Actor;
  let other: Actor;
  const ids: Record<string, string> = {};
  const crud = (over: { where?: undefined; page?: number; offset?: number } = {}) => ({
    orderBy: COMPANY_SEARCH_ORDER,
    limit: 10,
    offset: over.offset ?? 0,
    page: over.page,
  });
  const namesOf = (list: string[]) => list.map((id) => Object.entries(ids).find(([, v]) => v === id)?.[0]);

  beforeAll(async () => {
    ({ t, db, admin, other } = await buildTwoTenants());
    for (const [name, organisationId] of [
      ['Umbrella', admin.organisationId],
      ['Acme', admin.organisationId],
      ['Globex', admin.organisationId],
      ['Archived', admin.organisationId],
      ['Initech', other.organisationId],
    ] as const) {
      ids[name] = (await insertCompany(db, { organisationId, name, externalId: `X-${name}` })).id;
    }
    expect(await archiveCompany(db, admin.organisationId, ids.Archived!)).toBeDefined();
  });
  afterAll(() => t.close());

  it('archives a live company of the tenant only, once', async () => {
    expect(await archiveCompany(db, admin.organisationId, ids.Archived!)).toBeUndefined();
    expect(await archiveCompany(db, admin.organisationId, ids.Initech!)).toBeUndefined();
  });

  it('searches the live companies of the tenant by name, after a cursor when given', async () => {
    expect(namesOf(await searchCompanyIds(db, admin, crud()))).toEqual(['Acme', 'Globex', 'Umbrella']);
    expect(namesOf(await searchCompanyIds(db, admin, crud(), ids.Acme))).toEqual(['Globex', 'Umbrella']);
    expect(namesOf(await searchCompanyIds(db, other, crud()))).toEqual(['Initech']);
  });

  it('limits a company-scoped actor to its companies', async () => {
    const scoped: Actor = { ...admin, role: 'external_sales', companyIds: [ids.Globex!] };
    expect(namesOf(await searchCompanyIds(db, scoped, crud()))).toEqual(['Globex']);
    const found = await searchCompanyPage(db, scoped, crud({ page: 1 }));
    expect({ ids: namesOf(found.ids), total: found.total }).toEqual({ ids: ['Globex'], total: 1 });
  });

  it('pages the listing with its total, the filters applied', async () => {
    const page = resolvePage({ limit: 2 }, COMPANY_PAGE);
    const first = await listCompanyIdsPage(db, admin, {}, page);
    expect({ ids: namesOf(first.ids), total: first.total, next: first.hasNextPage }).toEqual({
      ids: ['Acme', 'Globex'],
      total: 3,
      next: true,
    });
    const searched = await listCompanyIdsPage(db, admin, { search: 'umbr' }, page);
    expect(namesOf(searched.ids)).toEqual(['Umbrella']);
  });

  it('finds an externalId taken by another live company of the tenant only', async () => {
    expect(await companyExternalIdTaken(db, admin.organisationId, 'X-Acme')).toBe(true);
    expect(await companyExternalIdTaken(db, admin.organisationId, 'X-Acme', ids.Acme)).toBe(false);
    expect(await companyExternalIdTaken(db, admin.organisationId, 'X-Initech')).toBe(false);
  });
});
