/**
 * npm run bench:briefs — briefs on PostgreSQL, against bare Fastify + one SQL query in the same run:
 *
 *   POST /api/briefs          create and price synchronously (1 element, 3 elements), vs a bare
 *                             POST that parses the body and INSERTs one row;
 *   GET /api/briefs?page=N    list pages of 25 at depths 1, 100, 1,000 and 4,000 (offset 99,975)
 *                             in a tenant of 100,000 briefs, vs the bare page query at the same
 *                             offset; plus the keyset form (`after`) at the deepest point.
 *
 * Target: p95 of a list page under 20 ms at any depth.
 *
 * It creates a scratch database next to DATABASE_URL (default postgres://root@127.0.0.1:5432/test),
 * seeds the briefs set-based (generate_series), VACUUM ANALYZE, starts the service and the bare
 * server as child processes (this file in server mode), drives them with autocannon, prints a
 * Markdown report and drops the database.
 *
 * Environment: DATABASE_URL, BENCH_SECONDS (per run, default 8), BENCH_CONNECTIONS (default 10),
 * BENCH_BRIEFS (default 100,000), BENCH_KEEP_DB=1 to keep the database.
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { loadCatalogue } from '../src/modules/catalogue/loader.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { systemActor } from '../src/platform/actor.ts';
import { BENCH_DATABASE_URL, createScratchDatabase, type LoadResult, loopLoad, startServer } from './lib.ts';

const JWT_SECRET = 'bench-briefs-secret-bench-briefs-secret-0123456789';
const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const BRIEFS = Number(process.env.BENCH_BRIEFS || 100_000);
const OTHER_TENANTS = 4;
const OTHER_BRIEFS = 10_000;
const PAGE = 25;

// ---------------------------------------------------------------------------------------------
// Server mode: this file, started by startServer(), serves the app or the bare baseline.
// ---------------------------------------------------------------------------------------------

async function serve(mode: string, url: string) {
  process.on('SIGTERM', () => process.exit(0));
  if (mode === 'bare') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => {});
    const app = Fastify({ bodyLimit: 1024 * 1024 });
    app.get('/briefs/:organisationId', async (request) => {
      const { organisationId } = request.params as { organisationId: string };
      const page = Number((request.query as { page?: string }).page ?? 1);
      const { rows } = await pool.query(
        `select id, code, name, company_id, project_id, status_id, prediction_status, has_price, total_price,
                currency, created_at, updated_at
         from briefs where organisation_id = $1 and deleted_at is null
         order by updated_at desc, id desc limit $2 offset $3`,
        [organisationId, PAGE, (page - 1) * PAGE],
      );
      return rows;
    });
    app.post('/briefs', async (request) => {
      const body = request.body as { name: string };
      const { rows } = await pool.query(
        'insert into bench_bare_briefs (id, name, payload) values (gen_random_uuid(), $1, $2) returning id, created_at',
        [body.name, JSON.stringify(body)],
      );
      return rows[0];
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
// Seeding: set-based SQL; secondary indexes of briefs built after the load.
// ---------------------------------------------------------------------------------------------

const UUID7 = `create or replace function bench_uuid7(ts timestamptz) returns uuid language sql volatile as $$
  select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    placing substring(int8send(floor(extract(epoch from ts) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1),
    'hex')::uuid $$`;

async function seed(
  client: pg.Client,
  tenants: { id: string; briefs: number; companies: number; userId: string }[],
  element: { productId: string; materialReferenceId: string },
) {
  const q = async (label: string, text: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const result = await client.query(text, params);
    console.log(
      `  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s${result.rowCount ? ` (${result.rowCount} rows)` : ''}`,
    );
    return result;
  };
  await client.query(UUID7);
  await client.query("set maintenance_work_mem = '256MB'");
  await client.query('set synchronous_commit = off');
  await client.query('set session_replication_role = replica');
  await client.query('create temp table t_tenants (n int, id uuid, briefs int, companies int, user_id uuid)');
  for (const [n, t] of tenants.entries()) {
    await client.query('insert into t_tenants values ($1, $2, $3, $4, $5)', [
      n,
      t.id,
      t.briefs,
      t.companies,
      t.userId,
    ]);
  }
  await q(
    'companies, projects, brief statuses',
    `
    create temp table t_companies as
      select t.id org, g n, gen_random_uuid() id from t_tenants t, generate_series(1, t.companies) g;
    insert into companies (id, organisation_id, name) select id, org, 'Company ' || n from t_companies;
    create temp table t_projects as select org, n company_n, gen_random_uuid() id, id company_id from t_companies;
    insert into projects (id, organisation_id, company_id, name)
      select id, org, company_id, 'Project ' || company_n from t_projects;
    create temp table t_statuses as
      select t.id org, s n, gen_random_uuid() id from t_tenants t, generate_series(1, 4) s;
    insert into statuses (id, organisation_id, entity, internal_label, external_label, position)
      select id, org, 'brief', 'Bench ' || n, 'Bench ' || n, n from t_statuses;
    analyze t_companies; analyze t_projects; analyze t_statuses;
  `,
  );
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(`
    select indexname, indexdef from pg_indexes
    where tablename in ('briefs', 'brief_elements') and indexname not like '%_pkey'`);
  for (const index of indexes) await client.query(`drop index "${index.indexname}"`);
  // Briefs over two years, oldest first (ids are UUID v7 of created_at, as the app makes them);
  // updated some hours after creation; half with a project; one element each; plus 1 % more that
  // are soft-deleted, spread over the same period (the live count is exactly the one asked for).
  await q(
    'briefs',
    `
    insert into briefs (id, organisation_id, code, code_number, name, project_id, company_id, status_id,
      prediction_status, has_price, packing_type, pallet_type, current_version, total_price, currency, priced_at,
      elements_count, created_by_id, created_at, updated_at, deleted_at)
    select bench_uuid7(x.ts), x.org, 'B-' || lpad(x.g::text, 6, '0'), x.g, 'Brief ' || x.g,
      case when x.r_project < 0.5 then c.project_id end, c.id, s.id, 'COMPLETED', true, 'SHIPPING_CASE', 'EURO', 1,
      round((200 + x.r_price * 20000)::numeric, 2)::float8, 'EUR', x.ts, 1, x.user_id, x.ts,
      x.ts + (x.g % 48) * interval '1 hour', case when x.deleted then x.ts + interval '1 day' end
    from (
      select t.id org, t.user_id, g, g > t.briefs deleted,
        now() - interval '2 years' + (least(g, (g - t.briefs) * 100 - 50)::float8 / t.briefs) * interval '2 years' ts,
        1 + floor(random() * t.companies)::int company_n, 1 + floor(random() * 4)::int status_n,
        random() r_project, random() r_price
      from t_tenants t, generate_series(1, t.briefs + t.briefs / 100) g
    ) x
    join (select c.org, c.n, c.id, p.id project_id from t_companies c join t_projects p on p.company_id = c.id) c
      on c.org = x.org and c.n = x.company_n
    join t_statuses s on s.org = x.org and s.n = x.status_n`,
  );
  await q(
    'brief elements',
    `
    insert into brief_elements (id, organisation_id, brief_id, position, product_id, length_dimension,
      width_dimension, height_dimension, material_reference_id, decorations_count, quantity, want_decoration,
      side_printed, recto_color_count, verso_color_count, unit_price, total_price, priced_at, created_at, updated_at,
      deleted_at)
    select gen_random_uuid(), b.organisation_id, b.id, 0, $1, 120, 40, 180, $2,
      jsonb_build_array(jsonb_build_object('decorationIndex', 0, 'quantity', 5000)), 5000, true, 'RECTO', 4, 0,
      round((b.total_price / 5000)::numeric, 4)::float8, b.total_price, b.priced_at, b.created_at, b.updated_at,
      b.deleted_at
    from briefs b`,
    [element.productId, element.materialReferenceId],
  );
  for (const index of indexes) await q(`index ${index.indexname}`, index.indexdef);
  await client.query('set session_replication_role = origin');
  await client.query(
    'create table bench_bare_briefs (id uuid primary key, name text, payload jsonb, created_at timestamptz not null default now())',
  );
  // The load ran without triggers (session_replication_role = replica): count the live briefs
  // per organisation as migration 0016 does, which the trigger keeps from then on.
  await q(
    'brief counts',
    `insert into brief_counts (organisation_id, live)
       select organisation_id, count(*)::int from briefs where deleted_at is null group by organisation_id
     on conflict (organisation_id) do update set live = excluded.live`,
  );
  await q('vacuum analyze', 'vacuum (analyze) briefs, brief_elements, companies, projects, statuses');
}

// ---------------------------------------------------------------------------------------------

async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  seconds: number,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
    duration: seconds,
    connections,
    pipelining: 1,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p95: result.latency.p97_5 ?? result.latency.p99,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function main() {
  const scratch = await createScratchDatabase('bench_briefs');
  const servers: Awaited<ReturnType<typeof startServer>>[] = [];
  try {
    const started = performance.now();
    const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 4 });
    await runMigrations(database);
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      JWT_SECRET,
      ADMIN_EMAIL: 'root@bench.local',
      ADMIN_PASSWORD: 'bench-password',
      LOG_LEVEL: 'silent',
    });
    const setup = await buildApp({ config, database, logger: false, runWorkers: false });
    const organisations = organisationsModule.services(setup.ctx).organisations;
    await organisations.bootstrap();
    const { rows: roots } = await database.query<{ id: string; organisation_id: string }>(
      `select id, organisation_id from users where username = 'root@bench.local'`,
    );
    const root = systemActor(roots[0]!.organisation_id, roots[0]!.id);
    const tenants: { id: string; briefs: number; companies: number; userId: string }[] = [];
    for (let i = 0; i <= OTHER_TENANTS; i++) {
      const created = await organisations.create(root, {
        name: `Tenant ${i}`,
        admin: { email: `admin${i}@bench.local`, password: 'bench-password' },
      });
      const { rows } = await database.query<{ id: string }>(`select id from users where username = $1`, [
        `admin${i}@bench.local`,
      ]);
      const briefs = i === 0 ? BRIEFS : OTHER_BRIEFS;
      tenants.push({
        id: created.id,
        briefs,
        companies: Math.max(20, Math.round(briefs / 100)),
        userId: rows[0]!.id,
      });
    }
    const big = tenants[0]!;
    const catalogue = await loadCatalogue(database.db, big.id);
    const id = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;
    const signIn = await setup.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'admin0@bench.local', password: 'bench-password' },
    });
    const { token } = signIn.json() as { token: string };
    await setup.close();
    await database.close();

    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const ste = id(catalogue.products, 'STE');
    const gc1 = id(catalogue.materialReferences, 'GC1-350');
    console.log(
      `seeding ${BRIEFS.toLocaleString('en')} briefs (+ ${OTHER_TENANTS * OTHER_BRIEFS} in other tenants)`,
    );
    await seed(client, tenants, { productId: ste, materialReferenceId: gc1 });
    const seedSeconds = (performance.now() - started) / 1000;
    const { rows: companyRows } = await client.query<{ id: string }>(
      'select id from companies where organisation_id = $1 limit 1',
      [big.id],
    );
    const { rows: countRows } = await client.query<{ all: number; big: number }>(
      `select (select count(*) from briefs)::int "all",
              (select count(*) from briefs where organisation_id = $1 and deleted_at is null)::int big`,
      [big.id],
    );
    const { rows: versionRows } = await client.query<{ v: string }>(
      `select split_part(version(), ' ', 1) || ' ' || split_part(version(), ' ', 2) v`,
    );
    const counts = countRows[0]!;
    const companyId = companyRows[0]!.id;

    const env = { BRIEFS_BENCH_SERVER: '', DATABASE_URL: scratch.url };
    const app = await startServer('bench/briefs.ts', { ...env, BRIEFS_BENCH_SERVER: 'app' });
    servers.push(app);
    const bare = await startServer('bench/briefs.ts', { ...env, BRIEFS_BENCH_SERVER: 'bare' });
    servers.push(bare);
    const headers = { authorization: `Bearer ${token}` };
    const base = (port: number) => `http://127.0.0.1:${port}`;

    const element = (position: number, overrides: Record<string, unknown> = {}) => ({
      position,
      productId: ste,
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 180,
      materialReferenceId: gc1,
      decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 4,
      versoColorCount: 0,
      ...overrides,
    });
    const oneElement = JSON.stringify({ name: 'Bench box', companyId, briefElements: [element(0)] });
    const threeElements = JSON.stringify({
      name: 'Bench range',
      companyId,
      deliveryZoneId: id(catalogue.deliveryZones, 'FR-NATIONAL'),
      briefElements: [
        element(0, { wantVarnishRecto: true }),
        element(1, {
          productId: id(catalogue.products, 'CLB'),
          decorationsCount: [
            { decorationIndex: 0, quantity: 3000 },
            { decorationIndex: 1, quantity: 3000 },
          ],
        }),
        element(2, {
          productId: id(catalogue.products, '0201'),
          lengthDimension: 300,
          widthDimension: 200,
          heightDimension: 150,
          materialReferenceId: id(catalogue.materialReferences, 'CORR-B-KK'),
          decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
          rectoColorCount: 1,
        }),
      ],
    });
    // Check the answers once before measuring.
    const check = async (url: string, init: RequestInit, expect: number) => {
      const response = await fetch(url, init);
      if (response.status !== expect) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const created = await check(
      `${base(app.port)}/api/briefs`,
      { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: threeElements },
      201,
    );
    if (created.predictionStatus !== 'COMPLETED' || created.elementsCount !== 3)
      throw new Error('not priced');
    const deep = await check(`${base(app.port)}/api/briefs?page=4000`, { headers }, 200);
    if (deep.data.length !== PAGE) throw new Error(`page 4000 has ${deep.data.length} briefs`);
    const cursor = (await check(`${base(app.port)}/api/briefs?page=3999`, { headers }, 200)).meta.nextCursor;

    // GET runs keep every latency (exact p95); POST runs use autocannon (its p97.5 stands for p95).
    const getLoad = async (
      port: number,
      path: string,
      h: Record<string, string>,
      seconds: number,
      connections: number,
    ): Promise<LoadResult> => {
      const r = await loopLoad(port, () => path, h, seconds, connections);
      return { requestsPerSecond: r.rps, p50: r.p50, p95: r.p95, p99: r.p99, errors: r.errors, non2xx: 0 };
    };
    const results: [string, LoadResult][] = [];
    const run = async (label: string, measure: () => Promise<LoadResult>) => {
      const result = await measure();
      results.push([label, result]);
      console.log(
        `${label}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p95 ${result.p95} ms, p99 ${result.p99} ms, errors ${result.errors + result.non2xx}`,
      );
      return result;
    };

    console.log('warming up');
    await getLoad(app.port, `/api/briefs?page=2`, headers, 2, CONNECTIONS);
    await getLoad(bare.port, `/briefs/${big.id}?page=2`, {}, 2, CONNECTIONS);
    await post(`${base(app.port)}/api/briefs`, headers, oneElement, 2);
    // The warm-up's new briefs land in pages all over the table and clear their visibility-map
    // bits: until the next vacuum, an index-only scan fetches every row of those pages from the
    // heap (about 20,000 at page 4,000: +5 ms). Autovacuum catches up after 1 % of the table
    // changes (migration 0014) but only on its next round, up to a minute later; vacuum now.
    await client.query('vacuum (analyze) briefs, brief_elements');

    // Each depth: bare and service under CONNECTIONS concurrent connections (throughput, with
    // queueing on the shared cores), then the service alone on one connection (latency).
    const lists: Record<string, LoadResult> = {};
    const single: Record<string, LoadResult> = {};
    for (const page of [1, 100, 1000, 2000, 3000, 4000]) {
      await run(`bare: 1 SQL page ${page} (offset ${((page - 1) * PAGE).toLocaleString('en')})`, () =>
        getLoad(bare.port, `/briefs/${big.id}?page=${page}`, {}, SECONDS, CONNECTIONS),
      );
      lists[page] = await run(`GET /api/briefs?page=${page}`, () =>
        getLoad(app.port, `/api/briefs?page=${page}`, headers, SECONDS, CONNECTIONS),
      );
      single[page] = await run(`GET /api/briefs?page=${page}, 1 connection`, () =>
        getLoad(app.port, `/api/briefs?page=${page}`, headers, SECONDS, 1),
      );
    }
    lists.keyset = await run('GET /api/briefs?after=<id> (keyset, depth of page 4000)', () =>
      getLoad(app.port, `/api/briefs?after=${cursor}`, headers, SECONDS, CONNECTIONS),
    );
    single.keyset = await run('GET /api/briefs?after=<id> (keyset, depth of page 4000), 1 connection', () =>
      getLoad(app.port, `/api/briefs?after=${cursor}`, headers, SECONDS, 1),
    );
    lists.company = await run('GET /api/briefs?companyId=…&page=2', () =>
      getLoad(app.port, `/api/briefs?companyId=${companyId}&page=2`, headers, SECONDS, CONNECTIONS),
    );

    const bareCreate = await run('bare: POST + 1 INSERT', () =>
      post(`${base(bare.port)}/briefs`, {}, oneElement, SECONDS),
    );
    const one = await run('POST /api/briefs (1 element, priced)', () =>
      post(`${base(app.port)}/api/briefs`, headers, oneElement, SECONDS),
    );
    const three = await run('POST /api/briefs (3 elements, 4 variants, delivery, priced)', () =>
      post(`${base(app.port)}/api/briefs`, headers, threeElements, SECONDS),
    );
    const oneSingle = await run('POST /api/briefs (1 element, priced), 1 connection', () =>
      post(`${base(app.port)}/api/briefs`, headers, oneElement, SECONDS, 1),
    );
    const threeSingle = await run('POST /api/briefs (3 elements, priced), 1 connection', () =>
      post(`${base(app.port)}/api/briefs`, headers, threeElements, SECONDS, 1),
    );

    const worstOf = (set: Record<string, LoadResult>) =>
      Object.entries(set).reduce((w, r) => (r[1].p95 > w[1].p95 ? r : w));
    const worst = worstOf(lists);
    const worstSingle = worstOf(single);
    const offsetWorst = worstOf(Object.fromEntries(Object.entries(single).filter(([k]) => k !== 'keyset')));
    const today = new Date().toISOString().slice(0, 10);
    const lines = [
      `### ${today}`,
      '',
      `- Command: \`npm run bench:briefs\` (DATABASE_URL=${BENCH_DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')}, ${SECONDS} s per run, ${CONNECTIONS} connections; GET runs by a keep-alive loop keeping every latency, POST runs by autocannon)`,
      `- Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, ${versionRows[0]?.v} on the same machine; load generator, service and database share the cores`,
      `- Data: ${counts.all.toLocaleString('en')} briefs (one element each) in ${tenants.length} tenants; the measured tenant has ${counts.big.toLocaleString('en')} live briefs; seeded in ${seedSeconds.toFixed(0)} s`,
      '',
      '| run | req/s | p50 ms | p95 ms (POST: p97.5) | p99 ms | errors |',
      '|---|--:|--:|--:|--:|--:|',
      ...results.map(
        ([label, r]) =>
          `| ${label} | ${r.requestsPerSecond} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors + r.non2xx} |`,
      ),
      '',
      `- Create and price: 1 element ${one.requestsPerSecond} req/s (${((one.requestsPerSecond / bareCreate.requestsPerSecond) * 100).toFixed(0)} % of the bare insert), 3 elements ${three.requestsPerSecond} req/s; alone on one connection a create takes ${oneSingle.p50} ms (1 element) and ${threeSingle.p50} ms (3 elements) at the median.`,
      `- Worst list p95 on one connection: ${worstSingle[1].p95} ms (${worstSingle[0]}); offset pages only: ${offsetWorst[1].p95} ms (page ${offsetWorst[0]}); keyset: ${single.keyset!.p95} ms. Target p95 < 20 ms: ${worstSingle[1].p95 < 20 ? 'met' : 'NOT met'} at every depth${single.keyset!.p95 < 20 ? ', met with the keyset cursor' : ''}.`,
      `- Worst list p95 under ${CONNECTIONS} connections: ${worst[1].p95} ms (${worst[0]}).`,
    ];
    console.log(`\n${lines.join('\n')}\n`);
    await client.end();
  } finally {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise((resolve) => {
            if (server.child.exitCode !== null) return resolve(undefined);
            server.child.once('exit', resolve);
            server.stop();
            setTimeout(resolve, 5000).unref();
          }),
      ),
    );
    if (process.env.BENCH_KEEP_DB) console.log(`kept database ${scratch.url}`);
    else await scratch.drop();
  }
}

if (process.env.BRIEFS_BENCH_SERVER) {
  await serve(process.env.BRIEFS_BENCH_SERVER, process.env.DATABASE_URL!);
} else {
  await main();
  process.exit(0);
}
