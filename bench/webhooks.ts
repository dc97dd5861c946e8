/**
 * Webhook delivery benchmark (npm run bench:webhooks), on PostgreSQL.
 *
 * - Uses DATABASE_URL (default postgres://root@127.0.0.1:5432/test) only to create a fresh database,
 *   which it migrates, uses and drops.
 * - The receiver is a node:http server in a worker thread (its own core when one is free) that
 *   answers 200 at once.
 * - Baseline measured in the same run: the raw HTTP rate of the same sender against the same
 *   receiver (no database), and the latency of a write with no webhook.
 *
 * Figures:
 *   1. write latency: a `ctx.change` that inserts a company and records its event, and the same as an
 *      HTTP request (POST /api/companies through app.inject) when that route exists, without and with
 *      an active webhook (blocks alternated so drift affects both alike);
 *   2. drain: N events committed while delivery is stopped, then delivery started: events/s from
 *      start to the last delivery recorded as 2xx;
 *   3. sustained: N events written by 8 concurrent writers while delivery runs: events/s from the
 *      first commit to the last 2xx recorded, and commit-to-receipt latency percentiles.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { type App, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { companies } from '../src/db/schema/platform.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { createSender } from '../src/modules/webhooks/http.ts';
import { webhooksModule } from '../src/modules/webhooks/module.ts';
import { createTargetPolicy } from '../src/modules/webhooks/ssrf.ts';
import { entity } from '../src/platform/events.ts';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://root@127.0.0.1:5432/test';
const WRITES_PER_BLOCK = Number(process.env.BENCH_WRITES ?? 200);
/** Pairs of blocks (without, with a webhook): short alternated blocks so load drift hits both alike. */
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const DRAIN_EVENTS = Number(process.env.BENCH_DRAIN_EVENTS ?? 20_000);
const SUSTAINED_EVENTS = Number(process.env.BENCH_SUSTAINED_EVENTS ?? 20_000);
const COMPANY = entity('COMPANY', 'companies');
/** BENCH_PHASES=latency,drain,sustained (default all) runs only some phases. */
const PHASES = new Set((process.env.BENCH_PHASES ?? 'latency,drain,sustained').split(','));

