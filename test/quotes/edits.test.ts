/**
 * Editing a draft quote line by line (PATCH /quotes/{id}/quote-items/{itemId}) and the quote's own
 * fields (PATCH /quotes/{id}): every field, validation, roles, tenancy, events, totals, and the
 * order taking the edited cents. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, articles, companies, companyUsers, events } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { formatterFor } from '../../src/modules/quotes/i18n.ts';
import { UpdateItemBody } from '../../src/modules/quotes/schemas.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { carton } from '../helpers/briefs.ts';
import { type Ok, requests, type Schemas } from '../helpers/http.ts';
import { extractPdfText } from '../helpers/pdf-text.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let externalSales: Credentials;
let contact: Credentials;
let guest: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let globexId: string;
let globexAddressId: string;
let acmeAddressId: string;
let otherAddressId: string;
let articleId: string;
let briefId: string;

type Quote = Schemas['Quote'];
type Problem = Schemas['Problem'];

const { send: call } = requests(() => t);
const patchItem = (who: Credentials, quote: Quote, itemId: string, payload: unknown) =>
  call('PATCH', who, `/api/quotes/${quote.id}/quote-items/${itemId}`, payload);

function expectProblem(
  response: { statusCode: number; body: string; json: () => Problem },
  status: number,
  code?: string,
  pointer?: string,
) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  if (code) expect(body.code, response.body).toBe(code);
  if (pointer) expect((body.errors ?? []).map((e) => e.pointer)).toContain(pointer);
  return body;
}

function ok(response: { statusCode: number; body: string; json: () => unknown }): Quote {
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Quote;
}

const cents = (value: number) => Math.round(value * 100);
/** The quote's total as the sum of its counted root lines, in cents. */
const countedCents = (quote: Quote) =>
  quote.items.filter((i) => !i.optional).reduce((sum, i) => sum + cents(i.totalPrice), 0);

async function createQuote(payload: Record<string, unknown>): Promise<Quote> {
  const response = await call('POST', admin, '/api/quotes', { companyId: acmeId, ...payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Quote;
}
const articleLine = (quote: Quote) => quote.items.find((i) => i.articleId === articleId)!;
const elementLine = (quote: Quote) => quote.items.find((i) => i.children.length)!.children[0]!;

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
  const [otherCompany] = await db
    .insert(companies)
    .values({ organisationId: other.organisationId, name: 'Initech' })
    .returning();
  const [acmeAddress, globexAddress, otherAddress] = await db
    .insert(addresses)
    .values([
      {
        organisationId: admin.organisationId,
        companyId: acmeId,
        street1: '1 Rue',
        city: 'Paris',
        countryCode: 'FR',
      },
      {
        organisationId: admin.organisationId,
        companyId: globexId,
        street1: '2 St',
        city: 'Leeds',
        countryCode: 'GB',
      },
      {
        organisationId: other.organisationId,
        companyId: otherCompany!.id,
        street1: '3 Weg',
        city: 'Bonn',
        countryCode: 'DE',
      },
    ])
    .returning();
  acmeAddressId = acmeAddress!.id;
  globexAddressId = globexAddress!.id;
  otherAddressId = otherAddress!.id;
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  contact = await makeUser(t, admin, 'contact');
  externalSales = await makeUser(t, admin, 'external_sales');
  await db.insert(companyUsers).values([
    { companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId },
    { companyId: acmeId, userId: externalSales.userId, organisationId: admin.organisationId },
  ]);
  const [article] = await db
    .insert(articles)
    .values({
      organisationId: admin.organisationId,
      companyId: acmeId,
      name: 'Label',
      code: 'LBL',
      price: 0.1234,
    })
    .returning();
  articleId = article!.id;
  const brief = await call('POST', admin, '/api/briefs', {
    name: 'Tea box',
    companyId: acmeId,
    briefElements: [carton(catalogue, { quantity: 5000 })],
  });
  expect(brief.statusCode, brief.body).toBe(201);
  briefId = (brief.json() as { id: string }).id;
});
afterAll(() => t.close());

