import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/platform.ts';
import {
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  PASSWORD,
  signIn,
  type TestApp,
} from '../helpers/app.ts';
import { caller, eventReader, expectProblem, type Json } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let guest: Credentials;
let contactUser: Credentials;
let otherAdmin: Credentials;

const call = caller(() => t);

let counter = 0;
const email = (prefix = 'user') => `${prefix}-${++counter}-${Date.now().toString(36)}@users.test`;

async function createUser(who: Credentials, payload: Json): Promise<Json> {
  const response = await call(who, 'POST', '/api/users', { password: PASSWORD, ...payload });
  if (response.statusCode !== 201) throw new Error(`user: ${response.statusCode} ${response.body}`);
  return response.json();
}

async function createCompany(who: Credentials, name: string): Promise<Json> {
  const response = await call(who, 'POST', '/api/companies', { name });
  if (response.statusCode !== 201) throw new Error(`company: ${response.statusCode} ${response.body}`);
  return response.json();
}

const eventsOf = eventReader(() => t);

const trySignIn = (username: string, password = PASSWORD) =>
  call(null, 'POST', '/api/sign-in', { username, password });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  contactUser = await makeUser(t, admin, 'contact');
  otherAdmin = await makeOrganisation(t);
});
afterAll(() => t.close());

describe('POST /api/users', () => {
  it('creates a user (201) who signs in with its e-mail, and records event.users.created', async () => {
    const address = email('New.Sales');
    const user = await createUser(admin, {
      email: address,
      role: 'sales',
      firstName: 'New',
      lastName: 'Sales',
      language: 'fr',
    });
    expect(user).toMatchObject({
      email: address,
      username: address.toLowerCase(),
      role: 'sales',
      firstName: 'New',
      organisationId: admin.organisationId,
      createdById: admin.userId,
      companyIds: [],
    });
    expect(user).not.toHaveProperty('passwordHash');
    expect((await trySignIn(address.toUpperCase())).statusCode).toBe(200);
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const [event] = await eventsOf(user.id);
    expect(event).toMatchObject({ eventName: 'event.users.created', entity: 'USER', type: 'CREATE' });
    expect(event!.payload).not.toHaveProperty('passwordHash');
  });

  it('links external sales to companies, which scopes what they see', async () => {
    const mine = await createCompany(admin, 'Scoped company');
    await createCompany(admin, 'Other company');
    const address = email('ext');
    const user = await createUser(admin, { email: address, role: 'external_sales', companyIds: [mine.id] });
    expect(user.companyIds).toEqual([mine.id]);
    const credentials = await signIn(t.app, address, PASSWORD);
    const seen = (await call(credentials, 'GET', '/api/companies/pagination')).json();
    expect(seen.data.map((c: Json) => c.id)).toEqual([mine.id]);
  });

  it('validates the body with pointers (400)', async () => {
    const problem = expectProblem(
      await call(admin, 'POST', '/api/users', { email: 'nope', password: 'short', role: 'king', extra: 1 }),
      400,
      'validation_failed',
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(['/email', '/extra', '/password', '/role']);
    const missing = expectProblem(await call(admin, 'POST', '/api/users', { role: 'sales' }), 400);
    expect(missing.errors!.map((e) => e.pointer).sort()).toEqual(['/email', '/password']);
  });

  it('keeps usernames unique across the service and e-mails unique in the organisation (409)', async () => {
    const address = email('taken');
    await createUser(admin, { email: address, role: 'guest' });
    expectProblem(
      await call(otherAdmin, 'POST', '/api/users', {
        email: address.toUpperCase(),
        password: PASSWORD,
        role: 'sales',
      }),
      409,
      'username_taken',
    );
    // A contact without password holds its e-mail in the organisation but no username.
    const contactEmail = email('contact');
    await call(admin, 'POST', '/api/users/contacts', { email: contactEmail });
    expectProblem(
      await call(admin, 'POST', '/api/users', { email: contactEmail, password: PASSWORD, role: 'sales' }),
      409,
      'email_taken',
    );
    await createUser(otherAdmin, { email: contactEmail, role: 'sales' });
  });

  it('refuses unknown or foreign companies (422 with pointer)', async () => {
    const foreign = await createCompany(otherAdmin, 'Foreign company');
    const problem = expectProblem(
      await call(admin, 'POST', '/api/users', {
        email: email(),
        password: PASSWORD,
        role: 'external_sales',
        companyIds: [foreign.id],
      }),
      422,
      'unknown_company',
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/companyIds/0' }));
  });

  it('lets only admins create users, and only superadmins create superadmins', async () => {
    for (const who of [sales, guest, contactUser]) {
      expectProblem(
        await call(who, 'POST', '/api/users', { email: email(), password: PASSWORD, role: 'sales' }),
        403,
      );
    }
    expectProblem(
      await call(admin, 'POST', '/api/users', { email: email(), password: PASSWORD, role: 'superadmin' }),
      403,
      'forbidden',
    );
    const superadmin = await createUser(t.root, { email: email('super'), role: 'superadmin' });
    expect(superadmin.role).toBe('superadmin');
  });
});

describe('GET /api/users/:id', () => {
  it('reads a user of the organisation; another tenant gets 404', async () => {
    const response = await call(guest, 'GET', `/api/users/${sales.userId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: sales.userId, role: 'sales', companyIds: [] });
    expectProblem(await call(otherAdmin, 'GET', `/api/users/${sales.userId}`), 404, 'not_found');
    expectProblem(await call(admin, 'GET', '/api/users/not-a-uuid'), 400);
  });

  it('is refused to contacts (403) and limited for external sales to their companies’ users', async () => {
    expectProblem(await call(contactUser, 'GET', `/api/users/${sales.userId}`), 403);
    const company = await createCompany(admin, 'Shared by ext and contact');
    const ext = await createUser(admin, {
      email: email('ext'),
      role: 'external_sales',
      companyIds: [company.id],
    });
    const extCredentials = await signIn(t.app, ext.email, PASSWORD);
    expectProblem(await call(extCredentials, 'GET', `/api/users/${sales.userId}`), 404);
    expect((await call(extCredentials, 'GET', `/api/users/${ext.id}`)).statusCode).toBe(200);
    const contact = (
      await call(admin, 'POST', '/api/users/contacts', {
        firstName: 'Visible',
        collaborationIds: [company.id],
      })
    ).json();
    const seen = await call(extCredentials, 'GET', `/api/users/${contact.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ role: 'contact', collaborationIds: [company.id] });
  });
});

describe('PATCH /api/users/:id', () => {
  it('changes role, names, password and companies, recording the changed columns', async () => {
    const user = await createUser(admin, { email: email('patch'), role: 'guest' });
    const company = await createCompany(admin, 'Patch company');
    const response = await call(admin, 'PATCH', `/api/users/${user.id}`, {
      role: 'external_sales',
      firstName: 'Patched',
      password: 'a-brand-new-password',
      companyIds: [company.id],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      role: 'external_sales',
      firstName: 'Patched',
      companyIds: [company.id],
    });
    expect((await trySignIn(user.email, 'a-brand-new-password')).statusCode).toBe(200);
    expect((await trySignIn(user.email, PASSWORD)).statusCode).toBe(401);
    const update = (await eventsOf(user.id)).find((e) => e.type === 'UPDATE');
    expect(update).toMatchObject({ eventName: 'event.users.updated', updatedRelations: ['companies'] });
    expect(update!.updatedColumns!.sort()).toEqual(['firstName', 'password', 'role']);
  });

  it('moves the username with the e-mail, and refuses a taken one (409)', async () => {
    const user = await createUser(admin, { email: email('mover'), role: 'sales' });
    const next = email('Moved');
    const moved = (await call(admin, 'PATCH', `/api/users/${user.id}`, { email: next })).json();
    expect(moved).toMatchObject({ email: next, username: next.toLowerCase() });
    expect((await trySignIn(next)).statusCode).toBe(200);
    expectProblem(
      await call(admin, 'PATCH', `/api/users/${user.id}`, { email: sales.email }),
      409,
      'username_taken',
    );
  });

  it('lets a contact sign in once given a password; other roles need one (422)', async () => {
    const address = email('invited');
    const contact = (await call(admin, 'POST', '/api/users/contacts', { email: address })).json();
    expectProblem(
      await call(admin, 'PATCH', `/api/users/${contact.id}`, { role: 'sales' }),
      422,
      'password_required',
    );
    const invited = await call(admin, 'PATCH', `/api/users/${contact.id}`, { password: 'contact-password' });
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toMatchObject({ role: 'contact', username: address.toLowerCase() });
    expect((await trySignIn(address, 'contact-password')).statusCode).toBe(200);
  });

  it('POST /api/users/:id/invite gives a contact a password; 404 for non-contacts, 422 without e-mail', async () => {
    const address = email('Invitee');
    const contact = (await call(admin, 'POST', '/api/users/contacts', { email: address })).json();
    const invited = await call(admin, 'POST', `/api/users/${contact.id}/invite`, {
      password: 'invited-password',
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toMatchObject({
      id: contact.id,
      role: 'contact',
      username: address.toLowerCase(),
    });
    expect((await trySignIn(address, 'invited-password')).statusCode).toBe(200);
    expect((await eventsOf(contact.id)).at(-1)).toMatchObject({
      eventName: 'event.contacts.updated',
      updatedColumns: ['username', 'password'],
    });
    const anonymous = (await call(admin, 'POST', '/api/users/contacts', { firstName: 'No e-mail' })).json();
    expectProblem(
      await call(admin, 'POST', `/api/users/${anonymous.id}/invite`, { password: 'invited-password' }),
      422,
      'email_required',
    );
    expectProblem(
      await call(admin, 'POST', `/api/users/${sales.userId}/invite`, { password: 'whatever1' }),
      404,
    );
    const problem = expectProblem(
      await call(admin, 'POST', `/api/users/${contact.id}/invite`, { password: 'x' }),
      400,
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/password' }));
    expectProblem(
      await call(sales, 'POST', `/api/users/${contact.id}/invite`, { password: 'whatever1' }),
      403,
    );
    expectProblem(
      await call(otherAdmin, 'POST', `/api/users/${contact.id}/invite`, { password: 'whatever1' }),
      404,
    );
  });

  it('refuses to demote the last admin (409)', async () => {
    const org = await makeOrganisation(t);
    expectProblem(await call(org, 'PATCH', `/api/users/${org.userId}`, { role: 'sales' }), 409, 'last_admin');
    const second = await createUser(org, { email: email('admin2'), role: 'admin' });
    const demoted = await call(org, 'PATCH', `/api/users/${second.id}`, { role: 'sales' });
    expect(demoted.json().role).toBe('sales');
  });

  it('keeps superadmins out of reach of admins (403)', async () => {
    const rootAdmin = await createUser(t.root, { email: email('root-admin'), role: 'admin' });
    const credentials = await signIn(t.app, rootAdmin.email, PASSWORD);
    expectProblem(await call(credentials, 'PATCH', `/api/users/${t.root.userId}`, { firstName: 'x' }), 403);
    expectProblem(
      await call(credentials, 'PATCH', `/api/users/${rootAdmin.id}`, { role: 'superadmin' }),
      403,
    );
  });

  it('validates the body (400) and refuses non-admins (403) and other tenants (404)', async () => {
    const problem = expectProblem(
      await call(admin, 'PATCH', `/api/users/${sales.userId}`, { role: 'boss', password: 'x' }),
      400,
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(['/password', '/role']);
    expectProblem(await call(sales, 'PATCH', `/api/users/${guest.userId}`, { firstName: 'x' }), 403);
    expectProblem(await call(otherAdmin, 'PATCH', `/api/users/${sales.userId}`, { firstName: 'x' }), 404);
  });
});

describe('archive and unarchive', () => {
  it('archives a user (200): it cannot sign in, reads answer 404, lists leave it out; twice is 404', async () => {
    const user = await createUser(admin, { email: email('archived'), role: 'sales' });
    const response = await call(admin, 'DELETE', `/api/users/${user.id}/archived`);
    expect(response.statusCode).toBe(200);
    expect(response.json().deletedAt).not.toBeNull();
    expect((await eventsOf(user.id)).at(-1)).toMatchObject({
      eventName: 'event.users.deleted',
      type: 'DELETE',
    });
    expect((await trySignIn(user.email)).statusCode).toBe(401);
    expectProblem(await call(admin, 'GET', `/api/users/${user.id}`), 404);
    expectProblem(await call(admin, 'DELETE', `/api/users/${user.id}/archived`), 404);
    const listed = (
      await call(admin, 'GET', `/api/users/pagination?search=${encodeURIComponent(user.email)}`)
    ).json();
    expect(listed.data).toEqual([]);
    const archived = (await call(admin, 'GET', '/api/users/pagination?archived=true&limit=100')).json();
    expect(archived.data.map((u: Json) => u.id)).toContain(user.id);
  });

  it('refuses to archive oneself (409), non-contacts by non-admins (403), other tenants (404)', async () => {
    expectProblem(
      await call(admin, 'DELETE', `/api/users/${admin.userId}/archived`),
      409,
      'cannot_archive_self',
    );
    expectProblem(await call(sales, 'DELETE', `/api/users/${guest.userId}/archived`), 403);
    expectProblem(await call(guest, 'DELETE', `/api/users/${sales.userId}/archived`), 403);
    expectProblem(await call(otherAdmin, 'DELETE', `/api/users/${sales.userId}/archived`), 404);
  });

  it('unarchives (200): the user signs in again; a live user is 409, a taken username too', async () => {
    const user = await createUser(admin, { email: email('back'), role: 'guest' });
    await call(admin, 'DELETE', `/api/users/${user.id}/archived`);
    const response = await call(admin, 'POST', `/api/users/${user.id}/unarchive`);
    expect(response.statusCode).toBe(200);
    expect(response.json().deletedAt).toBeNull();
    expect((await eventsOf(user.id)).at(-1)).toMatchObject({
      eventName: 'event.users.updated',
      updatedColumns: ['deletedAt'],
    });
    expect((await trySignIn(user.email)).statusCode).toBe(200);
    expectProblem(await call(admin, 'POST', `/api/users/${user.id}/unarchive`), 409, 'not_archived');

    await call(admin, 'DELETE', `/api/users/${user.id}/archived`);
    await createUser(otherAdmin, { email: user.email, role: 'sales' });
    expectProblem(await call(admin, 'POST', `/api/users/${user.id}/unarchive`), 409, 'username_taken');
  });

  it('refuses unarchiving to non-admins (403) and other tenants (404)', async () => {
    const user = await createUser(admin, { email: email('gone'), role: 'guest' });
    await call(admin, 'DELETE', `/api/users/${user.id}/archived`);
    expectProblem(await call(sales, 'POST', `/api/users/${user.id}/unarchive`), 403);
    expectProblem(await call(otherAdmin, 'POST', `/api/users/${user.id}/unarchive`), 404);
  });
});

describe('GET /api/users/pagination and /api/users', () => {
  let org: Credentials;
  beforeAll(async () => {
    org = await makeOrganisation(t);
    for (let i = 0; i < 27; i++)
      await createUser(org, { email: email('many'), role: 'sales', lastName: `Many ${i}` });
    await createUser(org, { email: email('guest'), role: 'guest', firstName: 'Greta', lastName: 'Garbo' });
    await call(org, 'POST', '/api/users/contacts', { firstName: 'Cont', lastName: 'Act' });
  });

  it('pages with a default limit of 25 and says whether more pages exist', async () => {
    const first = (await call(org, 'GET', '/api/users/pagination')).json();
    expect(first.data).toHaveLength(25);
    expect(first.meta).toEqual({ page: 1, limit: 25, total: 30, hasNextPage: true });
    const last = (await call(org, 'GET', '/api/users/pagination?page=2&limit=25')).json();
    expect(last.data).toHaveLength(5);
    expect(last.meta.hasNextPage).toBe(false);
    const alias = (await call(org, 'GET', '/api/users?page=2&limit=25')).json();
    expect(alias).toEqual(last);
  });

  it('filters by roles and searches names and e-mails', async () => {
    const roles = (await call(org, 'GET', '/api/users/pagination?role=guest,contact')).json();
    expect(roles.data.map((u: Json) => u.role).sort()).toEqual(['contact', 'guest']);
    const found = (await call(org, 'GET', '/api/users/pagination?search=greta%20gar')).json();
    expect(found.data.map((u: Json) => u.lastName)).toEqual(['Garbo']);
  });

  it('sorts by createdAt,DESC', async () => {
    const page = (await call(org, 'GET', '/api/users/pagination?sort=createdAt,DESC&limit=100')).json();
    const times = page.data.map((u: Json) => new Date(u.createdAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.data[0].lastName).toBe('Act');
  });

  it('refuses unknown roles, limits above 100 and unknown sort fields (400)', async () => {
    const role = expectProblem(await call(org, 'GET', '/api/users/pagination?role=sales,king'), 400);
    expect(role.errors).toContainEqual(expect.objectContaining({ pointer: '/role', in: 'query' }));
    expectProblem(await call(org, 'GET', '/api/users/pagination?limit=101'), 400);
    expectProblem(await call(org, 'GET', '/api/users/pagination?sort=passwordHash'), 400);
  });

  it('lists archived users only for admins, and never another tenant’s users', async () => {
    expectProblem(await call(guest, 'GET', '/api/users/pagination?archived=true'), 403);
    expectProblem(await call(contactUser, 'GET', '/api/users/pagination'), 403);
    const mine = (await call(admin, 'GET', '/api/users/pagination?limit=100')).json();
    expect(mine.data.every((u: Json) => u.organisationId === admin.organisationId)).toBe(true);
  });
});

describe('unchanged platform routes', () => {
  it('GET /api/users/me and /api/roles still answer', async () => {
    const me = await call(contactUser, 'GET', '/api/users/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: contactUser.userId, role: 'contact', companyIds: [] });
    const roles = (await call(guest, 'GET', '/api/roles')).json();
    expect(roles.map((r: Json) => r.name)).toContain('external_sales');
  });
});
