import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles, companies, companyUsers, emailOutbox, events } from '../../src/db/schema/index.ts';
import { type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, expectProblem, type Json } from '../helpers/http.ts';
import { buildMailingApp, decodeQuotedPrintable, mailbox } from '../helpers/mail.ts';

/**
 * The buyer portal's operations (docs/portal.md): questions as quote comments, "order again" from a
 * delivered order or an article, the seller's brand, the guest page's view. Company scope: another
 * company's quote or order is 404 to a contact; another tenant's is 404 to anyone.
 */

let t: TestApp;
const box = mailbox();
const { mails } = box;
let admin: Credentials;
let sales: Credentials;
let contact: Credentials;
let globexContact: Credentials;
let guestUser: Credentials;
let otherTenant: Credentials;
let acmeId: string;
let globexId: string;
let articleId: string;
let cheapArticleId: string;

const call = caller(() => t);

async function publishedQuote(companyId = acmeId, contactId = contact.userId) {
  const created = await call(sales, 'POST', '/api/quotes', {
    companyId,
    contactId,
    items: [{ articleId: companyId === acmeId ? articleId : cheapArticleId, quantity: 100 }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const published = await call(sales, 'PUT', `/api/quotes/${id}`, { state: 'published' });
  expect(published.statusCode, published.body).toBe(200);
  return id;
}

/** An order of Acme with two article lines and a free line; delivered unless told otherwise. */
async function order(options: { delivered?: boolean; companyId?: string } = {}) {
  const companyId = options.companyId ?? acmeId;
  const created = await call(sales, 'POST', '/api/orders', {
    billedAmount: 100,
    companyId,
    orderDate: '2026-01-10',
    expectedDeliveryDate: '2026-02-01',
    ...(options.delivered === false ? {} : { actualDeliveryDate: '2026-02-03' }),
    trackingId: 'TRK-991',
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const line = companyId === acmeId ? articleId : cheapArticleId;
  for (const payload of [
    { orderId: id, articleId: line, quantity: 1000, unitPrice: 0.4 },
    { orderId: id, quantity: 1, unitPrice: 50, unit: 'set-up' },
  ]) {
    const item = await call(sales, 'POST', '/api/order-items', payload);
    expect(item.statusCode, item.body).toBe(201);
  }
  return id;
}

const waitForMail = box.waitFor;

beforeAll(async () => {
  t = await buildMailingApp(box, { publicBaseUrl: 'https://q.example' });
  admin = await makeOrganisation(t);
  otherTenant = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  contact = await makeUser(t, admin, 'contact');
  globexContact = await makeUser(t, admin, 'contact');
  guestUser = await makeUser(t, admin, 'guest');
  const db = t.app.ctx.db;
  const [acme, globex] = await db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme', managedById: sales.userId },
      { organisationId: admin.organisationId, name: 'Globex', managedById: sales.userId },
    ])
    .returning();
  acmeId = acme!.id;
  globexId = globex!.id;
  await db.insert(companyUsers).values([
    { companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId },
    { companyId: globexId, userId: globexContact.userId, organisationId: admin.organisationId },
  ]);
  const [article, cheap] = await db
    .insert(articles)
    .values([
      {
        organisationId: admin.organisationId,
        companyId: acmeId,
        name: 'Folding box',
        code: 'FB-1',
        price: 0.45,
      },
      { organisationId: admin.organisationId, companyId: globexId, name: 'Label', code: 'LB-1', price: 0.1 },
    ])
    .returning();
  articleId = article!.id;
  cheapArticleId = cheap!.id;
});
afterAll(async () => {
  await t?.close();
  await box.close();
});

describe('questions as comments on a quote', () => {
  it('a contact asks on their company’s quote: 201, evented, the sales owner is e-mailed; both sides read it', async () => {
    const id = await publishedQuote();
    const asked = await call(contact, 'POST', `/api/quotes/${id}/comments`, {
      body: 'Can you deliver by March?',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const comment = asked.json();
    expect(comment).toMatchObject({ body: 'Can you deliver by March?', createdById: contact.userId });
    const [event] = await t.app.ctx.db.select().from(events).where(eq(events.entityId, comment.id));
    expect(event).toMatchObject({ type: 'CREATE', relationId: id });
    const told = await waitForMail((m) => m.to.includes(sales.email) && m.data.includes('deliver by March'));
    expect(told.data).toMatch(/^Subject: .*comment/im);

    const answered = await call(sales, 'POST', `/api/quotes/${id}/comments`, { body: 'Yes, week 10.' });
    expect(answered.statusCode, answered.body).toBe(201);
    const list = await call(contact, 'GET', `/api/quotes/${id}/comments`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((c: Json) => c.body)).toEqual(['Can you deliver by March?', 'Yes, week 10.']);
  });

  it('another company’s quote, a draft, another tenant: 404; a blank body: 400; no credential: 401; a guest user: 403', async () => {
    const id = await publishedQuote();
    expectProblem(
      await call(globexContact, 'POST', `/api/quotes/${id}/comments`, { body: 'Hi' }),
      404,
      'not_found',
    );
    expectProblem(await call(globexContact, 'GET', `/api/quotes/${id}/comments`), 404, 'not_found');
    expectProblem(
      await call(otherTenant, 'POST', `/api/quotes/${id}/comments`, { body: 'Hi' }),
      404,
      'not_found',
    );
    const draft = await call(sales, 'POST', '/api/quotes', {
      companyId: acmeId,
      items: [{ articleId, quantity: 5 }],
    });
    expectProblem(
      await call(contact, 'POST', `/api/quotes/${draft.json().id}/comments`, { body: 'Hi' }),
      404,
    );
    expectProblem(
      await call(contact, 'POST', `/api/quotes/${id}/comments`, { body: '   ' }),
      400,
      'validation_failed',
    );
    expectProblem(await call(contact, 'POST', `/api/quotes/${id}/comments`, {}), 400);
    expectProblem(await call(null, 'POST', `/api/quotes/${id}/comments`, { body: 'Hi' }), 401);
    expectProblem(await call(guestUser, 'POST', `/api/quotes/${id}/comments`, { body: 'Hi' }), 403);
    const list = await call(contact, 'GET', `/api/quotes/${id}/comments`);
    expect(list.json().data).toEqual([]);
  });

  it('quotes take no uploaded files through the comment routes (their files are the stored PDFs)', async () => {
    const id = await publishedQuote();
    expect((await call(contact, 'GET', `/api/quotes/${id}/files`)).statusCode).toBe(404);
  });
});

describe('order again', () => {
  it('from a delivered order: a draft at today’s prices, old vs new per line, the free line skipped', async () => {
    const id = await order();
    const response = await call(contact, 'POST', `/api/orders/${id}/reorder`);
    expect(response.statusCode, response.body).toBe(201);
    const reorder = response.json();
    expect(reorder.source).toEqual({ type: 'order', id });
    expect(reorder.quote.state).toBe('draft');
    expect(reorder.lines).toEqual([
      {
        articleId,
        code: 'FB-1',
        name: 'Folding box',
        quantity: 1000,
        previousUnitPrice: 0.4,
        unitPrice: 0.45,
        previousTotal: 400,
        total: 450,
        difference: 50,
        differencePercent: 12.5,
      },
    ]);
    expect(reorder.skipped).toEqual([{ orderItemId: expect.any(String), reason: 'no_article' }]);
    expect(reorder).toMatchObject({ previousTotal: 400, total: 450, difference: 50 });

    // The contact follows the draft they asked for; another buyer of the company's does not see it.
    const draft = await call(contact, 'GET', `/api/quotes/${reorder.quote.id}`);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ state: 'draft', companyId: acmeId, contactId: contact.userId });
    const mine = await call(contact, 'GET', '/api/quotes?status=draft');
    expect(mine.json().data.map((q: Json) => q.id)).toEqual([reorder.quote.id]);
    const staff = await call(sales, 'GET', `/api/quotes/${reorder.quote.id}`);
    expect(staff.json().items[0]).toMatchObject({ articleId, quantity: 1000, price: 0.45 });
  });

  it('staff may order again for the buyer; the seller may change the article price meanwhile', async () => {
    const id = await order();
    const response = await call(sales, 'POST', `/api/orders/${id}/reorder`, {});
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().lines[0]).toMatchObject({ unitPrice: 0.45, previousUnitPrice: 0.4 });
  });

  it('refusals: not delivered 409, no article line 422, another company’s or tenant’s order 404, a guest 403', async () => {
    expectProblem(
      await call(contact, 'POST', `/api/orders/${await order({ delivered: false })}/reorder`),
      409,
      'order_not_delivered',
    );
    const bare = await call(sales, 'POST', '/api/orders', {
      billedAmount: 5,
      companyId: acmeId,
      actualDeliveryDate: '2026-02-03',
    });
    await call(sales, 'POST', '/api/order-items', { orderId: bare.json().id, quantity: 1, unitPrice: 5 });
    expectProblem(
      await call(contact, 'POST', `/api/orders/${bare.json().id}/reorder`),
      422,
      'nothing_to_reorder',
    );
    const globexOrder = await order({ companyId: globexId });
    expectProblem(await call(contact, 'POST', `/api/orders/${globexOrder}/reorder`), 404, 'not_found');
    expectProblem(await call(otherTenant, 'POST', `/api/orders/${globexOrder}/reorder`), 404, 'not_found');
    expectProblem(await call(guestUser, 'POST', `/api/orders/${globexOrder}/reorder`), 403);
    expectProblem(await call(null, 'POST', `/api/orders/${globexOrder}/reorder`), 401);
    expectProblem(await call(contact, 'POST', '/api/orders/not-a-uuid/reorder'), 400);
    const before = (await call(sales, 'GET', '/api/quotes?status=draft&limit=100')).json().meta.total;
    expectProblem(await call(contact, 'POST', `/api/orders/${globexOrder}/reorder`), 404);
    expect((await call(sales, 'GET', '/api/quotes?status=draft&limit=100')).json().meta.total).toBe(before);
  });

  it('from an article: the quantity last ordered by default, or the one asked; other company 404, bad quantity 400', async () => {
    await order();
    const again = await call(contact, 'POST', `/api/articles/${articleId}/reorder`);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().lines[0]).toMatchObject({ quantity: 1000, previousUnitPrice: 0.4, unitPrice: 0.45 });
    const asked = await call(contact, 'POST', `/api/articles/${articleId}/reorder`, { quantity: 200 });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().lines[0]).toMatchObject({
      quantity: 200,
      previousTotal: 80,
      total: 90,
      difference: 10,
    });
    expectProblem(await call(contact, 'POST', `/api/articles/${articleId}/reorder`, { quantity: 0 }), 400);
    expectProblem(
      await call(contact, 'POST', `/api/articles/${articleId}/reorder`, { quantity: 1, x: 1 }),
      400,
    );
    expectProblem(await call(contact, 'POST', `/api/articles/${cheapArticleId}/reorder`), 404, 'not_found');
    expectProblem(await call(otherTenant, 'POST', `/api/articles/${articleId}/reorder`), 404, 'not_found');
  });
});