const RECEIVER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
let count = 0;
let tracking = false;
let arrivals = [];
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    count++;
    if (tracking) {
      try { arrivals.push(JSON.parse(Buffer.concat(chunks).toString()).entity.name, Date.now()); } catch {}
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'track') { tracking = true; arrivals = []; }
  if (m === 'stats') { parentPort.postMessage({ count, arrivals }); arrivals = []; }
  if (m === 'close') server.close(() => process.exit(0));
});
`;

type ReceiverStats = { count: number; arrivals: Array<string | number> };

async function startReceiver() {
  const worker = new Worker(RECEIVER_SOURCE, { eval: true });
  const port = await new Promise<number>((resolve) =>
    worker.once('message', (m: { port: number }) => resolve(m.port)),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    track: () => worker.postMessage('track'),
    stats: () =>
      new Promise<ReceiverStats>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('stats');
      }),
    close: async () => {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { mean, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};
const ms = (value: number) => `${value.toFixed(3)} ms`;

async function main() {
  const name = `bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  const receiver = await startReceiver();
  let app: App | undefined;
  try {
    await runMigrations(database);
    const config = loadConfig({
      DATABASE_URL: url.toString(),
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      DATA_DIR: 'bench/.tmp',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'bench@bench.local',
      ADMIN_PASSWORD: 'bench-password',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      // WEBHOOK_CONCURRENCY, WEBHOOK_DISPATCH_DELAY_MS... from the environment, to compare settings.
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('WEBHOOK_'))),
    });
    app = await buildApp({ config, database, runWorkers: false, logger: false });
    const ctx = app.ctx;
    const { runtime, webhooks: service } = webhooksModule.services(ctx);
    runtime.start();
    await organisationsModule.services(ctx).organisations.bootstrap();
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'bench@bench.local', password: 'bench-password' },
    });
    const token = signIn.json().token as string;
    const me = (
      await app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } })
    ).json();
    const actor = { organisationId: me.organisationId as string, userId: me.id as string };
    const fullActor = { ...actor, role: 'admin' as const, companyIds: [], credential: 'system' as const };

    const write = (count = 1, label = 'Bench') =>
      ctx.change(actor, async (tx, record) => {
        const rows = await tx
          .insert(companies)
          .values(
            Array.from({ length: count }, (_, i) => ({
              organisationId: actor.organisationId,
              name: `${label}-${i}`,
            })),
          )
          .returning();
        for (const row of rows)
          await record({ on: COMPANY, type: 'CREATE', entityId: row.id, snapshot: row });
      });
    const httpWrite = () =>
      app!.inject({
        method: 'POST',
        url: '/api/companies',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'Bench HTTP' },
      });
    const probe = await httpWrite();
    const hasHttpWrite = probe.statusCode === 201;

    const countOf = async (sql: string) => Number((await database.query<{ n: number }>(sql)).rows[0]!.n);
    const drained = async () => {
      for (;;) {
        const waiting = await countOf(
          `select (select count(*) from events where dispatched_at is null)
                + (select count(*) from webhook_deliveries where status = 'pending') as n`,
        );
        if (waiting === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const created = await webhooksModule.services(ctx).webhooks.create(fullActor, {
      name: 'bench',
      url: `${receiver.url}/hook`,
      events: ['event.companies.*'],
    });
    const setEnabled = (enabled: boolean) => service.setEnabled(fullActor, created.id, enabled);

    // Warm-up (JIT, pool connections, plans), with the webhook on.
    for (let i = 0; i < 300; i++) await write();
    await drained();

    // --- 0. Baseline: the sender alone against the receiver.
    const sender = createSender(createTargetPolicy(['127.0.0.1']), { maxSockets: 128 });
    const rawCount = 20_000;
    const rawStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 128 }, async () => {
        while (next < rawCount) {
          next++;
          await sender.send({
            url: new URL(`${receiver.url}/raw`),
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"eventName":"event.companies.created"}',
            timeoutMs: 15_000,
          });
        }
      }),
    );
    const rawRate = rawCount / ((performance.now() - rawStarted) / 1000);
    sender.close();

    // --- 1. Write latency without and with an active webhook, alternated blocks.
    const latencies = {
      direct: { off: [] as number[], on: [] as number[] },
      http: { off: [] as number[], on: [] as number[] },
    };
    /** Per pair of blocks: p50 with minus p50 without. */
    const pairDiffs = { direct: [] as number[], http: [] as number[] };
    const blockMedian = (values: number[]) => summary(values).p50;
    let previous = { direct: 0, http: 0 };
    for (let block = 0; block < (PHASES.has('latency') ? BLOCKS * 2 : 0); block++) {
      const on = block % 2 === 1;
      await setEnabled(on);
      await drained();
      const key = on ? 'on' : 'off';
      const block_ = { direct: [] as number[], http: [] as number[] };
      for (let i = 0; i < WRITES_PER_BLOCK; i++) {
        const started = performance.now();
        await write();
        block_.direct.push(performance.now() - started);
        if (hasHttpWrite) {
          const s = performance.now();
          const response = await httpWrite();
          block_.http.push(performance.now() - s);
          if (response.statusCode !== 201) throw new Error(`POST /api/companies: ${response.statusCode}`);
        }
      }
      latencies.direct[key].push(...block_.direct);
      latencies.http[key].push(...block_.http);
      const medians = {
        direct: blockMedian(block_.direct),
        http: hasHttpWrite ? blockMedian(block_.http) : 0,
      };
      if (on) {
        pairDiffs.direct.push(medians.direct - previous.direct);
        pairDiffs.http.push(medians.http - previous.http);
      }
      previous = medians;
    }
    await setEnabled(true);
    await drained();

    // --- 2. Drain: events committed while delivery is stopped.
    let drainSeconds = Number.NaN;
    if (PHASES.has('drain')) {
      await runtime.stop();
      const before = await countOf(
        `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
      );
      for (let i = 0; i < DRAIN_EVENTS / 100; i++) await write(100, 'Drain');
      const drainStarted = performance.now();
      runtime.start();
      const target = before + DRAIN_EVENTS;
      for (;;) {
        const done = await countOf(
          `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
        );
        if (done >= target) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      drainSeconds = (performance.now() - drainStarted) / 1000;
    }

    // --- 3. Sustained: writers and delivery at once; commit-to-receipt latency.
    await drained();
    receiver.track();
    const commits = new Map<string, number>();
    const succeededBefore = await countOf(
      `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
    );
    const sustainedStarted = performance.now();
    let written = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, writer) => {
        let batch = 0;
        while (PHASES.has('sustained') && written < SUSTAINED_EVENTS) {
          written += 50;
          const label = `S${writer}.${batch++}`;
          await write(50, label);
          const now = Date.now();
          for (let i = 0; i < 50; i++) commits.set(`${label}-${i}`, now);
        }
      }),
    );
    const writeSeconds = (performance.now() - sustainedStarted) / 1000;
    if (!PHASES.has('sustained')) written = 0;
    for (;;) {
      const done = await countOf(
        `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
      );
      if (done >= succeededBefore + written) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sustainedSeconds = (performance.now() - sustainedStarted) / 1000;
    const { arrivals } = await receiver.stats();
    const lags: number[] = [];
    for (let i = 0; i < arrivals.length; i += 2) {
      const committed = commits.get(arrivals[i] as string);
      if (committed !== undefined) lags.push((arrivals[i + 1] as number) - committed);
    }
    const failed = await countOf(
      `select count(*)::int as n from webhook_delivery_attempts where status_code is distinct from 200`,
    );

    // --- Report.
    const lines = [
      `date: ${new Date().toISOString()}`,
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, PostgreSQL ${(await database.query<{ server_version: string }>('show server_version')).rows[0]!.server_version}`,
      `settings: WEBHOOK_CONCURRENCY=${config.webhooks.concurrency}, WEBHOOK_DISPATCH_DELAY_MS=${config.webhooks.dispatchDelayMs}, poll ${config.webhooks.pollIntervalMs} ms, pool 10`,
      '',
      `baseline: sender alone -> receiver, 128 in flight: ${rawRate.toFixed(0)} requests/s`,
    ];
    if (PHASES.has('latency')) {
      const off = summary(latencies.direct.off);
      const on = summary(latencies.direct.on);
      lines.push(
        '',
        `write latency, ctx.change (insert company + event), ${latencies.direct.off.length} writes each, sequential:`,
        `  no webhook:     mean ${ms(off.mean)}  p50 ${ms(off.p50)}  p95 ${ms(off.p95)}  p99 ${ms(off.p99)}`,
        `  active webhook: mean ${ms(on.mean)}  p50 ${ms(on.p50)}  p95 ${ms(on.p95)}  p99 ${ms(on.p99)}`,
        `  added: mean ${ms(on.mean - off.mean)}  p50 ${ms(on.p50 - off.p50)}  median of ${pairDiffs.direct.length} paired block p50 differences ${ms(summary(pairDiffs.direct).p50)}`,
      );
    }
    if (PHASES.has('latency') && hasHttpWrite) {
      const hOff = summary(latencies.http.off);
      const hOn = summary(latencies.http.on);
      lines.push(
        `write latency, POST /api/companies (app.inject), ${latencies.http.off.length} each:`,
        `  no webhook:     mean ${ms(hOff.mean)}  p50 ${ms(hOff.p50)}  p95 ${ms(hOff.p95)}`,
        `  active webhook: mean ${ms(hOn.mean)}  p50 ${ms(hOn.p50)}  p95 ${ms(hOn.p95)}`,
        `  added: mean ${ms(hOn.mean - hOff.mean)}  p50 ${ms(hOn.p50 - hOff.p50)}  median of paired block p50 differences ${ms(summary(pairDiffs.http).p50)}`,
      );
    }
    lines.push('');
    if (PHASES.has('drain')) {
      lines.push(
        `drain: ${DRAIN_EVENTS} events committed while stopped, delivered (2xx recorded) in ${drainSeconds.toFixed(2)} s: ${(DRAIN_EVENTS / drainSeconds).toFixed(0)} deliveries/s`,
      );
    }
    if (PHASES.has('sustained')) {
      const lag = summary(lags);
      lines.push(
        `sustained: ${written} events by 8 writers (50 per transaction) in ${writeSeconds.toFixed(2)} s, all delivered after ${sustainedSeconds.toFixed(2)} s: ${(written / sustainedSeconds).toFixed(0)} deliveries/s`,
        `  commit -> receipt: p50 ${lag.p50} ms  p95 ${lag.p95} ms  p99 ${lag.p99} ms  max ${Math.max(...lags)} ms (${lags.length} matched)`,
      );
    }
    lines.push(`non-2xx attempts in the whole run: ${failed}`);
    console.log(lines.join('\n'));
  } finally {
    await app?.close();
    await receiver.close();
    await database.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
