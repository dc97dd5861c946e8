import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/platform.ts';
import {
  findBaseCurrency,
  findCurrencyByCode,
  findLiveCurrency,
} from '../../src/modules/currencies/repository.ts';
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
let eur: { id: string };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  eur = (await t.app.inject({ method: 'GET', url: '/api/currencies?code=EUR', headers: auth(admin) })).json()
    .data[0];
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
  const response = await as(who, { method: 'POST', url: '/api/currencies', payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
};

describe('seeding', () => {
  it('gives every new organisation its base currency EUR at rate 1', async () => {
    const fresh = await makeOrganisation(t);
    const response = await as(fresh, { url: '/api/currencies' });
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json();
    expect(meta.total).toBe(1);
    expect(data[0]).toMatchObject({ code: 'EUR', name: 'Euro', symbol: '€', rate: 1, isBase: true });
    const created = await t.app.ctx.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.organisationId, fresh.organisationId), eq(events.entity, 'CURRENCY')));
    expect(created).toHaveLength(1);
    expect((await findBaseCurrency(t.app.ctx.db, fresh.organisationId))?.code).toBe('EUR');
  });
});

describe('POST /api/currencies', () => {
  it('adds a currency with its rate', async () => {
    const usd = await create(admin, { code: 'USD', name: 'US Dollar', symbol: '$', rate: 1.0834 });
    expect(usd).toMatchObject({ code: 'USD', name: 'US Dollar', symbol: '$', rate: 1.0834, isBase: false });
    const fetched = await as(guest, { url: `/api/currencies/${usd.id}` });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(usd);
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, usd.id), eq(events.type, 'CREATE')));
    expect(event?.eventName).toBe('event.currencies.created');
  });

  it('refuses invalid bodies with pointers', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'usd', symbol: '$' }, '/code'],
      [{ code: 'USDX', symbol: '$' }, '/code'],
      [{ symbol: '$' }, '/code'],
      [{ code: 'JPY' }, '/symbol'],
      [{ code: 'JPY', symbol: '¥', rate: 0 }, '/rate'],
      [{ code: 'JPY', symbol: '¥', rate: -2 }, '/rate'],
      [{ code: 'JPY', symbol: '¥', rate: 'abc' }, '/rate'],
      [{ code: 'JPY', symbol: '¥', iso: 'JPY' }, '/iso'],
    ];
    for (const [payload, pointer] of cases) {
      const response = await as(admin, { method: 'POST', url: '/api/currencies', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
  });

  it('refuses a code already used by a live currency (409), but another tenant may use it', async () => {
    const duplicate = await as(admin, {
      method: 'POST',
      url: '/api/currencies',
      payload: { code: 'EUR', symbol: '€' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('duplicate_currency');
    await create(other, { code: 'USD', symbol: '$', rate: 1.1 });
  });

  it('is refused to sales and guests (403)', async () => {
    for (const who of [sales, guest]) {
      const response = await as(who, {
        method: 'POST',
        url: '/api/currencies',
        payload: { code: 'GBP', symbol: '£' },
      });
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('GET /api/currencies', () => {
  it('lists live currencies sorted by code, and not another tenant’s', async () => {
    await create(admin, { code: 'CHF', symbol: 'CHF', rate: 0.95 });
    const { data } = (await as(admin, { url: '/api/currencies' })).json();
    expect(data.map((c: { code: string }) => c.code)).toEqual(['CHF', 'EUR', 'USD']);
    const theirs = (await as(other, { url: '/api/currencies' })).json().data;
    expect(theirs.map((c: { id: string }) => c.id)).not.toContain(eur.id);
    expect((await as(other, { url: `/api/currencies/${eur.id}` })).statusCode).toBe(404);
  });

  it('validates the filter', async () => {
    const response = await as(admin, { url: '/api/currencies?code=eu' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ pointer: '/code', in: 'query' });
  });
});

describe('PATCH /api/currencies/:id', () => {
  it('changes name, symbol and rate', async () => {
    const gbp = await create(admin, { code: 'GBP', symbol: 'GBP', rate: 0.85 });
    const response = await as(admin, {
      method: 'PATCH',
      url: `/api/currencies/${gbp.id}`,
      payload: { name: 'Pound Sterling', symbol: '£', rate: 0.8612 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ code: 'GBP', name: 'Pound Sterling', symbol: '£', rate: 0.8612 });
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, gbp.id), eq(events.type, 'UPDATE')));
    expect(event?.updatedColumns).toEqual(expect.arrayContaining(['name', 'symbol', 'rate']));
  });

  it('keeps the base currency at rate 1 with its code (409)', async () => {
    const rate = await as(admin, {
      method: 'PATCH',
      url: `/api/currencies/${eur.id}`,
      payload: { rate: 1.2 },
    });
    expect(rate.statusCode).toBe(409);
    expect(rate.json().code).toBe('base_currency');
    const code = await as(admin, {
      method: 'PATCH',
      url: `/api/currencies/${eur.id}`,
      payload: { code: 'EUX' },
    });
    expect(code.statusCode).toBe(409);
    const name = await as(admin, {
      method: 'PATCH',
      url: `/api/currencies/${eur.id}`,
      payload: { name: 'Euro (€)' },
    });
    expect(name.statusCode).toBe(200);
  });

  it('refuses a taken code, bad values, sales and another tenant', async () => {
    const usd = await findCurrencyByCode(t.app.ctx.db, admin.organisationId, 'usd');
    const url = `/api/currencies/${usd!.id}`;
    expect((await as(admin, { method: 'PATCH', url, payload: { code: 'CHF' } })).statusCode).toBe(409);
    const bad = await as(admin, { method: 'PATCH', url, payload: { rate: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/rate');
    expect((await as(admin, { method: 'PATCH', url, payload: {} })).statusCode).toBe(400);
    expect((await as(sales, { method: 'PATCH', url, payload: { rate: 2 } })).statusCode).toBe(403);
    expect((await as(other, { method: 'PATCH', url, payload: { rate: 2 } })).statusCode).toBe(404);
  });
});

describe('DELETE /api/currencies/:id', () => {
  it('refuses to delete the base currency (409)', async () => {
    const response = await as(admin, { method: 'DELETE', url: `/api/currencies/${eur.id}` });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'base_currency', status: 409 });
  });

  it('soft-deletes another currency; its code is free again', async () => {
    const sek = await create(admin, { code: 'SEK', symbol: 'kr', rate: 11.2 });
    expect((await as(other, { method: 'DELETE', url: `/api/currencies/${sek.id}` })).statusCode).toBe(404);
    expect((await as(guest, { method: 'DELETE', url: `/api/currencies/${sek.id}` })).statusCode).toBe(403);
    const response = await as(admin, { method: 'DELETE', url: `/api/currencies/${sek.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: sek.id, deleted: true });
    expect((await as(admin, { url: `/api/currencies/${sek.id}` })).statusCode).toBe(404);
    const { data } = (await as(admin, { url: '/api/currencies' })).json();
    expect(data.map((c: { code: string }) => c.code)).not.toContain('SEK');
    expect(await findLiveCurrency(t.app.ctx.db, admin.organisationId, sek.id)).toBeUndefined();
    const again = await create(admin, { code: 'SEK', symbol: 'kr', rate: 11.3 });
    expect(again.id).not.toBe(sek.id);
  });
});

describe('findLiveCurrency', () => {
  it('finds the live currencies of the tenant only', async () => {
    const db = t.app.ctx.db;
    expect(await findLiveCurrency(db, admin.organisationId, eur.id)).toMatchObject({
      code: 'EUR',
      isBase: true,
    });
    expect(await findLiveCurrency(db, other.organisationId, eur.id)).toBeUndefined();
  });
});
