import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import {
  caller,
  companyMaker,
  created,
  eventReader,
  expectProblem,
  type Json,
  linker,
} from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let guest: Credentials;
let externalSales: Credentials;
let contact: Credentials;
let otherAdmin: Credentials;
let acme: Json;
let globex: Json;

const call = caller(() => t);

const createCompany = companyMaker(call);

const base = { street1: '1 rue de la Paix', city: 'Paris', postcode: '75002', countryCode: 'FR' };
const createAddress = async (who: Credentials, payload: Json) =>
  created(await call(who, 'POST', '/api/addresses', { ...base, ...payload }));

const link = linker(() => t);

const eventsOf = eventReader(() => t);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  externalSales = await makeUser(t, admin, 'external_sales');
  contact = await makeUser(t, admin, 'contact');
  otherAdmin = await makeOrganisation(t);
  acme = await createCompany(admin, 'Acme');
  globex = await createCompany(admin, 'Globex');
  await link(externalSales, acme.id);
  await link(contact, acme.id);
});
afterAll(() => t.close());

describe('POST /api/addresses', () => {
  it('creates an address (201), shipping by default, and records event.addresses.created', async () => {
    const response = await call(sales, 'POST', '/api/addresses', {
      companyId: acme.id,
      name: 'Head office',
      street1: '10 Downing Street',
      street2: 'Floor 2',
      street3: null,
      postcode: 'SW1A 2AA',
      city: 'London',
      region: 'Greater London',
      countryCode: 'GB',
    });
    expect(response.statusCode).toBe(201);
    const address = response.json();
    expect(address).toMatchObject({
      companyId: acme.id,
      type: 'shipping',
      isDefault: false,
      city: 'London',
      countryCode: 'GB',
      street3: null,
      createdById: sales.userId,
    });
    const [event] = await eventsOf(address.id);
    expect(event).toMatchObject({
      eventName: 'event.addresses.created',
      entity: 'ADDRESS',
      relation: 'COMPANY',
      relationId: acme.id,
    });
  });

  it('validates the body with pointers (400): required fields, type, ISO country code', async () => {
    const problem = expectProblem(
      await call(admin, 'POST', '/api/addresses', { companyId: acme.id, type: 'home', countryCode: 'fr' }),
      400,
      'validation_failed',
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual([
      '/city',
      '/countryCode',
      '/street1',
      '/type',
    ]);
    const long = expectProblem(
      await call(admin, 'POST', '/api/addresses', { ...base, companyId: acme.id, countryCode: 'FRA' }),
      400,
    );
    expect(long.errors).toContainEqual(expect.objectContaining({ pointer: '/countryCode' }));
  });

  it('needs a live company of the organisation (422)', async () => {
    const foreign = await createCompany(otherAdmin, 'Foreign');
    const problem = expectProblem(
      await call(admin, 'POST', '/api/addresses', { ...base, companyId: foreign.id }),
      422,
      'unknown_company',
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/companyId' }));
  });

  it('refuses guests and contacts (403), external sales outside their companies (403)', async () => {
    expectProblem(await call(guest, 'POST', '/api/addresses', { ...base, companyId: acme.id }), 403);
    expectProblem(await call(contact, 'POST', '/api/addresses', { ...base, companyId: acme.id }), 403);
    expectProblem(
      await call(externalSales, 'POST', '/api/addresses', { ...base, companyId: globex.id }),
      403,
    );
    await createAddress(externalSales, { companyId: acme.id });
  });
});

describe('default addresses', () => {
  it('keeps one default per company and type: a new default takes over', async () => {
    const company = await createCompany(admin, 'Defaults Ltd');
    const first = await createAddress(admin, { companyId: company.id, type: 'billing', isDefault: true });
    const shipping = await createAddress(admin, { companyId: company.id, type: 'shipping', isDefault: true });
    const second = await createAddress(admin, { companyId: company.id, type: 'billing', isDefault: true });
    expect((await call(admin, 'GET', `/api/addresses/${first.id}`)).json().isDefault).toBe(false);
    expect((await call(admin, 'GET', `/api/addresses/${shipping.id}`)).json().isDefault).toBe(true);
    expect(second.isDefault).toBe(true);
    expect((await eventsOf(first.id)).at(-1)).toMatchObject({
      eventName: 'event.addresses.updated',
      updatedColumns: ['isDefault'],
    });
    // Taking it back by update.
    const back = await call(admin, 'PATCH', `/api/addresses/${first.id}`, { isDefault: true });
    expect(back.json().isDefault).toBe(true);
    expect((await call(admin, 'GET', `/api/addresses/${second.id}`)).json().isDefault).toBe(false);
    // The company listing puts defaults first.
    const listed = (await call(guest, 'GET', `/api/companies/${company.id}/addresses`)).json();
    expect(
      listed
        .map((a: Json) => a.id)
        .slice(0, 2)
        .sort(),
    ).toEqual([first.id, shipping.id].sort());
    expect(listed).toHaveLength(3);
  });
});

describe('GET /api/addresses/:id', () => {
  it('reads an address; other tenants and unlinked scoped users get 404', async () => {
    const address = await createAddress(admin, { companyId: globex.id });
    expect((await call(guest, 'GET', `/api/addresses/${address.id}`)).json()).toEqual(address);
    expectProblem(await call(otherAdmin, 'GET', `/api/addresses/${address.id}`), 404);
    expectProblem(await call(contact, 'GET', `/api/addresses/${address.id}`), 404);
    expectProblem(await call(externalSales, 'GET', `/api/addresses/${address.id}`), 404);
    const mine = await createAddress(admin, { companyId: acme.id });
    expect((await call(contact, 'GET', `/api/addresses/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('PATCH /api/addresses/:id', () => {
  it('changes the properties sent and records the columns', async () => {
    const address = await createAddress(admin, { companyId: acme.id, street2: 'Bât. A' });
    const response = await call(sales, 'PATCH', `/api/addresses/${address.id}`, {
      city: 'Lyon',
      street2: null,
      type: 'other',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      city: 'Lyon',
      street2: null,
      type: 'other',
      street1: base.street1,
    });
    const update = (await eventsOf(address.id)).find((e) => e.type === 'UPDATE');
    expect(update!.updatedColumns!.sort()).toEqual(['city', 'street2', 'type']);
  });

  it('validates (400), refuses guests (403), other tenants (404)', async () => {
    const address = await createAddress(admin, { companyId: acme.id });
    const problem = expectProblem(
      await call(admin, 'PATCH', `/api/addresses/${address.id}`, { countryCode: 'France', city: '' }),
      400,
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(['/city', '/countryCode']);
    expectProblem(await call(guest, 'PATCH', `/api/addresses/${address.id}`, { city: 'x' }), 403);
    expectProblem(await call(otherAdmin, 'PATCH', `/api/addresses/${address.id}`, { city: 'x' }), 404);
  });
});

describe('DELETE /api/addresses/:id', () => {
  it('soft-deletes (200) and hides the address; twice is 404', async () => {
    const address = await createAddress(admin, { companyId: acme.id, name: 'Doomed' });
    const response = await call(sales, 'DELETE', `/api/addresses/${address.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: address.id, deleted: true });
    expect((await eventsOf(address.id)).at(-1)).toMatchObject({ eventName: 'event.addresses.deleted' });
    expectProblem(await call(admin, 'GET', `/api/addresses/${address.id}`), 404);
    expectProblem(await call(admin, 'DELETE', `/api/addresses/${address.id}`), 404);
    const listed = (await call(admin, 'GET', `/api/companies/${acme.id}/addresses`)).json();
    expect(listed.map((a: Json) => a.id)).not.toContain(address.id);
  });

  it('refuses guests (403) and other tenants (404)', async () => {
    const address = await createAddress(admin, { companyId: acme.id });
    expectProblem(await call(guest, 'DELETE', `/api/addresses/${address.id}`), 403);
    expectProblem(await call(otherAdmin, 'DELETE', `/api/addresses/${address.id}`), 404);
  });
});

describe('address listings', () => {
  let org: Credentials;
  let one: Json;
  let two: Json;
  beforeAll(async () => {
    org = await makeOrganisation(t);
    one = await createCompany(org, 'One');
    two = await createCompany(org, 'Two');
    for (let i = 0; i < 26; i++) await createAddress(org, { companyId: one.id, city: `City ${i}` });
    await createAddress(org, { companyId: two.id, type: 'billing', city: 'Billing town' });
  });

  it('pages GET /api/addresses with filters by company and type', async () => {
    const first = (await call(org, 'GET', '/api/addresses')).json();
    expect(first.meta).toEqual({ page: 1, limit: 25, total: 27, hasNextPage: true });
    const ofTwo = (await call(org, 'GET', `/api/addresses?companyId=${two.id}`)).json();
    expect(ofTwo.data.map((a: Json) => a.city)).toEqual(['Billing town']);
    const billing = (await call(org, 'GET', '/api/addresses?type=billing')).json();
    expect(billing.meta.total).toBe(1);
    expectProblem(await call(org, 'GET', '/api/addresses?type=home'), 400);
  });

  it('GET /api/companies/:id/addresses: 404 for other tenants and unlinked scoped users', async () => {
    expect((await call(org, 'GET', `/api/companies/${one.id}/addresses`)).json()).toHaveLength(26);
    expectProblem(await call(admin, 'GET', `/api/companies/${one.id}/addresses`), 404);
    const scoped = await makeUser(t, org, 'contact');
    expectProblem(await call(scoped, 'GET', `/api/companies/${one.id}/addresses`), 404);
    await link(scoped, two.id);
    expect((await call(scoped, 'GET', `/api/companies/${two.id}/addresses`)).json()).toHaveLength(1);
    expect((await call(scoped, 'GET', '/api/addresses')).json().meta.total).toBe(1);
  });

  it('hides the addresses of an archived company', async () => {
    const [address] = (await call(org, 'GET', `/api/addresses?companyId=${two.id}`)).json().data;
    expect((await call(org, 'DELETE', `/api/companies/${two.id}/archived`)).statusCode).toBe(200);
    expectProblem(await call(org, 'GET', `/api/addresses/${address.id}`), 404);
    expectProblem(await call(org, 'GET', `/api/companies/${two.id}/addresses`), 404);
    expect((await call(org, 'GET', '/api/addresses')).json().meta.total).toBe(26);
  });
});
