import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/platform.ts';
import { type CrudFields, parseCrudQuery } from '../../src/platform/crud-query.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: Credentials;

const fields: CrudFields = {
  id: { column: users.id, type: 'uuid' },
  email: { column: users.email, type: 'string' },
  role: { column: users.role, type: 'string' },
  externalId: { column: users.externalId, type: 'string' },
  firstName: { column: users.firstName, type: 'string' },
  createdAt: { column: users.createdAt, type: 'date' },
};

const PEOPLE = [
  {
    email: 'Ada.Lovelace@Example.com',
    firstName: 'Ada',
    externalId: 'ERP-1',
    role: 'contact',
    createdAt: '2026-01-01T00:00:00Z',
  },
  {
    email: 'alan.turing@example.com',
    firstName: 'Alan',
    externalId: 'ERP-2',
    role: 'contact',
    createdAt: '2026-02-01T00:00:00Z',
  },
  {
    email: 'grace@navy.mil',
    firstName: 'Grace',
    externalId: null,
    role: 'sales',
    createdAt: '2026-03-01T00:00:00Z',
  },
  {
    email: 'edsger@utexas.edu',
    firstName: '50%_off',
    externalId: 'ERP-10',
    role: 'guest',
    createdAt: '2026-04-01T00:00:00Z',
  },
] as const;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  for (const p of PEOPLE) {
    await t.app.ctx.db
      .insert(users)
      .values({ ...p, organisationId: admin.organisationId, createdAt: new Date(p.createdAt) });
  }
});
afterAll(() => t.close());

/** Runs a query-string object through the parser and returns the matching first names, in order. */
async function names(query: Record<string, unknown>): Promise<string[]> {
  const parsed = parseCrudQuery(query, {
    fields,
    defaultLimit: 50,
    maxLimit: 100,
    defaultSort: [asc(users.createdAt)],
  });
  const rows = await t.app.ctx.db
    .select({ firstName: users.firstName })
    .from(users)
    .where(and(eq(users.organisationId, admin.organisationId), isNull(users.deletedAt), parsed.where))
    .orderBy(...parsed.orderBy)
    .limit(parsed.limit)
    .offset(parsed.offset);
  return rows.map((r) => r.firstName!).filter((n) => n !== null);
}

const s = (search: object) => ({ s: JSON.stringify(search) });

