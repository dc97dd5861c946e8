/**
 * npm run bench:pdfs — stored quote PDFs (issue 31) on PostgreSQL, against a bare Fastify + one SQL
 * query serving the same stored bytes (a plain file download), in one run.
 *
 *   1. 50 concurrent first requests of a published 40-item quote's PDF (nothing stored yet: one
 *      render, single-flight, the others wait for it): all answered, and in how long.
 *   2. The stored PDF under BENCH_CONNECTIONS (50) connections for BENCH_SECONDS (8), and the bare
 *      download of the same bytes under the same load.
 *   3. 50 concurrent previews of a draft (not stored): rendered through the bounded pool, the rest
 *      refused with 429 and Retry-After at once.
 *
 * Targets: 50 concurrent PDF requests all answered within 10 s; a stored PDF >= 50 % of a bare
 * file download. It creates its own database next to DATABASE_URL (default
 * postgres://root@127.0.0.1:5432/test), starts the service (compiled as `npm start` runs it, workers
 * off so that the first request renders) and the bare server as child processes on 127.0.0.1, and
 * drops the database at the end.
 */
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
import { createScratchDatabase, type LoopResult, loopLoad, machine, startServer } from './lib.ts';

const JWT_SECRET = 'bench-pdfs-secret-bench-pdfs-secret-0123456789';
const PASSWORD = 'bench-password';
const CONCURRENT = 50;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const SECONDS = Number(process.env.BENCH_SECONDS || 8);

