import { describe, expect, it } from 'vitest';
import { statusColours } from './colours.ts';
import { ordersQuery } from './filters.ts';
import { itemTree } from './tree.ts';

describe('order status colours', () => {
  it('keeps the status text colour when it is readable on the background', () => {
    expect(statusColours({ color: '#1971c2', fgColor: '#ffffff' })).toEqual({
      background: '#1971c2',
      color: '#ffffff',
    });
  });
  it('replaces an unreadable or missing text colour by black or white, whichever contrasts more', () => {
    expect(statusColours({ color: '#9E9E9E' })).toEqual({ background: '#9E9E9E', color: '#000000' });
    expect(statusColours({ color: '#3F51B5', fgColor: '#3F51B6' })).toEqual({
      background: '#3F51B5',
      color: '#ffffff',
    });
    expect(statusColours({ color: '#FFEB3B', fgColor: '#ffffff' }).color).toBe('#000000');
  });
  it('prefers bgColor and falls back to a dark grey', () => {
    expect(statusColours({ color: '#000000', bgColor: '#ffffff' }).background).toBe('#ffffff');
    expect(statusColours({}).background).toBe('#495057');
  });
});

describe('order items as a tree', () => {
  it('puts each child right after its parent, deeper, and counts children', () => {
    const items = [
      { id: 'a', parentId: null },
      { id: 'b', parentId: null },
      { id: 'a1', parentId: 'a' },
      { id: 'a11', parentId: 'a1' },
      { id: 'a2', parentId: 'a' },
    ];
    expect(itemTree(items).map((r) => [r.item.id, r.depth, r.children])).toEqual([
      ['a', 0, 2],
      ['a1', 1, 1],
      ['a11', 2, 0],
      ['a2', 1, 0],
      ['b', 0, 0],
    ]);
  });
  it('shows an item whose parent is not in the order as a root', () => {
    expect(itemTree([{ id: 'x', parentId: 'gone' }]).map((r) => r.depth)).toEqual([0]);
  });
});

describe('orders list filters', () => {
  it('takes the API filters from the URL and nothing else', () => {
    const params = new URLSearchParams(
      'statusId=s1,s2&companyId=c&page=3&view=board&search=&orderDateEnd=2026-01-31',
    );
    expect(ordersQuery(params)).toEqual({ statusId: 's1,s2', companyId: 'c', orderDateEnd: '2026-01-31' });
  });
});
