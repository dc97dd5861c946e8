/**
 * npm run bench:heavy — the heavy reads of issue 31 on PostgreSQL, each against a baseline measured
 * in the same run:
 *
 *   1. GET /api/briefs/{id}/details of a three-element brief (four decoration variants, delivery),
 *      as a browser asks for it (`Accept-Encoding: br, gzip`): its size raw and on the wire, and
 *      its throughput against a bare Fastify + one SQL read of the same brief's row by id (the
 *      brief's columns, uncompressed). Targets: >= 25 % of the bare read, <= 40 KB on the wire.
 *   2. POST /api/briefs/estimate of the same brief: CPU time per request (process.cpuUsage around
 *      each in-process request, p50), against the engine alone (priceBrief) on the same input.
 *      Target: p50 <= 3 ms of CPU.
 *
 * It creates its own database next to DATABASE_URL (default postgres://root@127.0.0.1:5432/test),
 * starts the service (compiled as `npm start` runs it) and the bare server as child processes on
 * 127.0.0.1, and drops the database at the end. BENCH_SECONDS (6) per run, BENCH_CONNECTIONS (10).
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { loadCatalogue } from '../src/modules/catalogue/loader.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { systemActor } from '../src/platform/actor.ts';
import { carton, idOf } from '../test/helpers/briefs.ts';
import { createScratchDatabase, type LoopResult, loopLoad, machine, startServer } from './lib.ts';

const JWT_SECRET = 'bench-heavy-secret-bench-heavy-secret-0123456789';
const PASSWORD = 'bench-password';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const SECONDS = Number(process.env.BENCH_SECONDS || 6);
const ESTIMATES = Number(process.env.BENCH_ESTIMATES || 300);

async function serve(mode: string, url: string) {
  process.on('SIGTERM', () => process.exit(0));
  if (mode === 'bare') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const app = Fastify();
    app.get('/briefs/:id', async (request) => {
      const { rows } = await pool.query('select * from briefs where id = $1', [
        (request.params as { id: string }).id,
      ]);
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

/** The answer's bytes as they travel (no decompression) and its Content-Encoding. */
function onTheWire(port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; bytes: number; encoding: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            bytes,
            encoding: String(response.headers['content-encoding'] ?? 'identity'),
          }),
        );
      })
      .on('error', reject);
  });
}

