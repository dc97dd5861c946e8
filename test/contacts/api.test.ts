import { RequestQueryBuilder } from '@nestjsx/crud-request';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitions } from '../../src/db/schema/organisation-data.ts';
import { users } from '../../src/db/schema/platform.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, created, eventReader, expectProblem, type Json, linker } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let guest: Credentials;
let externalSales: Credentials;
let contactUser: Credentials;
let otherAdmin: Credentials;
let acme: Json;
let globex: Json;

const call = caller(() => t);

const createCompany = async (who: Credentials, payload: Json) =>
  created(await call(who, 'POST', '/api/companies', payload));
const createContact = async (who: Credentials, payload: Json) =>
  created(await call(who, 'POST', '/api/users/contacts', payload));

const link = linker(() => t);

const eventsOf = eventReader(() => t);

const searchUrl = (condition: Json) =>
  `/api/users/contacts?${RequestQueryBuilder.create()
    .search(condition as never)
    .query()}`;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  externalSales = await makeUser(t, admin, 'external_sales');
  contactUser = await makeUser(t, admin, 'contact');
  otherAdmin = await makeOrganisation(t);
  acme = await createCompany(admin, { name: 'Acme' });
  globex = await createCompany(admin, { name: 'Globex' });
  await link(externalSales, acme.id);
  await link(contactUser, acme.id);
});
afterAll(() => t.close());

