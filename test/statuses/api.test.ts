import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/platform.ts';
import { findDefaultStatus, findLiveStatus } from '../../src/modules/statuses/repository.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let guest: Credentials;

const ORDER_WORKFLOW = [
  'Pending',
  'Processing',
  'Shipped',
  'Delivered',
  'Cancelled',
  'On Hold',
  'Backordered',
];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
});
afterAll(() => t.close());

type Inject = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: unknown };
const as = (who: Credentials, { method = 'GET', url, payload }: Inject) =>
  t.app.inject({
    method,
    url,
    headers: auth(who),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const create = async (who: Credentials, payload: Record<string, unknown>) => {
  const response = await as(who, { method: 'POST', url: '/api/statuses', payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
};

const orderStatuses = async (who: Credentials) => {
  const response = await as(who, { url: '/api/statuses/entity?entity=order' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Array<{
    id: string;
    internalLabel: string;
    isDefault: boolean;
    position: number;
  }>;
};

describe('seeding', () => {
  it('gives every new organisation the order workflow, Pending by default', async () => {
    const fresh = await makeOrganisation(t);
    const statuses = await orderStatuses(fresh);
    expect(statuses.map((s) => s.internalLabel)).toEqual(ORDER_WORKFLOW);
    expect(statuses.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(statuses.filter((s) => s.isDefault).map((s) => s.internalLabel)).toEqual(['Pending']);
    expect(statuses[0]).toMatchObject({
      externalLabel: 'Pending',
      color: expect.stringMatching(/^#[0-9A-F]{6}$/),
    });
    // ...with one STATUS CREATE event each, in the new tenant.
    const created = await t.app.ctx.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.organisationId, fresh.organisationId), eq(events.entity, 'STATUS')));
    expect(created).toHaveLength(7);
  });

  it('seeds the bootstrap organisation too', async () => {
    expect((await orderStatuses(t.root)).map((s) => s.internalLabel)).toEqual(ORDER_WORKFLOW);
  });
});

describe('POST /api/statuses', () => {
  it('creates a status, last in its entity by default, with an upper-case colour', async () => {
    const status = await create(admin, { entity: 'order', internalLabel: 'Quality check', color: '#a1b2c3' });
    expect(status).toMatchObject({
      entity: 'order',
      internalLabel: 'Quality check',
      externalLabel: 'Quality check',
      position: 7,
      color: '#A1B2C3',
      isDefault: false,
      createdById: admin.userId,
    });
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, status.id), eq(events.type, 'CREATE')));
    expect(event).toMatchObject({ eventName: 'event.statuses.created', entity: 'STATUS' });
  });

  it('refuses invalid bodies with pointers', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ internalLabel: 'X' }, '/entity'],
      [{ entity: 'invoice', internalLabel: 'X' }, '/entity'],
      [{ entity: 'order', internalLabel: '' }, '/internalLabel'],
      [{ entity: 'order', internalLabel: 'X', color: 'red' }, '/color'],
      [{ entity: 'order', internalLabel: 'X', position: -1 }, '/position'],
      [{ entity: 'order', internalLabel: 'X', colour: '#000000' }, '/colour'],
    ];
    for (const [payload, pointer] of cases) {
      const response = await as(admin, { method: 'POST', url: '/api/statuses', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('refuses a label already used by a live status of the entity, whatever its case (409)', async () => {
    const response = await as(admin, {
      method: 'POST',
      url: '/api/statuses',
      payload: { entity: 'order', internalLabel: 'shipped' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('duplicate_status');
    // The same label is fine for another entity.
    await create(admin, { entity: 'quote', internalLabel: 'Shipped' });
  });

  it('moves the default when a new default is created', async () => {
    const first = await create(admin, { entity: 'project', internalLabel: 'Open', isDefault: true });
    const second = await create(admin, { entity: 'project', internalLabel: 'Planned', isDefault: true });
    const firstNow = (await as(admin, { url: `/api/statuses/${first.id}` })).json();
    expect(firstNow.isDefault).toBe(false);
    expect(second.isDefault).toBe(true);
    expect((await findDefaultStatus(t.app.ctx.db, admin.organisationId, 'project'))?.id).toBe(second.id);
  });

  it('is refused to sales and guests (403) and to anonymous callers (401)', async () => {
    for (const who of [sales, guest]) {
      const response = await as(who, {
        method: 'POST',
        url: '/api/statuses',
        payload: { entity: 'order', internalLabel: 'Nope' },
      });
      expect(response.statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/statuses', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/statuses', () => {
  it('lists the organisation’s statuses, filtered by entity, paginated', async () => {
    const response = await as(guest, { url: '/api/statuses?entity=order&limit=3' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.meta).toMatchObject({ page: 1, limit: 3, hasNextPage: true });
    expect(body.meta.total).toBeGreaterThanOrEqual(8);
    expect(body.data.map((s: { internalLabel: string }) => s.internalLabel)).toEqual(
      ORDER_WORKFLOW.slice(0, 3),
    );
    expect(body.data.every((s: { entity: string }) => s.entity === 'order')).toBe(true);

    const all = (await as(admin, { url: '/api/statuses?limit=500' })).json();
    expect(new Set(all.data.map((s: { entity: string }) => s.entity))).toEqual(
      new Set(['order', 'quote', 'project']),
    );
  });

  it('sorts by whitelisted fields only', async () => {
    const sorted = await as(admin, { url: '/api/statuses?entity=order&sort=internalLabel,DESC' });
    const labels = sorted.json().data.map((s: { internalLabel: string }) => s.internalLabel);
    expect(labels).toEqual([...labels].sort((a: string, b: string) => b.localeCompare(a)));
    const bad = await as(admin, { url: '/api/statuses?sort=organisationId' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/sort');
  });

  it('GET /api/statuses/entity requires a valid entity', async () => {
    const missing = await as(admin, { url: '/api/statuses/entity' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0]).toMatchObject({ pointer: '/entity', in: 'query' });
    const wrong = await as(admin, { url: '/api/statuses/entity?entity=invoice' });
    expect(wrong.statusCode).toBe(400);
  });

  it('does not show another tenant’s statuses', async () => {
    const mine = await orderStatuses(admin);
    const theirs = await orderStatuses(other);
    expect(mine.map((s) => s.id)).not.toEqual(expect.arrayContaining([theirs[0]!.id]));
    const response = await as(other, { url: `/api/statuses/${mine[0]!.id}` });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });

  it('GET /api/statuses/:id validates the id', async () => {
    const response = await as(admin, { url: '/api/statuses/not-a-uuid' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ pointer: '/id', in: 'params' });
  });
});

describe('PATCH /api/statuses/:id', () => {
  it('changes labels, position and colour and records the changed columns', async () => {
    const status = await create(admin, { entity: 'brief', internalLabel: 'Draft' });
    const response = await as(admin, {
      method: 'PATCH',
      url: `/api/statuses/${status.id}`,
      payload: { externalLabel: 'In preparation', position: 4, color: null },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      internalLabel: 'Draft',
      externalLabel: 'In preparation',
      position: 4,
    });
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, status.id), eq(events.type, 'UPDATE')));
    expect(event?.updatedColumns).toEqual(expect.arrayContaining(['externalLabel', 'position']));
    expect(event?.updatedColumns).not.toContain('internalLabel');
  });

  it('makes another status the default, and refuses to unset the default directly (409)', async () => {
    const statuses = await orderStatuses(admin);
    const processing = statuses.find((s) => s.internalLabel === 'Processing')!;
    const pending = statuses.find((s) => s.internalLabel === 'Pending')!;
    const moved = await as(admin, {
      method: 'PATCH',
      url: `/api/statuses/${processing.id}`,
      payload: { isDefault: true },
    });
    expect(moved.json().isDefault).toBe(true);
    expect((await as(admin, { url: `/api/statuses/${pending.id}` })).json().isDefault).toBe(false);

    const unset = await as(admin, {
      method: 'PATCH',
      url: `/api/statuses/${processing.id}`,
      payload: { isDefault: false },
    });
    expect(unset.statusCode).toBe(409);
    expect(unset.json().code).toBe('default_status');
    // Back to Pending.
    await as(admin, { method: 'PATCH', url: `/api/statuses/${pending.id}`, payload: { isDefault: true } });
  });

  it('refuses an empty body, an entity change, a taken label, sales and another tenant', async () => {
    const statuses = await orderStatuses(admin);
    const url = `/api/statuses/${statuses[1]!.id}`;
    const empty = await as(admin, { method: 'PATCH', url, payload: {} });
    expect(empty.statusCode).toBe(400);
    const entity = await as(admin, { method: 'PATCH', url, payload: { entity: 'quote' } });
    expect(entity.statusCode).toBe(400);
    expect(entity.json().errors[0].pointer).toBe('/entity');
    const taken = await as(admin, { method: 'PATCH', url, payload: { internalLabel: 'DELIVERED' } });
    expect(taken.statusCode).toBe(409);
    const same = await as(admin, { method: 'PATCH', url, payload: { internalLabel: 'Processing' } });
    expect(same.statusCode).toBe(200);
    expect((await as(sales, { method: 'PATCH', url, payload: { position: 1 } })).statusCode).toBe(403);
    expect((await as(other, { method: 'PATCH', url, payload: { position: 1 } })).statusCode).toBe(404);
  });
});

describe('DELETE /api/statuses/:id', () => {
  it('soft-deletes: the status disappears from reads but the row stays', async () => {
    const status = await create(admin, { entity: 'order', internalLabel: 'Returned' });
    expect((await as(other, { method: 'DELETE', url: `/api/statuses/${status.id}` })).statusCode).toBe(404);
    expect((await as(sales, { method: 'DELETE', url: `/api/statuses/${status.id}` })).statusCode).toBe(403);
    const response = await as(admin, { method: 'DELETE', url: `/api/statuses/${status.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: status.id, deleted: true });

    expect((await as(admin, { url: `/api/statuses/${status.id}` })).statusCode).toBe(404);
    expect((await orderStatuses(admin)).map((s) => s.id)).not.toContain(status.id);
    const list = (await as(admin, { url: '/api/statuses?entity=order&limit=500' })).json();
    expect(list.data.map((s: { id: string }) => s.id)).not.toContain(status.id);
    expect((await as(admin, { method: 'DELETE', url: `/api/statuses/${status.id}` })).statusCode).toBe(404);
    expect(
      (await as(admin, { method: 'PATCH', url: `/api/statuses/${status.id}`, payload: { position: 1 } }))
        .statusCode,
    ).toBe(404);
    // Its label is free again.
    await create(admin, { entity: 'order', internalLabel: 'Returned' });
  });

  it('refuses to delete the default status while its entity has others (409), allows the last one', async () => {
    const pending = (await orderStatuses(admin)).find((s) => s.isDefault)!;
    const refused = await as(admin, { method: 'DELETE', url: `/api/statuses/${pending.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('default_status');

    const only = await create(admin, { entity: 'article', internalLabel: 'Active', isDefault: true });
    expect((await as(admin, { method: 'DELETE', url: `/api/statuses/${only.id}` })).statusCode).toBe(200);
  });
});

describe('findLiveStatus', () => {
  it('finds live statuses of the right entity and tenant only', async () => {
    const db = t.app.ctx.db;
    const [pending] = await orderStatuses(admin);
    expect(await findLiveStatus(db, admin.organisationId, 'order', pending!.id)).toMatchObject({
      id: pending!.id,
      internalLabel: 'Pending',
    });
    expect(await findLiveStatus(db, admin.organisationId, 'quote', pending!.id)).toBeUndefined();
    expect(await findLiveStatus(db, other.organisationId, 'order', pending!.id)).toBeUndefined();
    const gone = await create(admin, { entity: 'order', internalLabel: 'Gone' });
    await as(admin, { method: 'DELETE', url: `/api/statuses/${gone.id}` });
    expect(await findLiveStatus(db, admin.organisationId, 'order', gone.id)).toBeUndefined();
    expect((await findDefaultStatus(db, admin.organisationId, 'order'))?.internalLabel).toBe('Pending');
  });
});
