import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/platform.ts';
import { pageResult, pageWindow, resolvePage } from '../../src/platform/pagination.ts';

const options = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: { createdAt: users.createdAt, email: users.email },
  tieBreaker: users.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' as const },
};

describe('resolvePage', () => {
  it('applies defaults', () => {
    expect(resolvePage({}, options)).toMatchObject({
      page: 1,
      limit: 25,
      offset: 0,
      sortField: 'createdAt',
      direction: 'DESC',
    });
  });
  it('reads sort=field,DIRECTION', () => {
    expect(resolvePage({ sort: 'email,asc', page: 3, limit: 10 }, options)).toMatchObject({
      sortField: 'email',
      direction: 'ASC',
      offset: 20,
    });
  });
  it('reads order=+field and order=-field (a + arrives as a space when not encoded)', () => {
    expect(resolvePage({ order: '+email' }, options)).toMatchObject({ sortField: 'email', direction: 'ASC' });
    expect(resolvePage({ order: ' email' }, options)).toMatchObject({ sortField: 'email', direction: 'ASC' });
    expect(resolvePage({ order: '-createdAt' }, options)).toMatchObject({
      sortField: 'createdAt',
      direction: 'DESC',
    });
  });
  it('reads sort=field with order=ASC|DESC', () => {
    expect(resolvePage({ sort: 'email', order: 'DESC' }, options)).toMatchObject({
      sortField: 'email',
      direction: 'DESC',
    });
  });
  it('caps the limit at the maximum', () => {
    expect(resolvePage({ limit: 1000 }, options).limit).toBe(100);
  });
  it('refuses a field outside the whitelist and malformed forms', () => {
    expect(() => resolvePage({ sort: 'passwordHash,ASC' }, options)).toThrow(/Cannot sort/);
    expect(() => resolvePage({ sort: 'email,UP' }, options)).toThrow(/sort must be/);
    expect(() => resolvePage({ order: '*email' }, options)).toThrow(/order must be/);
  });
});

describe('pageWindow', () => {
  // Rows are positions 0..total-1 in the sort order; reading "in reverse" means from the far end.
  const read = (total: number, window: ReturnType<typeof pageWindow>, reversed: boolean) => {
    const rows = Array.from({ length: total }, (_, i) => i);
    const ordered = reversed ? rows.reverse() : rows;
    return ordered.slice(window.offset, window.offset + window.limit).sort((a, b) => a - b);
  };

  it('reads the same rows as a plain offset for every page, limit and total, never skipping past the middle', () => {
    for (let total = 0; total <= 40; total++) {
      for (const limit of [1, 2, 3, 7, 25]) {
        for (let pageNumber = 1; pageNumber <= Math.ceil(total / limit) + 2; pageNumber++) {
          const page = resolvePage({ page: pageNumber, limit }, options);
          const window = pageWindow(page, total);
          const reversed = window.orderBy === page.reverseOrderBy;
          const expected = Array.from({ length: total }, (_, i) => i).slice(
            page.offset,
            page.offset + limit + 1,
          );
          expect(read(total, window, reversed), `total ${total}, limit ${limit}, page ${pageNumber}`).toEqual(
            expected,
          );
          expect(window.offset).toBeLessThanOrEqual(Math.ceil(total / 2));
        }
      }
    }
  });

  it('reads the first half forwards and the second half from the far end', () => {
    const deep = resolvePage({ page: 4000, limit: 25 }, options);
    expect(pageWindow(deep, 100_000)).toEqual({ orderBy: deep.reverseOrderBy, offset: 0, limit: 25 });
    const early = resolvePage({ page: 10, limit: 25 }, options);
    expect(pageWindow(early, 100_000)).toEqual({ orderBy: early.orderBy, offset: 225, limit: 26 });
  });
});

describe('pageResult', () => {
  it('says whether more pages exist', () => {
    expect(pageResult([1, 2], 5, { page: 1, limit: 2 }).meta).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      hasNextPage: true,
    });
    expect(pageResult([5], 5, { page: 3, limit: 2 }).meta.hasNextPage).toBe(false);
    expect(pageResult([], 4, { page: 2, limit: 2 }).meta.hasNextPage).toBe(false);
  });
});
