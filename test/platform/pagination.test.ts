import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/platform.ts';
import { pageResult, resolvePage } from '../../src/platform/pagination.ts';

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
