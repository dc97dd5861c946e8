/**
 * Price-break columns of quote lines (docs/quotes.md, "Price breaks"): added, replaced and removed
 * through PATCH /quotes/{id}/quote-items/{itemId} (validated, evented, draft only), priced by the
 * engine per quantity under the rounding rule, the buyer's view without the seller's fields, the
 * PDF's columns, and the buyer's choice at acceptance that the order takes. Runs on PGlite, and
 * on PostgreSQL with DATABASE_URL.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles, companies, companyUsers, events } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { formatterFor } from '../../src/modules/quotes/i18n.ts';
import { priceElementAt } from '../../src/modules/quotes/reprice.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { carton } from '../helpers/briefs.ts';
import { type Ok, requests, type Schemas } from '../helpers/http.ts';
import { extractPdfText } from '../helpers/pdf-text.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let contact: Credentials;
let externalSales: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let articleId: string;
let briefId: string;

type Column = Quote['priceBreakColumns'][number];
type Quote = Schemas['Quote'];
type Problem = Schemas['Problem'];

const { send: call } = requests(() => t);
const patchItem = (who: Credentials, quote: Quote, itemId: string, payload: unknown) =>
  call('PATCH', who, `/api/quotes/${quote.id}/quote-items/${itemId}`, payload);
const breaks = (...quantities: number[]) => ({ priceBreaks: quantities.map((quantity) => ({ quantity })) });

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
async function createQuote(payload: Record<string, unknown>): Promise<Quote> {
  const response = await call('POST', admin, '/api/quotes', { companyId: acmeId, ...payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Quote;
}
const elementLine = (quote: Quote) => quote.items.find((i) => i.children.length)!.children[0]!;
const articleLine = (quote: Quote) => quote.items.find((i) => i.articleId === articleId)!;
const cents = (value: number) => Math.round(value * 100);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const db = t.app.ctx.db;
  const [acme] = await db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Acme' })
    .returning();
  acmeId = acme!.id;
  sales = await makeUser(t, admin, 'sales');
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

describe('price-break columns of a line', () => {
  it('a brief element: each column priced by the engine at its quantity (cents), evented, staff see costs', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    const line = elementLine(quote);
    const after = ok(await patchItem(sales, quote, line.id, breaks(10000, 1000, 5000, 2500)));
    const edited = elementLine(after);
    expect(edited.priceBreaks.map((b) => b.quantity)).toEqual([1000, 2500, 5000, 10000]);
    // The line itself is unchanged; the column of its own quantity is the line.
    expect(edited.totalPrice).toBe(line.totalPrice);
    expect(after.totalPrice).toBe(quote.totalPrice);
    const own = edited.priceBreaks.find((b) => b.quantity === 5000)!;
    expect(own).toMatchObject({ amount: line.amount, totalPrice: line.totalPrice, currency: 'EUR' });
    // Another column is the engine's price at that quantity, as a quantity edit prices it.
    const engine = await priceElementAt(
      t.app.ctx.db,
      admin.organisationId,
      { briefId, briefElementId: line.briefElementId!, currency: 'EUR' },
      1000,
    );
    const small = edited.priceBreaks[0]!;
    expect(cents(small.amount)).toBe(cents(engine.amount));
    expect(small.unitPrice).toBe(Math.round((small.amount / 1000) * 10000) / 10000);
    expect(cents(small.totalPrice)).toBe(
      cents(small.amount) + cents(small.toolingCost) + cents(small.deliveryCost),
    );
    // More quantity, lower unit price.
    const units = edited.priceBreaks.map((b) => b.unitPrice);
    expect([...units].sort((a, b) => b - a)).toEqual(units);
    expect(small.engineCost).toEqual(expect.any(Number));
    expect(small.margin).toBe(Math.round((small.amount - small.engineCost!) * 100) / 100);
    // The quote's columns: the line's columns (the only counted line of the quote).
    expect(after.priceBreakColumns.map((c) => [c.id, c.quantity, c.totalPrice])).toEqual(
      edited.priceBreaks.map((b, i) => [String(i + 1), b.quantity, b.totalPrice]),
    );

    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, line.id), eq(events.type, 'UPDATE')))
      .orderBy(desc(events.code))
      .limit(1);
    expect(event).toMatchObject({ entity: 'QUOTE_ITEM', relation: 'QUOTE', relationId: quote.id });
    expect(event!.updatedColumns).toContain('priceBreaks');

    // Replacing the set keeps the columns still offered (same id), prices the new ones, [] removes them.
    const replaced = elementLine(ok(await patchItem(sales, quote, line.id, breaks(2500, 20000))));
    expect(replaced.priceBreaks.map((b) => b.quantity)).toEqual([2500, 20000]);
    expect(replaced.priceBreaks[0]!.id).toBe(edited.priceBreaks[1]!.id);
    // A discount of the line applies to every column.
    const discounted = elementLine(ok(await patchItem(sales, quote, line.id, { discountPercent: 10 })));
    for (const column of discounted.priceBreaks) {
      expect(column.discount).toBe(Math.round(column.amount * 10) / 100);
      expect(cents(column.totalPrice)).toBe(
        cents(column.amount) -
          cents(column.discount) +
          cents(column.toolingCost) +
          cents(column.deliveryCost),
      );
    }
    const removed = ok(await patchItem(sales, quote, line.id, { priceBreaks: [] }));
    expect(elementLine(removed).priceBreaks).toEqual([]);
    expect(removed.priceBreakColumns).toEqual([]);
  });

  it('an article line: the unit price at each quantity, rounded once', async () => {
    const quote = await createQuote({ items: [{ articleId, quantity: 1000 }] });
    const after = ok(await patchItem(admin, quote, articleLine(quote).id, breaks(777, 1000)));
    expect(articleLine(after).priceBreaks.map((b) => [b.quantity, b.unitPrice, b.amount])).toEqual([
      [777, 0.1234, 95.88],
      [1000, 0.1234, 123.4],
    ]);
  });

  it('validation: distinct positive quantities, at most 6, priced lines only; nothing changes', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    const line = elementLine(quote);
    const group = quote.items[0]!;
    expectProblem(
      await patchItem(admin, quote, line.id, breaks(1000, 1000)),
      400,
      'validation_failed',
      '/priceBreaks/1/quantity',
    );
    expectProblem(await patchItem(admin, quote, line.id, breaks(0)), 400, 'validation_failed');
    expectProblem(await patchItem(admin, quote, line.id, breaks(-5)), 400, 'validation_failed');
    expectProblem(
      await patchItem(admin, quote, line.id, breaks(1, 2, 3, 4, 5, 6, 7)),
      400,
      'validation_failed',
    );
    expectProblem(await patchItem(admin, quote, line.id, { priceBreaks: [{ quantity: 10, price: 1 }] }), 400);
    expectProblem(
      await patchItem(admin, quote, line.id, breaks(1500.5)),
      422,
      'repricing_failed',
      '/priceBreaks/0/quantity',
    );
    expectProblem(
      await patchItem(admin, quote, group.id, breaks(1000)),
      422,
      'line_not_priced',
      '/priceBreaks',
    );
    // Roles and tenancy: a buyer may not, another tenant gets 404.
    expectProblem(await patchItem(contact, quote, line.id, breaks(1000)), 403);
    expectProblem(await patchItem(other, quote, line.id, breaks(1000)), 404);
    const unchanged = ok(await call('GET', admin, `/api/quotes/${quote.id}`));
    expect(elementLine(unchanged).priceBreaks).toEqual([]);
  });

  it('refused once published (409 quote_locked); the buyer sees the columns without the seller’s fields', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    const line = elementLine(quote);
    ok(await patchItem(externalSales, quote, line.id, breaks(1000, 5000)));
    ok(await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' }));
    expectProblem(await patchItem(admin, quote, line.id, breaks(1000)), 409, 'quote_locked');
    const seen = ok(await call('GET', contact, `/api/quotes/${quote.id}`));
    const column = elementLine(seen).priceBreaks[0]!;
    expect(Object.keys(column).sort()).toEqual(
      [
        'amount',
        'currency',
        'deliveryCost',
        'discount',
        'id',
        'quantity',
        'toolingCost',
        'totalPrice',
        'unitPrice',
      ].sort(),
    );
    expect(seen.priceBreakColumns).toHaveLength(2);
  });
});

describe('choosing a column when accepting', () => {
  async function published(quantities: number[]) {
    const quote = await createQuote({ briefIds: [briefId] });
    ok(await patchItem(admin, quote, elementLine(quote).id, breaks(...quantities)));
    return ok(await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' }));
  }
  const accept = (who: Credentials, quote: Quote, extra: Record<string, unknown> = {}) =>
    call('POST', who, `/api/quotes/${quote.id}/accept`, { typedName: 'Ada Buyer', confirm: true, ...extra });

  it('the buyer’s column is recorded and the order takes its quantity and amounts', async () => {
    const quote = await published([1000, 2500, 10000]);
    const column = quote.priceBreakColumns[1]!;
    const chosen = elementLine(quote).priceBreaks[1]!;
    const accepted = await accept(contact, quote, { option: { id: column.id, quantity: 2500 } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const evidence = (
      await call('GET', contact, `/api/quotes/${quote.id}/acceptance`)
    ).json() as Ok<'/api/quotes/{id}/acceptance'>;
    expect(evidence.option).toEqual({
      id: '2',
      position: 2,
      quantity: 2500,
      totalPrice: column.totalPrice,
      currency: 'EUR',
    });
    const converted = await call('POST', admin, `/api/quotes/${quote.id}/order`);
    expect(converted.statusCode, converted.body).toBe(201);
    const { order } = converted.json() as Ok<'/api/quotes/{id}/order', 'post'>;
    expect(order.billedAmount).toBe(column.totalPrice);
    expect(order.itemsTotal).toBe(column.totalPrice);
    const flat = JSON.stringify(order.items);
    expect(flat).toContain('"quantity":2500');
    expect(flat).toContain(`"totalPrice":${chosen.amount}`);
    expect(flat).not.toContain('"quantity":5000');
  });

  it('a line’s column id or the quantity alone also names it; one column is taken without asking', async () => {
    const quote = await published([1000, 2500]);
    const lineColumn = elementLine(quote).priceBreaks[0]!;
    expect((await accept(contact, quote, { option: { id: lineColumn.id } })).statusCode).toBe(200);
    const evidence = (await call('GET', admin, `/api/quotes/${quote.id}/acceptance`)).json() as {
      option: { position: number };
    };
    expect(evidence.option.position).toBe(1);

    const byQuantity = await published([1000, 2500]);
    expect((await accept(contact, byQuantity, { option: { quantity: 2500 } })).statusCode).toBe(200);

    const single = await published([2500]);
    expect((await accept(contact, single)).statusCode).toBe(200);
    const order = (await call('POST', admin, `/api/quotes/${single.id}/order`)).json() as Ok<
      '/api/quotes/{id}/order',
      'post'
    >;
    expect(order.order.billedAmount).toBe(single.priceBreakColumns[0]!.totalPrice);
  });

  it('a bad or missing option: 422 invalid_price_break_option, the quote stays published', async () => {
    const quote = await published([1000, 2500]);
    for (const option of [
      undefined,
      { id: '9' },
      { id: '1', quantity: 2500 },
      { quantity: 3000 },
      { id: 'nope' },
    ]) {
      expectProblem(
        await accept(contact, quote, option ? { option } : {}),
        422,
        'invalid_price_break_option',
        '/option',
      );
    }
    const without = await createQuote({ briefIds: [briefId] });
    ok(await call('PUT', admin, `/api/quotes/${without.id}`, { state: 'published' }));
    expectProblem(await accept(contact, without, { option: { id: '1' } }), 422, 'invalid_price_break_option');
    expect(ok(await call('GET', admin, `/api/quotes/${quote.id}`)).state).toBe('published');
    expect(ok(await call('GET', admin, `/api/quotes/${without.id}`)).state).toBe('published');
  });
});

describe('a guest chooses a column through the link', () => {
  it('the review lists the columns; accepting needs one of them', async () => {
    const quote = await createQuote({ briefIds: [briefId] });
    ok(await patchItem(admin, quote, elementLine(quote).id, breaks(1000, 2500)));
    const published = ok(await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' }));
    const link = await call('POST', admin, `/api/quotes/${quote.id}/guest-links`, { localisationId: 'en' });
    expect(link.statusCode, link.body).toBe(201);
    const token = (link.json() as { token: string }).token;
    const review = await call('GET', null, `/api/public/quotes/${token}`);
    expect(review.statusCode, review.body).toBe(200);
    expect((review.json() as { quote: { priceBreakColumns: Column[] } }).quote.priceBreakColumns).toEqual(
      published.priceBreakColumns.map((c) => expect.objectContaining({ id: c.id, totalPrice: c.totalPrice })),
    );
    const answer = (option?: object) =>
      call('POST', null, `/api/public/quotes/${token}/accept`, {
        typedName: 'Gus Guest',
        confirm: true,
        email: 'gus@example.com',
        ...(option ? { option } : {}),
      });
    expectProblem(await answer(), 422, 'invalid_price_break_option', '/option');
    const accepted = await answer({ id: '2' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const evidence = (await call('GET', admin, `/api/quotes/${quote.id}/acceptance`)).json() as {
      option: { quantity: number };
    };
    expect(evidence.option.quantity).toBe(2500);
  });
});

describe('the PDF of a quote with price breaks', () => {
  for (const [language, title, total] of [
    ['en', 'Price breaks', 'Total of the quote'],
    ['fr', 'Prix par quantité', 'Total du devis'],
    ['de', 'Staffelpreise', 'Summe des Angebots'],
  ] as const) {
    it(`shows the columns with quantity, unit price and total, and the total per column (${language})`, async () => {
      const quote = await createQuote({ briefIds: [briefId] });
      const after = ok(await patchItem(admin, quote, elementLine(quote).id, breaks(1000, 2500, 10000)));
      ok(await call('PUT', admin, `/api/quotes/${quote.id}`, { state: 'published' }));
      const pdf = await call('POST', admin, `/api/quotes/${quote.id}/generate-pdf`, {
        localisationId: language,
      });
      expect(pdf.statusCode, pdf.body).toBe(201);
      const text = extractPdfText(pdf.rawPayload);
      const f = formatterFor(language, 'EUR');
      expect(text).toContain(title);
      expect(text).toContain(total);
      for (const column of elementLine(after).priceBreaks) {
        expect(text).toContain(f.quantity(column.quantity));
        expect(text).toContain(f.unitPrice(column.unitPrice));
        expect(text).toContain(f.money(column.totalPrice));
      }
    });
  }
});
