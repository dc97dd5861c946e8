import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companies,
  companyUsers,
  currencies,
  customFieldDefinitions,
  events,
} from '../../src/db/schema/index.ts';
import {
  type BriefElementLinker,
  briefElementLinkerOf,
  registerBriefElementLinker,
  unavailableBriefElementLinker,
} from '../../src/modules/articles/brief-element-linker.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let acmeId: string;
let globexId: string;
let foreignCompanyId: string;
let currencyId: string;

let counter = 0;
const code = (prefix = 'ART') => `${prefix}-${++counter}`;

const { post, get, patch, del, put } = requests(() => t);

async function createArticle(payload: Record<string, unknown>, who: Credentials = admin) {
  const response = await post(who, '/api/articles', {
    name: 'Box',
    code: code(),
    companyId: acmeId,
    ...payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  const db = t.app.ctx.db;
  const [acme, globex, foreign] = await db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
      { organisationId: other.organisationId, name: 'Initech' },
    ])
    .returning();
  acmeId = acme!.id;
  globexId = globex!.id;
  foreignCompanyId = foreign!.id;
  const [currency] = await db
    .insert(currencies)
    .values({ organisationId: admin.organisationId, code: 'XTS', symbol: '¤', name: 'Test' })
    .returning();
  currencyId = currency!.id;
});
afterAll(() => t.close());

