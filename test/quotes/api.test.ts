import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addresses,
  articles,
  briefPredictions,
  companies,
  companyUsers,
  events,
  orderItems,
  projects,
  quotes,
} from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { EXPIRE_CRON, EXPIRE_JOB, expireJobHandler, quotesModule } from '../../src/modules/quotes/module.ts';
import type { BriefPrediction, Catalogue, PredictionRequestComputed } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { carton, idOf } from '../helpers/briefs.ts';
import { requests, type Schemas } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let guest: Credentials;
let contact: Credentials;
let globexContact: Credentials;
let externalSales: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let globexId: string;
let projectId: string;
let addressId: string;
let globexAddressId: string;
/** A priced brief of Acme with two elements (a folding carton and a mailer). */
let pricedBrief: Brief;
/** A brief of Acme whose pricing has not run (async, no workers). */
let pendingBrief: Brief;
let globexBrief: Brief;
let articleId: string;
let unpricedArticleId: string;
let globexArticleId: string;

type Brief = Schemas['Brief'];
type Item = Schemas['QuoteItem'];
type Quote = Schemas['Quote'];
type Problem = Schemas['Problem'];

const mailer = (position = 1) => ({
  position,
  productId: idOf(catalogue.products, '0201'),
  lengthDimension: 300,
  widthDimension: 200,
  heightDimension: 150,
  materialReferenceId: idOf(catalogue.materialReferences, 'CORR-B-KK'),
  decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 1,
});

const { send: request, post, put, get, del } = requests(() => t);

function expectProblem(
  response: { statusCode: number; headers: Record<string, unknown>; body: string; json: () => Problem },
  status: number,
  code?: string,
  pointer?: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toContain('application/problem+json');
  const body = response.json();
  if (code) expect(body.code, response.body).toBe(code);
  if (pointer)
    expect(
      (body.errors ?? []).map((e) => e.pointer),
      response.body,
    ).toContain(pointer);
  return body;
}

async function linkUser(user: Credentials, companyId: string) {
  await t.app.ctx.db
    .insert(companyUsers)
    .values({ companyId, userId: user.userId, organisationId: user.organisationId });
}

async function createBrief(payload: Record<string, unknown>, url = '/api/briefs'): Promise<Brief> {
  const response = await post(admin, url, {
    name: 'Tea box',
    companyId: acmeId,
    briefElements: [carton(catalogue)],
    ...payload,
  });
  expect(response.statusCode, response.body).toBe(url.endsWith('async') ? 202 : 201);
  return response.json();
}

