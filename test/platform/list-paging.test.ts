import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { companies, liveCounts } from '../../src/db/schema/platform.ts';
import { quotes } from '../../src/db/schema/quotes.ts';
import { QUOTE_PAGE } from '../../src/modules/quotes/service.ts';
import { liveCount, pageOfIds } from '../../src/platform/list-paging.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

// Lists at scale (issue 31): ids first, exact totals from live_counts for the whole organisation
// (far pages read from the end), capped counts otherwise, trigram indexes for "contains".

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let companyIds: string[];

const db = () => t.app.ctx.db;
const http = requests(() => t);
const get = (url: string, who = admin) => http.get(who, url);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  // Duplicate names and creation times, so that only the tie-breaker orders some rows.
  const rows = await db()
    .insert(companies)
    .values(
      Array.from({ length: 23 }, (_, i) => ({
        organisationId: admin.organisationId,
        name: `Box maker ${String(i % 7).padStart(2, '0')}${i % 5 === 0 ? ' Zebra' : ''}`,
        email: `buyer${i}@example.com`,
      })),
    )
    .returning({ id: companies.id });
  companyIds = rows.map((r) => r.id);
  await db()
    .insert(companies)
    .values({ organisationId: other.organisationId, name: 'Box maker of another tenant' });
  const at = new Date('2026-01-01T00:00:00Z');
  await db()
    .insert(quotes)
    .values(
      Array.from({ length: 17 }, (_, i) => ({
        organisationId: admin.organisationId,
        companyId: companyIds[i % companyIds.length]!,
        name: `Quote ${i}${i % 4 === 0 ? ' Zebra' : ''}`,
        currency: 'EUR',
        createdAt: new Date(at.getTime() + Math.floor(i / 3) * 60_000),
        deletedAt: i === 5 ? new Date() : null,
      })),
    );
});
afterAll(() => t.close());