describe('POST /api/users/contacts', () => {
  it('creates a contact (201) that cannot sign in, with its companies, and records event.contacts.created', async () => {
    const response = await call(sales, 'POST', '/api/users/contacts', {
      email: 'Jane.Doe@Client.test',
      firstName: 'Jane',
      lastName: 'Doe',
      phoneNumber: '+44 20 1234 5678',
      jobTitle: 'Buyer',
      language: 'en-GB',
      externalId: 'C-1',
      collaborationIds: [acme.id, globex.id],
    });
    expect(response.statusCode).toBe(201);
    const contact = response.json();
    expect(contact).toMatchObject({
      role: 'contact',
      username: null,
      email: 'Jane.Doe@Client.test',
      externalId: 'C-1',
      organisationId: admin.organisationId,
      createdById: sales.userId,
    });
    expect(contact.collaborationIds.sort()).toEqual([acme.id, globex.id].sort());
    expect(contact.companyIds.sort()).toEqual([acme.id, globex.id].sort());
    expect(contact).not.toHaveProperty('passwordHash');
    const [event] = await eventsOf(contact.id);
    expect(event).toMatchObject({
      eventName: 'event.contacts.created',
      entity: 'CONTACT',
      tableName: 'users',
      type: 'CREATE',
    });
    const signIn = await call(undefined, 'POST', '/api/sign-in', {
      username: 'jane.doe@client.test',
      password: 'whatever-password',
    });
    expect(signIn.statusCode).toBe(401);
  });

  it('accepts a contact without e-mail', async () => {
    const contact = await createContact(admin, { firstName: 'No', lastName: 'Mail' });
    expect(contact).toMatchObject({ email: null, collaborationIds: [] });
  });

  it('keeps e-mail (case-insensitively) and externalId unique in the organisation (409)', async () => {
    await createContact(admin, { email: 'dup@client.test', externalId: 'DUP-1' });
    expectProblem(
      await call(admin, 'POST', '/api/users/contacts', { email: 'DUP@client.test' }),
      409,
      'email_taken',
    );
    expectProblem(
      await call(admin, 'POST', '/api/users/contacts', { externalId: 'DUP-1' }),
      409,
      'external_id_taken',
    );
    // Another tenant may hold the same ones.
    await createContact(otherAdmin, { email: 'dup@client.test', externalId: 'DUP-1' });
  });

  it('refuses unknown or foreign companies with a pointer per entry (422)', async () => {
    const foreign = await createCompany(otherAdmin, { name: 'Foreign' });
    const problem = expectProblem(
      await call(admin, 'POST', '/api/users/contacts', {
        collaborationIds: [acme.id, foreign.id, '01900000-0000-7000-8000-000000000000'],
      }),
      422,
      'unknown_company',
    );
    expect(problem.errors!.map((e) => e.pointer)).toEqual(['/collaborationIds/1', '/collaborationIds/2']);
  });

  it('validates the body with pointers', async () => {
    const problem = expectProblem(
      await call(admin, 'POST', '/api/users/contacts', {
        email: 'not-an-email',
        collaborationIds: ['nope'],
        password: 'secret-secret',
      }),
      400,
      'validation_failed',
    );
    const pointers = problem.errors!.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/email', '/collaborationIds/0', '/password']));
  });

  it('refuses guests and contacts (403)', async () => {
    expectProblem(await call(guest, 'POST', '/api/users/contacts', { firstName: 'x' }), 403);
    expectProblem(await call(contactUser, 'POST', '/api/users/contacts', { firstName: 'x' }), 403);
  });

  it('lets external sales create contacts only for their companies', async () => {
    expectProblem(
      await call(externalSales, 'POST', '/api/users/contacts', { firstName: 'x' }),
      422,
      'collaboration_required',
    );
    const refused = expectProblem(
      await call(externalSales, 'POST', '/api/users/contacts', { collaborationIds: [globex.id] }),
      403,
      'forbidden',
    );
    expect(refused.errors).toContainEqual(expect.objectContaining({ pointer: '/collaborationIds/0' }));
    const contact = await createContact(externalSales, { firstName: 'Scoped', collaborationIds: [acme.id] });
    expect(contact.collaborationIds).toEqual([acme.id]);
  });

  it('validates contact custom fields with pointers', async () => {
    const org = await makeOrganisation(t);
    await t.app.ctx.db.insert(customFieldDefinitions).values([
      { organisationId: org.organisationId, entity: 'contact', key: 'vip', label: 'VIP', type: 'boolean' },
      {
        organisationId: org.organisationId,
        entity: 'contact',
        key: 'channel',
        label: 'Channel',
        type: 'select',
        options: ['email', 'phone'],
      },
    ]);
    const contact = await createContact(org, { customFields: { vip: true, channel: 'phone' } });
    expect(contact.customFields).toEqual({ vip: true, channel: 'phone' });
    const problem = expectProblem(
      await call(org, 'POST', '/api/users/contacts', { customFields: { vip: 'yes', channel: 'fax' } }),
      400,
      'invalid_custom_fields',
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual([
      '/customFields/channel',
      '/customFields/vip',
    ]);
  });
});

describe('GET /api/users/contacts (search)', () => {
  let org: Credentials;
  let company: Json;
  beforeAll(async () => {
    org = await makeOrganisation(t);
    company = await createCompany(org, { name: 'Search Co' });
    await createContact(org, {
      email: 'anna@search.test',
      firstName: 'Anna',
      lastName: 'Smith',
      externalId: 'S-1',
      collaborationIds: [company.id],
    });
    await createContact(org, {
      email: 'bob@search.test',
      firstName: 'Bob',
      lastName: 'Smith',
      externalId: 'S-2',
    });
    await createContact(org, { email: 'carl@other.test', firstName: 'Carl', lastName: 'Jones' });
    // A user who is not a contact never appears.
    await makeUser(t, org, 'sales');
  });

  it('finds zero or one contact by $eq on email or externalId (plain array)', async () => {
    const byEmail = await call(org, 'GET', searchUrl({ email: { $eq: 'anna@search.test' } }));
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json()).toHaveLength(1);
    expect(byEmail.json()[0]).toMatchObject({ firstName: 'Anna', collaborationIds: [company.id] });
    const byExternalId = (await call(org, 'GET', searchUrl({ externalId: { $eq: 'S-2' } }))).json();
    expect(byExternalId.map((c: Json) => c.firstName)).toEqual(['Bob']);
    expect((await call(org, 'GET', searchUrl({ email: { $eq: 'nobody@search.test' } }))).json()).toEqual([]);
  });

  it('supports the other operators, sort and the page envelope', async () => {
    const smiths = await call(
      org,
      'GET',
      `/api/users/contacts?${RequestQueryBuilder.create()
        .search({ lastName: { $eqL: 'SMITH' } })
        .sortBy({ field: 'firstName', order: 'DESC' })
        .query()}`,
    );
    expect(smiths.json().map((c: Json) => c.firstName)).toEqual(['Bob', 'Anna']);
    const page = (
      await call(
        org,
        'GET',
        `/api/users/contacts?${RequestQueryBuilder.create()
          .search({ email: { $ends: '.test' } })
          .setLimit(2)
          .setPage(1)
          .query()}`,
      )
    ).json();
    expect(page.data).toHaveLength(2);
    expect(page.meta).toEqual({ page: 1, limit: 2, total: 3, hasNextPage: true });
    const recent = (
      await call(org, 'GET', searchUrl({ createdAt: { $gte: '2000-01-01T00:00:00Z' } }))
    ).json();
    expect(recent).toHaveLength(3);
  });

  it('refuses malformed searches and unknown fields (400)', async () => {
    expectProblem(await call(org, 'GET', '/api/users/contacts?s=not-json'), 400, 'invalid_query');
    expectProblem(await call(org, 'GET', searchUrl({ passwordHash: 'x' })), 400, 'invalid_query');
    expectProblem(await call(org, 'GET', searchUrl({ role: 'admin' })), 400, 'invalid_query');
  });

  it('is tenant-scoped', async () => {
    expect((await call(admin, 'GET', searchUrl({ email: 'anna@search.test' }))).json()).toEqual([]);
  });

  it('shows scoped users only the contacts of their companies', async () => {
    const scoped = await makeUser(t, org, 'external_sales');
    expect((await call(scoped, 'GET', '/api/users/contacts')).json()).toEqual([]);
    await link(scoped, company.id);
    const seen = (await call(scoped, 'GET', '/api/users/contacts')).json();
    expect(seen.map((c: Json) => c.firstName)).toEqual(['Anna']);
  });

  it('lets a contact read the contacts of its companies only', async () => {
    const listed = (await call(contactUser, 'GET', '/api/users/contacts?limit=100')).json();
    for (const c of listed) expect(c.collaborationIds).toContain(acme.id);
    expect(listed.map((c: Json) => c.id)).toContain(contactUser.userId);
  });
});

