import { RequestQueryBuilder } from '@nestjsx/crud-request';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitions } from '../../src/db/schema/organisation-data.ts';
import { companies } from '../../src/db/schema/platform.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, eventReader, expectProblem, linker } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let guest: Credentials;
let externalSales: Credentials;
let contact: Credentials;
let otherAdmin: Credentials;

type Json = Record<string, unknown>;

const call = caller(() => t);

async function createCompany(who: Credentials, payload: Json): Promise<Json> {
  const response = await call(who, 'POST', '/api/companies', payload);
  if (response.statusCode !== 201) throw new Error(`company: ${response.statusCode} ${response.body}`);
  return response.json();
}

const link = linker(() => t);

const eventsOf = eventReader(() => t);

const names = (rows: Json[]) => rows.map((r) => r.name as string).sort();

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  externalSales = await makeUser(t, admin, 'external_sales');
  contact = await makeUser(t, admin, 'contact');
  otherAdmin = await makeOrganisation(t);
});
afterAll(() => t.close());

describe('POST /api/companies', () => {
  it('creates a company (201) and records event.companies.created', async () => {
    const response = await call(sales, 'POST', '/api/companies', {
      name: 'Acme Packaging',
      externalId: 'ACME-1',
      email: 'hello@acme.test',
      phoneNumber: '+33 1 23 45 67 89',
      website: 'https://acme.test',
      vatNumber: 'FR40303265045',
    });
    expect(response.statusCode).toBe(201);
    const company = response.json();
    expect(company).toMatchObject({
      name: 'Acme Packaging',
      externalId: 'ACME-1',
      parentId: null,
      enabled: true,
      customFields: {},
      organisationId: admin.organisationId,
      createdById: sales.userId,
      deletedAt: null,
    });
    const [event] = await eventsOf(company.id);
    expect(event).toMatchObject({
      eventName: 'event.companies.created',
      type: 'CREATE',
      entity: 'COMPANY',
      tableName: 'companies',
      organisationId: admin.organisationId,
      actorId: sales.userId,
    });
    expect(event!.payload).toMatchObject({ id: company.id, name: 'Acme Packaging' });
  });

  it('refuses a company without name, with a pointer', async () => {
    const problem = expectProblem(await call(admin, 'POST', '/api/companies', { externalId: 'X' }), 400);
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/name', in: 'body' }));
  });

  it('refuses unknown properties and malformed values', async () => {
    const problem = expectProblem(
      await call(admin, 'POST', '/api/companies', { name: 'X', colour: 'red', email: 'not-an-email' }),
      400,
      'validation_failed',
    );
    const pointers = problem.errors!.map((e) => e.pointer);
    expect(pointers).toContain('/colour');
    expect(pointers).toContain('/email');
  });

  it('refuses guests and contacts (403) and anonymous callers (401)', async () => {
    expectProblem(await call(guest, 'POST', '/api/companies', { name: 'G' }), 403, 'forbidden');
    expectProblem(await call(contact, 'POST', '/api/companies', { name: 'C' }), 403, 'forbidden');
    expectProblem(await call(undefined, 'POST', '/api/companies', { name: 'A' }), 401);
  });

  it('keeps externalId unique per organisation among live companies (409), per tenant only', async () => {
    await createCompany(admin, { name: 'Unique One', externalId: 'UNIQ-1' });
    expectProblem(
      await call(admin, 'POST', '/api/companies', { name: 'Unique Two', externalId: 'UNIQ-1' }),
      409,
      'external_id_taken',
    );
    // Another tenant may use the same externalId.
    await createCompany(otherAdmin, { name: 'Elsewhere', externalId: 'UNIQ-1' });
  });

  it('links an external sales creator to its new company so it can read it', async () => {
    const company = await createCompany(externalSales, { name: 'Made by external sales' });
    expect((await call(externalSales, 'GET', `/api/companies/${company.id}`)).statusCode).toBe(200);
  });
});