async function createQuote(payload: Record<string, unknown>, who: Credentials = admin): Promise<Quote> {
  const response = await post(who, '/quotes', { companyId: acmeId, ...payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function publish(quote: Quote | string, who: Credentials = admin): Promise<Quote> {
  const id = typeof quote === 'string' ? quote : quote.id;
  const response = await put(who, `/api/quotes/${id}`, { state: 'published' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const articleQuote = (quantity = 10) => createQuote({ items: [{ articleId, quantity }] });

/** The selected variant of each element of the brief's current prediction. */
async function selectedVariants(briefId: string) {
  const [row] = await t.app.ctx.db
    .select({ output: briefPredictions.output })
    .from(briefPredictions)
    .where(eq(briefPredictions.briefId, briefId))
    .orderBy(sql`${briefPredictions.version} desc`)
    .limit(1);
  const output = row!.output as BriefPrediction;
  const byPosition = new Map<number, PredictionRequestComputed>();
  for (const v of output.briefPrice.predictionRequestsComputed) if (v.selected) byPosition.set(v.position, v);
  return byPosition;
}

const cents = (value: number) => Math.round(value * 100) / 100;
const sum = (values: number[]) => cents(values.reduce((a, b) => a + b, 0));

/** Moves a quote's validity into the past, as if time had passed. */
async function validityPassed(id: string) {
  await t.app.ctx.db
    .update(quotes)
    .set({ validUntil: new Date(Date.now() - 60_000) })
    .where(eq(quotes.id, id));
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const db = t.app.ctx.db;
  const [acme, globex] = await db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
    ])
    .returning();
  acmeId = acme!.id;
  globexId = globex!.id;
  const [project] = await db
    .insert(projects)
    .values({ organisationId: admin.organisationId, companyId: acmeId, name: 'Acme launch' })
    .returning();
  projectId = project!.id;
  const [address, globexAddress] = await db
    .insert(addresses)
    .values([
      {
        organisationId: admin.organisationId,
        companyId: acmeId,
        street1: '1 Rue de la Paix',
        postcode: '75002',
        city: 'Paris',
        countryCode: 'FR',
      },
      {
        organisationId: admin.organisationId,
        companyId: globexId,
        street1: '2 Main St',
        city: 'Springfield',
        countryCode: 'US',
      },
    ])
    .returning();
  addressId = address!.id;
  globexAddressId = globexAddress!.id;
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  contact = await makeUser(t, admin, 'contact');
  await linkUser(contact, acmeId);
  globexContact = await makeUser(t, admin, 'contact');
  await linkUser(globexContact, globexId);
  externalSales = await makeUser(t, admin, 'external_sales');
  await linkUser(externalSales, globexId);

  pricedBrief = await createBrief({ briefElements: [carton(catalogue), mailer(1)] });
  pendingBrief = await createBrief({ name: 'Later' }, '/api/briefs/async');
  globexBrief = await createBrief({ companyId: globexId, name: 'Globex box' });
  const [article, unpriced, globexArticle] = await db
    .insert(articles)
    .values([
      {
        organisationId: admin.organisationId,
        companyId: acmeId,
        name: 'Shipping label',
        code: 'LBL-1',
        price: 0.125,
      },
      { organisationId: admin.organisationId, companyId: acmeId, name: 'Tissue paper', code: 'TIS-1' },
      {
        organisationId: admin.organisationId,
        companyId: globexId,
        name: 'Globex tape',
        code: 'TAPE-1',
        price: 2,
      },
    ])
    .returning();
  articleId = article!.id;
  unpricedArticleId = unpriced!.id;
  globexArticleId = globexArticle!.id;
});
afterAll(() => t.close());

describe('creating a quote', () => {
  it('from briefs: a parent item per brief and a child per element, priced as the prediction', async () => {
    const quote = await createQuote({
      name: 'Spring boxes',
      projectId,
      contactId: contact.userId,
      addressId,
      validUntil: '2099-12-31',
      briefIds: [pricedBrief.id],
    });
    expect(quote).toMatchObject({
      name: 'Spring boxes',
      state: 'draft',
      code: null,
      version: 1,
      currency: 'EUR',
      companyId: acmeId,
      projectId,
      company: { id: acmeId, name: 'Acme' },
      project: { id: projectId, name: 'Acme launch' },
      contact: { id: contact.userId, email: contact.email },
      address: { id: addressId, city: 'Paris', countryCode: 'FR' },
      email: contact.email,
      validUntil: '2099-12-31T23:59:59.999Z',
      pdfs: [],
    });
    expect(quote.items).toHaveLength(1);
    const parent = quote.items[0]!;
    expect(parent).toMatchObject({
      briefId: pricedBrief.id,
      briefElementId: null,
      parentId: null,
      reference: pricedBrief.code,
      valid: true,
      price: null,
    });
    expect(parent.children).toHaveLength(2);
    const variants = await selectedVariants(pricedBrief.id);
    for (const element of pricedBrief.briefElements) {
      const child = parent.children.find((c) => c.briefElementId === element.id)!;
      const variant = variants.get(element.position)!;
      expect(child).toMatchObject({
        parentId: parent.id,
        briefId: pricedBrief.id,
        position: element.position + 1,
        quantity: variant.quantity,
        // Rounding rule: the line is the engine's product price in cents, the unit price derived.
        amount: variant.productPrice,
        price: Math.round((variant.productPrice / variant.quantity) * 10_000) / 10_000,
        toolingCost: variant.toolingCost,
        deliveryCost: variant.deliveryCost,
        valid: true,
        priceSource: 'prediction',
      });
      // To the cent, the line is the prediction's total.
      expect(child.totalPrice).toBe(variant.totalPrice);
    }
    const [first, second] = parent.children;
    expect(first).toMatchObject({ length: 120, width: 40, height: 180, name: 'Straight tuck end carton' });
    expect(second).toMatchObject({ length: 300, width: 200, height: 150 });
    expect(parent.totalPrice).toBe(sum(parent.children.map((c) => c.totalPrice)));
    expect(parent.toolingCost).toBe(sum(parent.children.map((c) => c.toolingCost)));
    expect(quote.totalPrice).toBe(parent.totalPrice);
    expect(quote.toolingCost).toBe(parent.toolingCost);
    expect(quote.deliveryCost).toBe(parent.deliveryCost);
  });

  it('from articles: the article price unless one is sent; totals are the sums', async () => {
    const quote = await createQuote({
      items: [
        { articleId, quantity: 1000 },
        { articleId, quantity: 3, price: 1.23456, comment: 'rush' },
      ],
    });
    expect(quote.name).toBe('Shipping label');
    const [a, b] = quote.items;
    expect(a).toMatchObject({
      articleId,
      quantity: 1000,
      price: 0.125,
      totalPrice: 125,
      valid: true,
      priceSource: 'article',
      reference: 'LBL-1',
      children: [],
    });
    expect(b).toMatchObject({
      quantity: 3,
      price: 1.2346,
      totalPrice: 3.7,
      valid: true,
      priceSource: 'manual',
      comment: 'rush',
    });
    expect(quote.totalPrice).toBe(128.7);
    expect(quote.toolingCost).toBe(0);
  });

  it('mixed: briefs, an element of another brief (under its own parent) and articles', async () => {
    const second = await createBrief({ name: 'Sleeve' });
    const quote = await createQuote({
      briefIds: [pricedBrief.id],
      items: [
        { briefElementId: second.briefElements[0]!.id, comment: 'sample first' },
        { articleId, quantity: 10 },
      ],
    });
    expect(quote.items.map((i) => [i.position, i.briefId, i.articleId, i.children.length])).toEqual([
      [1, pricedBrief.id, null, 2],
      [2, second.id, null, 1],
      [3, null, articleId, 0],
    ]);
    expect(quote.items[1]!.children[0]).toMatchObject({
      briefElementId: second.briefElements[0]!.id,
      comment: 'sample first',
      valid: true,
    });
    expect(quote.totalPrice).toBe(sum(quote.items.map((i) => i.totalPrice)));
  });

  it('a brief without a completed prediction gives items that are not valid (and cost nothing yet)', async () => {
    const quote = await createQuote({ briefIds: [pendingBrief.id], items: [{ articleId, quantity: 8 }] });
    const parent = quote.items[0]!;
    expect(parent.valid).toBe(false);
    expect(parent.children).toHaveLength(1);
    expect(parent.children[0]).toMatchObject({ valid: false, price: null, totalPrice: 0, length: 120 });
    expect(quote.totalPrice).toBe(1);
  });

  it('an unpriced article or an element at another quantity is not valid; a sent price makes it valid', async () => {
    const quote = await createQuote({
      items: [
        { articleId: unpricedArticleId, quantity: 5 },
        { briefElementId: pricedBrief.briefElements[0]!.id, quantity: 1234 },
        { briefElementId: pricedBrief.briefElements[1]!.id, quantity: 50, price: 2 },
      ],
    });
    expect(quote.items[0]).toMatchObject({ valid: false, price: null });
    const children = quote.items[1]!.children;
    expect(children[0]).toMatchObject({ quantity: 1234, valid: false, price: null });
    expect(children[1]).toMatchObject({ quantity: 50, price: 2, valid: true, priceSource: 'manual' });
  });

  it('is served at /api/quotes too', async () => {
    const response = await post(admin, '/api/quotes', {
      companyId: acmeId,
      items: [{ articleId, quantity: 1 }],
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('records the quote and its items as events (items with relation QUOTE)', async () => {
    const quote = await createQuote({ briefIds: [pricedBrief.id] });
    const rows = await t.app.ctx.db
      .select()
      .from(events)
      .where(
        inArray(events.entityId, [
          quote.id,
          ...quote.items.flatMap((i) => [i.id, ...i.children.map((c) => c.id)]),
        ]),
      );
    expect(rows.find((e) => e.entityId === quote.id)).toMatchObject({
      eventName: 'event.quotes.created',
      entity: 'QUOTE',
      type: 'CREATE',
    });
    const itemEvents = rows.filter((e) => e.entity === 'QUOTE_ITEM');
    expect(itemEvents).toHaveLength(3);
    for (const e of itemEvents)
      expect(e).toMatchObject({
        eventName: 'event.quote_items.created',
        relation: 'QUOTE',
        relationId: quote.id,
      });
    const resource = await get(
      admin,
      `/api/events/ressources/${rows.find((e) => e.entityId === quote.id)!.id}`,
    );
    expect(resource.statusCode, resource.body).toBe(200);
    expect(JSON.stringify(resource.json())).toContain(quote.id);
    const itemResource = await get(admin, `/api/events/ressources/${itemEvents[0]!.id}`);
    expect(itemResource.statusCode, itemResource.body).toBe(200);
    expect(itemResource.json()).toMatchObject({ id: itemEvents[0]!.entityId, quoteId: quote.id });
  });
});

describe('errors of the specification about quotes', () => {
  it('a quote without items: 400 with a pointer', async () => {
    expectProblem(await post(admin, '/quotes', { companyId: acmeId }), 400, 'quote_without_items', '/items');
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, briefIds: [], items: [] }),
      400,
      'quote_without_items',
      '/items',
    );
  });

  it('an item with neither a brief reference nor an article: 400 with a pointer', async () => {
    expectProblem(
      await post(admin, '/quotes', {
        companyId: acmeId,
        items: [
          { articleId, quantity: 1 },
          { quantity: 2, price: 3 },
        ],
      }),
      400,
      'validation_failed',
      '/items/1',
    );
    const quote = await articleQuote();
    expectProblem(
      await post(admin, `/quotes/${quote.id}/quote-items`, { items: [{ comment: 'x' }] }),
      400,
      'validation_failed',
      '/items/0',
    );
  });

  it('other invalid items: both kinds, article without quantity, unknown property', async () => {
    expectProblem(
      await post(admin, '/quotes', {
        companyId: acmeId,
        items: [{ articleId, briefId: pricedBrief.id, quantity: 1 }],
      }),
      400,
      'validation_failed',
      '/items/0/articleId',
    );
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, items: [{ articleId }] }),
      400,
      'validation_failed',
      '/items/0/quantity',
    );
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, items: [{ briefId: pricedBrief.id, quantity: 3 }] }),
      400,
      'validation_failed',
      '/items/0/quantity',
    );
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, items: [{ articleId, quantity: 1, colour: 'red' }] }),
      400,
      'validation_failed',
      '/items/0/colour',
    );
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, items: [{ articleId, quantity: 0 }] }),
      400,
      'validation_failed',
      '/items/0/quantity',
    );
    expectProblem(
      await post(admin, '/quotes', { items: [{ articleId, quantity: 1 }] }),
      400,
      'validation_failed',
      '/companyId',
    );
  });

  it('references that do not exist, of another tenant or of another company: 422 with pointers', async () => {
    const missing = '01900000-0000-7000-8000-000000000000';
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, briefIds: [missing] }),
      422,
      'invalid_reference',
      '/briefIds/0',
    );
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, items: [{ articleId: missing, quantity: 1 }] }),
      422,
      'invalid_reference',
      '/items/0/articleId',
    );
    expectProblem(
      await post(admin, '/quotes', { companyId: acmeId, briefIds: [globexBrief.id] }),
      422,
      'company_mismatch',
      '/briefIds/0',
    );
    expectProblem(
      await post(admin, '/quotes', {
        companyId: acmeId,
        items: [{ articleId: globexArticleId, quantity: 1 }],
      }),
      422,
      'company_mismatch',
      '/items/0/articleId',
    );
    expectProblem(
      await post(other, '/quotes', { companyId: acmeId, items: [{ articleId, quantity: 1 }] }),
      422,
      'invalid_reference',
      '/companyId',
    );
    expectProblem(
      await post(admin, '/quotes', {
        companyId: acmeId,
        contactId: globexContact.userId,
        items: [{ articleId, quantity: 1 }],
      }),
      422,
      'contact_company_mismatch',
      '/contactId',
    );
    expectProblem(
      await post(admin, '/quotes', {
        companyId: acmeId,
        addressId: globexAddressId,
        items: [{ articleId, quantity: 1 }],
      }),
      422,
      'address_company_mismatch',
      '/addressId',
    );
    expectProblem(
      await post(admin, '/quotes', {
        companyId: globexId,
        projectId,
        items: [{ articleId: globexArticleId, quantity: 1 }],
      }),
      422,
      'project_company_mismatch',
      '/projectId',
    );
    expectProblem(
      await post(admin, '/quotes', {
        companyId: acmeId,
        items: [{ briefId: globexBrief.id, briefElementId: pricedBrief.briefElements[0]!.id }],
      }),
      422,
      'element_not_in_brief',
      '/items/0/briefElementId',
    );
  });

  it('publishing before the pricing is complete: 422 pricing_incomplete, nothing changes', async () => {
    const quote = await createQuote({ briefIds: [pendingBrief.id] });
    expectProblem(
      await put(admin, `/quotes/${quote.id}`, { state: 'published' }),
      422,
      'pricing_incomplete',
      '/state',
    );
    const after = (await get(admin, `/quotes/${quote.id}`)).json();
    expect(after).toMatchObject({ state: 'draft', code: null });
  });
});