describe('live_counts', () => {
  it('counts live rows per organisation and table, following inserts, archives and rollbacks', async () => {
    // The organisation's own companies: 23 inserted here (makeOrganisation creates none).
    const before = await liveCount(db(), admin.organisationId, 'companies');
    const [{ n }] = rowsOf<{ n: number }>(
      await db().execute(
        sql`select count(*)::int n from companies where organisation_id = ${admin.organisationId} and deleted_at is null`,
      ),
    ) as [{ n: number }];
    expect(before).toBe(n);
    expect(await liveCount(db(), admin.organisationId, 'quotes')).toBe(16);
    expect(await liveCount(db(), other.organisationId, 'quotes')).toBe(0);

    const created = await http.post(admin, '/api/companies', { name: 'Counted Ltd' });
    expect(created.statusCode).toBe(201);
    expect(await liveCount(db(), admin.organisationId, 'companies')).toBe(before + 1);
    const archived = await http.del(admin, `/api/companies/${created.json().id}`);
    expect(archived.statusCode).toBe(200);
    expect(await liveCount(db(), admin.organisationId, 'companies')).toBe(before);

    await expect(
      db().transaction(async (tx) => {
        await tx.insert(companies).values({ organisationId: admin.organisationId, name: 'Rolled back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await liveCount(db(), admin.organisationId, 'companies')).toBe(before);
    const [row] = await db()
      .select()
      .from(liveCounts)
      .where(and(eq(liveCounts.organisationId, admin.organisationId), eq(liveCounts.entity, 'companies')));
    expect(row?.live).toBe(before);
  });
});

describe('whole-organisation pages', () => {
  it('quotes: every page, those past the middle read from the far end, equals the plain ordered list', async () => {
    const expected = (
      await db()
        .select({ id: quotes.id })
        .from(quotes)
        .where(and(eq(quotes.organisationId, admin.organisationId), isNull(quotes.deletedAt)))
        .orderBy(desc(quotes.createdAt), desc(quotes.id))
    ).map((r) => r.id);
    expect(expected).toHaveLength(16);
    const seen: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const response = await get(`/api/quotes?limit=3&page=${page}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.meta).toEqual({
        page,
        limit: 3,
        total: 16,
        hasNextPage: page < 6,
        totalIsExact: true,
        nextCursor: page < 6 ? body.data.at(-1).id : null,
      });
      seen.push(...body.data.map((q: { id: string }) => q.id));
    }
    expect(seen).toEqual(expected);
    const beyond = (await get('/api/quotes?limit=3&page=7')).json();
    expect(beyond).toEqual({
      data: [],
      meta: { page: 7, limit: 3, total: 16, hasNextPage: false, totalIsExact: true, nextCursor: null },
    });
    // The same pages in the ascending order (another sort, same rows reversed).
    const ascending = [];
    for (let page = 1; page <= 4; page++) {
      const body = (await get(`/api/quotes?limit=5&page=${page}&sort=createdAt,ASC`)).json();
      ascending.push(...body.data.map((q: { id: string }) => q.id));
    }
    expect(ascending).toEqual([...expected].reverse());
  });

  it('companies: the crud envelope and /companies/pagination page through the name order', async () => {
    const expected = (
      await db()
        .select({ id: companies.id })
        .from(companies)
        .where(and(eq(companies.organisationId, admin.organisationId), isNull(companies.deletedAt)))
        .orderBy(asc(companies.name), asc(companies.id))
    ).map((r) => r.id);
    const total = expected.length;
    const pages = Math.ceil(total / 4);
    for (const base of ['/api/companies?', '/api/companies/pagination?']) {
      const seen: string[] = [];
      for (let page = 1; page <= pages; page++) {
        const body = (await get(`${base}limit=4&page=${page}`)).json();
        // An exact total: the envelope is the one clients already know (no totalIsExact); our own
        // paged list adds the keyset cursor.
        const cursor = base.includes('pagination')
          ? { nextCursor: page < pages ? body.data.at(-1).id : null }
          : {};
        expect(body.meta).toEqual({ page, limit: 4, total, hasNextPage: page < pages, ...cursor });
        seen.push(...body.data.map((c: { id: string }) => c.id));
      }
      expect(seen).toEqual(expected);
    }
    // The plain array (no page): the window of offset and limit.
    const window = (await get('/api/companies?limit=5&offset=9')).json();
    expect(window.map((c: { id: string }) => c.id)).toEqual(expected.slice(9, 14));
  });
});

describe('capped counts', () => {
  it('gives a lower bound and totalIsExact false beyond the cap; hasNextPage stays exact', async () => {
    const where = and(eq(quotes.organisationId, admin.organisationId), isNull(quotes.deletedAt));
    const page = (n: number) => resolvePage({ page: n, limit: 4 }, QUOTE_PAGE);
    const first = await pageOfIds(db(), { table: quotes, id: quotes.id, where, page: page(1), countCap: 5 });
    expect(first).toMatchObject({ total: 5, totalIsExact: false, hasNextPage: true });
    expect(first.ids).toHaveLength(4);
    const last = await pageOfIds(db(), { table: quotes, id: quotes.id, where, page: page(4), countCap: 5 });
    // 16 live quotes: page 4 holds the last 4, and the total is at least what was seen.
    expect(last).toMatchObject({ total: 16, totalIsExact: false, hasNextPage: false });
    const exact = await pageOfIds(db(), { table: quotes, id: quotes.id, where, page: page(1), countCap: 16 });
    expect(exact).toMatchObject({ total: 16, totalIsExact: true, hasNextPage: true });
  });

  it('a filtered quotes list counts its matches', async () => {
    const body = (await get('/api/quotes?search=zebra&limit=2')).json();
    // Quotes 0, 4, 8, 12, 16 hold "Zebra" (none of them archived).
    expect(body.meta).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      hasNextPage: true,
      totalIsExact: true,
      nextCursor: body.data[1].id,
    });
    expect(body.data.every((q: { name: string }) => q.name.includes('Zebra'))).toBe(true);
  });
});

describe('keyset cursors (after=)', () => {
  /** Every page from the first, following meta.nextCursor (or the last row's id for the plain array). */
  async function follow(first: string, next: (cursor: string) => string) {
    const seen: string[] = [];
    let body = (await get(first)).json();
    for (let guard = 0; guard < 50; guard++) {
      const data = Array.isArray(body) ? body : body.data;
      seen.push(...data.map((r: { id: string }) => r.id));
      const cursor = Array.isArray(body) ? (data.length ? data.at(-1).id : null) : body.meta.nextCursor;
      if (!cursor) return seen;
      const response = await get(next(cursor));
      expect(response.statusCode).toBe(200);
      body = response.json();
    }
    throw new Error('the cursor never reached the end');
  }

  const liveQuotes = () => and(eq(quotes.organisationId, admin.organisationId), isNull(quotes.deletedAt));

  it('quotes: following the cursor gives the ordered list, in both directions, NULLs included', async () => {
    // Some quotes without a validity date: a nullable sort column has its own keyset branches.
    await db()
      .update(quotes)
      .set({
        validUntil: sql`case when ${quotes.name} like '%1%' then null else '2027-01-01'::timestamptz + (length(${quotes.name}) || ' days')::interval end`,
      })
      .where(eq(quotes.organisationId, admin.organisationId));
    const byDefault = (
      await db()
        .select({ id: quotes.id })
        .from(quotes)
        .where(liveQuotes())
        .orderBy(desc(quotes.createdAt), desc(quotes.id))
    ).map((r) => r.id);
    expect(await follow('/api/quotes?limit=4', (c) => `/api/quotes?limit=4&after=${c}`)).toEqual(byDefault);
    for (const [direction, order] of [
      ['ASC', asc],
      ['DESC', desc],
    ] as const) {
      const expected = (
        await db()
          .select({ id: quotes.id })
          .from(quotes)
          .where(liveQuotes())
          .orderBy(order(quotes.validUntil), order(quotes.id))
      ).map((r) => r.id);
      const sort = `sort=validUntil,${direction}`;
      expect(
        await follow(`/api/quotes?limit=3&${sort}`, (c) => `/api/quotes?limit=3&${sort}&after=${c}`),
      ).toEqual(expected);
    }
    // A search (the matches are sorted on their own) continues by cursor too.
    const zebras = await follow(
      '/api/quotes?search=zebra&limit=2',
      (c) => `/api/quotes?search=zebra&limit=2&after=${c}`,
    );
    expect(zebras).toHaveLength(5);
    const page = (await get(`/api/quotes?limit=4&after=${byDefault[5]}`)).json();
    // After a cursor the total stays the list's, and page is ignored.
    expect(page.meta).toMatchObject({ total: 16, totalIsExact: true, hasNextPage: true });
    expect(page.data.map((q: { id: string }) => q.id)).toEqual(byDefault.slice(6, 10));
  });

  it('companies: the paged list, the crud envelope and the plain array continue by cursor', async () => {
    const expected = (
      await db()
        .select({ id: companies.id })
        .from(companies)
        .where(and(eq(companies.organisationId, admin.organisationId), isNull(companies.deletedAt)))
        .orderBy(asc(companies.name), asc(companies.id))
    ).map((r) => r.id);
    expect(
      await follow(
        '/api/companies/pagination?limit=4',
        (c) => `/api/companies/pagination?limit=4&after=${c}`,
      ),
    ).toEqual(expected);
    expect(await follow('/api/companies?limit=5', (c) => `/api/companies?limit=5&after=${c}`)).toEqual(
      expected,
    );
    const enveloped = (await get(`/api/companies?page=1&limit=4&after=${expected[3]}`)).json();
    expect(enveloped.data.map((c: { id: string }) => c.id)).toEqual(expected.slice(4, 8));
    expect(enveloped.meta.nextCursor).toBe(expected[7]);
    const desc = (await get(`/api/companies/pagination?limit=4&sort=name,DESC&after=${expected[8]}`)).json();
    expect(desc.data.map((c: { id: string }) => c.id)).toEqual(expected.slice(4, 8).reverse());
  });

  it('refuses a cursor of another organisation, a malformed one, and a crud cursor with another sort', async () => {
    const [foreign] = await db()
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.organisationId, other.organisationId));
    for (const url of [
      `/api/companies/pagination?after=${foreign!.id}`,
      `/api/companies?after=${foreign!.id}`,
      `/api/quotes?after=${foreign!.id}`,
      '/api/quotes?after=not-a-uuid',
      `/api/companies?after=${companyIds[0]}&sort=email,ASC`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors[0].pointer, url).toBe('/after');
    }
  });
});

describe('searches sorted from their matches', () => {
  it('answers the same pages as the sorted scan, below and above the count cap', async () => {
    const where = and(
      eq(companies.organisationId, admin.organisationId),
      isNull(companies.deletedAt),
      sql`lower(${companies.name}) like '%maker%'`,
    );
    const page = (n: number) =>
      resolvePage(
        { page: n, limit: 4 },
        {
          ...QUOTE_PAGE,
          sortFields: { name: companies.name },
          tieBreaker: companies.id,
          defaultSort: { field: 'name', direction: 'ASC' },
        },
      );
    for (let n = 1; n <= 7; n++) {
      const plain = await pageOfIds(db(), { table: companies, id: companies.id, where, page: page(n) });
      const matches = await pageOfIds(db(), {
        table: companies,
        id: companies.id,
        where,
        page: page(n),
        selective: true,
      });
      const capped = await pageOfIds(db(), {
        table: companies,
        id: companies.id,
        where,
        page: page(n),
        selective: true,
        countCap: 3,
      });
      expect(matches).toEqual(plain);
      expect(capped.ids).toEqual(plain.ids);
    }
  });
});

/** The partial b-trees of live quotes (any of them serves `deleted_at is null` on a few rows). */
const QUOTE_BTREES = ['created', 'updated', 'company', 'project', 'state'].map((c) => `quotes_org_${c}_idx`);

describe('trigram indexes', () => {
  it('has pg_trgm, and "contains" searches can use the trigram indexes', async () => {
    const extensions = rowsOf<{ extname: string }>(
      await db().execute(sql`select extname from pg_extension where extname = 'pg_trgm'`),
    );
    expect(extensions).toHaveLength(1);
    // Only bitmap scans allowed and the partial name b-tree out of the way (dropped inside a
    // transaction that is rolled back): on a few rows any index is cheap, so the plan shows which
    // index the condition itself can use (at scale the planner picks it unforced: bench/RESULTS.md).
    const plan = async (condition: string, table = 'companies', btrees = ['companies_org_name_idx']) => {
      let text = '';
      await db()
        .transaction(async (tx) => {
          await tx.execute(sql`set local enable_seqscan = off`);
          await tx.execute(sql`set local enable_indexscan = off`);
          await tx.execute(sql`set local enable_indexonlyscan = off`);
          for (const btree of btrees) await tx.execute(sql.raw(`drop index ${btree}`));
          const result = await tx.execute(
            sql.raw(`explain select id from ${table} where deleted_at is null and ${condition}`),
          );
          text = rowsOf<Record<string, string>>(result)
            .map((r) => Object.values(r)[0])
            .join('\n');
          throw new Error('roll back');
        })
        .catch((error: Error) => {
          if (error.message !== 'roll back') throw error;
        });
      return text;
    };
    expect(await plan(`name::text like '%Zebra%'`)).toContain('companies_name_trgm_idx');
    expect(await plan(`lower(name::text) like '%zebra%'`)).toContain('companies_name_lower_trgm_idx');
    expect(await plan(`lower(email::text) like '%buyer1%'`)).toContain('companies_email_lower_trgm_idx');
    expect(
      await plan(`lower(external_id::text) like '%erp%'`, 'companies', [
        'companies_org_name_idx',
        'companies_external_id_live_uq',
      ]),
    ).toContain('companies_external_id_lower_trgm_idx');
    expect(await plan(`name ilike '%zebra%'`, 'quotes', QUOTE_BTREES)).toContain('quotes_name_trgm_idx');
    expect(await plan(`code ilike '%q-1%'`, 'quotes', [...QUOTE_BTREES, 'quotes_org_code_uq'])).toContain(
      'quotes_code_trgm_idx',
    );
  });

  it('answers $cont, $contL and the plain s= search as before', async () => {
    const s = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    const cont = (await get(`/api/companies?s=${s({ name: { $cont: 'Zebra' } })}`)).json();
    expect(cont.map((c: { name: string }) => c.name).sort()).toEqual(
      Array.from({ length: 5 }, (_, k) => `Box maker ${String((k * 5) % 7).padStart(2, '0')} Zebra`).sort(),
    );
    expect((await get(`/api/companies?s=${s({ name: { $cont: 'zebra' } })}`)).json()).toEqual([]);
    const contL = (await get(`/api/companies?s=${s({ name: { $contL: 'ZEBRA' } })}&page=1&limit=2`)).json();
    expect(contL.meta).toEqual({ page: 1, limit: 2, total: 5, hasNextPage: true });
    const email = (await get(`/api/companies?s=${s({ email: { $contL: 'BUYER2' } })}`)).json();
    expect(email.map((c: { email: string }) => c.email).sort()).toEqual(
      ['buyer2@example.com', 'buyer20@example.com', 'buyer21@example.com', 'buyer22@example.com'].sort(),
    );
    const plain = (await get('/api/companies?s=zebra')).json();
    expect(plain).toHaveLength(5);
    // Another tenant's rows never show up.
    expect((await get(`/api/companies?s=${s({ name: { $cont: 'another tenant' } })}`)).json()).toEqual([]);
  });
});
