import { describe, expect, it } from 'vitest';
import { parsePatterns, resourcePath } from './events.ts';

const event = (over: Partial<Parameters<typeof resourcePath>[0]>) => ({
  type: 'CREATE',
  entity: 'COMPANY',
  entityId: 'c1',
  relation: null,
  relationId: null,
  ...over,
});

describe('webhooks console helpers', () => {
  it('opens an event’s entity on its page, or its parent’s', () => {
    expect(resourcePath(event({}))).toBe('/companies/c1');
    expect(resourcePath(event({ entity: 'QUOTE_ITEM', relation: 'QUOTE', relationId: 'q1' }))).toBe(
      '/quotes/q1',
    );
    expect(resourcePath(event({ entity: 'IMPORT', entityId: 'i1' }))).toBe('/imports/i1');
  });
  it('offers no link for an entity without a page, or a deleted one without a parent page', () => {
    expect(resourcePath(event({ entity: 'CURRENCY' }))).toBeUndefined();
    expect(resourcePath(event({ type: 'DELETE' }))).toBeUndefined();
    expect(
      resourcePath(event({ type: 'DELETE', entity: 'ORDER_ITEM', relation: 'ORDER', relationId: 'o1' })),
    ).toBe('/orders/o1');
  });
  it('reads patterns one per line or comma-separated', () => {
    expect(parsePatterns(' event.orders.* ,\nevent.*.deleted\n\n')).toEqual([
      'event.orders.*',
      'event.*.deleted',
    ]);
  });
});
