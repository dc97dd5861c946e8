/**
 * The orders repositories on the real database (PGlite, or PostgreSQL with DATABASE_URL): which
 * rows a listing sees (tenant, live rows, the actor's companies), in which order, and the capped
 * count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { orderItems } from '../../src/db/schema/orders.ts';
import { insertCompany } from '../../src/modules/companies/repository.ts';
import {
  listVisibleOrderItems,
  ORDER_ITEM_PAGE,
  softDeleteLiveOrderItems,
} from '../../src/modules/orders/items-repository.ts';
import {
  insertOrder,
  listOrderPage,
  ORDER_PAGE,
  orderExternalIdTaken,
  softDeleteLiveItems,
  updateOrder,
} from '../../src/modules/orders/repository.ts';
import type { Actor } from '../../src/platform/actor.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import type { TestApp } from '../helpers/app.ts';
import { buildTwoTenants } from '../helpers/tenants.ts';

describe('orders repository', () => {
  let t: TestApp;
  let db: Db;
  let admin: Actor;
  let other: Actor;
  let acme: string;
  let globex: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ t, db, admin, other } = await buildTwoTenants());
    acme = (await insertCompany(db, { organisationId: admin.organisationId, name: 'Acme' })).id;
    globex = (await insertCompany(db, { organisationId: admin.organisationId, name: 'Globex' })).id;
    const foreign = (await insertCompany(db, { organisationId: other.organisationId, name: 'Initech' })).id;
    const order = async (name: string, organisationId: string, companyId: string, day: number) => {
      const row = await insertOrder(db, {
        organisationId,
        companyId,
        billedAmount: day,
        externalId: `EXT-${name}`,
        createdAt: new Date(Date.UTC(2026, 0, day)),
      });
      ids[name] = row.id;
      return row;
    };
    await order('first', admin.organisationId, acme, 1);
    await order('second', admin.organisationId, globex, 2);
    await order('third', admin.organisationId, acme, 3);
    await order('deleted', admin.organisationId, acme, 4);
    await updateOrder(db, ids.deleted!, { deletedAt: new Date() });
    await order('foreign', other.organisationId, foreign, 5);
  });
  afterAll(() => t.close());

  const page = (query = {}) => resolvePage(query, ORDER_PAGE);
  const namesOf = (rows: { id: string }[]) =>
    rows.map((row) => Object.entries(ids).find(([, id]) => id === row.id)?.[0]);

  it('lists the live orders of the tenant only, newest first by default, with the count', async () => {
    const { rows, count } = await listOrderPage(db, admin, {}, page(), 100);
    expect(namesOf(rows)).toEqual(['third', 'second', 'first']);
    expect(count).toBe(3);
    const theirs = await listOrderPage(db, other, {}, page(), 100);
    expect(namesOf(theirs.rows)).toEqual(['foreign']);
  });

  it('follows the requested sort and reads one row more than the page (for hasNextPage)', async () => {
    const { rows } = await listOrderPage(db, admin, {}, page({ sort: 'billedAmount,ASC', limit: 2 }), 100);
    expect(namesOf(rows)).toEqual(['first', 'second', 'third']);
    const next = await listOrderPage(
      db,
      admin,
      {},
      page({ sort: 'billedAmount,ASC', limit: 2, page: 2 }),
      100,
    );
    expect(namesOf(next.rows)).toEqual(['third']);
  });

  it('limits a company-scoped actor to its companies, and applies the filters', async () => {
    const scoped = { ...admin, role: 'external_sales' as const, companyIds: [globex] };
    expect(namesOf((await listOrderPage(db, scoped, {}, page(), 100)).rows)).toEqual(['second']);
    const ofAcme = await listOrderPage(db, admin, { companyId: acme }, page(), 100);
    expect(namesOf(ofAcme.rows)).toEqual(['third', 'first']);
    const searched = await listOrderPage(db, admin, { search: 'ext-sec' }, page(), 100);
    expect(namesOf(searched.rows)).toEqual(['second']);
  });

  it('stops counting one past the cap', async () => {
    expect((await listOrderPage(db, admin, {}, page(), 1)).count).toBe(2);
  });

  it('finds an externalId taken among the live orders of the tenant only, the order itself excepted', async () => {
    expect(await orderExternalIdTaken(db, admin.organisationId, 'EXT-first')).toBe(true);
    expect(await orderExternalIdTaken(db, admin.organisationId, 'EXT-first', ids.first)).toBe(false);
    expect(await orderExternalIdTaken(db, admin.organisationId, 'EXT-deleted')).toBe(false);
    expect(await orderExternalIdTaken(db, admin.organisationId, 'EXT-foreign')).toBe(false);
  });

  it('soft-deletes only the live items and lists the live items of the tenant', async () => {
    const [a, b, c] = await Promise.all(
      [1, 2, 3].map(async (position) => {
        const [item] = await db
          .insert(orderItems)
          .values({ organisationId: admin.organisationId, orderId: ids.third!, quantity: 1, position })
          .returning();
        return item!;
      }),
    );
    const items = resolvePage({}, ORDER_ITEM_PAGE);
    expect(
      (await listVisibleOrderItems(db, admin, { orderId: ids.third }, items)).rows.map((r) => r.id),
    ).toEqual([a!.id, b!.id, c!.id]);
    expect((await softDeleteLiveOrderItems(db, [a!.id])).map((r) => r.id)).toEqual([a!.id]);
    const removed = await softDeleteLiveItems(db, ids.third!, new Date());
    expect(removed.map((r) => r.id).sort()).toEqual([b!.id, c!.id].sort());
    const left = await listVisibleOrderItems(db, admin, { orderId: ids.third }, items);
    expect(left).toEqual({ rows: [], total: 0 });
    expect((await listVisibleOrderItems(db, other, {}, items)).total).toBe(0);
  });
});
