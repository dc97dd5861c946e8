/**
 * The users repository on the real database (PGlite, or PostgreSQL with DATABASE_URL): which
 * people a listing or a search sees (tenant, archived or live, roles, text, the actor's scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { searchVisibleContacts } from '../../src/modules/contacts/repository.ts';
import {
  archiveUser,
  insertUser,
  listVisibleUsers,
  peopleSearchOrder,
  searchVisibleUsers,
  USER_PAGE,
  unarchiveUser,
} from '../../src/modules/users/repository.ts';
import type { Actor } from '../../src/platform/actor.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import type { TestApp } from '../helpers/app.ts';
import { buildTwoTenants } from '../helpers/tenants.ts';

describe('users repository', () => {
  let t: TestApp;
  let db: Db;
  let admin: Actor;
  let other: Actor;
  let ada: string;
  let grace: string;
  const page = (query = {}) => resolvePage(query, USER_PAGE);
  const crud = (page?: number) => ({ orderBy: peopleSearchOrder(), limit: 10, offset: 0, page });

  beforeAll(async () => {
    ({ t, db, admin, other } = await buildTwoTenants());
    const person = (organisationId: string, firstName: string, lastName: string, role: 'sales' | 'contact') =>
      insertUser(db, { organisationId, role, firstName, lastName, email: `${firstName}@example.com` });
    ada = await person(admin.organisationId, 'Ada', 'Lovelace', 'sales');
    grace = await person(admin.organisationId, 'Grace', 'Hopper', 'contact');
    await person(other.organisationId, 'Alan', 'Turing', 'sales');
  });
  afterAll(() => t.close());

  it('lists the live people of the tenant, by role and by text (full name included)', async () => {
    const all = await listVisibleUsers(db, admin, {}, page());
    expect(all.total).toBe(3);
    const sales = await listVisibleUsers(db, admin, { roles: ['sales'] }, page());
    expect(sales.rows.map((u) => u.id)).toEqual([ada]);
    const named = await listVisibleUsers(db, admin, { search: 'grace hop' }, page());
    expect(named.rows.map((u) => u.id)).toEqual([grace]);
    expect((await listVisibleUsers(db, admin, { search: '100%' }, page())).total).toBe(0);
    expect((await listVisibleUsers(db, other, { search: 'ada' }, page())).total).toBe(0);
  });

  it('lists the archived people apart from the live ones', async () => {
    await archiveUser(db, ada);
    expect((await listVisibleUsers(db, admin, { archived: true }, page())).rows.map((u) => u.id)).toEqual([
      ada,
    ]);
    expect((await listVisibleUsers(db, admin, {}, page())).total).toBe(2);
    await unarchiveUser(db, ada);
    expect((await listVisibleUsers(db, admin, { archived: true }, page())).total).toBe(0);
  });

  it('searches people oldest first, with a total only when a page is asked', async () => {
    const found = await searchVisibleUsers(db, admin, crud());
    expect(found.rows.map((u) => u.id)).toEqual([admin.userId, ada, grace]);
    expect(found.total).toBeUndefined();
    expect((await searchVisibleUsers(db, admin, crud(1))).total).toBe(3);
    const contacts = await searchVisibleContacts(db, admin, crud(1));
    expect({ ids: contacts.rows.map((u) => u.id), total: contacts.total }).toEqual({
      ids: [grace],
      total: 1,
    });
  });

  it('shows a company-scoped actor without companies only itself', async () => {
    const scoped: Actor = { ...admin, userId: grace, role: 'contact' };
    expect((await searchVisibleUsers(db, scoped, crud())).rows.map((u) => u.id)).toEqual([grace]);
  });
});