describe('reading and listing', () => {
  let listed: Quote[];
  beforeAll(async () => {
    listed = [
      await createQuote({ name: 'Alpha tins', projectId, items: [{ articleId, quantity: 1 }] }),
      await createQuote({ name: 'Beta boxes', items: [{ articleId, quantity: 2 }] }),
      await createQuote({
        name: 'Gamma',
        companyId: globexId,
        items: [{ articleId: globexArticleId, quantity: 3 }],
      }),
    ];
    await publish(listed[1]!);
  });

  it('GET /quotes/:id gives the item tree and the relations', async () => {
    const response = await get(admin, `/quotes/${listed[0]!.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: listed[0]!.id,
      project: { name: 'Acme launch' },
      company: { name: 'Acme' },
      items: [{ children: [] }],
      pdfs: [],
    });
    expectProblem(await get(admin, '/quotes/01900000-0000-7000-8000-000000000000'), 404, 'not_found');
    expectProblem(await get(admin, '/quotes/not-a-uuid'), 400);
  });

  it('lists with page, limit, sort, search, status, projectId and companyId', async () => {
    const all = (await get(admin, '/quotes?limit=100')).json();
    expect(all.meta).toMatchObject({ page: 1, limit: 100 });
    expect(all.data.length).toBe(all.meta.total);
    const names = (await get(admin, '/quotes?search=beta')).json().data.map((q: Quote) => q.name);
    expect(names).toEqual(['Beta boxes']);
    const code = (await get(admin, `/quotes/${listed[1]!.id}`)).json().code;
    expect((await get(admin, `/quotes?search=${code}`)).json().data.map((q: Quote) => q.id)).toEqual([
      listed[1]!.id,
    ]);
    const published = (await get(admin, '/quotes?status=published&limit=100')).json().data;
    expect(published.every((q: Quote) => q.state === 'published')).toBe(true);
    expect(published.map((q: Quote) => q.id)).toContain(listed[1]!.id);
    expect(
      (await get(admin, `/quotes?projectId=${projectId}`)).json().data.map((q: Quote) => q.id),
    ).toContain(listed[0]!.id);
    const globex = (await get(admin, `/quotes?companyId=${globexId}`)).json().data;
    expect(globex.map((q: Quote) => q.name)).toEqual(['Gamma']);
    const page = (await get(admin, '/quotes?limit=1&page=2&sort=name,ASC')).json();
    expect(page.meta).toMatchObject({ page: 2, limit: 1, hasNextPage: true });
    const sorted = (await get(admin, '/quotes?limit=100&sort=name,ASC'))
      .json()
      .data.map((q: Quote) => q.name);
    expect(sorted).toEqual([...sorted].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    expectProblem(await get(admin, '/quotes?status=archived'), 400, 'validation_failed', '/status');
    expectProblem(await get(admin, '/quotes?sort=colour'), 400, 'validation_failed', '/sort');
    expectProblem(await get(admin, '/quotes?limit=1000'), 400);
  });
});

describe('editing a draft', () => {
  it('PUT changes the fields; relations are checked against the company', async () => {
    const quote = await articleQuote();
    const response = await put(admin, `/quotes/${quote.id}`, {
      name: 'Renamed',
      email: 'buyer@acme.test',
      validUntil: '2099-01-31T12:00:00.000Z',
      contactId: contact.userId,
      addressId,
      phoneNumber: '+33 1 23 45 67 89',
      receiverName: 'Jeanne Buyer',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Renamed',
      email: 'buyer@acme.test',
      validUntil: '2099-01-31T12:00:00.000Z',
      contactId: contact.userId,
      receiverName: 'Jeanne Buyer',
      state: 'draft',
    });
    expectProblem(
      await put(admin, `/quotes/${quote.id}`, { addressId: globexAddressId }),
      422,
      'address_company_mismatch',
      '/addressId',
    );
    expectProblem(
      await put(admin, `/quotes/${quote.id}`, { companyId: globexId }),
      422,
      'company_mismatch',
      '/companyId',
    );
    expectProblem(
      await put(admin, `/quotes/${quote.id}`, { email: 'not an email' }),
      400,
      'validation_failed',
      '/email',
    );
    expectProblem(await put(admin, `/quotes/${quote.id}`, {}), 400);
    const cleared = await put(admin, `/quotes/${quote.id}`, { contactId: null, validUntil: null });
    expect(cleared.json()).toMatchObject({ contactId: null, validUntil: null, contact: null });
  });

  it('adds items (totals follow) and removes them (a parent with its children)', async () => {
    const quote = await articleQuote(4);
    const added = await post(admin, `/quotes/${quote.id}/quote-items`, {
      items: [
        { briefId: pricedBrief.id, comment: 'as briefed' },
        { articleId, quantity: 6, price: 1 },
      ],
    });
    expect(added.statusCode, added.body).toBe(200);
    const withItems: Quote = added.json();
    expect(withItems.items.map((i) => i.position)).toEqual([1, 2, 3]);
    const parent = withItems.items[1]!;
    expect(parent).toMatchObject({ briefId: pricedBrief.id, comment: 'as briefed' });
    expect(parent.children).toHaveLength(2);
    expect(withItems.totalPrice).toBe(sum([0.5, parent.totalPrice, 6]));

    // A second whole brief would repeat its lines.
    expectProblem(
      await post(admin, `/quotes/${quote.id}/quote-items`, { items: [{ briefId: pricedBrief.id }] }),
      409,
      'brief_already_in_quote',
    );
    // One more element of the same brief goes under the same parent.
    const more: Quote = (
      await post(admin, `/quotes/${quote.id}/quote-items`, {
        items: [{ briefElementId: pricedBrief.briefElements[0]!.id, quantity: 10, price: 0.5 }],
      })
    ).json();
    expect(more.items[1]!.children.map((c) => c.position)).toEqual([1, 2, 3]);

    // Removing a child: the parent and the quote follow.
    const child = more.items[1]!.children[2]!;
    const removed: Quote = (await del(admin, `/quotes/${quote.id}/quote-items/${child.id}`)).json();
    expect(removed.items[1]!.children).toHaveLength(2);
    expect(removed.totalPrice).toBe(withItems.totalPrice);

    // Removing the parent removes its children.
    const gone = await del(admin, `/quotes/${quote.id}/quote-items/${parent.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().items.map((i: Item) => i.articleId)).toEqual([articleId, articleId]);
    expect(gone.json().totalPrice).toBe(6.5);
    const deletedRows = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.relationId, quote.id), eq(events.type, 'DELETE')));
    expect(deletedRows.length).toBe(4);

    // The last child of a parent takes the parent with it.
    const single: Quote = (
      await post(admin, `/quotes/${quote.id}/quote-items`, {
        items: [{ briefElementId: pricedBrief.briefElements[1]!.id }],
      })
    ).json();
    const lone = single.items[2]!;
    const afterLone: Quote = (
      await del(admin, `/quotes/${quote.id}/quote-items/${lone.children[0]!.id}`)
    ).json();
    expect(afterLone.items).toHaveLength(2);

    // The last item stays.
    const first = afterLone.items[0]!;
    await del(admin, `/quotes/${quote.id}/quote-items/${afterLone.items[1]!.id}`);
    expectProblem(
      await del(admin, `/quotes/${quote.id}/quote-items/${first.id}`),
      422,
      'quote_without_items',
    );
    // An item of another quote is not found here.
    const another = await articleQuote();
    expectProblem(await del(admin, `/quotes/${quote.id}/quote-items/${another.items[0]!.id}`), 404);
  });
});

