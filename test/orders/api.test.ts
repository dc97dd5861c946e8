import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addresses,
  articles,
  companies,
  companyUsers,
  currencies,
  customFieldDefinitions,
  events,
  orderItems,
  projects,
  statuses,
} from '../../src/db/schema/index.ts';
import { createOrderService } from '../../src/modules/orders/service.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;

type Tenant = Awaited<ReturnType<typeof seedTenant>>;
let a: Tenant;
let b: Tenant;

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/** Reference rows of a tenant, written straight to the database (their APIs are other modules). */
async function seedTenant(owner: Credentials) {
  const db = t.app.ctx.db;
  const org = owner.organisationId;
  const [acme, globex] = await db
    .insert(companies)
    .values([
      { organisationId: org, name: 'Acme' },
      { organisationId: org, name: 'Globex' },
    ])
    .returning();
  const [acmeProject, globexProject] = await db
    .insert(projects)
    .values([
      { organisationId: org, companyId: acme!.id, name: 'Acme launch' },
      { organisationId: org, companyId: globex!.id, name: 'Globex relaunch' },
    ])
    .returning();
  const [acmeAddress, globexAddress] = await db
    .insert(addresses)
    .values([
      { organisationId: org, companyId: acme!.id, street1: '1 Road', city: 'Lyon', countryCode: 'FR' },
      { organisationId: org, companyId: globex!.id, street1: '2 Street', city: 'Paris', countryCode: 'FR' },
    ])
    .returning();
  const existing = await db
    .select()
    .from(statuses)
    .where(and(eq(statuses.organisationId, org), eq(statuses.entity, 'order'), eq(statuses.isDefault, true)));
  const [pending] = existing.length
    ? existing
    : await db
        .insert(statuses)
        .values({
          organisationId: org,
          entity: 'order',
          internalLabel: 'T Pending',
          externalLabel: 'P',
          isDefault: true,
        })
        .returning();
  const [shipped, delivered, quoteStatus] = await db
    .insert(statuses)
    .values([
      {
        organisationId: org,
        entity: 'order',
        internalLabel: unique('T Shipped'),
        externalLabel: 'S',
        position: 50,
      },
      {
        organisationId: org,
        entity: 'order',
        internalLabel: unique('T Delivered'),
        externalLabel: 'D',
        position: 51,
      },
      {
        organisationId: org,
        entity: 'quote',
        internalLabel: unique('T Draft'),
        externalLabel: 'Q',
        position: 52,
      },
    ])
    .returning();
  const [usd] = await db
    .insert(currencies)
    .values({
      organisationId: org,
      code: unique('U').slice(0, 3) + counter,
      symbol: '$',
      name: 'Test dollar',
    })
    .returning();
  const [article] = await db
    .insert(articles)
    .values({ organisationId: org, companyId: acme!.id, name: 'Mailer box', code: unique('MB'), price: 1.25 })
    .returning();
  return {
    org,
    acme: acme!,
    globex: globex!,
    acmeProject: acmeProject!,
    globexProject: globexProject!,
    acmeAddress: acmeAddress!,
    globexAddress: globexAddress!,
    pending: pending!,
    shipped: shipped!,
    delivered: delivered!,
    quoteStatus: quoteStatus!,
    usd: usd!,
    article: article!,
  };
}

async function linkUser(user: Credentials, companyId: string) {
  await t.app.ctx.db
    .insert(companyUsers)
    .values({ companyId, userId: user.userId, organisationId: user.organisationId });
}

const { post, get, patch, del } = requests(() => t);

async function createOrder(payload: Record<string, unknown>, who: Credentials = admin) {
  const response = await post(who, '/api/orders', payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  a = await seedTenant(admin);
  b = await seedTenant(other);
});
afterAll(() => t.close());