/** A CPU profile of this process (node:inspector) until stop() writes it to a file. */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function main() {
  const scratch = await createScratchDatabase('bench_heavy');
  const results: [string, string][] = [];
  try {
    const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 4 });
    await runMigrations(database);
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      JWT_SECRET,
      ADMIN_EMAIL: 'root@bench.local',
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'silent',
      RUN_WORKERS: 'false',
    });
    const setup = await buildApp({ config, database, logger: false, runWorkers: false });
    const organisations = organisationsModule.services(setup.ctx).organisations;
    await organisations.bootstrap();
    const { rows: roots } = await database.query<{ id: string; organisation_id: string }>(
      `select id, organisation_id from users where username = 'root@bench.local'`,
    );
    const org = await organisations.create(systemActor(roots[0]!.organisation_id, roots[0]!.id), {
      name: 'Bench heavy',
      admin: { email: 'admin@bench.local', password: PASSWORD },
    });
    const { rows: companyRows } = await database.query<{ id: string }>(
      `insert into companies (id, organisation_id, name) values (gen_random_uuid(), $1, 'Buyer GmbH') returning id`,
      [org.id],
    );
    const catalogue = await loadCatalogue(setup.ctx.db, org.id);
    const element = (position: number, overrides: Record<string, unknown> = {}) => ({
      ...carton(catalogue, { position }),
      ...overrides,
    });
    const brief = {
      name: 'Bench range',
      companyId: companyRows[0]!.id,
      deliveryZoneId: idOf(catalogue.deliveryZones, 'FR-NATIONAL'),
      briefElements: [
        element(0, { wantVarnishRecto: true }),
        element(1, {
          productId: idOf(catalogue.products, 'CLB'),
          decorationsCount: [
            { decorationIndex: 0, quantity: 3000 },
            { decorationIndex: 1, quantity: 3000 },
          ],
        }),
        element(2, {
          productId: idOf(catalogue.products, '0201'),
          lengthDimension: 300,
          widthDimension: 200,
          heightDimension: 150,
          materialReferenceId: idOf(catalogue.materialReferences, 'CORR-B-KK'),
          decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
          rectoColorCount: 1,
        }),
      ],
    };
    const signIn = await setup.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'admin@bench.local', password: PASSWORD },
    });
    const headers = { authorization: `Bearer ${signIn.json().token}` };

    // 2. The estimate's CPU per request, in process, against the engine alone on the same brief.
    const { priceBrief } = await import('../src/pricing/index.ts');
    const cpuOf = async (run: () => Promise<unknown> | unknown, count: number) => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        const before = process.cpuUsage();
        await run();
        const used = process.cpuUsage(before);
        samples.push((used.user + used.system) / 1000);
      }
      return samples;
    };
    const estimateAt = (url: string) => () =>
      setup.inject({ method: 'POST', url, headers, payload: brief }).then((r) => {
        if (r.statusCode !== 200) throw new Error(`estimate: ${r.statusCode} ${r.body}`);
      });
    const estimate = estimateAt('/api/briefs/estimate');
    await cpuOf(estimate, 30);
    const sizeOf = async (url: string) =>
      (await setup.inject({ method: 'POST', url, headers, payload: brief })).rawPayload.length / 1024;
    results.push([
      'estimate answer, raw: without / with ?include=analysis',
      `${(await sizeOf('/api/briefs/estimate')).toFixed(1)} KB / ${(await sizeOf('/api/briefs/estimate?include=analysis')).toFixed(1)} KB`,
    ]);
    // BENCH_PROFILE=<file.cpuprofile>: a CPU profile of the timed estimates (open in Chrome DevTools).
    const profiler = process.env.BENCH_PROFILE ? await startProfile() : undefined;
    const estimateCpu = await cpuOf(estimate, ESTIMATES);
    if (profiler) await profiler.stop(process.env.BENCH_PROFILE!);
    const analysed = estimateAt('/api/briefs/estimate?include=analysis');
    await cpuOf(analysed, 5);
    const analysedCpu = await cpuOf(analysed, Math.ceil(ESTIMATES / 5));
    // The engine alone: the input the estimate priced, read back from a created brief's prediction.
    const created = await setup.inject({ method: 'POST', url: '/api/briefs', headers, payload: brief });
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
    const briefId = created.json().id as string;
    const { rows: inputRows } = await database.query<{ input: Parameters<typeof priceBrief>[0] }>(
      'select input from brief_predictions where brief_id = $1 order by version desc limit 1',
      [briefId],
    );
    const engineCpu = await cpuOf(() => priceBrief(inputRows[0]!.input, catalogue), ESTIMATES);
    results.push([
      `POST /api/briefs/estimate, 3 elements, CPU per request (${ESTIMATES}, in process)`,
      `p50 ${percentile(estimateCpu, 0.5).toFixed(2)} ms, p95 ${percentile(estimateCpu, 0.95).toFixed(2)} ms`,
    ]);
    results.push([
      `POST /api/briefs/estimate?include=analysis, CPU per request (${Math.ceil(ESTIMATES / 5)}, in process)`,
      `p50 ${percentile(analysedCpu, 0.5).toFixed(2)} ms, p95 ${percentile(analysedCpu, 0.95).toFixed(2)} ms`,
    ]);
    results.push([
      'baseline: priceBrief alone on the same input, CPU',
      `p50 ${percentile(engineCpu, 0.5).toFixed(2)} ms, p95 ${percentile(engineCpu, 0.95).toFixed(2)} ms`,
    ]);
    await setup.close();
    await database.close();
    if (process.env.BENCH_ONLY === 'estimate') {
      for (const [label, value] of results) console.log(`| ${label} | ${value} |`);
      return;
    }

    // 1. Brief details against the bare read of the brief's row.
    const script = new URL(import.meta.url).pathname;
    const app = await startServer(script, { HEAVY_BENCH_SERVER: 'app', HEAVY_BENCH_URL: scratch.url });
    const bare = await startServer(script, { HEAVY_BENCH_SERVER: 'bare', HEAVY_BENCH_URL: scratch.url });
    try {
      const compressed = { ...headers, 'accept-encoding': 'br, gzip' };
      const detailsPath = `/api/briefs/${briefId}/details`;
      const raw = await onTheWire(app.port, detailsPath, headers);
      const wire = await onTheWire(app.port, detailsPath, compressed);
      const all = await onTheWire(app.port, `${detailsPath}?include=alternatives`, compressed);
      const allRaw = await onTheWire(app.port, `${detailsPath}?include=alternatives`, headers);
      const bareSize = await onTheWire(bare.port, `/briefs/${briefId}`, {});
      if (raw.status !== 200 || wire.status !== 200 || bareSize.status !== 200) {
        throw new Error(`details ${raw.status}/${wire.status}, bare ${bareSize.status}`);
      }
      results.push([
        'GET details: size raw / on the wire',
        `${(raw.bytes / 1024).toFixed(1)} KB / ${(wire.bytes / 1024).toFixed(1)} KB (${wire.encoding})`,
      ]);
      results.push([
        'GET details?include=alternatives: size raw / on the wire',
        `${(allRaw.bytes / 1024).toFixed(1)} KB / ${(all.bytes / 1024).toFixed(1)} KB (${all.encoding})`,
      ]);
      results.push(['bare: the brief row by id, size', `${(bareSize.bytes / 1024).toFixed(1)} KB`]);
      const runs: [string, LoopResult][] = [];
      for (let round = 0; round < 2; round++) {
        runs.push([
          `bare: Fastify + 1 SQL, the brief's row by id (round ${round + 1})`,
          await loopLoad(bare.port, () => `/briefs/${briefId}`, {}, SECONDS, CONNECTIONS),
        ]);
        runs.push([
          `GET /api/briefs/{id}/details, br (round ${round + 1})`,
          await loopLoad(app.port, () => detailsPath, compressed, SECONDS, CONNECTIONS),
        ]);
      }
      for (const [label, r] of runs) {
        results.push([
          label,
          `${r.rps} req/s, p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, errors ${r.errors}`,
        ]);
      }
      const ratio = (runs[1]![1].rps + runs[3]![1].rps) / (runs[0]![1].rps + runs[2]![1].rps);
      results.push(['details / bare read by id (throughput, both rounds)', `${Math.round(ratio * 100)} %`]);
    } finally {
      app.stop();
      bare.stop();
    }
    console.log('\n## Heavy reads (npm run bench:heavy)\n');
    console.log(
      `${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${loadavg()[0]!.toFixed(1)}; ` +
        `${CONNECTIONS} connections, ${SECONDS} s per run.\n`,
    );
    console.log('| run | result |\n|---|---|');
    for (const [label, value] of results) console.log(`| ${label} | ${value} |`);
  } finally {
    await scratch.drop();
  }
}

if (process.env.HEAVY_BENCH_SERVER) {
  await serve(process.env.HEAVY_BENCH_SERVER, process.env.HEAVY_BENCH_URL!);
} else {
  await main();
}
