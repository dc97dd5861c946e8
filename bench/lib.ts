import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { cpus } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';

/** Shared helpers of the benchmarks: a throw-away PostgreSQL database, child servers, load runs. */
export const BENCH_DATABASE_URL = process.env.DATABASE_URL || 'postgres://root@127.0.0.1:5432/test';

export async function createScratchDatabase(prefix: string) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: BENCH_DATABASE_URL });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

const compiled = new Map<string, Promise<string>>();

/**
 * Compiles a benchmark script the way `npm start` compiles the service (scripts/build.ts: our code
 * in one esbuild bundle, packages external) into bench/.tmp, once per script and process, and
 * returns the file to run with `node`. Child processes then run what production runs: under tsx
 * a process holds ~55 MB more (tsx's loader thread, inline source maps) and loads every module
 * through it.
 */
export function compile(script: string): Promise<string> {
  let file = compiled.get(script);
  if (!file) {
    const name = basename(script, '.ts');
    const outdir = `bench/.tmp/dist-${name}-${process.pid}`;
    process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
    // A computed specifier: bundling a script that imports this file must not bundle the build
    // script, and esbuild with it, into the benchmark's children.
    const buildScript = '../scripts/build.ts';
    file = (import(buildScript) as Promise<typeof import('../scripts/build.ts')>)
      .then(({ bundle }) => bundle({ [name]: script }, outdir))
      .then((dir) => join(dir, `${name}.js`));
    compiled.set(script, file);
  }
  return file;
}

/**
 * Starts `script` (compiled, see compile()) with env; resolves with its port once it prints
 * `READY <port>`.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
): Promise<{ port: number; stop: () => void; child: ChildProcess }> {
  const file = await compile(script);
  return new Promise((resolve, reject) => {
    // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the servers under load.
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, file], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\d+)/.exec(output);
      if (match) resolve({ port: Number(match[1]), child, stop: () => child.kill('SIGTERM') });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

export type LoadResult = {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
};

export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = 10,
): Promise<LoadResult> {
  const result = await autocannon({ url, headers, duration: seconds, connections, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p95: result.latency.p97_5 ?? result.latency.p99,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export const machine = () => `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`;

// ---------------------------------------------------------------------------------------------
// Exact-percentile load loop: `connections` concurrent keep-alive connections, each sending its
// next request when the previous answer is fully read, for a bounded time and count. Every
// latency is kept, so p95 is the real 95th percentile (autocannon's histogram has p90 and p97.5,
// not p95).
// ---------------------------------------------------------------------------------------------

export type LoopResult = {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** Raw figures, to merge several short runs into one. */
  latencies: number[];
  seconds: number;
};

export function summarise(latencies: number[], seconds: number, errors: number): LoopResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2));
  return {
    requests: sorted.length,
    rps: Math.round(sorted.length / seconds),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    errors,
    latencies: sorted,
    seconds,
  };
}

export const mergeRuns = (runs: LoopResult[]) =>
  summarise(
    runs.flatMap((r) => r.latencies),
    runs.reduce((sum, r) => sum + r.seconds, 0),
    runs.reduce((sum, r) => sum + r.errors, 0),
  );

export function send(agent: http.Agent, port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Drives GET requests (`nextPath()` each time) and keeps every latency; non-200 answers are errors. */
export async function loopLoad(
  port: number,
  nextPath: () => string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  maxRequests = 1_000_000,
): Promise<LoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && latencies.length + errors < maxRequests) {
      const t0 = performance.now();
      try {
        const { status } = await send(agent, port, nextPath(), headers);
        if (status !== 200) errors++;
        else latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return summarise(latencies, elapsed, errors);
}