describe('POST /orders', () => {
  it('creates an order from billedAmount alone, with the default order status and no items', async () => {
    const order = await createOrder({ billedAmount: 120.456 });
    expect(order).toMatchObject({
      billedAmount: 120.46,
      itemsTotal: 0,
      items: [],
      statusId: a.pending.id,
      status: { id: a.pending.id, internalLabel: a.pending.internalLabel },
      companyId: null,
      company: null,
      project: null,
      createdById: admin.userId,
      organisationId: admin.organisationId,
      deletedAt: null,
    });
    expect(order.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(order.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses an order without billedAmount, or with a negative one (400 with a pointer)', async () => {
    const missing = await post(admin, '/api/orders', { externalId: 'X' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'validation_failed' });
    expect(missing.json().errors).toContainEqual(expect.objectContaining({ pointer: '/billedAmount' }));
    const negative = await post(admin, '/api/orders', { billedAmount: -1 });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().errors[0].pointer).toBe('/billedAmount');
    const unknown = await post(admin, '/api/orders', { billedAmount: 1, total: 3 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].pointer).toBe('/total');
  });

  it('creates an order with every field and answers it nested, also at the unprefixed path', async () => {
    const response = await post(admin, '/orders', {
      billedAmount: 99.9,
      companyId: a.acme.id,
      projectId: a.acmeProject.id,
      statusId: a.shipped.id,
      externalId: unique('ERP'),
      currencyId: a.usd.id,
      orderDate: '2025-03-01',
      expectedDeliveryDate: '2025-03-10T12:00:00Z',
      actualDeliveryDate: null,
      shippingAddressId: a.acmeAddress.id,
      trackingId: 'TRK-1',
    });
    expect(response.statusCode, response.body).toBe(201);
    const order = response.json();
    expect(order).toMatchObject({
      company: { id: a.acme.id, name: 'Acme' },
      project: { id: a.acmeProject.id, name: 'Acme launch' },
      status: { id: a.shipped.id, internalLabel: a.shipped.internalLabel },
      currency: { id: a.usd.id, code: a.usd.code, symbol: '$' },
      orderDate: '2025-03-01T00:00:00.000Z',
      expectedDeliveryDate: '2025-03-10T12:00:00.000Z',
      actualDeliveryDate: null,
      shippingAddressId: a.acmeAddress.id,
      trackingId: 'TRK-1',
    });
    expect((await get(admin, `/api/orders/${order.id}`)).json()).toEqual(order);
  });

  it('takes the company of the project when companyId is absent', async () => {
    const order = await createOrder({ billedAmount: 1, projectId: a.globexProject.id });
    expect(order.companyId).toBe(a.globex.id);
  });

  it('refuses a project or a shipping address of another company (422)', async () => {
    const project = await post(admin, '/api/orders', {
      billedAmount: 1,
      companyId: a.acme.id,
      projectId: a.globexProject.id,
    });
    expect(project.statusCode).toBe(422);
    expect(project.json()).toMatchObject({ code: 'project_company_mismatch' });
    expect(project.json().errors[0].pointer).toBe('/projectId');
    const address = await post(admin, '/api/orders', {
      billedAmount: 1,
      companyId: a.acme.id,
      shippingAddressId: a.globexAddress.id,
    });
    expect(address.statusCode).toBe(422);
    expect(address.json()).toMatchObject({ code: 'address_company_mismatch' });
    const noCompany = await post(admin, '/api/orders', {
      billedAmount: 1,
      shippingAddressId: a.acmeAddress.id,
    });
    expect(noCompany.statusCode).toBe(422);
  });

  it('refuses references that do not exist, belong to another tenant or are not order statuses (422)', async () => {
    const cases: [string, string][] = [
      ['companyId', b.acme.id],
      ['projectId', b.acmeProject.id],
      ['statusId', b.pending.id],
      ['statusId', a.quoteStatus.id],
      ['currencyId', b.usd.id],
      ['shippingAddressId', b.acmeAddress.id],
    ];
    for (const [field, id] of cases) {
      const response = await post(admin, '/api/orders', { billedAmount: 1, [field]: id });
      expect(response.statusCode, `${field} ${response.body}`).toBe(422);
      expect(response.json()).toMatchObject({ code: 'invalid_reference' });
      expect(response.json().errors[0].pointer).toBe(`/${field}`);
    }
  });

  it('keeps externalId unique among live orders (409), and free again once the order is deleted', async () => {
    const externalId = unique('ERP');
    const first = await createOrder({ billedAmount: 1, externalId });
    const again = await post(admin, '/api/orders', { billedAmount: 2, externalId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'duplicate_external_id' });
    // Another tenant may use the same ERP id.
    expect((await post(other, '/api/orders', { billedAmount: 2, externalId })).statusCode).toBe(201);
    expect((await del(admin, `/api/orders/${first.id}`)).statusCode).toBe(200);
    expect((await post(admin, '/api/orders', { billedAmount: 3, externalId })).statusCode).toBe(201);
  });

  it('validates custom fields against the order definitions', async () => {
    await t.app.ctx.db.insert(customFieldDefinitions).values({
      organisationId: admin.organisationId,
      entity: 'order',
      key: 'incoterm',
      label: 'Incoterm',
      type: 'select',
      options: ['EXW', 'DAP'],
    });
    const ok = await createOrder({ billedAmount: 1, customFields: { incoterm: 'DAP' } });
    expect(ok.customFields).toEqual({ incoterm: 'DAP' });
    const bad = await post(admin, '/api/orders', { billedAmount: 1, customFields: { incoterm: 'FOB' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_custom_fields' });
    const unknownKey = await post(admin, '/api/orders', { billedAmount: 1, customFields: { nope: 1 } });
    expect(unknownKey.statusCode).toBe(400);
    const merged = await patch(admin, `/api/orders/${ok.id}`, { customFields: { incoterm: null } });
    expect(merged.json().customFields).toEqual({});
  });

  it('records a CREATE event in the transaction of the change', async () => {
    const order = await createOrder({ billedAmount: 5 });
    const rows = await t.app.ctx.db.select().from(events).where(eq(events.entityId, order.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      eventName: 'event.orders.created',
      entity: 'ORDER',
      tableName: 'orders',
    });
    expect(rows[0]!.payload).toMatchObject({ id: order.id, billedAmount: 5 });
  });
});

describe('GET /orders/:id', () => {
  it('nests company, project, status, currency and the live items with their article, by position', async () => {
    const order = await createOrder({ billedAmount: 50, companyId: a.acme.id, projectId: a.acmeProject.id });
    const added = await post(admin, `/api/orders/${order.id}/order-items`, [
      { quantity: 2, position: 2, unit: 'pieces' },
      { quantity: 10, articleId: a.article.id, position: 1 },
      { quantity: 1, unitPrice: 3.333, position: 3 },
    ]);
    expect(added.statusCode, added.body).toBe(201);
    await del(admin, `/api/order-items/${added.json()[0].id}`);
    const response = await get(admin, `/orders/${order.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.items.map((i: { position: number }) => i.position)).toEqual([1, 3]);
    expect(body.items[0]).toMatchObject({
      articleId: a.article.id,
      article: { id: a.article.id, code: a.article.code, name: 'Mailer box' },
      unitPrice: 1.25,
      totalPrice: 12.5,
      orderId: order.id,
    });
    expect(body.items[1]).toMatchObject({ article: null, unitPrice: 3.333, totalPrice: 3.33 });
    // Item timestamps read the same nested and alone (ISO 8601 with milliseconds, UTC).
    const alone = (await get(admin, `/api/order-items/${body.items[0].id}`)).json();
    expect(body.items[0]).toEqual(alone);
    expect(alone.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.itemsTotal).toBe(15.83);
    expect(body.billedAmount).toBe(50);
    // Lists carry the same total (billedAmount is not checked against it).
    const listed = (await get(admin, `/api/orders?limit=100`)).json().data;
    expect(listed.find((o: { id: string }) => o.id === order.id)).toMatchObject({
      itemsTotal: 15.83,
      billedAmount: 50,
    });
    const empty = await createOrder({ billedAmount: 1 });
    const again = (await get(admin, `/api/orders?limit=100`)).json().data;
    expect(again.find((o: { id: string }) => o.id === empty.id).itemsTotal).toBe(0);
  });

  it('answers 404 for a missing id, another tenant’s order and a malformed id (400)', async () => {
    const mine = await createOrder({ billedAmount: 1 });
    expect((await get(other, `/api/orders/${mine.id}`)).statusCode).toBe(404);
    expect((await get(admin, '/api/orders/0190a0a0-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await get(admin, '/api/orders/not-a-uuid')).statusCode).toBe(400);
    expect((await patch(other, `/api/orders/${mine.id}`, { trackingId: 'x' })).statusCode).toBe(404);
    expect((await del(other, `/api/orders/${mine.id}`)).statusCode).toBe(404);
    expect((await get(admin, `/api/orders/${mine.id}`)).json().trackingId).toBeNull();
  });
});

describe('PATCH /orders/:id', () => {
  it('sets tracking, delivery date and status together, and records the changed columns', async () => {
    const order = await createOrder({ billedAmount: 10, companyId: a.acme.id });
    const response = await patch(admin, `/api/orders/${order.id}`, {
      trackingId: '1Z999',
      actualDeliveryDate: '2025-04-02T08:30:00Z',
      statusId: a.delivered.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      trackingId: '1Z999',
      actualDeliveryDate: '2025-04-02T08:30:00.000Z',
      status: { id: a.delivered.id },
      billedAmount: 10,
      company: { id: a.acme.id },
    });
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, order.id), eq(events.type, 'UPDATE')));
    expect(event!.updatedColumns!.sort()).toEqual(['actualDeliveryDate', 'statusId', 'trackingId']);
  });

  it('clears optional fields with null, re-checks references and refuses an empty body', async () => {
    const order = await createOrder({
      billedAmount: 10,
      companyId: a.acme.id,
      projectId: a.acmeProject.id,
      shippingAddressId: a.acmeAddress.id,
      trackingId: 'T',
    });
    expect((await patch(admin, `/api/orders/${order.id}`, {})).statusCode).toBe(400);
    // Moving to another company while keeping the old project / address is refused.
    const moved = await patch(admin, `/api/orders/${order.id}`, { companyId: a.globex.id });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().code).toBe('project_company_mismatch');
    const ok = await patch(admin, `/api/orders/${order.id}`, {
      companyId: a.globex.id,
      projectId: a.globexProject.id,
      shippingAddressId: a.globexAddress.id,
      trackingId: null,
      billedAmount: 0,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ companyId: a.globex.id, trackingId: null, billedAmount: 0 });
    expect((await patch(admin, `/api/orders/${order.id}`, { billedAmount: -5 })).statusCode).toBe(400);
    expect((await patch(admin, `/api/orders/${order.id}`, { statusId: a.quoteStatus.id })).statusCode).toBe(
      422,
    );
  });

  it('refuses to take the externalId of another live order (409)', async () => {
    const externalId = unique('ERP');
    await createOrder({ billedAmount: 1, externalId });
    const second = await createOrder({ billedAmount: 1 });
    const response = await patch(admin, `/api/orders/${second.id}`, { externalId });
    expect(response.statusCode).toBe(409);
  });
});

describe('DELETE /orders/:id', () => {
  it('soft-deletes the order and its items, with an event for each, and answers 404 afterwards', async () => {
    const order = await createOrder({ billedAmount: 10 });
    const added = await post(admin, `/api/orders/${order.id}/order-items`, [
      { quantity: 1 },
      { quantity: 2 },
    ]);
    expect(added.statusCode).toBe(201);
    const response = await del(admin, `/orders/${order.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: order.id, deleted: true });
    expect((await get(admin, `/api/orders/${order.id}`)).statusCode).toBe(404);
    expect((await del(admin, `/api/orders/${order.id}`)).statusCode).toBe(404);
    const items = await t.app.ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(items.every((i) => i.deletedAt !== null)).toBe(true);
    expect((await get(admin, `/api/order-items/${items[0]!.id}`)).statusCode).toBe(404);
    const list = (await get(admin, `/api/orders?limit=100&sort=createdAt,DESC`)).json();
    expect(list.data.map((o: { id: string }) => o.id)).not.toContain(order.id);
    const rows = await t.app.ctx.db.select().from(events).where(eq(events.type, 'DELETE'));
    expect(rows.filter((e) => e.entityId === order.id)).toHaveLength(1);
    const itemEvents = rows.filter((e) => e.relationId === order.id);
    expect(itemEvents).toHaveLength(2);
    expect(itemEvents[0]).toMatchObject({ entity: 'ORDER_ITEM', relation: 'ORDER' });
  });
});

describe('GET /orders filters', () => {
  let tenant: Credentials;
  let f: Tenant;
  let sales: Credentials;
  type Made = { id: string };
  const made: Record<string, Made> = {};

  const ids = async (query: string, who?: Credentials) => {
    const response = await get(who ?? tenant, `/api/orders?limit=100&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as Made[]).map((o) => o.id).sort();
  };
  const of = (...names: string[]) => names.map((n) => made[n]!.id).sort();

  beforeAll(async () => {
    tenant = await makeOrganisation(t);
    f = await seedTenant(tenant);
    sales = await makeUser(t, tenant, 'sales');
    const make = async (name: string, payload: Record<string, unknown>, who = tenant) => {
      made[name] = await createOrder(payload, who);
    };
    await make('o1', {
      billedAmount: 100,
      companyId: f.acme.id,
      projectId: f.acmeProject.id,
      statusId: f.pending.id,
      externalId: 'ERP-1',
      orderDate: '2025-01-10',
      expectedDeliveryDate: '2025-02-01',
    });
    await make('o2', {
      billedAmount: 200,
      companyId: f.acme.id,
      statusId: f.shipped.id,
      orderDate: '2025-01-20T15:00:00Z',
      expectedDeliveryDate: '2025-02-15',
      actualDeliveryDate: '2025-02-14',
    });
    await make(
      'o3',
      {
        billedAmount: 300,
        companyId: f.globex.id,
        projectId: f.globexProject.id,
        statusId: f.delivered.id,
        externalId: 'ERP-3',
        orderDate: '2025-01-31T23:59:59Z',
        actualDeliveryDate: '2025-03-01',
      },
      sales,
    );
    await make('o4', { billedAmount: 50, statusId: null }, sales);
  });

  it('lists every live order of the tenant with the default page (1), limit (10) and sort (createdAt DESC)', async () => {
    const response = await get(tenant, '/orders');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.meta).toEqual({ page: 1, limit: 10, total: 4, totalIsExact: true, hasNextPage: false });
    expect(body.data.map((o: Made) => o.id)).toEqual([made.o4, made.o3, made.o2, made.o1].map((o) => o!.id));
    expect(body.data[0]).not.toHaveProperty('items');
    expect(body.data[0]).toHaveProperty('itemsTotal', 0);
  });

  it('filters by each field', async () => {
    expect(await ids(`companyId=${f.acme.id}`)).toEqual(of('o1', 'o2'));
    expect(await ids(`projectId=${f.globexProject.id}`)).toEqual(of('o3'));
    expect(await ids(`createdById=${sales.userId}`)).toEqual(of('o3', 'o4'));
    expect(await ids(`statusId=${f.shipped.id}`)).toEqual(of('o2'));
    expect(await ids(`statusId=${f.shipped.id},${f.delivered.id}`)).toEqual(of('o2', 'o3'));
    expect(await ids(`statusId=${f.shipped.id}%2C%20${f.pending.id}`)).toEqual(of('o1', 'o2'));
    expect(await ids('externalId=ERP-3')).toEqual(of('o3'));
    expect(await ids('orderDateStart=2025-01-20')).toEqual(of('o2', 'o3'));
    expect(await ids('orderDateEnd=2025-01-20')).toEqual(of('o1', 'o2'));
    expect(await ids('orderDateEnd=2025-01-20T12:00:00Z')).toEqual(of('o1'));
    expect(await ids('orderDateStart=2025-01-11&orderDateEnd=2025-01-31')).toEqual(of('o2', 'o3'));
    expect(await ids('expectedDeliveryDateStart=2025-02-02')).toEqual(of('o2'));
    expect(await ids('expectedDeliveryDateEnd=2025-02-01')).toEqual(of('o1'));
    expect(await ids('actualDeliveryDateStart=2025-02-15')).toEqual(of('o3'));
    expect(await ids('actualDeliveryDateEnd=2025-02-28')).toEqual(of('o2'));
  });

  it('combines filters (AND)', async () => {
    expect(await ids(`companyId=${f.acme.id}&statusId=${f.shipped.id},${f.delivered.id}`)).toEqual(of('o2'));
    expect(await ids(`createdById=${sales.userId}&orderDateStart=2025-01-01`)).toEqual(of('o3'));
    expect(
      await ids(`companyId=${f.acme.id}&orderDateStart=2025-01-01&orderDateEnd=2025-01-15&externalId=ERP-1`),
    ).toEqual(of('o1'));
    expect(await ids(`companyId=${f.globex.id}&statusId=${f.pending.id}`)).toEqual([]);
  });

  it('sorts by the whitelisted fields in both directions and pages through', async () => {
    const sorted = async (query: string) =>
      ((await get(tenant, `/api/orders?${query}`)).json().data as Made[]).map((o) => o.id);
    expect(await sorted('sort=billedAmount&order=DESC')).toEqual(
      [made.o3, made.o2, made.o1, made.o4].map((o) => o!.id),
    );
    expect(await sorted('sort=billedAmount,ASC')).toEqual(
      [made.o4, made.o1, made.o2, made.o3].map((o) => o!.id),
    );
    expect(await sorted('order=-billedAmount')).toEqual(
      [made.o3, made.o2, made.o1, made.o4].map((o) => o!.id),
    );
    // Orders without a date sort last ascending.
    expect(await sorted('sort=orderDate&order=ASC')).toEqual(
      [made.o1, made.o2, made.o3, made.o4].map((o) => o!.id),
    );
    for (const field of [
      'updatedAt',
      'createdAt',
      'expectedDeliveryDate',
      'actualDeliveryDate',
      'externalId',
    ]) {
      expect((await get(tenant, `/api/orders?sort=${field}&order=DESC`)).statusCode).toBe(200);
    }
    const page2 = (await get(tenant, '/api/orders?limit=3&page=2&sort=billedAmount,ASC')).json();
    expect(page2.meta).toEqual({ page: 2, limit: 3, total: 4, totalIsExact: true, hasNextPage: false });
    expect(page2.data.map((o: Made) => o.id)).toEqual([made.o3!.id]);
    const page1 = (await get(tenant, '/api/orders?limit=3&sort=billedAmount,ASC')).json();
    expect(page1.meta.hasNextPage).toBe(true);
  });

  it('refuses unknown sort fields, malformed filters and limits above 100 (400)', async () => {
    for (const query of [
      'sort=trackingId',
      'order=SIDEWAYS',
      'statusId=abc',
      `statusId=${f.pending.id},nope`,
      'orderDateStart=yesterday',
      'companyId=123',
      'limit=101',
      'page=0',
      'colour=red',
    ]) {
      const response = await get(tenant, `/api/orders?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors?.[0]?.in ?? 'query').toBe('query');
    }
  });

  it('counts exactly up to the cap, then gives a lower bound and an exact hasNextPage', async () => {
    const service = createOrderService(t.app.ctx, { countCap: 2 });
    const actor = {
      userId: tenant.userId,
      organisationId: tenant.organisationId,
      role: 'admin' as const,
      companyIds: [],
      credential: 'jwt' as const,
    };
    const first = await service.list(actor, { limit: 1 });
    expect(first.meta).toEqual({ page: 1, limit: 1, total: 2, totalIsExact: false, hasNextPage: true });
    const last = await service.list(actor, { limit: 1, page: 4 });
    expect(last.meta).toEqual({ page: 4, limit: 1, total: 4, totalIsExact: false, hasNextPage: false });
    expect(last.data).toHaveLength(1);
    const beyond = await service.list(actor, { limit: 1, page: 5 });
    expect(beyond.data).toEqual([]);
    const small = await service.list(actor, { companyId: f.globex.id });
    expect(small.meta).toEqual({ page: 1, limit: 10, total: 1, totalIsExact: true, hasNextPage: false });
  });

  it('never shows another tenant’s orders', async () => {
    expect(await ids(`companyId=${f.acme.id}`, admin)).toEqual([]);
    const all = await ids('', admin);
    expect(all).not.toContain(made.o1!.id);
  });
});

describe('roles', () => {
  it('lets a guest read but not write (403)', async () => {
    const guest = await makeUser(t, admin, 'guest');
    const order = await createOrder({ billedAmount: 1 });
    expect((await get(guest, `/api/orders/${order.id}`)).statusCode).toBe(200);
    expect((await post(guest, '/api/orders', { billedAmount: 1 })).statusCode).toBe(403);
    expect((await patch(guest, `/api/orders/${order.id}`, { trackingId: 'x' })).statusCode).toBe(403);
    expect((await del(guest, `/api/orders/${order.id}`)).statusCode).toBe(403);
    // Authorization comes before validation: a bad body still answers 403.
    expect((await post(guest, '/api/orders', { nope: true })).statusCode).toBe(403);
    expect((await get(null, '/api/orders')).statusCode).toBe(401);
  });

  it('shows a contact only the orders of its companies, read-only', async () => {
    const tenant = await makeOrganisation(t);
    const f = await seedTenant(tenant);
    const contact = await makeUser(t, tenant, 'contact');
    await linkUser(contact, f.acme.id);
    const acmeOrder = await createOrder({ billedAmount: 1, companyId: f.acme.id }, tenant);
    const globexOrder = await createOrder({ billedAmount: 2, companyId: f.globex.id }, tenant);
    const noCompany = await createOrder({ billedAmount: 3 }, tenant);
    const list = (await get(contact, '/api/orders')).json();
    expect(list.data.map((o: { id: string }) => o.id)).toEqual([acmeOrder.id]);
    expect(list.meta.total).toBe(1);
    expect((await get(contact, `/api/orders?companyId=${f.globex.id}`)).json().data).toEqual([]);
    expect((await get(contact, `/api/orders/${acmeOrder.id}`)).statusCode).toBe(200);
    expect((await get(contact, `/api/orders/${globexOrder.id}`)).statusCode).toBe(404);
    expect((await get(contact, `/api/orders/${noCompany.id}`)).statusCode).toBe(404);
    expect((await patch(contact, `/api/orders/${acmeOrder.id}`, { trackingId: 'x' })).statusCode).toBe(403);
    expect((await post(contact, '/api/orders', { billedAmount: 1, companyId: f.acme.id })).statusCode).toBe(
      403,
    );
  });

  it('lets external sales work on the orders of their companies only', async () => {
    const tenant = await makeOrganisation(t);
    const f = await seedTenant(tenant);
    const rep = await makeUser(t, tenant, 'external_sales');
    await linkUser(rep, f.acme.id);
    expect((await post(rep, '/api/orders', { billedAmount: 1 })).statusCode).toBe(403);
    expect((await post(rep, '/api/orders', { billedAmount: 1, companyId: f.globex.id })).statusCode).toBe(
      403,
    );
    expect(
      (await post(rep, '/api/orders', { billedAmount: 1, projectId: f.globexProject.id })).statusCode,
    ).toBe(403);
    const mine = await createOrder({ billedAmount: 1, companyId: f.acme.id }, rep);
    const fromProject = await createOrder({ billedAmount: 1, projectId: f.acmeProject.id }, rep);
    expect(fromProject.companyId).toBe(f.acme.id);
    const theirs = await createOrder({ billedAmount: 1, companyId: f.globex.id }, tenant);
    expect((await get(rep, `/api/orders/${theirs.id}`)).statusCode).toBe(404);
    expect((await patch(rep, `/api/orders/${theirs.id}`, { trackingId: 'x' })).statusCode).toBe(404);
    expect((await patch(rep, `/api/orders/${mine.id}`, { companyId: f.globex.id })).statusCode).toBe(403);
    expect((await patch(rep, `/api/orders/${mine.id}`, { trackingId: 'ok' })).statusCode).toBe(200);
    const list = (await get(rep, '/api/orders')).json();
    expect(list.data.map((o: { id: string }) => o.id).sort()).toEqual([mine.id, fromProject.id].sort());
  });
});

describe('files and comments on orders', () => {
  it('attaches files and comments to an order, visible to its tenant only', async () => {
    const order = await createOrder({ billedAmount: 1, companyId: a.acme.id });
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.from('%PDF-1.4')], { type: 'application/pdf' }),
      'delivery-note.pdf',
    );
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const uploaded = await post(
      admin,
      `/api/orders/${order.id}/files`,
      Buffer.from(await request.arrayBuffer()),
      { 'content-type': request.headers.get('content-type')! },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect((await get(admin, `/api/orders/${order.id}/files`)).json().data).toHaveLength(1);
    const comment = await post(admin, `/api/orders/${order.id}/comments`, { body: 'Leave at the dock' });
    expect(comment.statusCode, comment.body).toBe(201);
    expect((await get(other, `/api/orders/${order.id}/files`)).statusCode).toBe(404);
    expect((await post(other, `/api/orders/${order.id}/comments`, { body: 'x' })).statusCode).toBe(404);
    await del(admin, `/api/orders/${order.id}`);
    expect((await get(admin, `/api/orders/${order.id}/comments`)).statusCode).toBe(404);
  });
});