describe('the state machine', () => {
  it('draft -> published assigns a code, a default validity and locks the quote', async () => {
    const quote = await articleQuote();
    const published = await publish(quote);
    expect(published.state).toBe('published');
    expect(published.code).toMatch(/^Q-\d{4}-\d{5}$/);
    expect(published.code!.slice(2, 6)).toBe(String(new Date().getUTCFullYear()));
    expect(published.publishedAt).toEqual(expect.any(String));
    const days =
      (Date.parse(published.validUntil!) - Date.parse(published.publishedAt as string)) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);
    expectProblem(await put(admin, `/quotes/${quote.id}`, { name: 'Changed' }), 409, 'quote_locked');
    expectProblem(
      await post(admin, `/quotes/${quote.id}/quote-items`, { items: [{ articleId, quantity: 1 }] }),
      409,
      'quote_locked',
    );
    expectProblem(
      await del(admin, `/quotes/${quote.id}/quote-items/${quote.items[0]!.id}`),
      409,
      'quote_locked',
    );
    const event = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, quote.id), eq(events.fieldName, 'state')));
    expect(event).toHaveLength(1);
    expect(event[0]!.updatedColumns).toEqual(expect.arrayContaining(['state', 'code', 'publishedAt']));
  });

  it('publishing prices items whose brief has been priced since they were added', async () => {
    const brief = await createBrief({ name: 'Priced later' }, '/api/briefs/async');
    const quote = await createQuote({ briefIds: [brief.id] });
    expect(quote.items[0]!.valid).toBe(false);
    // The brief gets priced (its pricing job runs).
    await quotesModuleBriefPricing(brief.id);
    const published = await publish(quote);
    expect(published.items[0]!.children[0]!).toMatchObject({ valid: true, priceSource: 'prediction' });
    expect(published.totalPrice).toBeGreaterThan(0);
  });

  it('a validity in the past cannot be published', async () => {
    const quote = await createQuote({ validUntil: '2001-01-01', items: [{ articleId, quantity: 1 }] });
    expectProblem(
      await put(admin, `/quotes/${quote.id}`, { state: 'published' }),
      422,
      'validity_passed',
      '/validUntil',
    );
  });

  it('published -> signed by the contact of the company (accept)', async () => {
    const quote = await publish(await articleQuote());
    expectProblem(await post(globexContact, `/api/quotes/${quote.id}/accept`), 404);
    // A buyer signs with a typed name and an explicit confirmation (test/acceptances/api.test.ts).
    const signed = await post(contact, `/api/quotes/${quote.id}/accept`, {
      typedName: 'Ann Buyer',
      confirm: true,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({
      state: 'signed',
      respondedById: contact.userId,
      signedAt: expect.any(String),
    });
  });

  it('published -> rejected by the contact with a reason (decline)', async () => {
    const quote = await publish(await articleQuote());
    const rejected = await post(contact, `/api/quotes/${quote.id}/decline`, { reason: 'Too expensive' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      state: 'rejected',
      rejectionReason: 'Too expensive',
      rejectedAt: expect.any(String),
    });
  });

  it('sales respond too, with PUT state signed or rejected (the spec style) or the actions', async () => {
    const a = await publish(await articleQuote());
    expect((await put(sales, `/quotes/${a.id}`, { state: 'signed' })).json().state).toBe('signed');
    const b = await publish(await articleQuote());
    const rejected = await put(sales, `/quotes/${b.id}`, {
      state: 'rejected',
      rejectionReason: 'Lost to competitor',
    });
    expect(rejected.json()).toMatchObject({ state: 'rejected', rejectionReason: 'Lost to competitor' });
    const c = await publish(await articleQuote());
    expect((await post(sales, `/quotes/${c.id}/decline`)).json().state).toBe('rejected');
    expectProblem(
      await put(sales, `/quotes/${c.id}`, { rejectionReason: 'x' }),
      400,
      'validation_failed',
      '/rejectionReason',
    );
  });

  it('refuses every other transition with 409 invalid_transition', async () => {
    const draft = await articleQuote();
    for (const state of ['signed', 'rejected', 'expired']) {
      expectProblem(await put(admin, `/quotes/${draft.id}`, { state }), 409, 'invalid_transition');
    }
    expectProblem(await post(admin, `/quotes/${draft.id}/accept`), 409, 'invalid_transition');
    expectProblem(await post(admin, `/quotes/${draft.id}/decline`), 409, 'invalid_transition');

    const published = await publish(await articleQuote());
    for (const state of ['draft', 'published', 'expired']) {
      expectProblem(await put(admin, `/quotes/${published.id}`, { state }), 409, 'invalid_transition');
    }
    expectProblem(
      await put(admin, `/quotes/${published.id}`, { state: 'signed', name: 'x' }),
      409,
      'quote_locked',
    );

    const signed = await publish(await articleQuote());
    await post(admin, `/quotes/${signed.id}/accept`);
    for (const state of ['draft', 'published', 'rejected', 'expired', 'signed']) {
      expectProblem(await put(admin, `/quotes/${signed.id}`, { state }), 409, 'invalid_transition');
    }
    expectProblem(await post(admin, `/quotes/${signed.id}/decline`), 409, 'invalid_transition');

    const rejected = await publish(await articleQuote());
    await post(admin, `/quotes/${rejected.id}/decline`);
    for (const state of ['draft', 'published', 'signed', 'expired']) {
      expectProblem(await put(admin, `/quotes/${rejected.id}`, { state }), 409, 'invalid_transition');
    }
    expectProblem(await post(admin, `/quotes/${rejected.id}/accept`), 409, 'invalid_transition');

    const expired = await publish(await articleQuote());
    await validityPassed(expired.id);
    expectProblem(await post(contact, `/quotes/${expired.id}/accept`), 409, 'invalid_transition');
    for (const state of ['draft', 'published', 'signed', 'rejected']) {
      expectProblem(await put(admin, `/quotes/${expired.id}`, { state }), 409, 'invalid_transition');
    }
    expect((await get(admin, `/quotes/${expired.id}`)).json().state).toBe('expired');
    expectProblem(
      await put(admin, `/quotes/${draft.id}`, { state: 'archived' }),
      400,
      'validation_failed',
      '/state',
    );
  });

  it('revisions: a published quote is duplicated into a new draft (version + 1, parentQuoteId)', async () => {
    const draft = await createQuote({ briefIds: [pricedBrief.id], items: [{ articleId, quantity: 2 }] });
    expectProblem(await post(admin, `/api/quotes/${draft.id}/revisions`), 409, 'invalid_transition');
    const published = await publish(draft);
    const response = await post(admin, `/api/quotes/${published.id}/revisions`);
    expect(response.statusCode, response.body).toBe(201);
    const revision: Quote = response.json();
    expect(revision).toMatchObject({
      state: 'draft',
      code: null,
      version: 2,
      parentQuoteId: published.id,
      totalPrice: published.totalPrice,
    });
    const shape = (q: Quote) =>
      q.items.map((i) => [
        i.briefId,
        i.articleId,
        i.totalPrice,
        i.children.map((c) => [c.briefElementId, c.price, c.quantity]),
      ]);
    expect(shape(revision)).toEqual(shape(published));
    expect(revision.items[0]!.id).not.toBe(published.items[0]!.id);
    expect(revision.items[0]!.children[0]!.parentId).toBe(revision.items[0]!.id);
    // The revision is a draft: editable, and publishing gives it a code of its own.
    expect((await put(admin, `/quotes/${revision.id}`, { name: 'Second offer' })).statusCode).toBe(200);
    const second = await publish(revision);
    expect(second.code).not.toBe(published.code);
    // Revising the original again continues the lineage's numbering.
    const third: Quote = (await post(admin, `/api/quotes/${published.id}/revisions`)).json();
    expect(third.version).toBe(3);
    expect((await get(admin, `/quotes/${published.id}`)).json().state).toBe('published');
  });
});