describe('the seller is told when a buyer orders again', () => {
  it('a contact’s reorder e-mails the company’s account manager the draft and its lines; staff’s does not; an opt-out is kept', async () => {
    const id = await order();
    const mark = mails.length;
    const response = await call(contact, 'POST', `/api/orders/${id}/reorder`);
    expect(response.statusCode, response.body).toBe(201);
    const draft = response.json().quote;
    const told = await waitForMail(
      (m) => m.to.includes(sales.email) && m.data.includes(`/app/quotes/${draft.id}`),
    );
    expect(told.data).toMatch(/^Subject: Acme orders again: draft quote/im);
    const text = decodeQuotedPrintable(told.data);
    expect(text).toContain(`${contact.email} of Acme ordered again. A draft quote "Folding box"`);
    expect(text).toContain('- Folding box x 1,000: €0.4500');
    expect(text).toContain('Total: €450.00');
    expect(text).toContain(`https://q.example/app/quotes/${draft.id}`);
    // The buyer who asked is not told of their own action (the order's own publish e-mail, queued
    // before the mark, may still arrive after it: only a mail about the draft counts).
    expect(mails.slice(mark).some((m) => m.to.includes(contact.email) && m.data.includes(draft.id))).toBe(
      false,
    );

    // Staff ordering again for the buyer: no e-mail to the seller (they did it themselves).
    const byStaff = await call(sales, 'POST', `/api/articles/${articleId}/reorder`, { quantity: 10 });
    expect(byStaff.statusCode, byStaff.body).toBe(201);
    // The manager opted out of this kind: nothing queued for the next reorder either.
    const optOut = await call(sales, 'PUT', '/api/users/me/notification-preferences', {
      emailOptOuts: ['quote_reordered'],
    });
    expect(optOut.statusCode, optOut.body).toBe(200);
    const quiet = await call(contact, 'POST', `/api/articles/${articleId}/reorder`, { quantity: 20 });
    expect(quiet.statusCode, quiet.body).toBe(201);
    // A later mail proves the outbox has moved past both reorders: a question on a published quote.
    await call(sales, 'PUT', '/api/users/me/notification-preferences', { emailOptOuts: [] });
    const published = await publishedQuote();
    await call(contact, 'POST', `/api/quotes/${published}/comments`, { body: 'After the reorders' });
    await waitForMail((m) => m.to.includes(sales.email) && m.data.includes('After the reorders'));
    for (const other of [byStaff.json().quote.id, quiet.json().quote.id])
      expect(mails.some((m) => m.data.includes(`/app/quotes/${other}`))).toBe(false);
    const queued = await t.app.ctx.db
      .select({ text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'quote_reordered'));
    const about = (quoteId: string) => queued.filter((m) => m.text.includes(`/app/quotes/${quoteId}`)).length;
    expect([about(draft.id), about(byStaff.json().quote.id), about(quiet.json().quote.id)]).toEqual([
      1, 0, 0,
    ]);
  });
});