describe('GET /api/users/contacts/:id', () => {
  it('reads a contact; other tenants, unlinked scoped users and non-contacts get 404', async () => {
    const contact = await createContact(admin, { firstName: 'Readable', collaborationIds: [globex.id] });
    const response = await call(guest, 'GET', `/api/users/contacts/${contact.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: contact.id, firstName: 'Readable' });
    expectProblem(await call(otherAdmin, 'GET', `/api/users/contacts/${contact.id}`), 404);
    expectProblem(await call(contactUser, 'GET', `/api/users/contacts/${contact.id}`), 404);
    expectProblem(await call(externalSales, 'GET', `/api/users/contacts/${contact.id}`), 404);
    expectProblem(await call(admin, 'GET', `/api/users/contacts/${sales.userId}`), 404);
  });
});

describe('PATCH /api/users/contacts/:id', () => {
  it('changes the properties sent; collaborationIds replaces the set', async () => {
    const contact = await createContact(admin, {
      email: 'patch@client.test',
      firstName: 'Pat',
      collaborationIds: [acme.id],
    });
    const response = await call(sales, 'PATCH', `/api/users/contacts/${contact.id}`, {
      lastName: 'Ch',
      collaborationIds: [globex.id],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Pat',
      lastName: 'Ch',
      email: 'patch@client.test',
      collaborationIds: [globex.id],
    });
    const update = (await eventsOf(contact.id)).find((e) => e.type === 'UPDATE');
    expect(update).toMatchObject({
      eventName: 'event.contacts.updated',
      updatedColumns: ['lastName'],
      updatedRelations: ['companies'],
    });
    const cleared = await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, {
      collaborationIds: [],
      email: null,
    });
    expect(cleared.json()).toMatchObject({ collaborationIds: [], email: null });
  });

  it('refuses a taken e-mail or externalId (409)', async () => {
    await createContact(admin, { email: 'holder@client.test', externalId: 'HOLD-1' });
    const contact = await createContact(admin, { email: 'mover@client.test' });
    expectProblem(
      await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, { email: 'Holder@client.test' }),
      409,
      'email_taken',
    );
    expectProblem(
      await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, { externalId: 'HOLD-1' }),
      409,
      'external_id_taken',
    );
  });

  it('validates the body with pointers', async () => {
    const contact = await createContact(admin, { firstName: 'Valid' });
    const problem = expectProblem(
      await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, {
        language: 'not a language',
        role: 'admin',
      }),
      400,
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(['/language', '/role']);
  });

  it('refuses guests (403), other tenants and non-contacts (404)', async () => {
    const contact = await createContact(admin, { firstName: 'Guarded' });
    expectProblem(await call(guest, 'PATCH', `/api/users/contacts/${contact.id}`, { firstName: 'x' }), 403);
    expectProblem(
      await call(otherAdmin, 'PATCH', `/api/users/contacts/${contact.id}`, { firstName: 'x' }),
      404,
    );
    expectProblem(await call(admin, 'PATCH', `/api/users/contacts/${sales.userId}`, { firstName: 'x' }), 404);
  });

  it('lets external sales replace only the links to their own companies', async () => {
    const contact = await createContact(admin, {
      firstName: 'Shared',
      collaborationIds: [acme.id, globex.id],
    });
    const seen = (await call(externalSales, 'GET', `/api/users/contacts/${contact.id}`)).json();
    expect(seen.collaborationIds).toEqual([acme.id]);
    const other = await createCompany(externalSales, { name: 'Second company of external sales' });
    const response = await call(externalSales, 'PATCH', `/api/users/contacts/${contact.id}`, {
      collaborationIds: [other.id],
    });
    expect(response.json().collaborationIds).toEqual([other.id]);
    const full = (await call(admin, 'GET', `/api/users/contacts/${contact.id}`)).json();
    expect(full.collaborationIds.sort()).toEqual([globex.id, other.id].sort());
  });
});

describe('company contact links', () => {
  it('links and unlinks, recording an update of the contact relations', async () => {
    const contact = await createContact(admin, { firstName: 'Linked' });
    const linked = await call(sales, 'POST', `/api/companies/${acme.id}/contacts/${contact.id}`);
    expect(linked.statusCode).toBe(200);
    expect(linked.json().collaborationIds).toEqual([acme.id]);
    // Linking again changes nothing.
    expect((await call(sales, 'POST', `/api/companies/${acme.id}/contacts/${contact.id}`)).statusCode).toBe(
      200,
    );
    const listed = (await call(guest, 'GET', `/api/companies/${acme.id}/contacts`)).json();
    expect(listed.map((c: Json) => c.id)).toContain(contact.id);

    const unlinked = await call(sales, 'DELETE', `/api/companies/${acme.id}/contacts/${contact.id}`);
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json().collaborationIds).toEqual([]);
    expectProblem(await call(sales, 'DELETE', `/api/companies/${acme.id}/contacts/${contact.id}`), 404);

    const updates = (await eventsOf(contact.id)).filter((e) => e.type === 'UPDATE');
    expect(updates).toHaveLength(2);
    for (const event of updates) {
      expect(event).toMatchObject({
        eventName: 'event.contacts.updated',
        updatedRelations: ['companies'],
        relation: 'COMPANY',
        relationId: acme.id,
      });
    }
  });

  it('refuses guests (403), other tenants and unknown ids (404), malformed ids (400)', async () => {
    const contact = await createContact(admin, { firstName: 'Link target' });
    expectProblem(await call(guest, 'POST', `/api/companies/${acme.id}/contacts/${contact.id}`), 403);
    expectProblem(await call(otherAdmin, 'POST', `/api/companies/${acme.id}/contacts/${contact.id}`), 404);
    const foreign = await createCompany(otherAdmin, { name: 'Foreign link' });
    expectProblem(await call(admin, 'POST', `/api/companies/${foreign.id}/contacts/${contact.id}`), 404);
    expectProblem(await call(admin, 'POST', `/api/companies/${acme.id}/contacts/${sales.userId}`), 404);
    const problem = expectProblem(await call(admin, 'POST', `/api/companies/${acme.id}/contacts/nope`), 400);
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/contactId', in: 'params' }));
    expectProblem(
      await call(externalSales, 'POST', `/api/companies/${globex.id}/contacts/${contact.id}`),
      404,
    );
  });
});

describe('DELETE /api/users/:id/archived (contacts)', () => {
  it('archives a contact (200) and hides it from reads and searches; twice is 404', async () => {
    const contact = await createContact(admin, {
      email: 'gone@client.test',
      externalId: 'GONE-1',
      collaborationIds: [acme.id],
    });
    const response = await call(sales, 'DELETE', `/api/users/${contact.id}/archived`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: contact.id, role: 'contact', collaborationIds: [acme.id] });
    expect(response.json().deletedAt).not.toBeNull();
    expect((await eventsOf(contact.id)).at(-1)).toMatchObject({ eventName: 'event.contacts.deleted' });

    expectProblem(await call(admin, 'GET', `/api/users/contacts/${contact.id}`), 404);
    expectProblem(await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, { firstName: 'x' }), 404);
    expectProblem(await call(admin, 'DELETE', `/api/users/${contact.id}/archived`), 404);
    expect((await call(admin, 'GET', searchUrl({ externalId: { $eq: 'GONE-1' } }))).json()).toEqual([]);
    const companyContacts = (await call(admin, 'GET', `/api/companies/${acme.id}/contacts`)).json();
    expect(companyContacts.map((c: Json) => c.id)).not.toContain(contact.id);
    // Its e-mail and externalId are free again.
    await createContact(admin, { email: 'gone@client.test', externalId: 'GONE-1' });
  });

  it('refuses guests (403), other tenants and unlinked external sales (404)', async () => {
    const contact = await createContact(admin, { firstName: 'Kept', collaborationIds: [globex.id] });
    expectProblem(await call(guest, 'DELETE', `/api/users/${contact.id}/archived`), 403);
    expectProblem(await call(contactUser, 'DELETE', `/api/users/${contact.id}/archived`), 403);
    expectProblem(await call(otherAdmin, 'DELETE', `/api/users/${contact.id}/archived`), 404);
    expectProblem(await call(externalSales, 'DELETE', `/api/users/${contact.id}/archived`), 404);
  });
});

describe('ERP contact sync flow', () => {
  it('search by email -> create when absent, search -> update when present', async () => {
    const find = async (email: string) => {
      const query = RequestQueryBuilder.create()
        .search({ email: { $eq: email } })
        .setLimit(1)
        .query();
      const response = await call(admin, 'GET', `/api/users/contacts?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json() as Json[];
    };
    const sync = async (record: Json) => {
      const [match] = await find(record.email);
      if (!match) return call(admin, 'POST', '/api/users/contacts', record);
      const { email: _email, ...changes } = record;
      return call(admin, 'PATCH', `/api/users/contacts/${match.id}`, changes);
    };
    const first = await sync({ email: 'erp@client.test', lastName: 'Erp', collaborationIds: [acme.id] });
    expect(first.statusCode).toBe(201);
    const second = await sync({
      email: 'erp@client.test',
      lastName: 'Erp II',
      collaborationIds: [globex.id],
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      id: first.json().id,
      lastName: 'Erp II',
      collaborationIds: [globex.id],
    });
    expect(await find('erp@client.test')).toHaveLength(1);
  });

  it('search by externalId -> create, then update', async () => {
    const query = RequestQueryBuilder.create()
      .search({ externalId: { $eq: 'ERP-C-9' } })
      .setLimit(1)
      .query();
    expect((await call(admin, 'GET', `/api/users/contacts?${query}`)).json()).toEqual([]);
    const contact = await createContact(admin, { externalId: 'ERP-C-9', firstName: 'Nine' });
    const [found] = (await call(admin, 'GET', `/api/users/contacts?${query}`)).json();
    expect(found.id).toBe(contact.id);
    const updated = await call(admin, 'PATCH', `/api/users/contacts/${found.id}`, { firstName: 'Nina' });
    expect(updated.json().firstName).toBe('Nina');
  });
});

describe('contacts store', () => {
  it('never stores a password or username for a created contact', async () => {
    const contact = await createContact(admin, { email: 'store@client.test' });
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, contact.id));
    expect(row).toMatchObject({ username: null, passwordHash: null, role: 'contact' });
  });
});