/** Prices a pending brief as its background job would (the test app runs no workers). */
async function quotesModuleBriefPricing(briefId: string) {
  const { briefsModule } = await import('../../src/modules/briefs/module.ts');
  const { predictor } = briefsModule.services(t.app.ctx);
  const [row] = await t.app.ctx.db
    .execute(sql`select revision from briefs where id = ${briefId}`)
    .then(
      (r) =>
        (r as unknown as { rows?: { revision: number }[] }).rows ?? (r as unknown as { revision: number }[]),
    );
  await predictor.run({
    data: { briefId, organisationId: admin.organisationId, revision: row!.revision },
  } as never);
  const status = (await get(admin, `/briefs/${briefId}`)).json().predictionStatus;
  expect(status).toBe('COMPLETED');
}

describe('codes under concurrent publishes', () => {
  it('10 quotes published at once get 10 distinct, consecutive codes', async () => {
    const drafts = [];
    for (let i = 0; i < 10; i++) drafts.push(await articleQuote(i + 1));
    const responses = await Promise.all(
      drafts.map((q) => put(admin, `/api/quotes/${q.id}`, { state: 'published' })),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const codes = responses.map((r) => r.json().code as string);
    expect(new Set(codes).size).toBe(10);
    const numbers = codes.map((c) => Number(c.split('-')[2])).sort((a, b) => a - b);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBe(numbers[i - 1]! + 1);
    // The other tenant counts on its own.
    const otherCompany = await post(other, '/api/companies', { name: 'Other Co' });
    const [otherArticle] = await t.app.ctx.db
      .insert(articles)
      .values({
        organisationId: other.organisationId,
        companyId: otherCompany.json().id,
        name: 'X',
        code: 'X-1',
        price: 1,
      })
      .returning();
    const otherQuote = await createQuote(
      { companyId: otherCompany.json().id, items: [{ articleId: otherArticle!.id, quantity: 1 }] },
      other,
    );
    expect((await publish(otherQuote, other)).code).toMatch(/-00001$/);
  });
});

describe('expiry', () => {
  it('the scheduled job expires published quotes past validUntil, with an event', async () => {
    const schedules = await t.app.ctx.jobs.boss.getSchedules();
    expect(schedules.find((s) => s.name === EXPIRE_JOB)).toMatchObject({ cron: EXPIRE_CRON });
    const due = await publish(await articleQuote());
    const fresh = await publish(await articleQuote());
    await validityPassed(due.id);
    await expireJobHandler(t.app.ctx, quotesModule.services(t.app.ctx).quotes)();
    const [row] = await t.app.ctx.db.select().from(quotes).where(eq(quotes.id, due.id));
    expect(row).toMatchObject({ state: 'expired', expiredAt: expect.any(Date) });
    const [untouched] = await t.app.ctx.db.select().from(quotes).where(eq(quotes.id, fresh.id));
    expect(untouched!.state).toBe('published');
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(
        and(
          eq(events.entityId, due.id),
          eq(events.fieldName, 'state'),
          sql`${events.updatedColumns} @> '["expiredAt"]'`,
        ),
      );
    expect(event).toMatchObject({ type: 'UPDATE', actorId: null, organisationId: admin.organisationId });
    // A second run finds nothing more for this quote.
    await quotesModule.services(t.app.ctx).quotes.expireDue();
    const count = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, due.id), eq(events.fieldName, 'state')));
    expect(count).toHaveLength(2);
  });

  it('is applied on read: a quote past its validity never reads as published', async () => {
    const quote = await publish(await articleQuote());
    await validityPassed(quote.id);
    const read = (await get(contact, `/quotes/${quote.id}`)).json();
    expect(read).toMatchObject({ state: 'expired', expiredAt: expect.any(String) });
    const other = await publish(await articleQuote());
    await validityPassed(other.id);
    const listed = (await get(admin, '/quotes?status=published&limit=100'))
      .json()
      .data.map((q: Quote) => q.id);
    expect(listed).not.toContain(other.id);
    const expired = (await get(admin, '/quotes?status=expired&limit=100'))
      .json()
      .data.map((q: Quote) => q.id);
    expect(expired).toContain(other.id);
  });
});