describe('GET /api/companies/:id', () => {
  let company: Json;
  beforeAll(async () => {
    company = await createCompany(admin, { name: 'Readable' });
  });

  it('reads a company', async () => {
    const response = await call(guest, 'GET', `/api/companies/${company.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(company);
  });

  it('answers 404 for another tenant’s company, like a missing one', async () => {
    expectProblem(await call(otherAdmin, 'GET', `/api/companies/${company.id}`), 404, 'not_found');
    expectProblem(
      await call(admin, 'GET', '/api/companies/01900000-0000-7000-8000-000000000000'),
      404,
      'not_found',
    );
  });

  it('refuses a malformed id with a pointer', async () => {
    const problem = expectProblem(await call(admin, 'GET', '/api/companies/not-a-uuid'), 400);
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/id', in: 'params' }));
  });

  it('hides companies a contact or external sales user is not linked to (404)', async () => {
    expectProblem(await call(contact, 'GET', `/api/companies/${company.id}`), 404);
    expectProblem(await call(externalSales, 'GET', `/api/companies/${company.id}`), 404);
    const mine = await createCompany(admin, { name: 'Linked to the contact' });
    await link(contact, mine.id);
    expect((await call(contact, 'GET', `/api/companies/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('PATCH /api/companies/:id', () => {
  it('changes the properties sent and records their names', async () => {
    const company = await createCompany(admin, { name: 'Before', email: 'a@b.test' });
    const response = await call(sales, 'PATCH', `/api/companies/${company.id}`, {
      name: 'After',
      enabled: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'After', enabled: false, email: 'a@b.test' });
    const updated = (await eventsOf(company.id)).find((e) => e.type === 'UPDATE');
    expect(updated).toMatchObject({ eventName: 'event.companies.updated' });
    expect(updated!.updatedColumns!.sort()).toEqual(['enabled', 'name']);
  });

  it('records nothing when nothing changes', async () => {
    const company = await createCompany(admin, { name: 'Stable' });
    const response = await call(admin, 'PATCH', `/api/companies/${company.id}`, { name: 'Stable' });
    expect(response.statusCode).toBe(200);
    expect(await eventsOf(company.id)).toHaveLength(1);
  });

  it('validates the body with pointers', async () => {
    const company = await createCompany(admin, { name: 'Validated' });
    const problem = expectProblem(
      await call(admin, 'PATCH', `/api/companies/${company.id}`, { name: '', parentId: 'nope' }),
      400,
    );
    const pointers = problem.errors!.map((e) => e.pointer);
    expect(pointers).toContain('/name');
    expect(pointers).toContain('/parentId');
  });

  it('refuses a taken externalId (409) but accepts its own', async () => {
    await createCompany(admin, { name: 'Holder', externalId: 'TAKEN-1' });
    const company = await createCompany(admin, { name: 'Mover', externalId: 'OWN-1' });
    expectProblem(
      await call(admin, 'PATCH', `/api/companies/${company.id}`, { externalId: 'TAKEN-1' }),
      409,
      'external_id_taken',
    );
    expect(
      (await call(admin, 'PATCH', `/api/companies/${company.id}`, { externalId: 'OWN-1' })).statusCode,
    ).toBe(200);
  });

  it('refuses guests (403), other tenants and unlinked external sales (404)', async () => {
    const company = await createCompany(admin, { name: 'Guarded' });
    expectProblem(await call(guest, 'PATCH', `/api/companies/${company.id}`, { name: 'x' }), 403);
    expectProblem(await call(otherAdmin, 'PATCH', `/api/companies/${company.id}`, { name: 'x' }), 404);
    expectProblem(await call(externalSales, 'PATCH', `/api/companies/${company.id}`, { name: 'x' }), 404);
    await link(externalSales, company.id);
    expect(
      (await call(externalSales, 'PATCH', `/api/companies/${company.id}`, { name: 'x' })).statusCode,
    ).toBe(200);
  });
});

describe('company hierarchy', () => {
  it('accepts a parent of the organisation and refuses unknown or foreign parents (422)', async () => {
    const parent = await createCompany(admin, { name: 'Group' });
    const child = await createCompany(admin, { name: 'Subsidiary', parentId: parent.id });
    expect(child.parentId).toBe(parent.id);
    const foreign = await createCompany(otherAdmin, { name: 'Foreign group' });
    for (const parentId of [foreign.id, '01900000-0000-7000-8000-000000000000']) {
      const problem = expectProblem(
        await call(admin, 'POST', '/api/companies', { name: 'Orphan', parentId }),
        422,
        'parent_not_found',
      );
      expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/parentId' }));
    }
  });

  it('refuses cycles, including a company as its own parent (422)', async () => {
    const a = await createCompany(admin, { name: 'Cycle A' });
    const b = await createCompany(admin, { name: 'Cycle B', parentId: a.id });
    const c = await createCompany(admin, { name: 'Cycle C', parentId: b.id });
    expectProblem(
      await call(admin, 'PATCH', `/api/companies/${a.id}`, { parentId: a.id }),
      422,
      'company_cycle',
    );
    expectProblem(
      await call(admin, 'PATCH', `/api/companies/${a.id}`, { parentId: c.id }),
      422,
      'company_cycle',
    );
    expectProblem(
      await call(admin, 'PATCH', `/api/companies/${a.id}`, { parentId: b.id }),
      422,
      'company_cycle',
    );
    // Moving the bottom of the chain, or detaching it, is fine.
    expect((await call(admin, 'PATCH', `/api/companies/${c.id}`, { parentId: a.id })).json().parentId).toBe(
      a.id,
    );
    expect((await call(admin, 'PATCH', `/api/companies/${c.id}`, { parentId: null })).json().parentId).toBe(
      null,
    );
  });

  it('refuses to archive a parent with live children (409) until they are gone', async () => {
    const parent = await createCompany(admin, { name: 'Parent to archive' });
    const child = await createCompany(admin, { name: 'Child to archive', parentId: parent.id });
    expectProblem(
      await call(admin, 'DELETE', `/api/companies/${parent.id}/archived`),
      409,
      'company_has_children',
    );
    expect((await call(admin, 'DELETE', `/api/companies/${child.id}/archived`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/companies/${parent.id}/archived`)).statusCode).toBe(200);
  });

  it('lists the children of a company', async () => {
    const parent = await createCompany(admin, { name: 'Listing parent' });
    await createCompany(admin, { name: 'Listing child 1', parentId: parent.id });
    await createCompany(admin, { name: 'Listing child 2', parentId: parent.id });
    const page = (await call(admin, 'GET', `/api/companies/pagination?parentId=${parent.id}`)).json();
    expect(names(page.data)).toEqual(['Listing child 1', 'Listing child 2']);
  });
});

describe('DELETE /api/companies/:id/archived', () => {
  it('archives (200, the archived company), then hides it everywhere; twice is 404', async () => {
    const company = await createCompany(admin, { name: 'Archivable Ltd', externalId: 'ARCH-1' });
    const response = await call(sales, 'DELETE', `/api/companies/${company.id}/archived`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: company.id, name: 'Archivable Ltd' });
    expect(response.json().deletedAt).not.toBeNull();
    const deleted = (await eventsOf(company.id)).find((e) => e.type === 'DELETE');
    expect(deleted).toMatchObject({ eventName: 'event.companies.deleted' });

    expectProblem(await call(admin, 'GET', `/api/companies/${company.id}`), 404);
    expectProblem(await call(admin, 'PATCH', `/api/companies/${company.id}`, { name: 'x' }), 404);
    expectProblem(await call(admin, 'DELETE', `/api/companies/${company.id}/archived`), 404);
    const search = RequestQueryBuilder.create()
      .search({ externalId: { $eq: 'ARCH-1' } })
      .query();
    expect((await call(admin, 'GET', `/api/companies?${search}`)).json()).toEqual([]);
    const page = (await call(admin, 'GET', '/api/companies/pagination?search=Archivable')).json();
    expect(page.data).toEqual([]);
    // Its externalId is free again.
    await createCompany(admin, { name: 'Archivable again', externalId: 'ARCH-1' });
  });

  it('refuses guests (403) and other tenants (404)', async () => {
    const company = await createCompany(admin, { name: 'Not archivable by them' });
    expectProblem(await call(guest, 'DELETE', `/api/companies/${company.id}/archived`), 403);
    expectProblem(await call(otherAdmin, 'DELETE', `/api/companies/${company.id}/archived`), 404);
  });
});

describe('GET /api/companies/pagination', () => {
  let org: Credentials;
  beforeAll(async () => {
    org = await makeOrganisation(t);
    for (let i = 1; i <= 30; i++) {
      await createCompany(org, { name: `Paged ${String(i).padStart(2, '0')}`, externalId: `PG-${i}` });
    }
  });

  it('pages with a default limit of 25 and tells whether more pages exist', async () => {
    const first = (await call(org, 'GET', '/api/companies/pagination')).json();
    expect(first.data).toHaveLength(25);
    expect(first.meta).toEqual({
      page: 1,
      limit: 25,
      total: 30,
      hasNextPage: true,
      nextCursor: first.data[24].id,
    });
    const second = (await call(org, 'GET', '/api/companies/pagination?page=2')).json();
    expect(second.data).toHaveLength(5);
    expect(second.meta).toMatchObject({ hasNextPage: false, nextCursor: null });
  });

  it('sorts and searches case-insensitively on name or externalId', async () => {
    const sorted = (await call(org, 'GET', '/api/companies/pagination?sort=name,DESC&limit=3')).json();
    expect(sorted.data.map((c: Json) => c.name)).toEqual(['Paged 30', 'Paged 29', 'Paged 28']);
    const byName = (await call(org, 'GET', '/api/companies/pagination?search=pAgEd%200')).json();
    expect(byName.meta.total).toBe(9);
    const byExternalId = (await call(org, 'GET', '/api/companies/pagination?search=pg-17')).json();
    expect(names(byExternalId.data)).toEqual(['Paged 17']);
  });

  it('refuses a limit above 100, an unknown sort field and unknown parameters (400)', async () => {
    const limit = expectProblem(await call(org, 'GET', '/api/companies/pagination?limit=101'), 400);
    expect(limit.errors).toContainEqual(expect.objectContaining({ pointer: '/limit', in: 'query' }));
    const sort = expectProblem(await call(org, 'GET', '/api/companies/pagination?sort=colour'), 400);
    expect(sort.errors).toContainEqual(expect.objectContaining({ pointer: '/sort' }));
    expectProblem(await call(org, 'GET', '/api/companies/pagination?colour=red'), 400);
  });

  it('shows a scoped user only its companies, and nothing of another tenant', async () => {
    const scoped = await makeUser(t, org, 'external_sales');
    const [one] = (await call(org, 'GET', '/api/companies/pagination?search=Paged%2007')).json().data;
    await link(scoped, one.id);
    const page = (await call(scoped, 'GET', '/api/companies/pagination')).json();
    expect(names(page.data)).toEqual(['Paged 07']);
    expect(page.meta.total).toBe(1);
    const foreign = (await call(admin, 'GET', '/api/companies/pagination?search=Paged')).json();
    expect(foreign.data).toEqual([]);
  });
});

describe('GET /api/companies (crud grammar)', () => {
  let org: Credentials;
  const search = async (builder: RequestQueryBuilder, who?: Credentials) => {
    const response = await call(who ?? org, 'GET', `/api/companies?${builder.query()}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const s = (condition: Json) => RequestQueryBuilder.create().search(condition as never);

  beforeAll(async () => {
    org = await makeOrganisation(t);
    const fixtures = [
      { name: 'Alpha Packaging', externalId: 'ERP-001', createdAt: '2024-01-01T00:00:00Z' },
      { name: 'beta boxes', externalId: 'ERP-002', enabled: false, createdAt: '2024-02-01T00:00:00Z' },
      { name: 'Gamma Cartons', externalId: 'ERP-003', createdAt: '2024-03-01T00:00:00Z' },
      { name: 'Delta Packaging Ltd', createdAt: '2024-04-01T00:00:00Z' },
    ];
    for (const { createdAt, ...payload } of fixtures) {
      const company = await createCompany(org, payload);
      await t.app.ctx.db
        .update(companies)
        .set({ createdAt: new Date(createdAt) })
        .where(eq(companies.id, company.id as string));
    }
  });

  it('$eq, $ne', async () => {
    expect(names(await search(s({ name: { $eq: 'Alpha Packaging' } })))).toEqual(['Alpha Packaging']);
    expect(names(await search(s({ name: 'Gamma Cartons' })))).toEqual(['Gamma Cartons']);
    expect(names(await search(s({ externalId: { $ne: 'ERP-001' } })))).toEqual([
      'Delta Packaging Ltd',
      'Gamma Cartons',
      'beta boxes',
    ]);
  });

  it('$gt, $lt, $gte, $lte on createdAt', async () => {
    const at = '2024-02-01T00:00:00.000Z';
    expect(names(await search(s({ createdAt: { $gt: at } })))).toEqual([
      'Delta Packaging Ltd',
      'Gamma Cartons',
    ]);
    expect(names(await search(s({ createdAt: { $lt: at } })))).toEqual(['Alpha Packaging']);
    expect(names(await search(s({ createdAt: { $gte: at } })))).toEqual([
      'Delta Packaging Ltd',
      'Gamma Cartons',
      'beta boxes',
    ]);
    expect(names(await search(s({ createdAt: { $lte: at } })))).toEqual(['Alpha Packaging', 'beta boxes']);
  });

  it('$starts, $ends, $cont, $excl (case-sensitive)', async () => {
    expect(names(await search(s({ name: { $starts: 'Alpha' } })))).toEqual(['Alpha Packaging']);
    expect(names(await search(s({ name: { $starts: 'alpha' } })))).toEqual([]);
    expect(names(await search(s({ name: { $ends: 'Cartons' } })))).toEqual(['Gamma Cartons']);
    expect(names(await search(s({ name: { $cont: 'Packaging' } })))).toEqual([
      'Alpha Packaging',
      'Delta Packaging Ltd',
    ]);
    expect(names(await search(s({ name: { $excl: 'Packaging' } })))).toEqual(['Gamma Cartons', 'beta boxes']);
  });

  it('$in, $notin, $isnull, $notnull, $between', async () => {
    expect(names(await search(s({ externalId: { $in: ['ERP-001', 'ERP-003'] } })))).toEqual([
      'Alpha Packaging',
      'Gamma Cartons',
    ]);
    expect(names(await search(s({ externalId: { $notin: ['ERP-001'] } })))).toEqual([
      'Gamma Cartons',
      'beta boxes',
    ]);
    expect(names(await search(s({ externalId: { $isnull: true } })))).toEqual(['Delta Packaging Ltd']);
    expect(await search(s({ externalId: { $notnull: true } }))).toHaveLength(3);
    expect(
      names(await search(s({ createdAt: { $between: ['2024-01-15T00:00:00Z', '2024-03-15T00:00:00Z'] } }))),
    ).toEqual(['Gamma Cartons', 'beta boxes']);
  });

  it('$eqL, $contL, $startsL, $inL (case-insensitive)', async () => {
    expect(names(await search(s({ name: { $eqL: 'ALPHA packaging' } })))).toEqual(['Alpha Packaging']);
    expect(names(await search(s({ name: { $contL: 'PACKAGING' } })))).toEqual([
      'Alpha Packaging',
      'Delta Packaging Ltd',
    ]);
    expect(names(await search(s({ name: { $startsL: 'BETA' } })))).toEqual(['beta boxes']);
    expect(names(await search(s({ externalId: { $inL: ['erp-001', 'Erp-002'] } })))).toEqual([
      'Alpha Packaging',
      'beta boxes',
    ]);
  });

  it('$and, $or, and $or between operators of one field', async () => {
    expect(
      names(await search(s({ $or: [{ name: { $starts: 'Alpha' } }, { externalId: 'ERP-003' }] }))),
    ).toEqual(['Alpha Packaging', 'Gamma Cartons']);
    expect(names(await search(s({ $and: [{ name: { $contL: 'b' } }, { enabled: false }] })))).toEqual([
      'beta boxes',
    ]);
    expect(names(await search(s({ name: { $or: { $starts: 'Alpha', $ends: 'Ltd' } } })))).toEqual([
      'Alpha Packaging',
      'Delta Packaging Ltd',
    ]);
  });

  it('`filter` conditions are ANDed, `or` conditions ORed', async () => {
    const filtered = RequestQueryBuilder.create().setFilter([
      { field: 'name', operator: '$contL', value: 'packaging' },
      { field: 'enabled', operator: '$eq', value: true },
    ]);
    expect(names(await search(filtered))).toEqual(['Alpha Packaging', 'Delta Packaging Ltd']);
    const ored = RequestQueryBuilder.create().setOr([
      { field: 'externalId', operator: '$eq', value: 'ERP-002' },
      { field: 'externalId', operator: '$eq', value: 'ERP-003' },
    ]);
    expect(names(await search(ored))).toEqual(['Gamma Cartons', 'beta boxes']);
  });

  it('sort, limit, offset and page (the page envelope)', async () => {
    const sorted = await search(RequestQueryBuilder.create().sortBy({ field: 'createdAt', order: 'DESC' }));
    expect(sorted.map((c: Json) => c.name)).toEqual([
      'Delta Packaging Ltd',
      'Gamma Cartons',
      'beta boxes',
      'Alpha Packaging',
    ]);
    const byDate = () => RequestQueryBuilder.create().sortBy({ field: 'createdAt', order: 'ASC' });
    expect(await search(byDate().setLimit(2))).toHaveLength(2);
    expect((await search(byDate().setOffset(3))).map((c: Json) => c.name)).toEqual(['Delta Packaging Ltd']);
    const page = await search(byDate().setLimit(2).setPage(2));
    expect(page.data.map((c: Json) => c.name)).toEqual(['Gamma Cartons', 'Delta Packaging Ltd']);
    expect(page.meta).toEqual({ page: 2, limit: 2, total: 4, hasNextPage: false });
  });

  it('refuses malformed searches, unknown fields and operators (400)', async () => {
    const malformed = expectProblem(await call(org, 'GET', '/api/companies?s=%7Bname'), 400, 'invalid_query');
    expect(malformed.errors).toContainEqual(expect.objectContaining({ pointer: '/s', in: 'query' }));
    expectProblem(
      await call(org, 'GET', `/api/companies?${s({ colour: 'red' }).query()}`),
      400,
      'invalid_query',
    );
    expectProblem(
      await call(org, 'GET', `/api/companies?${s({ name: { $regex: 'x' } }).query()}`),
      400,
      'invalid_query',
    );
    expectProblem(await call(org, 'GET', '/api/companies?sort=colour,ASC'), 400, 'invalid_query');
    expectProblem(await call(org, 'GET', '/api/companies?filter=name||$nope||x'), 400);
    expectProblem(await call(org, 'GET', '/api/companies?limit=1000'), 400);
  });

  it('is tenant-scoped and company-scoped', async () => {
    expect(await search(s({ name: { $contL: 'a' } }), admin)).not.toContainEqual(
      expect.objectContaining({ name: 'Alpha Packaging' }),
    );
    const scoped = await makeUser(t, org, 'contact');
    expect(await search(s({ name: { $contL: 'a' } }), scoped)).toEqual([]);
    const [gamma] = await search(s({ externalId: 'ERP-003' }));
    await link(scoped, gamma.id);
    expect(names(await search(s({ name: { $contL: 'a' } }), scoped))).toEqual(['Gamma Cartons']);
  });
});

describe('ERP sync flow', () => {
  const byExternalId = (id: string) =>
    RequestQueryBuilder.create()
      .search({ externalId: { $eq: id } })
      .setLimit(1)
      .query();

  it('search -> create when absent, search -> update when present', async () => {
    const sync = async (record: { externalId: string; name: string; vatNumber: string }) => {
      const found = await call(admin, 'GET', `/api/companies?${byExternalId(record.externalId)}`);
      expect(found.statusCode).toBe(200);
      const matches = found.json();
      expect(matches.length).toBeLessThanOrEqual(1);
      if (matches.length === 0) return call(admin, 'POST', '/api/companies', record);
      return call(admin, 'PATCH', `/api/companies/${matches[0].id}`, {
        name: record.name,
        vatNumber: record.vatNumber,
      });
    };
    const created = await sync({ externalId: 'SYNC-42', name: 'Synced Co', vatNumber: 'V1' });
    expect(created.statusCode).toBe(201);
    const updated = await sync({ externalId: 'SYNC-42', name: 'Synced Company', vatNumber: 'V2' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: created.json().id, name: 'Synced Company', vatNumber: 'V2' });
    const after = (await call(admin, 'GET', `/api/companies?${byExternalId('SYNC-42')}`)).json();
    expect(after).toHaveLength(1);
    expect(after[0].name).toBe('Synced Company');
  });

  it('matches by name with $contL', async () => {
    const query = RequestQueryBuilder.create()
      .search({ name: { $contL: 'synced comp' } })
      .setLimit(1)
      .query();
    const found = (await call(admin, 'GET', `/api/companies?${query}`)).json();
    expect(found).toHaveLength(1);
    expect(found[0].externalId).toBe('SYNC-42');
  });
});

describe('company custom fields', () => {
  let org: Credentials;
  beforeAll(async () => {
    org = await makeOrganisation(t);
    const definition = (key: string, type: string, options?: string[], required = false) => ({
      organisationId: org.organisationId,
      entity: 'company' as const,
      key,
      label: key,
      type: type as 'string',
      options: options ?? null,
      required,
    });
    await t.app.ctx.db
      .insert(customFieldDefinitions)
      .values([
        definition('certified', 'boolean'),
        definition('note', 'string'),
        definition('tier', 'select', ['gold', 'silver']),
        definition('markets', 'multi-select', ['food', 'cosmetics', 'luxury']),
        definition('employees', 'number'),
        definition('segment', 'string', undefined, true),
      ]);
  });

  const valid = {
    certified: true,
    note: 'Key account',
    tier: 'gold',
    markets: ['food', 'luxury'],
    employees: 120,
    segment: 'retail',
  };

  it('accepts a value of each type', async () => {
    const company = await createCompany(org, { name: 'Custom Co', customFields: valid });
    expect(company.customFields).toEqual(valid);
  });

  it.each([
    ['certified', 'yes'],
    ['note', 42],
    ['tier', 'bronze'],
    ['markets', ['food', 'toys']],
    ['markets', 'food'],
    ['employees', 'many'],
  ])('refuses a wrong %s value (%j) with a pointer', async (key, value) => {
    const problem = expectProblem(
      await call(org, 'POST', '/api/companies', { name: 'Wrong', customFields: { ...valid, [key]: value } }),
      400,
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: `/customFields/${key}` }));
  });

  it('refuses unknown keys and missing required fields', async () => {
    const unknown = expectProblem(
      await call(org, 'POST', '/api/companies', { name: 'U', customFields: { ...valid, colour: 'red' } }),
      400,
      'invalid_custom_fields',
    );
    expect(unknown.errors).toContainEqual(expect.objectContaining({ pointer: '/customFields/colour' }));
    const missing = expectProblem(
      await call(org, 'POST', '/api/companies', { name: 'M', customFields: { note: 'n' } }),
      400,
      'invalid_custom_fields',
    );
    expect(missing.errors).toContainEqual(expect.objectContaining({ pointer: '/customFields/segment' }));
  });

  it('merges values on update; null removes a key; wrong values are refused', async () => {
    const company = await createCompany(org, { name: 'Merge Co', customFields: valid });
    const response = await call(org, 'PATCH', `/api/companies/${company.id}`, {
      customFields: { tier: 'silver', note: null },
    });
    expect(response.statusCode).toBe(200);
    const { note: _note, ...rest } = valid;
    expect(response.json().customFields).toEqual({ ...rest, tier: 'silver' });
    const problem = expectProblem(
      await call(org, 'PATCH', `/api/companies/${company.id}`, { customFields: { employees: '12' } }),
      400,
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/customFields/employees' }));
  });
});