describe('PATCH /quotes/{id}/quote-items/{itemId}', () => {
  it('quantity of an article line: amount = quantity x unit price once, totals and events follow', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 10 }], briefIds: [briefId] });
    const line = articleLine(quote);
    const after = ok(await patchItem(sales, quote, line.id, { quantity: 777 }));
    const edited = articleLine(after);
    expect(edited).toMatchObject({
      quantity: 777,
      price: 0.1234,
      amount: 95.88,
      totalPrice: 95.88,
      valid: true,
    });
    expect(cents(after.totalPrice)).toBe(countedCents(after));
    expect(after.totalPrice).not.toBe(quote.totalPrice);

    const rows = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(inArray(events.entityId, [line.id, quote.id]), eq(events.type, 'UPDATE')))
      .orderBy(desc(events.code));
    const itemEvent = rows.find((e) => e.entityId === line.id)!;
    expect(itemEvent).toMatchObject({ entity: 'QUOTE_ITEM', relation: 'QUOTE', relationId: quote.id });
    expect(itemEvent.updatedColumns).toEqual(expect.arrayContaining(['quantity', 'amount', 'totalPrice']));
    const quoteEvent = rows.find((e) => e.entityId === quote.id)!;
    expect(quoteEvent.updatedColumns).toContain('totalPrice');
    expect(quoteEvent.updatedRelations).toEqual(['items']);
  });

  it('quantity of a brief element: priced again by the engine, as a brief of that quantity is', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    const line = elementLine(quote);
    expect(line.quantity).toBe(5000);
    const after = ok(await patchItem(admin, quote, line.id, { quantity: 8000 }));
    const edited = elementLine(after);
    // The same carton briefed at 8,000 is what the engine says of 8,000.
    const reference = await call('POST', admin, '/api/briefs', {
      name: 'Tea box 8000',
      companyId: acmeId,
      briefElements: [carton(catalogue, { quantity: 8000 })],
    });
    expect(reference.statusCode, reference.body).toBe(201);
    const priced = (await createQuote({ briefIds: [(reference.json() as { id: string }).id] })).items[0]!
      .children[0]!;
    expect(edited).toMatchObject({
      quantity: 8000,
      amount: priced.amount,
      price: priced.price,
      toolingCost: priced.toolingCost,
      deliveryCost: priced.deliveryCost,
      totalPrice: priced.totalPrice,
      priceSource: 'prediction',
      valid: true,
    });
    expect(edited.amount).not.toBe(line.amount);
    expect(after.items[0]!.totalPrice).toBe(edited.totalPrice);
    expect(after.totalPrice).toBe(edited.totalPrice);
  });

  it('a quantity the engine cannot make answers 422 repricing_failed and changes nothing', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    const line = elementLine(quote);
    expectProblem(
      await patchItem(admin, quote, line.id, { quantity: 1000.5 }),
      422,
      'repricing_failed',
      '/quantity',
    );
    const read = ok(await call('GET', admin, `/api/quotes/${quote.id}`));
    expect(elementLine(read)).toMatchObject({ quantity: 5000, totalPrice: line.totalPrice });
  });

  it('unit price override: the engine price stays beside it; staff see it and the margin, buyers never', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    const line = elementLine(quote);
    expect(line.enginePrice).toBe(line.price);
    expect(line.engineCost).toBeGreaterThan(0);
    expect(line.margin).toBe(Math.round((line.amount! - line.engineCost!) * 100) / 100);
    const after = ok(await patchItem(sales, quote, line.id, { price: 0.5 }));
    const edited = elementLine(after);
    expect(edited).toMatchObject({
      price: 0.5,
      amount: 2500,
      priceSource: 'manual',
      enginePrice: line.price,
      engineAmount: line.amount,
      engineCost: line.engineCost,
      toolingCost: line.toolingCost,
      totalPrice: Math.round((2500 + line.toolingCost + line.deliveryCost) * 100) / 100,
    });
    expect(edited.margin).toBe(Math.round((2500 - line.engineCost!) * 100) / 100);

    // External sales (no costs:read) edit but see the buyer's line.
    const asExternal = ok(await call('GET', externalSales, `/api/quotes/${quote.id}`));
    const seen = elementLine(asExternal);
    expect(seen.price).toBe(0.5);
    for (const key of ['enginePrice', 'engineAmount', 'engineCost', 'margin'])
      expect(seen).not.toHaveProperty(key);

    // null goes back to the engine's price.
    const back = elementLine(ok(await patchItem(admin, quote, line.id, { price: null })));
    expect(back).toMatchObject({ price: line.price, amount: line.amount, priceSource: 'prediction' });
    expect(back.totalPrice).toBe(line.totalPrice);
  });

  it('discount as a percentage or an amount, validated', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 1000 }] });
    const line = articleLine(quote);
    expect(line.amount).toBe(123.4);
    let after = ok(await patchItem(admin, quote, line.id, { discountPercent: 10 }));
    expect(articleLine(after)).toMatchObject({
      discountPercent: 10,
      discountAmount: null,
      totalPrice: 111.06,
    });
    expect(after.totalPrice).toBe(111.06);
    // An amount replaces the percentage.
    after = ok(await patchItem(admin, quote, line.id, { discountAmount: 23.4 }));
    expect(articleLine(after)).toMatchObject({
      discountPercent: null,
      discountAmount: 23.4,
      totalPrice: 100,
    });
    expect(after.totalPrice).toBe(100);

    expectProblem(
      await patchItem(admin, quote, line.id, { discountPercent: 5, discountAmount: 1 }),
      400,
      'validation_failed',
      '/discountAmount',
    );
    expectProblem(await patchItem(admin, quote, line.id, { discountPercent: -1 }), 400, 'validation_failed');
    expectProblem(await patchItem(admin, quote, line.id, { discountPercent: 101 }), 400, 'validation_failed');
    expectProblem(await patchItem(admin, quote, line.id, { discountAmount: -5 }), 400, 'validation_failed');
    expectProblem(
      await patchItem(admin, quote, line.id, { discountAmount: 123.41 }),
      422,
      'invalid_discount',
      '/discountAmount',
    );
    // A lower quantity that would put the kept discount above the line is refused too.
    expectProblem(await patchItem(admin, quote, line.id, { quantity: 10 }), 422, 'invalid_discount');
    const cleared = ok(await patchItem(admin, quote, line.id, { discountAmount: null }));
    expect(articleLine(cleared).totalPrice).toBe(123.4);
  });

  it('comment, group label and optional: an optional line is shown but not counted', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 100 }], briefIds: [briefId] });
    const line = articleLine(quote);
    let after = ok(
      await patchItem(admin, quote, line.id, { comment: 'Printed both sides', groupLabel: 'Extras' }),
    );
    expect(articleLine(after)).toMatchObject({ comment: 'Printed both sides', groupLabel: 'Extras' });
    expect(after.totalPrice).toBe(quote.totalPrice);
    after = ok(await patchItem(admin, quote, line.id, { optional: true }));
    expect(articleLine(after)).toMatchObject({ optional: true, totalPrice: 12.34 });
    expect(cents(after.totalPrice)).toBe(cents(quote.totalPrice) - 1234);
    expect(cents(after.totalPrice)).toBe(countedCents(after));
    after = ok(await patchItem(admin, quote, line.id, { optional: false, comment: null }));
    expect(articleLine(after)).toMatchObject({ optional: false, comment: null });
    expect(after.totalPrice).toBe(quote.totalPrice);
  });

  it('position moves a line among its siblings and renumbers them', async () => {
    const quote = await createQuote({
      items: [
        { articleId, quantity: 1 },
        { articleId, quantity: 2 },
        { articleId, quantity: 3 },
      ],
    });
    const [a, b, c] = quote.items;
    const after = ok(await patchItem(admin, quote, c!.id, { position: 1 }));
    expect(after.items.map((i) => [i.id, i.position])).toEqual([
      [c!.id, 1],
      [a!.id, 2],
      [b!.id, 3],
    ]);
    const last = ok(await patchItem(admin, quote, c!.id, { position: 99 }));
    expect(last.items.map((i) => i.id)).toEqual([a!.id, b!.id, c!.id]);
    const moved = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, a!.id), eq(events.type, 'UPDATE')));
    expect(moved.some((e) => (e.updatedColumns ?? []).includes('position'))).toBe(true);
  });

  it('refuses what is not a valid edit (404, 400, 422)', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 10 }], briefIds: [briefId] });
    const line = articleLine(quote);
    const group = quote.items.find((i) => i.children.length)!;
    const another = await createQuote({ items: [{ articleId, quantity: 10 }] });
    expectProblem(await patchItem(admin, quote, line.id, { quantity: -1 }), 400, 'validation_failed');
    expectProblem(await patchItem(admin, quote, line.id, { quantity: 0 }), 400, 'validation_failed');
    expectProblem(await patchItem(admin, quote, line.id, {}), 400, 'validation_failed');
    expectProblem(await patchItem(admin, quote, line.id, { reference: 'x' }), 400, 'validation_failed');
    expectProblem(
      await patchItem(admin, quote, line.id, { name: 'x'.repeat(201) }),
      400,
      'validation_failed',
      '/name',
    );
    expectProblem(await patchItem(admin, quote, crypto.randomUUID(), { quantity: 1 }), 404, 'not_found');
    expectProblem(await patchItem(admin, quote, another.items[0]!.id, { quantity: 1 }), 404, 'not_found');
    expectProblem(await patchItem(other, quote, line.id, { quantity: 1 }), 404, 'not_found');
    expectProblem(
      await patchItem(admin, quote, group.id, { quantity: 3 }),
      422,
      'line_not_priced',
      '/quantity',
    );
    // A group line takes a comment, a label, a position.
    expect(ok(await patchItem(admin, quote, group.id, { comment: 'Boxes' })).items).toBeDefined();
  });

  it('only staff edit, and only a draft (contact and guest 403, published 409)', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 10 }] });
    const line = articleLine(quote);
    expectProblem(await patchItem(guest, quote, line.id, { quantity: 2 }), 403, 'forbidden');
    const published = ok(await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' }));
    expect(published.state).toBe('published');
    expectProblem(await patchItem(contact, quote, line.id, { quantity: 2 }), 403, 'forbidden');
    expectProblem(await call('PATCH', contact, `/api/quotes/${quote.id}`, { name: 'x' }), 403, 'forbidden');
    // Every field of the line's PATCH is refused once published, and the line stays as it was.
    const before = articleLine(ok(await call('GET', admin, `/api/quotes/${quote.id}`)));
    const payloads: Record<string, unknown>[] = [
      { quantity: 2 },
      { price: 1 },
      { price: null },
      { discountPercent: 5 },
      { discountAmount: 0.1 },
      { comment: 'x' },
      { optional: true },
      { position: 1 },
      { groupLabel: 'Heading' },
      { name: 'Renamed' },
      { priceBreaks: [{ quantity: 20 }] },
    ];
    expect(new Set(payloads.flatMap((p) => Object.keys(p)))).toEqual(
      new Set(Object.keys(UpdateItemBody.properties)),
    );
    for (const payload of payloads) {
      expectProblem(await patchItem(admin, quote, line.id, payload), 409, 'quote_locked');
    }
    expect(articleLine(ok(await call('GET', admin, `/api/quotes/${quote.id}`)))).toEqual(before);
    // The contact reads the published quote without the seller's fields.
    const seen = articleLine(ok(await call('GET', contact, `/api/quotes/${quote.id}`)));
    expect(seen).not.toHaveProperty('enginePrice');
    expect(seen).not.toHaveProperty('margin');
  });

  it('the order takes the edited cents: override, discount, optional line left out', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 333 }], briefIds: [briefId] });
    const element = elementLine(quote);
    await patchItem(admin, quote, element.id, { price: 0.3333, discountPercent: 7.5 });
    const extra = ok(
      await call('POST', admin, `/api/quotes/${quote.id}/quote-items`, {
        items: [{ articleId, quantity: 50 }],
      }),
    );
    const optional = extra.items.find((i) => i.articleId === articleId && i.quantity === 50)!;
    const edited = ok(await patchItem(admin, quote, optional.id, { optional: true }));
    expect(cents(edited.totalPrice)).toBe(countedCents(edited));
    await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    await call('POST', admin, `/api/quotes/${quote.id}/accept`);
    const converted = await call('POST', admin, `/api/quotes/${quote.id}/order`);
    expect(converted.statusCode, converted.body).toBe(201);
    const { order } = converted.json() as Ok<'/api/quotes/{id}/order', 'post'>;
    expect(order.billedAmount).toBe(edited.totalPrice);
    expect(order.itemsTotal).toBe(edited.totalPrice);
    expect(order.items.some((i) => i.quantity === 50)).toBe(false);
  });
});