describe('conversion to an order', () => {
  it('makes the order of a signed quote once, items mirroring the quote items', async () => {
    const quote = await createQuote({
      briefIds: [pricedBrief.id],
      items: [{ articleId, quantity: 40 }],
      addressId,
      projectId,
    });
    await publish(quote);
    expectProblem(await post(admin, `/api/quotes/${quote.id}/order`), 409, 'quote_not_signed');
    await post(contact, `/api/quotes/${quote.id}/accept`, { typedName: 'Ann Buyer', confirm: true });
    const response = await post(admin, `/api/quotes/${quote.id}/order`);
    expect(response.statusCode, response.body).toBe(201);
    const { quote: after, order } = response.json();
    expect(after.orderId).toBe(order.id);
    expect(order).toMatchObject({
      companyId: acmeId,
      projectId,
      shippingAddressId: addressId,
      billedAmount: quote.totalPrice,
      itemsTotal: quote.totalPrice,
    });

    const items = order.items as {
      id: string;
      parentId: string | null;
      articleId: string | null;
      article: { code: string } | null;
      quantity: number;
      unitPrice: number | null;
      totalPrice: number;
      unit: string | null;
      position: number;
    }[];
    const roots = items.filter((i) => !i.parentId);
    expect(roots).toHaveLength(2);
    const group = roots.find((r) => r.articleId === null)!;
    const articleLine = roots.find((r) => r.articleId === articleId)!;
    expect(articleLine).toMatchObject({ quantity: 40, unitPrice: 0.125, totalPrice: 5, position: 2 });
    const elementLines = items.filter((i) => i.parentId === group.id);
    const parent = quote.items[0]!;
    expect(elementLines).toHaveLength(parent.children.length);
    for (const child of parent.children) {
      const line = elementLines.find((l) => l.position === child.position)!;
      expect(line).toMatchObject({ quantity: child.quantity, unitPrice: child.price, unit: 'pieces' });
      expect(line.article!.code).toBe(`${after.code}-1.${child.position}`);
      const services = items.filter((i) => i.parentId === line.id);
      expect(sum(services.map((s) => s.totalPrice))).toBe(cents(child.toolingCost + child.deliveryCost));
      expect(cents(line.totalPrice + sum(services.map((s) => s.totalPrice)))).toBe(child.totalPrice);
    }
    const created = await t.app.ctx.db
      .select()
      .from(articles)
      .where(
        inArray(
          articles.briefElementId,
          pricedBrief.briefElements.map((e) => e.id),
        ),
      );
    expect(created.map((a) => a.briefElementId).sort()).toEqual(
      pricedBrief.briefElements.map((e) => e.id).sort(),
    );
    const lines = await t.app.ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(lines).toHaveLength(items.length);

    expectProblem(await post(admin, `/api/quotes/${quote.id}/order`), 409, 'already_converted');

    // The next quote of the same brief reuses the articles.
    const again = await createQuote({ briefIds: [pricedBrief.id] });
    await publish(again);
    await post(admin, `/quotes/${again.id}/accept`);
    const second = (await post(admin, `/quotes/${again.id}/order`)).json();
    const codes = second.order.items
      .filter((i: { article: unknown }) => i.article)
      .map((i: { article: { code: string } }) => i.article.code);
    expect(codes.sort()).toEqual([`${after.code}-1.1`, `${after.code}-1.2`]);
  });

  it('takes the custom fields of the order, required ones included', async () => {
    const field = await post(admin, '/api/custom-fields', {
      entity: 'order',
      key: 'poNumber',
      label: 'PO number',
      type: 'string',
      required: true,
    });
    expect(field.statusCode, field.body).toBe(201);
    const quote = await publish(await articleQuote());
    await post(contact, `/quotes/${quote.id}/accept`, { typedName: 'Ann Buyer', confirm: true });
    expectProblem(
      await post(admin, `/quotes/${quote.id}/order`),
      400,
      'invalid_custom_fields',
      '/customFields/poNumber',
    );
    expect((await get(admin, `/quotes/${quote.id}`)).json().orderId).toBeNull();
    const converted = await post(admin, `/quotes/${quote.id}/order`, { customFields: { poNumber: 'PO-1' } });
    expect(converted.statusCode, converted.body).toBe(201);
    expect(converted.json().order.customFields).toEqual({ poNumber: 'PO-1' });
    await request('DELETE', admin, `/api/custom-fields/${field.json().id}`);
  });
});

