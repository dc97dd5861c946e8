/**
 * npm run bench:lists — the quotes and companies lists on PostgreSQL with BENCH_ROWS (1,000,000)
 * quotes and as many companies in one tenant, against a bare Fastify + one SQL query (the plain
 * OFFSET page a list would naively run) on the same database, in one run (issue 31).
 *
 *   GET /api/quotes?page=…             first, middle and last page (default sort createdAt DESC)
 *   GET /api/quotes?after=…            the keyset cursor at the middle depth (and companies')
 *   GET /api/quotes?search=…           a "contains" search on name and code (trigram indexes)
 *   GET /api/companies?page=…          the @nestjsx/crud envelope: first, middle and last page (name ASC)
 *   GET /api/companies?s={"name":{"$cont":…}}  and the plain `s=` text ($contL on name/externalId)
 *
 * Target: p95 <= 50 ms for each, on one connection (the latency of a page).
 *
 * It creates its own database next to DATABASE_URL (default postgres://root@127.0.0.1:5432/test),
 * migrates it, creates two tenants through the service, seeds rows with set-based SQL (secondary
 * indexes dropped during the load and built after, as the orders benchmark does), runs VACUUM
 * ANALYZE, prints the EXPLAIN (ANALYZE, BUFFERS) of the service's queries, starts the service
 * (compiled as `npm start` runs it) and the bare server as child processes on 127.0.0.1, drives
 * each case BENCH_SECONDS (6) on one connection after a 2 s warm-up with the keep-alive loop of
 * bench/lib.ts, prints a Markdown table and drops the database.
 *
 * Other environment: BENCH_ROWS, BENCH_KEEP_DB=1 keeps the database, BENCH_DB_URL measures a kept
 * one again (no seeding).
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { systemActor } from '../src/platform/actor.ts';
import { createScratchDatabase, type LoopResult, loopLoad, machine, send, startServer } from './lib.ts';

const JWT_SECRET = 'bench-lists-secret-bench-lists-secret-0123456789';
const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 6);
const PASSWORD = 'bench-password';
const ADMIN_EMAIL = 'admin0@bench.local';
const LIMIT = 25;

// ---------------------------------------------------------------------------------------------
// Server mode: this file, compiled and started as a child process, serves the app or the baseline.
// ---------------------------------------------------------------------------------------------

async function serve(mode: string, url: string) {
  process.on('SIGTERM', () => process.exit(0));
  if (mode === 'bare') {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const app = Fastify();
    const org = process.env.LISTS_BENCH_ORG!;
    // The plain page each list would run: full rows (quotes with their company's name), OFFSET.
    app.get('/quotes', async (request) => {
      const q = request.query as { offset?: string; search?: string };
      const { rows } = await pool.query(
        `select q.*, c.name company_name from quotes q join companies c on c.id = q.company_id
         where q.organisation_id = $1 and q.deleted_at is null
           and ($3::text is null or q.name ilike '%' || $3 || '%' or q.code ilike '%' || $3 || '%')
         order by q.created_at desc, q.id desc limit ${LIMIT} offset $2`,
        [org, Number(q.offset ?? 0), q.search ?? null],
      );
      return rows;
    });
    app.get('/companies', async (request) => {
      const q = request.query as { offset?: string; cont?: string };
      const { rows } = await pool.query(
        `select * from companies where organisation_id = $1 and deleted_at is null
           and ($3::text is null or name like '%' || $3 || '%')
         order by name, id limit ${LIMIT} offset $2`,
        [org, Number(q.offset ?? 0), q.cont ?? null],
      );
      return rows;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    console.log(`READY ${(app.server.address() as { port: number }).port}`);
    return;
  }
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 10 });
  const config = loadConfig({ DATABASE_URL: url, JWT_SECRET, LOG_LEVEL: 'silent', RUN_WORKERS: 'false' });
  const app = await buildApp({ config, database, logger: false, runWorkers: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`READY ${(app.server.address() as { port: number }).port}`);
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

const UUID7 = `create or replace function bench_uuid7(ts timestamptz) returns uuid language sql volatile as $$
  select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    placing substring(int8send(floor(extract(epoch from ts) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1),
    'hex')::uuid $$`;

async function prepare(dbUrl: string) {
  const started = performance.now();
  const database = await openDatabase({ kind: 'postgres', url: dbUrl, poolSize: 4 });
  await runMigrations(database);
  const config = loadConfig({
    DATABASE_URL: dbUrl,
    JWT_SECRET,
    ADMIN_EMAIL: 'root@bench.local',
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
  });
  const setup = await buildApp({ config, database, logger: false, runWorkers: false });
  const organisations = organisationsModule.services(setup.ctx).organisations;
  await organisations.bootstrap();
  const { rows: roots } = await database.query<{ id: string; organisation_id: string }>(
    `select id, organisation_id from users where username = 'root@bench.local'`,
  );
  const root = systemActor(roots[0]!.organisation_id, roots[0]!.id);
  const tenants: string[] = [];
  for (let i = 0; i < 2; i++) {
    const created = await organisations.create(root, {
      name: `Tenant ${i}`,
      admin: { email: `admin${i}@bench.local`, password: PASSWORD },
    });
    tenants.push(created.id);
  }
  await setup.close();
  await database.close();

  const client = new pg.Client({ connectionString: dbUrl });
  client.on('error', () => {}); // the scratch database dropped after a failure
  await client.connect();
  const q = async (label: string, text: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const result = await client.query(text, params);
    console.log(
      `  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s${result.rowCount ? ` (${result.rowCount} rows)` : ''}`,
    );
  };
  await client.query(UUID7);
  await client.query("set maintenance_work_mem = '512MB'");
  await client.query('set synchronous_commit = off');
  // Generated rows are consistent by construction: no foreign key or counting triggers (the
  // counts are set below, as the migration's backfill does).
  await client.query('set session_replication_role = replica');
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(`
    select indexname, indexdef from pg_indexes
    where tablename in ('quotes', 'companies') and indexname not like '%_pkey'`);
  for (const index of indexes) await client.query(`drop index "${index.indexname}"`);
  const [big, small] = tenants as [string, string];
  // Companies: ROWS in the measured tenant, ROWS / 20 in the other; one name in 1,000 holds "Zebra".
  await q(
    'companies',
    `insert into companies (id, organisation_id, name, external_id, email, created_at, updated_at, deleted_at)
     select bench_uuid7(now() - interval '5 years' + g * interval '1 second'), t.org,
       'Company ' || substr(md5(g::text), 1, 10) || case when g % 1000 = 0 then ' Zebra' else '' end,
       'ERP-' || g, 'buyer' || g || '@example.com',
       now() - interval '5 years' + g * interval '1 second', now() - interval '5 years' + g * interval '1 second',
       case when g % 100 = 7 then now() end
     from (values ($1::uuid, $3::int), ($2::uuid, $3::int / 20)) t(org, n), generate_series(1, t.n) g`,
    [big, small, ROWS],
  );
  // Quotes over three years, ids UUID v7 of created_at; a state mix; 1 % soft-deleted; one name in
  // 1,000 holds "Zebra"; published ones valid for a year (none due to expire).
  await q(
    'company numbers',
    `create temp table t_companies as
       select organisation_id org, row_number() over (partition by organisation_id order by id)::int n, id
       from companies where deleted_at is null;
     create index on t_companies (org, n);
     analyze t_companies;`,
  );
  await q(
    'quotes',
    `insert into quotes (id, organisation_id, code, code_year, code_number, name, state, company_id, currency,
       total_price, valid_until, published_at, created_at, updated_at, deleted_at)
     select bench_uuid7(x.ts), x.org,
       case when x.state <> 'draft' then 'Q-' || x.g end, 2026, case when x.state <> 'draft' then x.g end,
       'Quote ' || substr(md5(x.g::text), 1, 12) || case when x.g % 1000 = 0 then ' Zebra' else '' end,
       x.state, c.id, 'EUR', round((random() * 20000)::numeric, 2)::float8,
       case when x.state = 'published' then now() + interval '1 year' end,
       case when x.state <> 'draft' then x.ts end, x.ts, x.ts, case when x.g % 100 = 7 then now() end
     from (
       select t.org, g, now() - interval '3 years' + (g::float8 / t.n) * interval '3 years' ts,
         1 + (g::bigint * 7919 % t.companies)::int company_n,
         (array['draft', 'published', 'signed', 'rejected', 'expired'])[1 + g % 5] state
       from (values ($1::uuid, $3::int, $3::int * 99 / 100), ($2::uuid, $3::int / 20, $3::int / 20 * 99 / 100))
         t(org, n, companies), generate_series(1, t.n) g
     ) x join t_companies c on c.org = x.org and c.n = x.company_n`,
    [big, small, ROWS],
  );
  for (const index of indexes) await q(`index ${index.indexname}`, index.indexdef);
  await client.query('set session_replication_role = origin');
  await q(
    'live_counts',
    `insert into live_counts (organisation_id, entity, live)
     select organisation_id, 'quotes', count(*)::int from quotes where deleted_at is null group by 1
     union all
     select organisation_id, 'companies', count(*)::int from companies where deleted_at is null group by 1
     on conflict (organisation_id, entity) do update set live = excluded.live`,
  );
  await q('vacuum analyze', 'vacuum (analyze) quotes, companies, live_counts');
  await client.end();
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

/** EXPLAIN (ANALYZE, BUFFERS) of the statements the service runs for a list, from the query log. */
async function explainServiceQueries(
  dbUrl: string,
  org: string,
  midQuotes: number,
  midCompanies: number,
  cursors: { quote: string; company: string },
) {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const plans: string[] = [];
  const explain = async (label: string, text: string, params: unknown[]) => {
    const { rows } = await client.query(`explain (analyze, buffers, costs off) ${text}`, params);
    plans.push(`#### ${label}\n\n\`\`\`\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
  };
  await explain(
    `quotes: ids of the middle page (offset ${midQuotes.toLocaleString('en')})`,
    `select id from quotes where organisation_id = $1 and deleted_at is null
     order by created_at desc, id desc offset $2 limit ${LIMIT + 1}`,
    [org, midQuotes],
  );
  await explain(
    'quotes: ids after a keyset cursor at the middle depth (after=)',
    `select id from quotes where organisation_id = $1 and deleted_at is null
       and (created_at, id) < (select created_at, id from quotes where id = $2)
     order by created_at desc, id desc limit ${LIMIT + 1}`,
    [org, cursors.quote],
  );
  await explain(
    'quotes: ids of the last page (read from the far end: offset 0 of the reverse order)',
    `select id from quotes where organisation_id = $1 and deleted_at is null
     order by created_at asc, id asc offset 0 limit ${LIMIT}`,
    [org],
  );
  await explain(
    'quotes: search "Zebra" (capped count first, then the ids sorted from the matches)',
    `select quotes.id from (select * from quotes where organisation_id = $1 and deleted_at is null
       and (name ilike '%Zebra%' or code ilike '%Zebra%') offset 0) quotes
     order by created_at desc, id desc offset 0 limit ${LIMIT + 1}`,
    [org],
  );
  await explain(
    'quotes: the page rows by id (company and project joined)',
    `select q.*, c.name from quotes q join companies c on c.id = q.company_id
       left join projects p on p.id = q.project_id
     where q.id in (select id from quotes where organisation_id = $1 and deleted_at is null
       order by created_at desc, id desc limit ${LIMIT})
     order by q.created_at desc, q.id desc`,
    [org],
  );
  await explain(
    `companies: ids of the middle page (offset ${midCompanies.toLocaleString('en')})`,
    `select id from companies where organisation_id = $1 and deleted_at is null
     order by name asc, id asc offset $2 limit ${LIMIT + 1}`,
    [org, midCompanies],
  );
  await explain(
    'companies: ids after a keyset cursor at the middle depth (after=)',
    `select id from companies where organisation_id = $1 and deleted_at is null
       and (name, id) > (select name, id from companies where id = $2)
     order by name asc, id asc limit ${LIMIT + 1}`,
    [org, cursors.company],
  );
  await explain(
    'companies: $cont "Zebra" on name (ids sorted from the matches)',
    `select companies.id from (select * from companies where organisation_id = $1 and deleted_at is null
       and name::text like '%Zebra%' offset 0) companies
     order by name asc, id asc offset 0 limit ${LIMIT + 1}`,
    [org],
  );
  await explain(
    'companies: $cont "Zebra" on name (capped count)',
    `select count(*) from (select 1 from companies where organisation_id = $1 and deleted_at is null
       and name::text like '%Zebra%' limit 10001) capped`,
    [org],
  );
  await explain(
    'companies: plain s=zebra ($contL on name or externalId; ids sorted from the matches)',
    `select companies.id from (select * from companies where organisation_id = $1 and deleted_at is null
       and (lower(name::text) like '%zebra%' or lower(external_id::text) like '%zebra%') offset 0) companies
     order by name asc, id asc offset 0 limit ${LIMIT + 1}`,
    [org],
  );
  await client.end();
  return plans;
}

async function main() {
  const kept = process.env.BENCH_DB_URL;
  const scratch = kept ? undefined : await createScratchDatabase('bench_lists');
  const dbUrl = kept ?? scratch!.url;
  try {
    if (!kept) {
      console.log(`seeding ${ROWS.toLocaleString('en')} quotes and companies`);
      await prepare(dbUrl);
    }
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const { rows } = await client.query<{ org: string; adminId: string; quotes: number; companies: number }>(
      `select u.organisation_id org, u.id "adminId",
         (select live from live_counts where organisation_id = u.organisation_id and entity = 'quotes') quotes,
         (select live from live_counts where organisation_id = u.organisation_id and entity = 'companies') companies
       from users u where u.username = $1`,
      [ADMIN_EMAIL],
    );
    const { org, adminId, quotes, companies } = rows[0]!;
    const version = (await client.query<{ v: string }>(`select split_part(version(), ' ', 2) v`)).rows[0]!.v;
    const pages = (n: number) => ({ middle: Math.ceil(n / LIMIT / 2), last: Math.ceil(n / LIMIT) });
    const qp = pages(quotes);
    const cp = pages(companies);
    // The keyset cursors at the middle depth: the last row before the middle page.
    const cursorAt = async (text: string, offset: number) =>
      (await client.query<{ id: string }>(text, [org, offset])).rows[0]!.id;
    const cursors = {
      quote: await cursorAt(
        `select id from quotes where organisation_id = $1 and deleted_at is null
         order by created_at desc, id desc offset $2 limit 1`,
        (qp.middle - 1) * LIMIT - 1,
      ),
      company: await cursorAt(
        `select id from companies where organisation_id = $1 and deleted_at is null
         order by name asc, id asc offset $2 limit 1`,
        (cp.middle - 1) * LIMIT - 1,
      ),
    };
    await client.end();
    const plans = await explainServiceQueries(
      dbUrl,
      org,
      (qp.middle - 1) * LIMIT,
      (cp.middle - 1) * LIMIT,
      cursors,
    );

    const script = new URL(import.meta.url).pathname;
    const app = await startServer(script, { LISTS_BENCH_SERVER: 'app', LISTS_BENCH_URL: dbUrl });
    const bare = await startServer(script, {
      LISTS_BENCH_SERVER: 'bare',
      LISTS_BENCH_URL: dbUrl,
      LISTS_BENCH_ORG: org,
    });
    const results: [string, LoopResult][] = [];
    try {
      const agent = new http.Agent({ keepAlive: true });
      const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
        const response = await fetch(`http://127.0.0.1:${app.port}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as { token: string };
      };
      const { token: jwt } = await post('/api/sign-in', { username: ADMIN_EMAIL, password: PASSWORD });
      const { token } = await post(
        `/api/access-token/user/${adminId}`,
        { name: 'bench' },
        { authorization: `Bearer ${jwt}` },
      );
      const headers = { 'x-access-token': token };
      const s = (value: unknown) => encodeURIComponent(JSON.stringify(value));
      const cases: [string, number, string, Record<string, string>][] = [
        ['bare: quotes, OFFSET 0', bare.port, '/quotes', {}],
        ['GET /api/quotes (page 1)', app.port, '/api/quotes', headers],
        [
          `bare: quotes, OFFSET ${((qp.middle - 1) * LIMIT).toLocaleString('en')}`,
          bare.port,
          `/quotes?offset=${(qp.middle - 1) * LIMIT}`,
          {},
        ],
        [`GET /api/quotes?page=${qp.middle} (middle)`, app.port, `/api/quotes?page=${qp.middle}`, headers],
        [
          'GET /api/quotes?after=<id> (keyset, middle depth)',
          app.port,
          `/api/quotes?after=${cursors.quote}`,
          headers,
        ],
        [
          `bare: quotes, OFFSET ${((qp.last - 1) * LIMIT).toLocaleString('en')}`,
          bare.port,
          `/quotes?offset=${(qp.last - 1) * LIMIT}`,
          {},
        ],
        [`GET /api/quotes?page=${qp.last} (last)`, app.port, `/api/quotes?page=${qp.last}`, headers],
        ['bare: quotes, ilike %Zebra%', bare.port, '/quotes?search=Zebra', {}],
        ['GET /api/quotes?search=Zebra', app.port, '/api/quotes?search=Zebra', headers],
        ['bare: companies, OFFSET 0', bare.port, '/companies', {}],
        ['GET /api/companies?page=1', app.port, '/api/companies?page=1', headers],
        [
          `bare: companies, OFFSET ${((cp.middle - 1) * LIMIT).toLocaleString('en')}`,
          bare.port,
          `/companies?offset=${(cp.middle - 1) * LIMIT}`,
          {},
        ],
        [
          `GET /api/companies?page=${cp.middle} (middle)`,
          app.port,
          `/api/companies?page=${cp.middle}`,
          headers,
        ],
        [
          'GET /api/companies?page=1&after=<id> (keyset, middle depth)',
          app.port,
          `/api/companies?page=1&after=${cursors.company}`,
          headers,
        ],
        [
          'GET /api/companies/pagination?after=<id> (keyset, middle depth)',
          app.port,
          `/api/companies/pagination?after=${cursors.company}`,
          headers,
        ],
        [
          `bare: companies, OFFSET ${((cp.last - 1) * LIMIT).toLocaleString('en')}`,
          bare.port,
          `/companies?offset=${(cp.last - 1) * LIMIT}`,
          {},
        ],
        [`GET /api/companies?page=${cp.last} (last)`, app.port, `/api/companies?page=${cp.last}`, headers],
        ['bare: companies, like %Zebra%', bare.port, '/companies?cont=Zebra', {}],
        [
          'GET /api/companies?s={"name":{"$cont":"Zebra"}}&page=1',
          app.port,
          `/api/companies?s=${s({ name: { $cont: 'Zebra' } })}&page=1`,
          headers,
        ],
        [
          'GET /api/companies?s=zebra&page=1 ($contL name or externalId)',
          app.port,
          '/api/companies?s=zebra&page=1',
          headers,
        ],
      ];
      // Check the answers once before measuring.
      for (const [label, port, path, h] of cases) {
        const answer = await send(agent, port, path, h);
        const body = JSON.parse(answer.body);
        const data = Array.isArray(body) ? body : body.data;
        if (answer.status !== 200 || !data.length)
          throw new Error(`${label}: ${answer.status} ${answer.body.slice(0, 300)}`);
        if (label.startsWith('GET'))
          console.log(`${label}: ${data.length} rows, meta ${JSON.stringify(body.meta)}`);
      }
      agent.destroy();
      for (const [label, port, path, h] of cases) {
        await loopLoad(port, () => path, h, 2, 1);
        const result = await loopLoad(port, () => path, h, SECONDS, 1);
        results.push([label, result]);
        console.log(
          `${label}: ${result.rps} req/s, p50 ${result.p50} ms, p95 ${result.p95} ms, p99 ${result.p99} ms`,
        );
      }
    } finally {
      app.stop();
      bare.stop();
    }
    console.log(`\n## Lists at ${ROWS.toLocaleString('en')} rows (npm run bench:lists)\n`);
    console.log(
      `${new Date().toISOString().slice(0, 10)}, ${machine()}, PostgreSQL ${version}, load average ${loadavg()[0]!.toFixed(1)}. ` +
        `Measured tenant: ${quotes.toLocaleString('en')} live quotes, ${companies.toLocaleString('en')} live companies. ` +
        `One connection, ${SECONDS} s per case after a 2 s warm-up.\n`,
    );
    console.log('| run | req/s | p50 ms | p95 ms | p99 ms | errors |\n|---|--:|--:|--:|--:|--:|');
    for (const [label, r] of results) {
      console.log(`| ${label} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`);
    }
    console.log(`\n### Plans\n\n${plans.join('\n\n')}`);
  } finally {
    if (scratch && !process.env.BENCH_KEEP_DB) await scratch.drop();
  }
}

if (process.env.LISTS_BENCH_SERVER) {
  await serve(process.env.LISTS_BENCH_SERVER, process.env.LISTS_BENCH_URL!);
} else {
  await main();
}