describe('the PDF of an edited quote', () => {
  it('prints the lines’ cents, says the discount and that an optional line is not in the total', async () => {
    const quote = await createQuote({
      items: [
        { articleId, quantity: 1000 },
        { articleId, quantity: 20 },
      ],
      briefIds: [briefId],
    });
    const [discounted, extra] = quote.items.filter((i) => i.articleId === articleId);
    await patchItem(admin, quote, discounted!.id, { discountPercent: 12.5 });
    const edited = ok(await patchItem(admin, quote, extra!.id, { optional: true }));
    ok(await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' }));
    const pdf = await call('POST', admin, `/api/quotes/${quote.id}/generate-pdf`, { localisationId: 'en' });
    expect(pdf.statusCode, pdf.body).toBe(201);
    const text = extractPdfText(pdf.rawPayload);
    const money = formatterFor('en', 'EUR').money;
    // 1,000 x 0.1234 = 123.40, less 12.5 % (15.43): 107.97.
    expect(edited.items.find((i) => i.id === discounted!.id)!.totalPrice).toBe(107.97);
    expect(text).toContain(money(107.97));
    expect(text).toContain(`Discount 12.5 % (${money(-15.43)})`);
    expect(text).toContain('Option, not included in the total');
    expect(text).toContain(money(edited.totalPrice));
    expect(cents(edited.totalPrice)).toBe(countedCents(edited));
  });
});

describe('PATCH /quotes/{id}', () => {
  it('edits the draft’s own fields; another company’s or tenant’s address 422; published 409', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 10 }] });
    const after = ok(
      await call('PATCH', sales, `/api/quotes/${quote.id}`, {
        name: 'Spring boxes',
        validUntil: '2099-06-30',
        contactId: contact.userId,
        addressId: acmeAddressId,
      }),
    );
    expect(after).toMatchObject({
      name: 'Spring boxes',
      contactId: contact.userId,
      addressId: acmeAddressId,
    });
    expect(after.validUntil?.startsWith('2099-06-30')).toBe(true);
    const cleared = ok(await call('PATCH', sales, `/api/quotes/${quote.id}`, { validUntil: null }));
    expect(cleared).toMatchObject({ validUntil: null, name: 'Spring boxes' });

    expectProblem(
      await call('PATCH', admin, `/api/quotes/${quote.id}`, { addressId: globexAddressId }),
      422,
      'address_company_mismatch',
    );
    // Another tenant's address is, to this tenant, one that does not exist.
    expectProblem(
      await call('PATCH', admin, `/api/quotes/${quote.id}`, { addressId: otherAddressId }),
      422,
      'invalid_reference',
      '/addressId',
    );
    expectProblem(await call('PATCH', admin, `/api/quotes/${quote.id}`, { state: 'published' }), 400);
    expectProblem(await call('PATCH', other, `/api/quotes/${quote.id}`, { name: 'x' }), 404, 'not_found');
    await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' });
    expectProblem(await call('PATCH', admin, `/api/quotes/${quote.id}`, { name: 'x' }), 409, 'quote_locked');
  });
});