describe('POST /articles', () => {
  it('creates an article with its company and currency, defaults stocked false, enabled true', async () => {
    const response = await post(admin, '/articles', {
      name: 'Mailer box',
      code: 'MB-100',
      companyId: acmeId,
      description: 'E-flute mailer',
      price: 1.23456,
      quantity: 500,
      unit: 'mm',
      externalId: 'ERP-A1',
      currencyId,
    });
    expect(response.statusCode, response.body).toBe(201);
    const article = response.json();
    expect(article).toMatchObject({
      name: 'Mailer box',
      code: 'MB-100',
      description: 'E-flute mailer',
      price: 1.2346,
      stocked: false,
      quantity: 500,
      unit: 'mm',
      enabled: true,
      externalId: 'ERP-A1',
      briefElementId: null,
      previewFileId: null,
      company: { id: acmeId, name: 'Acme' },
      currency: { id: currencyId, code: 'XTS', symbol: '¤' },
      customFields: {},
      createdById: admin.userId,
    });
    expect((await get(admin, `/api/articles/${article.id}`)).json()).toEqual(article);
    const [event] = await t.app.ctx.db.select().from(events).where(eq(events.entityId, article.id));
    expect(event).toMatchObject({ eventName: 'event.articles.created', entity: 'ARTICLE' });
  });

  it('refuses an article without name, code or company, or with a price or quantity below 0 (400)', async () => {
    const base = { name: 'Box', code: code(), companyId: acmeId };
    for (const [payload, pointer] of [
      [{ ...base, name: undefined }, '/name'],
      [{ ...base, name: '' }, '/name'],
      [{ ...base, code: undefined }, '/code'],
      [{ ...base, code: '' }, '/code'],
      [{ ...base, companyId: undefined }, '/companyId'],
      [{ ...base, price: -0.01 }, '/price'],
      [{ ...base, quantity: -1 }, '/quantity'],
      [{ ...base, colour: 'red' }, '/colour'],
    ] as const) {
      const response = await post(admin, '/api/articles', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('keeps the code unique per organisation among live articles, case-insensitively (409)', async () => {
    const first = await createArticle({ code: 'DUP-1' });
    const again = await post(admin, '/api/articles', { name: 'Other', code: 'dup-1', companyId: globexId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'duplicate_code' });
    expect(
      (await post(other, '/api/articles', { name: 'X', code: 'DUP-1', companyId: foreignCompanyId }))
        .statusCode,
    ).toBe(201);
    const second = await createArticle({ code: 'DUP-2' });
    expect((await patch(admin, `/api/articles/${second.id}`, { code: 'Dup-1' })).statusCode).toBe(409);
    expect((await patch(admin, `/api/articles/${first.id}`, { code: 'DUP-1' })).statusCode).toBe(200);
    await del(admin, `/api/articles/${first.id}`);
    expect(
      (await post(admin, '/api/articles', { name: 'Again', code: 'DUP-1', companyId: acmeId })).statusCode,
    ).toBe(201);
  });

  it('refuses a company or currency of another tenant (422)', async () => {
    const company = await post(admin, '/api/articles', {
      name: 'X',
      code: code(),
      companyId: foreignCompanyId,
    });
    expect(company.statusCode).toBe(422);
    expect(company.json()).toMatchObject({ code: 'invalid_reference' });
    expect(company.json().errors[0].pointer).toBe('/companyId');
    const currency = await post(other, '/api/articles', {
      name: 'X',
      code: code(),
      companyId: foreignCompanyId,
      currencyId,
    });
    expect(currency.statusCode).toBe(422);
    expect(currency.json().errors[0].pointer).toBe('/currencyId');
  });

  it('validates article custom fields', async () => {
    await t.app.ctx.db.insert(customFieldDefinitions).values({
      organisationId: admin.organisationId,
      entity: 'article',
      key: 'fsc',
      label: 'FSC certified',
      type: 'boolean',
    });
    expect((await createArticle({ customFields: { fsc: true } })).customFields).toEqual({ fsc: true });
    const bad = await post(admin, '/api/articles', {
      name: 'X',
      code: code(),
      companyId: acmeId,
      customFields: { fsc: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/customFields/fsc');
  });
});

describe('brief element link modes', () => {
  const missingElement = '0190a0a0-0000-7000-8000-0000000000e1';

  it('mode 3: no element (accessories, services)', async () => {
    const article = await createArticle({ name: 'Tape', stocked: true, quantity: 40 });
    expect(article).toMatchObject({ briefElementId: null, stocked: true, quantity: 40 });
  });

  it('refuses briefElementId and briefElement together (400)', async () => {
    const response = await post(admin, '/api/articles', {
      name: 'X',
      code: code(),
      companyId: acmeId,
      briefElementId: missingElement,
      briefElement: { lengthDimension: 100 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/briefElement');
  });

  it('mode 2 then mode 1 with the briefs module: a standalone element is created, then linked by id', async () => {
    const element = { lengthDimension: 200, widthDimension: 150, heightDimension: 50 };
    const first = await createArticle({ briefElement: element });
    expect(first.briefElementId).toMatch(/^[0-9a-f-]{36}$/);
    const created = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, first.briefElementId), eq(events.type, 'CREATE')));
    expect(created).toHaveLength(1);
    // Mode 1: another article links the same element by id; the list filters by it.
    const second = await createArticle({ briefElementId: first.briefElementId });
    expect(second.briefElementId).toBe(first.briefElementId);
    const listed = (await get(admin, `/api/articles?briefElementId=${first.briefElementId}`)).json();
    expect(listed.data.map((a: { id: string }) => a.id).sort()).toEqual([first.id, second.id].sort());
    // An element of another tenant, or none, is refused.
    const foreign = await post(other, '/api/articles', {
      name: 'X',
      code: code(),
      companyId: foreignCompanyId,
      briefElementId: first.briefElementId,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toMatchObject({ code: 'invalid_reference' });
    const missing = await post(admin, '/api/articles', {
      name: 'X',
      code: code(),
      companyId: acmeId,
      briefElementId: missingElement,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors[0].pointer).toBe('/briefElementId');
    // PATCH links and unlinks.
    const third = await createArticle({});
    const linked = await patch(admin, `/api/articles/${third.id}`, { briefElementId: first.briefElementId });
    expect(linked.json().briefElementId).toBe(first.briefElementId);
    expect(
      (await patch(admin, `/api/articles/${third.id}`, { briefElementId: null })).json().briefElementId,
    ).toBeNull();
  });

  it('refuses an invalid nested element with pointers under /briefElement, creating nothing', async () => {
    const taken = code();
    const bad = await post(admin, '/api/articles', {
      name: 'X',
      code: taken,
      companyId: acmeId,
      briefElement: { lengthDimension: -3 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/briefElement/lengthDimension');
    expect((await get(admin, `/api/articles?search=${taken}`)).json().data).toEqual([]);
  });

  it('answers 422 brief_elements_unavailable for both link modes when no briefs module is plugged in', async () => {
    const plugged = briefElementLinkerOf(t.app.ctx);
    registerBriefElementLinker(t.app.ctx, unavailableBriefElementLinker);
    try {
      for (const payload of [
        { briefElementId: missingElement },
        { briefElement: { productId: missingElement, widthDimension: 80 } },
      ]) {
        const response = await post(admin, '/api/articles', {
          name: 'X',
          code: code(),
          companyId: acmeId,
          ...payload,
        });
        expect(response.statusCode, response.body).toBe(422);
        expect(response.json()).toMatchObject({ code: 'brief_elements_unavailable' });
      }
      const article = await createArticle({});
      expect(
        (await patch(admin, `/api/articles/${article.id}`, { briefElementId: missingElement })).statusCode,
      ).toBe(422);
      expect((await patch(admin, `/api/articles/${article.id}`, { briefElementId: null })).statusCode).toBe(
        200,
      );
    } finally {
      registerBriefElementLinker(t.app.ctx, plugged);
    }
  });

  it('runs a plugged-in linker inside the article transaction', async () => {
    const plugged = briefElementLinkerOf(t.app.ctx);
    const calls: { input: Record<string, unknown>; inTransaction: boolean }[] = [];
    const stub: BriefElementLinker = {
      exists: plugged.exists,
      // Records the call, then writes the element with the real linker in the same transaction
      // (articles.brief_element_id is a foreign key: an invented id would be refused).
      createStandalone: async (tx, actor, input, record) => {
        calls.push({ input, inTransaction: typeof (tx as { rollback?: unknown }).rollback === 'function' });
        const created = await plugged.createStandalone(tx, actor, input, record);
        createdIds.push(created.id);
        return created;
      },
    };
    const createdIds: string[] = [];
    registerBriefElementLinker(t.app.ctx, stub);
    try {
      const article = await createArticle({ briefElement: { lengthDimension: 120 } });
      expect(createdIds).toHaveLength(1);
      expect(article.briefElementId).toBe(createdIds[0]);
      expect(calls).toEqual([{ input: { lengthDimension: 120 }, inTransaction: true }]);
    } finally {
      registerBriefElementLinker(t.app.ctx, plugged);
    }
  });
});

describe('GET /articles', () => {
  let tenant: Credentials;
  let ids: Record<string, string>;
  let tenantAcme: string;
  let tenantGlobex: string;

  beforeAll(async () => {
    tenant = await makeOrganisation(t);
    const [c1, c2] = await t.app.ctx.db
      .insert(companies)
      .values([
        { organisationId: tenant.organisationId, name: 'Acme' },
        { organisationId: tenant.organisationId, name: 'Globex' },
      ])
      .returning();
    tenantAcme = c1!.id;
    tenantGlobex = c2!.id;
    ids = {};
    for (const [key, payload] of Object.entries({
      mailer: { name: 'Mailer box', code: 'MB-1', companyId: tenantAcme, price: 2 },
      sleeve: { name: 'Sleeve', code: 'SL_100%', companyId: tenantAcme, price: 1, enabled: false },
      tape: { name: 'Tape roll', code: 'TP-MAIL', companyId: tenantGlobex, price: 3 },
    })) {
      const response = await post(tenant, '/api/articles', payload);
      expect(response.statusCode, response.body).toBe(201);
      ids[key] = response.json().id;
    }
  });

  const list = async (query: string) => {
    const response = await get(tenant, `/articles?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const names = async (query: string) => (await list(query)).data.map((a: { id: string }) => a.id);

  it('lists by name by default, 25 per page, with company and currency nested', async () => {
    const body = await list('');
    expect(body.meta).toEqual({ page: 1, limit: 25, total: 3, hasNextPage: false });
    expect(body.data.map((a: { id: string }) => a.id)).toEqual([ids.mailer, ids.sleeve, ids.tape]);
    expect(body.data[0].company).toEqual({ id: tenantAcme, name: 'Acme' });
  });

  it('searches name or code case-insensitively, literally', async () => {
    expect(await names('search=MAIL')).toEqual([ids.mailer, ids.tape]);
    expect(await names('search=roll')).toEqual([ids.tape]);
    expect(await names('search=_100%25')).toEqual([ids.sleeve]);
    expect(await names('search=%25')).toEqual([ids.sleeve]);
  });

  it('filters by company and enabled, sorts and pages', async () => {
    expect(await names(`companyId=${tenantAcme}`)).toEqual([ids.mailer, ids.sleeve]);
    expect(await names('enabled=false')).toEqual([ids.sleeve]);
    expect(await names(`enabled=true&companyId=${tenantAcme}`)).toEqual([ids.mailer]);
    expect(await names('sort=price,DESC')).toEqual([ids.tape, ids.mailer, ids.sleeve]);
    expect(await names('order=-code')).toEqual([ids.tape, ids.sleeve, ids.mailer]);
    const page = await list('limit=2&page=2');
    expect(page.meta).toEqual({ page: 2, limit: 2, total: 3, hasNextPage: false });
    expect((await get(tenant, '/api/articles?sort=colour')).statusCode).toBe(400);
    expect((await get(tenant, '/api/articles?limit=101')).statusCode).toBe(400);
  });

  it('never lists another tenant’s articles', async () => {
    const body = (await get(admin, `/api/articles?companyId=${tenantAcme}`)).json();
    expect(body.data).toEqual([]);
  });
});

describe('PATCH and DELETE /articles/:id', () => {
  it('changes a subset of fields and records the changed columns', async () => {
    const article = await createArticle({ price: 1 });
    const response = await patch(admin, `/articles/${article.id}`, {
      price: 2.5,
      stocked: true,
      quantity: 12,
      enabled: false,
      companyId: globexId,
      currencyId,
      description: null,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      price: 2.5,
      stocked: true,
      quantity: 12,
      enabled: false,
      company: { id: globexId, name: 'Globex' },
      currency: { id: currencyId },
      description: null,
    });
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, article.id), eq(events.eventName, 'event.articles.updated')));
    expect(event!.updatedColumns!.sort()).toEqual([
      'companyId',
      'currencyId',
      'enabled',
      'price',
      'quantity',
      'stocked',
    ]);
    expect((await patch(admin, `/api/articles/${article.id}`, { price: -1 })).statusCode).toBe(400);
    expect((await patch(admin, `/api/articles/${article.id}`, { quantity: -1 })).statusCode).toBe(400);
    expect((await patch(admin, `/api/articles/${article.id}`, {})).statusCode).toBe(400);
    expect(
      (await patch(admin, `/api/articles/${article.id}`, { companyId: foreignCompanyId })).statusCode,
    ).toBe(422);
  });

  it('soft-deletes: 404 afterwards, gone from lists, twice is 404', async () => {
    const article = await createArticle({});
    const response = await del(admin, `/articles/${article.id}`);
    expect(response.json()).toEqual({ id: article.id, deleted: true });
    expect((await get(admin, `/api/articles/${article.id}`)).statusCode).toBe(404);
    expect((await del(admin, `/api/articles/${article.id}`)).statusCode).toBe(404);
    expect((await patch(admin, `/api/articles/${article.id}`, { name: 'x' })).statusCode).toBe(404);
    const listed = (await get(admin, `/api/articles?search=${article.code}`)).json();
    expect(listed.data).toEqual([]);
  });

  it('answers 404 to another tenant', async () => {
    const article = await createArticle({});
    expect((await get(other, `/api/articles/${article.id}`)).statusCode).toBe(404);
    expect((await patch(other, `/api/articles/${article.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await del(other, `/api/articles/${article.id}`)).statusCode).toBe(404);
  });
});

describe('roles', () => {
  it('lets a guest read but not write (403)', async () => {
    const guest = await makeUser(t, admin, 'guest');
    const article = await createArticle({});
    expect((await get(guest, `/api/articles/${article.id}`)).statusCode).toBe(200);
    expect(
      (await post(guest, '/api/articles', { name: 'X', code: code(), companyId: acmeId })).statusCode,
    ).toBe(403);
    expect((await patch(guest, `/api/articles/${article.id}`, { name: 'x' })).statusCode).toBe(403);
    expect((await del(guest, `/api/articles/${article.id}`)).statusCode).toBe(403);
  });

  it('limits contacts and external sales to the articles of their companies', async () => {
    const contact = await makeUser(t, admin, 'contact');
    const rep = await makeUser(t, admin, 'external_sales');
    for (const user of [contact, rep]) {
      await t.app.ctx.db
        .insert(companyUsers)
        .values({ companyId: acmeId, userId: user.userId, organisationId: admin.organisationId });
    }
    const acmeArticle = await createArticle({ companyId: acmeId });
    const globexArticle = await createArticle({ companyId: globexId });
    expect((await get(contact, `/api/articles/${acmeArticle.id}`)).statusCode).toBe(200);
    expect((await get(contact, `/api/articles/${globexArticle.id}`)).statusCode).toBe(404);
    const listed = (await get(contact, '/api/articles?limit=100')).json();
    expect(listed.data.every((a: { companyId: string }) => a.companyId === acmeId)).toBe(true);
    expect(
      (await post(contact, '/api/articles', { name: 'X', code: code(), companyId: acmeId })).statusCode,
    ).toBe(403);
    expect(
      (await post(rep, '/api/articles', { name: 'X', code: code(), companyId: globexId })).statusCode,
    ).toBe(403);
    expect(
      (await post(rep, '/api/articles', { name: 'X', code: code(), companyId: acmeId })).statusCode,
    ).toBe(201);
    expect((await patch(rep, `/api/articles/${globexArticle.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await patch(rep, `/api/articles/${acmeArticle.id}`, { companyId: globexId })).statusCode).toBe(
      403,
    );
  });
});

async function upload(who: Credentials, url: string, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('PNGDATA')], { type: 'image/png' }), filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return post(who, url, Buffer.from(await request.arrayBuffer()), {
    'content-type': request.headers.get('content-type')!,
  });
}

describe('files, comments and the preview image', () => {
  it('uploads files to an article and sets one of them as its preview', async () => {
    const article = await createArticle({});
    const uploaded = await upload(admin, `/api/articles/${article.id}/files`, 'front.png');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = uploaded.json().id;
    const files = (await get(admin, `/api/articles/${article.id}/files`)).json();
    expect(files.data.map((f: { id: string }) => f.id)).toEqual([fileId]);
    const set = await put(admin, `/api/articles/${article.id}/preview`, { fileId });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().previewFileId).toBe(fileId);
    expect((await get(admin, `/articles/${article.id}`)).json().previewFileId).toBe(fileId);
    // A file of another article is refused.
    const otherArticle = await createArticle({});
    const foreign = await put(admin, `/api/articles/${otherArticle.id}/preview`, { fileId });
    expect(foreign.statusCode).toBe(422);
    // Deleting the file clears the preview; null clears it explicitly.
    expect((await del(admin, `/api/articles/${article.id}/files/${fileId}`)).statusCode).toBe(200);
    expect((await get(admin, `/api/articles/${article.id}`)).json().previewFileId).toBeNull();
    const cleared = await put(admin, `/api/articles/${article.id}/preview`, { fileId: null });
    expect(cleared.json().previewFileId).toBeNull();
  });

  it('comments on an article, and hides the attachments of another tenant’s article', async () => {
    const article = await createArticle({});
    const comment = await post(admin, `/api/articles/${article.id}/comments`, {
      body: 'Use the new dieline',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    expect((await get(admin, `/api/articles/${article.id}/comments`)).json().data).toHaveLength(1);
    expect((await get(other, `/api/articles/${article.id}/comments`)).statusCode).toBe(404);
    expect((await upload(other, `/api/articles/${article.id}/files`, 'x.png')).statusCode).toBe(404);
  });
});
