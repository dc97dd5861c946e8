import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldDefinitions, statuses } from '../../src/db/schema/organisation-data.ts';
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
const createProject = async (who: Credentials, payload: Json) =>
  created(await call(who, 'POST', '/api/projects', payload));

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

describe('POST /api/projects', () => {
  it('creates a project (201) and records event.projects.created', async () => {
    const response = await call(sales, 'POST', '/api/projects', {
      name: 'Spring range',
      companyId: acme.id,
      code: 'SPR-24',
      description: 'Boxes for the spring range',
      externalId: 'P-1',
    });
    expect(response.statusCode).toBe(201);
    const project = response.json();
    expect(project).toMatchObject({
      name: 'Spring range',
      companyId: acme.id,
      code: 'SPR-24',
      externalId: 'P-1',
      statusId: null,
      customFields: {},
      createdById: sales.userId,
    });
    const [event] = await eventsOf(project.id);
    expect(event).toMatchObject({
      eventName: 'event.projects.created',
      entity: 'PROJECT',
      relation: 'COMPANY',
      relationId: acme.id,
    });
  });

  it('validates the body with pointers (400)', async () => {
    const problem = expectProblem(
      await call(admin, 'POST', '/api/projects', { code: 'X', other: true }),
      400,
    );
    expect(problem.errors!.map((e) => e.pointer).sort()).toEqual(['/companyId', '/name', '/other']);
  });

  it('needs a live company of the organisation (422)', async () => {
    const foreign = await createCompany(otherAdmin, 'Foreign');
    for (const companyId of [foreign.id, '01900000-0000-7000-8000-000000000000']) {
      const problem = expectProblem(
        await call(admin, 'POST', '/api/projects', { name: 'P', companyId }),
        422,
        'unknown_company',
      );
      expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/companyId' }));
    }
  });

  it('keeps externalId unique per organisation (409) and checks the status (422)', async () => {
    await createProject(admin, { name: 'Holder', companyId: acme.id, externalId: 'P-DUP' });
    expectProblem(
      await call(admin, 'POST', '/api/projects', { name: 'Dup', companyId: acme.id, externalId: 'P-DUP' }),
      409,
      'external_id_taken',
    );
    const problem = expectProblem(
      await call(admin, 'POST', '/api/projects', {
        name: 'Status',
        companyId: acme.id,
        statusId: '01900000-0000-7000-8000-000000000000',
      }),
      422,
      'unknown_status',
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/statusId' }));
    const [status] = await t.app.ctx.db
      .insert(statuses)
      .values({
        organisationId: admin.organisationId,
        entity: 'project',
        internalLabel: 'Open',
        externalLabel: 'Open',
      })
      .returning();
    const project = await createProject(admin, {
      name: 'With status',
      companyId: acme.id,
      statusId: status!.id,
    });
    expect(project.statusId).toBe(status!.id);
  });

  it('validates project custom fields', async () => {
    await t.app.ctx.db.insert(customFieldDefinitions).values({
      organisationId: admin.organisationId,
      entity: 'project',
      key: 'budget',
      label: 'Budget',
      type: 'number',
    });
    const project = await createProject(admin, {
      name: 'Budgeted',
      companyId: acme.id,
      customFields: { budget: 5 },
    });
    expect(project.customFields).toEqual({ budget: 5 });
    const problem = expectProblem(
      await call(admin, 'POST', '/api/projects', {
        name: 'B',
        companyId: acme.id,
        customFields: { budget: 'a' },
      }),
      400,
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/customFields/budget' }));
  });

  it('refuses guests and contacts (403); external sales only for their companies (403)', async () => {
    expectProblem(await call(guest, 'POST', '/api/projects', { name: 'G', companyId: acme.id }), 403);
    expectProblem(await call(contact, 'POST', '/api/projects', { name: 'C', companyId: acme.id }), 403);
    expectProblem(
      await call(externalSales, 'POST', '/api/projects', { name: 'E', companyId: globex.id }),
      403,
    );
    await createProject(externalSales, { name: 'Allowed', companyId: acme.id });
  });
});

describe('GET /api/projects/:id', () => {
  it('reads a project; other tenants and unlinked scoped users get 404', async () => {
    const project = await createProject(admin, { name: 'Readable', companyId: globex.id });
    const response = await call(guest, 'GET', `/api/projects/${project.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(project);
    expectProblem(await call(otherAdmin, 'GET', `/api/projects/${project.id}`), 404);
    expectProblem(await call(contact, 'GET', `/api/projects/${project.id}`), 404);
    expectProblem(await call(externalSales, 'GET', `/api/projects/${project.id}`), 404);
    const mine = await createProject(admin, { name: 'Contact can read', companyId: acme.id });
    expect((await call(contact, 'GET', `/api/projects/${mine.id}`)).statusCode).toBe(200);
    expectProblem(await call(admin, 'GET', '/api/projects/nope'), 400);
  });
});

describe('PATCH /api/projects/:id', () => {
  it('changes the properties sent, moves between companies and records the columns', async () => {
    const project = await createProject(admin, { name: 'Before', companyId: acme.id, code: 'B' });
    const response = await call(sales, 'PATCH', `/api/projects/${project.id}`, {
      name: 'After',
      companyId: globex.id,
      code: null,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'After', companyId: globex.id, code: null });
    const update = (await eventsOf(project.id)).find((e) => e.type === 'UPDATE');
    expect(update).toMatchObject({ eventName: 'event.projects.updated' });
    expect(update!.updatedColumns!.sort()).toEqual(['code', 'companyId', 'name']);
  });

  it('validates (400), refuses guests (403), other tenants (404), moves out of scope (403)', async () => {
    const project = await createProject(admin, { name: 'Guarded', companyId: acme.id });
    const problem = expectProblem(
      await call(admin, 'PATCH', `/api/projects/${project.id}`, { name: '' }),
      400,
    );
    expect(problem.errors).toContainEqual(expect.objectContaining({ pointer: '/name' }));
    expectProblem(await call(guest, 'PATCH', `/api/projects/${project.id}`, { name: 'x' }), 403);
    expectProblem(await call(otherAdmin, 'PATCH', `/api/projects/${project.id}`, { name: 'x' }), 404);
    expectProblem(
      await call(externalSales, 'PATCH', `/api/projects/${project.id}`, { companyId: globex.id }),
      403,
    );
    expectProblem(
      await call(admin, 'PATCH', `/api/projects/${project.id}`, {
        companyId: '01900000-0000-7000-8000-000000000000',
      }),
      422,
      'unknown_company',
    );
  });
});

describe('DELETE /api/projects/:id', () => {
  it('soft-deletes (200) and hides the project; twice is 404', async () => {
    const project = await createProject(admin, {
      name: 'Doomed project',
      companyId: acme.id,
      externalId: 'P-DEL',
    });
    const response = await call(sales, 'DELETE', `/api/projects/${project.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: project.id, deleted: true });
    expect((await eventsOf(project.id)).at(-1)).toMatchObject({ eventName: 'event.projects.deleted' });
    expectProblem(await call(admin, 'GET', `/api/projects/${project.id}`), 404);
    expectProblem(await call(admin, 'DELETE', `/api/projects/${project.id}`), 404);
    const listed = (await call(admin, 'GET', '/api/projects/pagination?search=Doomed')).json();
    expect(listed.data).toEqual([]);
    await createProject(admin, { name: 'Reuses the externalId', companyId: acme.id, externalId: 'P-DEL' });
  });

  it('refuses guests (403) and other tenants (404)', async () => {
    const project = await createProject(admin, { name: 'Kept', companyId: acme.id });
    expectProblem(await call(guest, 'DELETE', `/api/projects/${project.id}`), 403);
    expectProblem(await call(otherAdmin, 'DELETE', `/api/projects/${project.id}`), 404);
  });
});

describe('GET /api/projects/pagination and /api/projects', () => {
  let org: Credentials;
  let one: Json;
  let two: Json;
  beforeAll(async () => {
    org = await makeOrganisation(t);
    one = await createCompany(org, 'One');
    two = await createCompany(org, 'Two');
    for (let i = 0; i < 27; i++) {
      await createProject(org, {
        name: `Project ${String(i).padStart(2, '0')}`,
        companyId: one.id,
        code: `C${i}`,
      });
    }
    await createProject(org, { name: 'Lonely', companyId: two.id, externalId: 'LONE' });
  });

  it('pages with a default limit of 25; /api/projects is the same listing', async () => {
    const first = (await call(org, 'GET', '/api/projects/pagination')).json();
    expect(first.data).toHaveLength(25);
    expect(first.meta).toEqual({ page: 1, limit: 25, total: 28, hasNextPage: true });
    expect((await call(org, 'GET', '/api/projects')).json()).toEqual(first);
  });

  it('filters by company and externalId, searches, sorts', async () => {
    const ofTwo = (await call(org, 'GET', `/api/projects/pagination?companyId=${two.id}`)).json();
    expect(ofTwo.data.map((p: Json) => p.name)).toEqual(['Lonely']);
    const byExternalId = (await call(org, 'GET', '/api/projects?externalId=LONE')).json();
    expect(byExternalId.data.map((p: Json) => p.name)).toEqual(['Lonely']);
    const search = (await call(org, 'GET', '/api/projects/pagination?search=c2')).json();
    expect(search.meta.total).toBe(8); // C2, C20..C26
    const sorted = (await call(org, 'GET', '/api/projects/pagination?sort=name,ASC&limit=2')).json();
    expect(sorted.data.map((p: Json) => p.name)).toEqual(['Lonely', 'Project 00']);
  });

  it('refuses bad parameters (400)', async () => {
    expectProblem(await call(org, 'GET', '/api/projects/pagination?limit=500'), 400);
    expectProblem(await call(org, 'GET', '/api/projects/pagination?companyId=x'), 400);
    expectProblem(await call(org, 'GET', '/api/projects/pagination?sort=secret'), 400);
  });

  it('limits scoped users to their companies and hides projects of archived companies', async () => {
    const scoped = await makeUser(t, org, 'external_sales');
    await link(scoped, two.id);
    const seen = (await call(scoped, 'GET', '/api/projects/pagination')).json();
    expect(seen.data.map((p: Json) => p.name)).toEqual(['Lonely']);
    expect((await call(admin, 'GET', '/api/projects/pagination?search=Lonely')).json().data).toEqual([]);

    const [lonely] = seen.data;
    expect((await call(org, 'DELETE', `/api/companies/${two.id}/archived`)).statusCode).toBe(200);
    expectProblem(await call(org, 'GET', `/api/projects/${lonely.id}`), 404);
    expect((await call(org, 'GET', '/api/projects/pagination')).json().meta.total).toBe(27);
  });
});
