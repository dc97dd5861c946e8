/**
 * Non-finite and out-of-range numbers found by the hostile probe (issue 14, defect 3): 400 at the
 * schema layer, 422 for a computed total out of range, CHECK constraints in the database, and
 * nothing committed that a later read could not serialise.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orderItems } from '../../src/db/schema/index.ts';
import { securityFixture } from './fixture.ts';

const fixture = securityFixture();
const { inject, newOrder, pointersOf } = fixture;

describe('defect 3: non-finite and out-of-range numbers', () => {
  it('refuses "Infinity", "1e309", NaN and JSON 1e309 with 400 and commits nothing', async () => {
    const orderId = await newOrder();
    const attempts: Array<[string, unknown]> = [
      ['/quantity', { orderId, quantity: 'Infinity', unitPrice: 1 }],
      ['/quantity', { orderId, quantity: '1e309', unitPrice: 1 }],
      ['/quantity', { orderId, quantity: 'NaN', unitPrice: 1 }],
      ['/unitPrice', { orderId, quantity: 1, unitPrice: '-Infinity' }],
      ['/totalPrice', { orderId, quantity: 1, totalPrice: 'Infinity' }],
      ['/quantity', `{"orderId":"${orderId}","quantity":1e309,"unitPrice":1}`],
    ];
    for (const [pointer, payload] of attempts) {
      const response = await inject('POST', '/api/order-items', payload);
      expect(response.statusCode, `${JSON.stringify(payload)} -> ${response.body}`).toBe(400);
      expect(pointersOf(response)).toContain(pointer);
    }
    const items = await fixture.t.app.ctx.db
      .select()
      .from(orderItems)
      .where(sql`${orderItems.orderId} = ${orderId}`);
    expect(items).toEqual([]);
    for (const payload of [
      { billedAmount: 'Infinity' },
      { billedAmount: '1e309' },
      { billedAmount: 1e300 },
    ]) {
      const response = await inject('POST', '/api/orders', payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(pointersOf(response)).toContain('/billedAmount');
    }
    const article = await inject('POST', '/api/articles', {
      name: 'Box',
      companyId: fixture.companyId,
      price: 'Infinity',
    });
    expect(article.statusCode).toBe(400);
  });

  it('answers 422 for a computed total out of range, commits nothing, and the order stays readable', async () => {
    const orderId = await newOrder();
    const response = await inject('POST', '/api/order-items', {
      orderId,
      quantity: 1_000_000_000,
      unitPrice: 1_000_000_000_000,
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe('total_out_of_range');
    for (const url of [`/api/orders/${orderId}`, '/api/orders', '/api/order-items']) {
      expect((await inject('GET', url)).statusCode, url).toBe(200);
    }
  });

  it('keeps non-finite and out-of-range money and quantities out of the database (CHECK constraints)', async () => {
    const orderId = await newOrder();
    for (const values of [
      { quantity: Number.NaN, totalPrice: 0 },
      { quantity: 1, totalPrice: Number.POSITIVE_INFINITY },
      { quantity: 1, totalPrice: 1e300 },
      { quantity: 1, unitPrice: Number.NEGATIVE_INFINITY, totalPrice: 0 },
    ]) {
      await expect(
        fixture.t.app.ctx.db
          .insert(orderItems)
          .values({ organisationId: fixture.admin.organisationId, orderId, ...values }),
      ).rejects.toThrow();
    }
  });
});
