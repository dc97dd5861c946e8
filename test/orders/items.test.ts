import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articles,
  comments,
  companies,
  companyUsers,
  events,
  orderItems,
} from '../../src/db/schema/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let acmeId: string;
let globexId: string;
let article: { id: string; code: string; name: string };
let disabledArticle: { id: string };
let otherTenantArticle: { id: string };

const { post, get, patch, del } = requests(() => t);

async function newOrder(companyId: string | null = acmeId, who: Credentials = admin): Promise<string> {
  const response = await post(who, '/api/orders', { billedAmount: 100, companyId });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function newItem(payload: Record<string, unknown>, who: Credentials = admin) {
  const response = await post(who, '/api/order-items', payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
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
  const [foreignCompany] = await db
    .insert(companies)
    .values({ organisationId: other.organisationId, name: 'Initech' })
    .returning();
  const rows = await db
    .insert(articles)
    .values([
      {
        organisationId: admin.organisationId,
        companyId: acmeId,
        name: 'Mailer box',
        code: 'MB-1',
        price: 1.2345,
      },
      {
        organisationId: admin.organisationId,
        companyId: acmeId,
        name: 'Old box',
        code: 'OB-1',
        price: 2,
        enabled: false,
      },
      {
        organisationId: other.organisationId,
        companyId: foreignCompany!.id,
        name: 'Theirs',
        code: 'TH-1',
        price: 9,
      },
    ])
    .returning();
  article = rows[0]!;
  disabledArticle = rows[1]!;
  otherTenantArticle = rows[2]!;
});
afterAll(() => t.close());

describe('POST /order-items', () => {
  it('adds a custom item with position 1 by default and a computed total', async () => {
    const orderId = await newOrder();
    const item = await newItem({ orderId, quantity: 3, unitPrice: 2.5, unit: 'pieces' });
    expect(item).toMatchObject({
      orderId,
      quantity: 3,
      unitPrice: 2.5,
      totalPrice: 7.5,
      unit: 'pieces',
      position: 1,
      parentId: null,
      articleId: null,
      article: null,
      createdById: admin.userId,
    });
    const order = (await get(admin, `/orders/${orderId}`)).json();
    expect(order.items.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect(order.itemsTotal).toBe(7.5);
  });

  it('takes the article price as unit price unless the item sends its own', async () => {
    const orderId = await newOrder();
    const fromArticle = await newItem({ orderId, articleId: article.id, quantity: 1000 });
    expect(fromArticle).toMatchObject({
      unitPrice: 1.2345,
      totalPrice: 1234.5,
      article: { id: article.id, code: 'MB-1', name: 'Mailer box' },
    });
    const overridden = await newItem({ orderId, articleId: article.id, quantity: 3, unitPrice: 0.99 });
    expect(overridden).toMatchObject({ unitPrice: 0.99, totalPrice: 2.97 });
    const free = await newItem({ orderId, articleId: article.id, quantity: 3, unitPrice: 0 });
    expect(free).toMatchObject({ unitPrice: 0, totalPrice: 0 });
  });

  it('accepts a total within half a cent of quantity x unitPrice and refuses an inconsistent one (422)', async () => {
    const orderId = await newOrder();
    expect((await newItem({ orderId, quantity: 3, unitPrice: 0.3333, totalPrice: 1.0 })).totalPrice).toBe(1);
    expect((await newItem({ orderId, quantity: 3, unitPrice: 0.3333, totalPrice: 1.004 })).totalPrice).toBe(
      1,
    );
    const wrong = await post(admin, '/api/order-items', {
      orderId,
      quantity: 3,
      unitPrice: 2,
      totalPrice: 5,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'inconsistent_total' });
    expect(wrong.json().errors[0].pointer).toBe('/totalPrice');
    const wrongFromArticle = await post(admin, '/api/order-items', {
      orderId,
      articleId: article.id,
      quantity: 10,
      totalPrice: 10,
    });
    expect(wrongFromArticle.statusCode).toBe(422);
  });

  it('keeps the total of an item priced only by its total (no unit price, no article)', async () => {
    const orderId = await newOrder();
    expect(await newItem({ orderId, quantity: 1, totalPrice: 250.555, unit: 'service' })).toMatchObject({
      unitPrice: null,
      totalPrice: 250.56,
    });
    expect((await newItem({ orderId, quantity: 2 })).totalPrice).toBe(0);
  });

  it('refuses a quantity that is missing, zero or negative and a negative price or total (400)', async () => {
    const orderId = await newOrder();
    for (const [payload, pointer] of [
      [{ orderId }, '/quantity'],
      [{ orderId, quantity: 0 }, '/quantity'],
      [{ orderId, quantity: -2 }, '/quantity'],
      [{ orderId, quantity: 1, totalPrice: -1 }, '/totalPrice'],
      [{ orderId, quantity: 1, unitPrice: -0.01 }, '/unitPrice'],
      [{ orderId, quantity: 1, position: 1.5 }, '/position'],
      [{ quantity: 1 }, '/orderId'],
      [{ orderId, quantity: 1, colour: 'red' }, '/colour'],
    ] as const) {
      const response = await post(admin, '/api/order-items', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('refuses unknown, deleted, disabled and other-tenant references (422)', async () => {
    const orderId = await newOrder();
    const otherOrder = await newOrder(null, other);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ orderId: otherOrder, quantity: 1 }, 'invalid_reference', '/orderId'],
      [{ orderId, quantity: 1, articleId: otherTenantArticle.id }, 'invalid_reference', '/articleId'],
      [{ orderId, quantity: 1, articleId: disabledArticle.id }, 'article_disabled', '/articleId'],
      [
        { orderId, quantity: 1, commentId: '0190a0a0-0000-7000-8000-000000000000' },
        'invalid_reference',
        '/commentId',
      ],
    ];
    for (const [payload, code, pointer] of cases) {
      const response = await post(admin, '/api/order-items', payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code });
      expect(response.json().errors[0].pointer).toBe(pointer);
    }
  });

  it('links a comment of the organisation', async () => {
    const orderId = await newOrder();
    const [comment] = await t.app.ctx.db
      .insert(comments)
      .values({ organisationId: admin.organisationId, entity: 'order', entityId: orderId, body: 'Gift wrap' })
      .returning();
    expect((await newItem({ orderId, quantity: 1, commentId: comment!.id })).commentId).toBe(comment!.id);
  });

  it('records events with the order as relation', async () => {
    const orderId = await newOrder();
    const item = await newItem({ orderId, quantity: 1 });
    await patch(admin, `/api/order-items/${item.id}`, { quantity: 2 });
    await del(admin, `/api/order-items/${item.id}`);
    const rows = await t.app.ctx.db
      .select()
      .from(events)
      .where(eq(events.entityId, item.id))
      .orderBy(events.code);
    expect(rows.map((e) => e.eventName)).toEqual([
      'event.order_items.created',
      'event.order_items.updated',
      'event.order_items.deleted',
    ]);
    for (const row of rows)
      expect(row).toMatchObject({ entity: 'ORDER_ITEM', relation: 'ORDER', relationId: orderId });
    expect(rows[1]!.updatedColumns).toEqual(['quantity']);
  });
});

describe('hierarchy', () => {
  it('accepts a child of a parent of the same order, created before it', async () => {
    const orderId = await newOrder();
    const kit = await newItem({ orderId, quantity: 1, unit: 'kits' });
    const child = await newItem({ orderId, quantity: 2, parentId: kit.id });
    expect(child.parentId).toBe(kit.id);
    const children = (await get(admin, `/api/order-items?parentId=${kit.id}`)).json();
    expect(children.data.map((i: { id: string }) => i.id)).toEqual([child.id]);
  });

  it('refuses a parent of another order (422) and an unknown parent (422)', async () => {
    const orderA = await newOrder();
    const orderB = await newOrder();
    const parent = await newItem({ orderId: orderA, quantity: 1 });
    const response = await post(admin, '/api/order-items', {
      orderId: orderB,
      quantity: 1,
      parentId: parent.id,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'parent_in_other_order' });
    const moved = await newItem({ orderId: orderB, quantity: 1 });
    expect((await patch(admin, `/api/order-items/${moved.id}`, { parentId: parent.id })).json().code).toBe(
      'parent_in_other_order',
    );
    const unknown = await post(admin, '/api/order-items', {
      orderId: orderA,
      quantity: 1,
      parentId: '0190a0a0-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'invalid_reference' });
  });

  it('refuses cycles on PATCH parentId: the item itself or one of its descendants (422)', async () => {
    const orderId = await newOrder();
    const root = await newItem({ orderId, quantity: 1 });
    const child = await newItem({ orderId, quantity: 1, parentId: root.id });
    const grandchild = await newItem({ orderId, quantity: 1, parentId: child.id });
    for (const parentId of [root.id, child.id, grandchild.id]) {
      const response = await patch(admin, `/api/order-items/${root.id}`, { parentId });
      expect(response.statusCode, parentId).toBe(422);
      expect(response.json()).toMatchObject({ code: 'hierarchy_cycle' });
    }
    // Moving the grandchild under the root is fine; detaching it too.
    expect((await patch(admin, `/api/order-items/${grandchild.id}`, { parentId: root.id })).statusCode).toBe(
      200,
    );
    expect(
      (await patch(admin, `/api/order-items/${grandchild.id}`, { parentId: null })).json().parentId,
    ).toBeNull();
  });

  it('refuses a deleted parent', async () => {
    const orderId = await newOrder();
    const parent = await newItem({ orderId, quantity: 1 });
    await del(admin, `/api/order-items/${parent.id}`);
    const response = await post(admin, '/api/order-items', { orderId, quantity: 1, parentId: parent.id });
    expect(response.statusCode).toBe(422);
  });
});

describe('POST /orders/:id/order-items (bulk)', () => {
  it('adds every item in one go, children naming earlier items by ref, in the order sent', async () => {
    const orderId = await newOrder();
    const existing = await newItem({ orderId, quantity: 1 });
    const response = await post(admin, `/orders/${orderId}/order-items`, [
      { ref: 'kit', quantity: 1, unit: 'kits', unitPrice: 10 },
      { parentRef: 'kit', articleId: article.id, quantity: 4 },
      { ref: 'sub', parentRef: 'kit', quantity: 2, totalPrice: 3 },
      { parentRef: 'sub', quantity: 1 },
      { parentId: existing.id, quantity: 5, unitPrice: 1 },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const [kit, box, sub, leaf, attached] = response.json();
    expect(kit).toMatchObject({ parentId: null, totalPrice: 10 });
    expect(box).toMatchObject({
      parentId: kit.id,
      unitPrice: 1.2345,
      totalPrice: 4.94,
      article: { code: 'MB-1' },
    });
    expect(sub).toMatchObject({ parentId: kit.id, unitPrice: null, totalPrice: 3 });
    expect(leaf.parentId).toBe(sub.id);
    expect(attached.parentId).toBe(existing.id);
    expect((await get(admin, `/api/orders/${orderId}`)).json().items).toHaveLength(6);
  });

  it('refuses a parent that comes later in the array (422), an unknown or repeated ref', async () => {
    const orderId = await newOrder();
    const later = await post(admin, `/api/orders/${orderId}/order-items`, [
      { parentRef: 'kit', quantity: 1 },
      { ref: 'kit', quantity: 1 },
    ]);
    expect(later.statusCode).toBe(422);
    expect(later.json()).toMatchObject({ code: 'parent_later' });
    expect(later.json().errors[0].pointer).toBe('/0/parentRef');
    const self = await post(admin, `/api/orders/${orderId}/order-items`, [
      { ref: 'a', parentRef: 'a', quantity: 1 },
    ]);
    expect(self.statusCode).toBe(422);
    const unknown = await post(admin, `/api/orders/${orderId}/order-items`, [
      { parentRef: 'ghost', quantity: 1 },
    ]);
    expect(unknown.statusCode).toBe(422);
    const repeated = await post(admin, `/api/orders/${orderId}/order-items`, [
      { ref: 'a', quantity: 1 },
      { ref: 'a', quantity: 1 },
    ]);
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().errors[0].pointer).toBe('/1/ref');
    const both = await post(admin, `/api/orders/${orderId}/order-items`, [
      { ref: 'a', quantity: 1 },
      { parentRef: 'a', parentId: '0190a0a0-0000-7000-8000-000000000000', quantity: 1 },
    ]);
    expect(both.statusCode).toBe(400);
    expect((await get(admin, `/api/orders/${orderId}`)).json().items).toEqual([]);
  });

  it('is all or nothing: one bad item adds none, and points at it', async () => {
    const orderId = await newOrder();
    const response = await post(admin, `/api/orders/${orderId}/order-items`, [
      { quantity: 1, unitPrice: 1 },
      { quantity: 2, unitPrice: 1, totalPrice: 7 },
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].pointer).toBe('/1/totalPrice');
    const invalid = await post(admin, `/api/orders/${orderId}/order-items`, [
      { quantity: 1 },
      { quantity: 0 },
    ]);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors[0].pointer).toBe('/1/quantity');
    expect((await post(admin, `/api/orders/${orderId}/order-items`, [])).statusCode).toBe(400);
    expect((await get(admin, `/api/orders/${orderId}`)).json().items).toEqual([]);
    const events_ = await t.app.ctx.db.select().from(events).where(eq(events.relationId, orderId));
    expect(events_).toEqual([]);
  });

  it('answers 404 for another tenant’s order', async () => {
    const orderId = await newOrder();
    expect((await post(other, `/api/orders/${orderId}/order-items`, [{ quantity: 1 }])).statusCode).toBe(404);
  });
});

describe('PATCH /order-items/:id', () => {
  it('makes totalPrice follow quantity and unitPrice, and checks a sent total', async () => {
    const orderId = await newOrder();
    const item = await newItem({ orderId, articleId: article.id, quantity: 10 });
    const quantity = await patch(admin, `/api/order-items/${item.id}`, { quantity: 20 });
    expect(quantity.json()).toMatchObject({ quantity: 20, unitPrice: 1.2345, totalPrice: 24.69 });
    const price = await patch(admin, `/order-items/${item.id}`, { unitPrice: 2 });
    expect(price.json()).toMatchObject({ unitPrice: 2, totalPrice: 40 });
    // The order's itemsTotal follows, in its read and in lists.
    expect((await get(admin, `/api/orders/${orderId}`)).json().itemsTotal).toBe(40);
    const listed = (await get(admin, '/api/orders?limit=100')).json().data;
    expect(listed.find((o: { id: string }) => o.id === orderId).itemsTotal).toBe(40);
    const both = await patch(admin, `/api/order-items/${item.id}`, {
      quantity: 3,
      unitPrice: 1,
      totalPrice: 3,
    });
    expect(both.json()).toMatchObject({ totalPrice: 3 });
    const wrong = await patch(admin, `/api/order-items/${item.id}`, { totalPrice: 4 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('inconsistent_total');
    const wrongQuantity = await patch(admin, `/api/order-items/${item.id}`, { quantity: 5, totalPrice: 3 });
    expect(wrongQuantity.statusCode).toBe(422);
    expect((await patch(admin, `/api/order-items/${item.id}`, { quantity: 0 })).statusCode).toBe(400);
    expect((await patch(admin, `/api/order-items/${item.id}`, { totalPrice: -1 })).statusCode).toBe(400);
    expect((await patch(admin, `/api/order-items/${item.id}`, { orderId })).statusCode).toBe(400);
    expect((await patch(admin, `/api/order-items/${item.id}`, {})).statusCode).toBe(400);
  });

  it('takes the price of a new article, and lets a custom item keep a sent total', async () => {
    const orderId = await newOrder();
    const item = await newItem({ orderId, quantity: 2, unitPrice: 5 });
    const linked = await patch(admin, `/api/order-items/${item.id}`, { articleId: article.id });
    expect(linked.json()).toMatchObject({ articleId: article.id, unitPrice: 1.2345, totalPrice: 2.47 });
    const custom = await patch(admin, `/api/order-items/${item.id}`, {
      articleId: null,
      unitPrice: null,
      totalPrice: 9,
    });
    expect(custom.json()).toMatchObject({ articleId: null, article: null, unitPrice: null, totalPrice: 9 });
    const more = await patch(admin, `/api/order-items/${item.id}`, { quantity: 4, position: 7, unit: 'm' });
    expect(more.json()).toMatchObject({ quantity: 4, totalPrice: 9, position: 7, unit: 'm' });
    expect(
      (await patch(admin, `/api/order-items/${item.id}`, { articleId: disabledArticle.id })).statusCode,
    ).toBe(422);
  });
});

describe('DELETE order items', () => {
  it('refuses to delete an item with live children (409) unless cascade=true', async () => {
    const orderId = await newOrder();
    const kit = await newItem({ orderId, quantity: 1 });
    const child = await newItem({ orderId, quantity: 1, parentId: kit.id });
    const grandchild = await newItem({ orderId, quantity: 1, parentId: child.id });
    const refused = await del(admin, `/api/order-items/${kit.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'item_has_children' });
    const cascaded = await del(admin, `/api/orders/${orderId}/order-items/${kit.id}?cascade=true`);
    expect(cascaded.statusCode).toBe(200);
    expect(cascaded.json().deletedIds.sort()).toEqual([kit.id, child.id, grandchild.id].sort());
    expect((await get(admin, `/api/order-items/${grandchild.id}`)).statusCode).toBe(404);
    expect((await del(admin, `/api/order-items/${kit.id}`)).statusCode).toBe(404);
  });

  it('deletes an item through its order only when it belongs to that order', async () => {
    const orderA = await newOrder();
    const orderB = await newOrder();
    const item = await newItem({ orderId: orderA, quantity: 1 });
    expect((await del(admin, `/api/orders/${orderB}/order-items/${item.id}`)).statusCode).toBe(404);
    expect((await del(other, `/api/orders/${orderA}/order-items/${item.id}`)).statusCode).toBe(404);
    const response = await del(admin, `/orders/${orderA}/order-items/${item.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: item.id, deleted: true, deletedIds: [item.id] });
    const [row] = await t.app.ctx.db.select().from(orderItems).where(eq(orderItems.id, item.id));
    expect(row!.deletedAt).not.toBeNull();
  });
});

describe('GET /order-items', () => {
  it('lists by order, article and parent, by position, with pagination', async () => {
    const orderId = await newOrder();
    const second = await newItem({ orderId, quantity: 1, position: 2 });
    const first = await newItem({ orderId, quantity: 1, position: 1, articleId: article.id });
    const child = await newItem({ orderId, quantity: 1, position: 3, parentId: first.id });
    const list = (await get(admin, `/order-items?orderId=${orderId}`)).json();
    expect(list.data.map((i: { id: string }) => i.id)).toEqual([first.id, second.id, child.id]);
    expect(list.meta).toEqual({ page: 1, limit: 25, total: 3, hasNextPage: false });
    const byArticle = (
      await get(admin, `/api/order-items?orderId=${orderId}&articleId=${article.id}`)
    ).json();
    expect(byArticle.data.map((i: { id: string }) => i.id)).toEqual([first.id]);
    const page = (await get(admin, `/api/order-items?orderId=${orderId}&limit=2&page=2`)).json();
    expect(page.data.map((i: { id: string }) => i.id)).toEqual([child.id]);
    const sorted = (await get(admin, `/api/order-items?orderId=${orderId}&sort=position,DESC`)).json();
    expect(sorted.data[0].id).toBe(child.id);
    expect((await get(admin, '/api/order-items?sort=price')).statusCode).toBe(400);
    expect((await get(other, `/api/order-items?orderId=${orderId}`)).json().data).toEqual([]);
    expect((await get(other, `/api/order-items/${first.id}`)).statusCode).toBe(404);
  });
});

describe('roles', () => {
  it('lets a guest read items but not write them (403)', async () => {
    const guest = await makeUser(t, admin, 'guest');
    const orderId = await newOrder();
    const item = await newItem({ orderId, quantity: 1 });
    expect((await get(guest, `/api/order-items/${item.id}`)).statusCode).toBe(200);
    expect((await post(guest, '/api/order-items', { orderId, quantity: 1 })).statusCode).toBe(403);
    expect((await post(guest, `/api/orders/${orderId}/order-items`, [{ quantity: 1 }])).statusCode).toBe(403);
    expect((await patch(guest, `/api/order-items/${item.id}`, { quantity: 2 })).statusCode).toBe(403);
    expect((await del(guest, `/api/order-items/${item.id}`)).statusCode).toBe(403);
  });

  it('shows a contact only the items of its companies’ orders', async () => {
    const contact = await makeUser(t, admin, 'contact');
    await t.app.ctx.db
      .insert(companyUsers)
      .values({ companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId });
    const mine = await newItem({ orderId: await newOrder(acmeId), quantity: 1 });
    const theirs = await newItem({ orderId: await newOrder(globexId), quantity: 1 });
    expect((await get(contact, `/api/order-items/${mine.id}`)).statusCode).toBe(200);
    expect((await get(contact, `/api/order-items/${theirs.id}`)).statusCode).toBe(404);
    const list = (await get(contact, '/api/order-items?limit=100')).json();
    const ids = list.data.map((i: { id: string }) => i.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.meta.total).toBe(list.data.length);
    expect((await post(contact, '/api/order-items', { orderId: mine.orderId, quantity: 1 })).statusCode).toBe(
      403,
    );
  });

  it('lets external sales add items to their companies’ orders only', async () => {
    const rep = await makeUser(t, admin, 'external_sales');
    await t.app.ctx.db
      .insert(companyUsers)
      .values({ companyId: acmeId, userId: rep.userId, organisationId: admin.organisationId });
    const acmeOrder = await newOrder(acmeId);
    const globexOrder = await newOrder(globexId);
    expect((await post(rep, '/api/order-items', { orderId: acmeOrder, quantity: 1 })).statusCode).toBe(201);
    expect((await post(rep, `/api/orders/${globexOrder}/order-items`, [{ quantity: 1 }])).statusCode).toBe(
      404,
    );
    const globexItem = await newItem({ orderId: globexOrder, quantity: 1 });
    expect((await patch(rep, `/api/order-items/${globexItem.id}`, { quantity: 2 })).statusCode).toBe(404);
    const rows = await t.app.ctx.db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.orderId, globexOrder), eq(orderItems.quantity, 2)));
    expect(rows).toEqual([]);
  });
});