describe('the seller’s brand and the guest page', () => {
  it('a contact reads the seller’s name and no commercial settings', async () => {
    const brand = await call(contact, 'GET', '/api/organisation/brand');
    expect(brand.statusCode, brand.body).toBe(200);
    expect(brand.json()).toMatchObject({ name: expect.any(String), logoUrl: null });
    expect(brand.json().iban).toBeUndefined();
    expect((await call(contact, 'GET', '/api/organisation/settings')).statusCode).toBe(403);
    expect((await call(contact, 'GET', '/api/organisation/brand/logo')).statusCode).toBe(404);
  });

  it('a guest link opens a page view in the link’s language with the lines and the seller; the guest accepts', async () => {
    const id = await publishedQuote();
    const link = await call(sales, 'POST', `/api/quotes/${id}/guest-links`, { localisationId: 'de' });
    expect(link.statusCode, link.body).toBe(201);
    const { token, pageUrl } = link.json();
    expect(pageUrl).toBe(`https://q.example/app/guest/${token}`);
    const view = await call(null, 'GET', `/api/public/quotes/${token}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      localisationId: 'de',
      seller: { logoUrl: null },
      lines: [{ name: 'Folding box', quantity: 100, unitPrice: 0.45, totalPrice: 45 }],
    });
    expect(JSON.stringify(view.json())).not.toMatch(/engine|margin|cost"/i);
    // The seller's contact details are served (and documented: GuestQuote.seller is closed).
    expect(Object.keys(view.json().seller).sort()).toEqual([
      'email',
      'logoUrl',
      'name',
      'phoneNumber',
      'website',
    ]);
    const accepted = await call(null, 'POST', `/api/public/quotes/${token}/accept`, {
      typedName: 'Gast Käufer',
      email: 'gast@buyer.example',
      confirm: true,
      pdfSha256: view.json().pdfSha256 ?? undefined,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().acceptance).toMatchObject({ decision: 'accepted', actorRole: 'guest' });
    expect((await call(null, 'GET', `/api/public/quotes/${token}/logo`)).statusCode).toBe(404);
    expectProblem(await call(null, 'GET', '/api/public/quotes/unknown-token-123456/logo'), 404);
  });
});