describe('crud grammar: s search operators', () => {
  it.each([
    [{ externalId: { $eq: 'ERP-1' } }, ['Ada']],
    [{ externalId: 'ERP-2' }, ['Alan']],
    [{ externalId: { $ne: 'ERP-1' }, role: 'contact' }, ['Alan']],
    [{ createdAt: { $gt: '2026-02-01T00:00:00Z' } }, ['Grace', '50%_off']],
    [{ createdAt: { $gte: '2026-02-01T00:00:00Z' } }, ['Alan', 'Grace', '50%_off']],
    [{ createdAt: { $lt: '2026-02-01T00:00:00Z' } }, ['Ada']],
    [{ createdAt: { $lte: '2026-02-01T00:00:00Z' } }, ['Ada', 'Alan']],
    [{ createdAt: { $between: ['2026-01-15T00:00:00Z', '2026-03-15T00:00:00Z'] } }, ['Alan', 'Grace']],
    [{ email: { $starts: 'alan' } }, ['Alan']],
    [{ email: { $starts: 'ada' } }, []],
    [{ email: { $startsL: 'ada' } }, ['Ada']],
    [{ email: { $ends: '.mil' } }, ['Grace']],
    [{ email: { $endsL: 'EXAMPLE.COM' } }, ['Ada', 'Alan']],
    [{ email: { $cont: 'Lovelace' } }, ['Ada']],
    [{ email: { $cont: 'lovelace' } }, []],
    [{ email: { $contL: 'LOVELACE' } }, ['Ada']],
    [{ firstName: { $cont: '%_' } }, ['50%_off']],
    [{ email: { $excl: 'example' }, role: { $in: ['sales', 'guest'] } }, ['Grace', '50%_off']],
    [{ email: { $exclL: 'EXAMPLE' } }, ['Grace', '50%_off']],
    [{ email: { $eqL: 'ADA.LOVELACE@EXAMPLE.COM' } }, ['Ada']],
    [{ email: { $neL: 'ADA.LOVELACE@EXAMPLE.COM' }, role: 'contact' }, ['Alan']],
    [{ externalId: { $in: ['ERP-1', 'ERP-10'] } }, ['Ada', '50%_off']],
    [{ externalId: { $notin: ['ERP-1', 'ERP-10'] } }, ['Alan']],
    [{ externalId: { $inL: ['erp-1'] } }, ['Ada']],
    [{ externalId: { $notinL: ['erp-1', 'erp-2'] }, role: { $ne: 'admin' } }, ['50%_off']],
    [{ externalId: { $isnull: true }, role: { $ne: 'admin' } }, ['Grace']],
    [{ externalId: { $notnull: true } }, ['Ada', 'Alan', '50%_off']],
    [{ $or: [{ firstName: 'Ada' }, { firstName: 'Grace' }] }, ['Ada', 'Grace']],
    [{ $and: [{ role: 'contact' }, { email: { $contL: 'turing' } }] }, ['Alan']],
    [{ firstName: { $or: { $eq: 'Ada', $starts: 'Gr' } } }, ['Ada', 'Grace']],
    [{ role: 'contact', $or: [{ firstName: 'Ada' }, { firstName: 'Grace' }] }, ['Ada']],
  ])('%j', async (search, expected) => {
    expect(await names(s(search))).toEqual(expected);
  });
});

describe('crud grammar: filter, or, sort, limit, page', () => {
  it('ANDs filters', async () => {
    expect(await names({ filter: ['role||$eq||contact', 'email||$contL||turing'] })).toEqual(['Alan']);
  });
  it('ORs `or` conditions, and ORs the filter group with the or group', async () => {
    expect(await names({ or: ['firstName||$eq||Ada', 'firstName||$eq||Grace'] })).toEqual(['Ada', 'Grace']);
    expect(await names({ filter: 'firstName||$eq||Ada', or: 'firstName||$eq||Alan' })).toEqual([
      'Ada',
      'Alan',
    ]);
  });
  it('accepts the old operator spelling and list values', async () => {
    expect(await names({ filter: 'externalId||in||ERP-1,ERP-2' })).toEqual(['Ada', 'Alan']);
  });
  it('sorts, limits and pages', async () => {
    expect(await names({ sort: 'createdAt,DESC', limit: '2', filter: 'role||$ne||admin' })).toEqual([
      '50%_off',
      'Grace',
    ]);
    expect(
      await names({ sort: 'createdAt,DESC', limit: '2', page: '2', filter: 'role||$ne||admin' }),
    ).toEqual(['Alan', 'Ada']);
  });
});

describe('crud grammar: refusals', () => {
  it.each([
    [{ s: '{not json' }, 'JSON'],
    [{ s: '"a string"' }, 'JSON'],
    [s({ password: 'x' }), 'Unknown field'],
    [s({ email: { $regex: '.*' } }), 'Unknown operator'],
    [s({ $nor: [] }), 'Unknown operator'],
    [s({ id: { $eq: 'not-a-uuid' } }), 'UUID'],
    [s({ createdAt: { $gt: 'yesterday' } }), 'date'],
    [s({ createdAt: { $between: ['2026-01-01'] } }), 'two values'],
    [{ filter: 'email||$bogus||x' }, 'operator'],
    [{ sort: 'passwordHash,ASC' }, 'sort'],
  ])('%j -> 400', async (query, message) => {
    await expect(names(query)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_query',
      message: expect.stringContaining(message),
    });
  });
});