async function serve(mode: string, url: string) {
  process.on('SIGTERM', () => process.exit(0));
  if (mode === 'bare') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const app = Fastify();
    app.get('/file/:id', async (request, reply) => {
      const { rows } = await pool.query('select content from file_contents where file_id = $1', [
        (request.params as { id: string }).id,
      ]);
      return reply.header('content-type', 'application/pdf').send(rows[0].content);
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

async function main() {
  const scratch = await createScratchDatabase('bench_pdfs');
  const results: [string, string][] = [];
  try {
    const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 4 });
    await runMigrations(database);
    const setup = await buildApp({
      config: loadConfig({
        DATABASE_URL: scratch.url,
        JWT_SECRET,
        ADMIN_EMAIL: 'root@bench.local',
        ADMIN_PASSWORD: PASSWORD,
        LOG_LEVEL: 'silent',
      }),
      database,
      logger: false,
      runWorkers: false,
    });
    const organisations = organisationsModule.services(setup.ctx).organisations;
    await organisations.bootstrap();
    const { rows: roots } = await database.query<{ id: string; organisation_id: string }>(
      `select id, organisation_id from users where username = 'root@bench.local'`,
    );
    const org = await organisations.create(systemActor(roots[0]!.organisation_id, roots[0]!.id), {
      name: 'Bench PDFs',
      admin: { email: 'admin@bench.local', password: PASSWORD },
    });
    const { rows: made } = await database.query<{ company: string }>(
      `with c as (insert into companies (id, organisation_id, name) values (gen_random_uuid(), $1, 'Buyer GmbH')
         returning id)
       insert into articles (id, organisation_id, company_id, name, code, price)
       select gen_random_uuid(), $1, c.id, 'Article ' || g, 'ART-' || g, 0.5 + g / 10.0
       from c, generate_series(1, 40) g
       returning company_id company`,
      [org.id],
    );
    const { rows: articleRows } = await database.query<{ id: string }>(
      'select id from articles where organisation_id = $1 order by code',
      [org.id],
    );
    await setup.close();
    await database.close();

    const script = new URL(import.meta.url).pathname;
    const app = await startServer(script, { PDFS_BENCH_SERVER: 'app', PDFS_BENCH_URL: scratch.url });
    const bare = await startServer(script, { PDFS_BENCH_SERVER: 'bare', PDFS_BENCH_URL: scratch.url });
    try {
      const base = `http://127.0.0.1:${app.port}`;
      const call = async (
        method: string,
        path: string,
        body?: unknown,
        headers: Record<string, string> = {},
      ) => {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
          body: body ? JSON.stringify(body) : undefined,
        });
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
        return response.json() as Promise<Record<string, string>>;
      };
      const { token } = await call('POST', '/api/sign-in', {
        username: 'admin@bench.local',
        password: PASSWORD,
      });
      const headers = { authorization: `Bearer ${token}` };
      const items = articleRows.map((a, i) => ({ articleId: a.id, quantity: 100 * (i + 1) }));
      const newQuote = async (publish: boolean) => {
        const quote = await call(
          'POST',
          '/api/quotes',
          { companyId: made[0]!.company, name: 'Bench', items },
          headers,
        );
        if (publish) await call('PUT', `/api/quotes/${quote.id}`, { state: 'published' }, headers);
        return quote.id!;
      };

      // 1. 50 concurrent first requests of a published quote's PDF.
      const published = await newQuote(true);
      const pdfPath = `/api/quotes/${published}/localisation/en`;
      const t0 = performance.now();
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, async () => {
          const started = performance.now();
          const response = await fetch(`${base}${pdfPath}`, { headers });
          await response.arrayBuffer();
          return {
            status: response.status,
            ms: performance.now() - started,
            etag: response.headers.get('etag'),
          };
        }),
      );
      const wall = performance.now() - t0;
      const ok = answers.filter((a) => a.status === 200).length;
      const tags = new Set(answers.map((a) => a.etag));
      const slowest = Math.max(...answers.map((a) => a.ms));
      console.log(
        `50 concurrent first requests: ${ok} x 200, ${tags.size} ETag(s), all in ${wall.toFixed(0)} ms`,
      );
      results.push([
        `${CONCURRENT} concurrent first requests of a published quote's PDF (one render, single-flight)`,
        `${ok}/${CONCURRENT} answered 200 in ${(wall / 1000).toFixed(2)} s (slowest ${slowest.toFixed(0)} ms), ${tags.size} ETag`,
      ]);

      // 2. The stored PDF against the bare download of the same bytes.
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      const { rows: fileRows } = await client.query<{ id: string; size: number }>(
        `select id, size from files where entity = 'quote' and entity_id = $1 and label = 'en' and deleted_at is null`,
        [published],
      );
      const stored = await client.query<{ n: number }>(
        `select count(*)::int n from events where entity = 'FILE' and type = 'CREATE' and relation_id = $1`,
        [published],
      );
      await client.end();
      results.push(['renderings stored for those 50 requests', String(stored.rows[0]!.n)]);
      const runs: [string, LoopResult][] = [];
      for (let round = 0; round < 2; round++) {
        const bareRun = await loopLoad(bare.port, () => `/file/${fileRows[0]!.id}`, {}, SECONDS, CONNECTIONS);
        const appRun = await loopLoad(app.port, () => pdfPath, headers, SECONDS, CONNECTIONS);
        runs.push([
          `bare: Fastify + 1 SQL, the same ${fileRows[0]!.size} bytes (round ${round + 1})`,
          bareRun,
        ]);
        runs.push([`GET stored PDF (authenticated, ETag) (round ${round + 1})`, appRun]);
      }
      for (const [label, r] of runs) {
        results.push([
          label,
          `${r.rps} req/s, p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, errors ${r.errors}`,
        ]);
      }
      const ratio = (runs[1]![1].rps + runs[3]![1].rps) / (runs[0]![1].rps + runs[2]![1].rps);
      results.push(['stored PDF / bare download (throughput, both rounds)', `${Math.round(ratio * 100)} %`]);

      // 3. 50 concurrent previews of a draft.
      const draft = await newQuote(false);
      const p0 = performance.now();
      const previews = await Promise.all(
        Array.from({ length: CONCURRENT }, async () => {
          const response = await fetch(`${base}/api/quotes/${draft}/preview/en`, { headers });
          await response.arrayBuffer();
          return { status: response.status, retryAfter: response.headers.get('retry-after') };
        }),
      );
      const previewMs = performance.now() - p0;
      const count = (status: number) => previews.filter((p) => p.status === status).length;
      results.push([
        `${CONCURRENT} concurrent previews of a draft (pool 2 + queue 8)`,
        `${count(200)} x 200, ${count(429)} x 429 (Retry-After ${previews.find((p) => p.status === 429)?.retryAfter ?? '-'} s), others ${CONCURRENT - count(200) - count(429)}, all in ${(previewMs / 1000).toFixed(2)} s`,
      ]);
    } finally {
      app.stop();
      bare.stop();
    }
    console.log(`\n## Stored quote PDFs (npm run bench:pdfs)\n`);
    console.log(
      `${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${loadavg()[0]!.toFixed(1)}. A 40-item quote.\n`,
    );
    console.log('| run | result |\n|---|---|');
    for (const [label, value] of results) console.log(`| ${label} | ${value} |`);
  } finally {
    await scratch.drop();
  }
}

if (process.env.PDFS_BENCH_SERVER) {
  await serve(process.env.PDFS_BENCH_SERVER, process.env.PDFS_BENCH_URL!);
} else {
  await main();
}