describe('roles and tenancy', () => {
  let acmeQuote: Quote;
  let globexQuote: Quote;
  beforeAll(async () => {
    acmeQuote = await articleQuote();
    globexQuote = await createQuote({
      companyId: globexId,
      items: [{ articleId: globexArticleId, quantity: 1 }],
    });
  });

  it('needs credentials', async () => {
    expectProblem(await get(null, '/quotes'), 401);
    expectProblem(await post(null, '/quotes', {}), 401);
  });

  it('guests read but do not write; contacts neither write nor see drafts', async () => {
    expect((await get(guest, `/quotes/${acmeQuote.id}`)).statusCode).toBe(200);
    expectProblem(
      await post(guest, '/quotes', { companyId: acmeId, items: [{ articleId, quantity: 1 }] }),
      403,
      'forbidden',
    );
    expectProblem(await post(guest, `/quotes/${acmeQuote.id}/accept`), 403);
    expectProblem(
      await post(contact, '/quotes', { companyId: acmeId, items: [{ articleId, quantity: 1 }] }),
      403,
    );
    expectProblem(await put(contact, `/quotes/${acmeQuote.id}`, { name: 'x' }), 403);
    expectProblem(await get(contact, `/quotes/${acmeQuote.id}`), 404);
    const published = await publish(await articleQuote());
    expect((await get(contact, `/quotes/${published.id}`)).statusCode).toBe(200);
    const listed = (await get(contact, '/quotes?limit=100')).json().data as Quote[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((q) => q.state !== 'draft' && q.companyId === acmeId)).toBe(true);
  });

  it('external sales work on the quotes of their companies only', async () => {
    expectProblem(await get(externalSales, `/quotes/${acmeQuote.id}`), 404);
    expect((await get(externalSales, `/quotes/${globexQuote.id}`)).statusCode).toBe(200);
    expectProblem(
      await post(externalSales, '/quotes', { companyId: acmeId, items: [{ articleId, quantity: 1 }] }),
      403,
    );
    const own = await createQuote(
      { companyId: globexId, items: [{ articleId: globexArticleId, quantity: 2 }] },
      externalSales,
    );
    expect(own.companyId).toBe(globexId);
    const listed = (await get(externalSales, '/quotes?limit=100')).json().data as Quote[];
    expect(listed.every((q) => q.companyId === globexId)).toBe(true);
  });

  it('another tenant’s quote answers 404, like a missing one', async () => {
    const id = acmeQuote.id;
    expectProblem(await get(other, `/quotes/${id}`), 404);
    expectProblem(await put(other, `/quotes/${id}`, { name: 'x' }), 404);
    expectProblem(await put(other, `/quotes/${id}`, { state: 'published' }), 404);
    expectProblem(
      await post(other, `/quotes/${id}/quote-items`, { items: [{ articleId, quantity: 1 }] }),
      404,
    );
    expectProblem(await del(other, `/quotes/${id}/quote-items/${acmeQuote.items[0]!.id}`), 404);
    expectProblem(await post(other, `/quotes/${id}/accept`), 404);
    expectProblem(await post(other, `/quotes/${id}/revisions`), 404);
    expectProblem(await post(other, `/quotes/${id}/order`), 404);
    expect((await get(other, '/quotes?limit=100')).json().data.map((q: Quote) => q.id)).not.toContain(id);
    // Their items cannot name this tenant's briefs or articles either.
    const company = await post(other, '/api/companies', { name: 'Elsewhere' });
    expectProblem(
      await post(other, '/quotes', { companyId: company.json().id, briefIds: [pricedBrief.id] }),
      422,
      'invalid_reference',
      '/briefIds/0',
    );
  });
});
