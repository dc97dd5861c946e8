/**
 * npm run bench:memory — the service's memory (issue 31), as `npm start` runs it (the compiled
 * server, src/server.ts, in its own process), read from /proc/<pid>/status:
 *
 *   1. idle RSS after start-up, one sign-in and 10 s without requests, on PostgreSQL (a scratch
 *      database next to DATABASE_URL) and on PGlite (a data directory under the system temp dir);
 *   2. on PGlite, the peak (VmHWM) after a 100,000-row company import (uploaded over HTTP and
 *      processed by the server's own worker) and 50 quote PDFs rendered (50 published quotes,
 *      each PDF downloaded once), and the RSS once idle again.
 *
 * Baseline in the same run: a bare Node process that only listens on HTTP (what any Node server
 * holds before it loads anything). Targets: idle <= 200 MB on PostgreSQL and <= 400 MB on PGlite;
 * peak <= 600 MB on PGlite. BENCH_IMPORT_ROWS (100,000) and BENCH_PDFS (50) change the load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { compile, createScratchDatabase, machine } from './lib.ts';

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS || 100_000);
const PDFS = Number(process.env.BENCH_PDFS || 50);
const IDLE_SECONDS = 10;
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench-password-1234';

const mb = (kb: number) => Math.round(kb / 1024);

/** Node's flags in `npm start` (e.g. --max-semi-space-size), so that the service runs as started. */
const START_FLAGS = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start
  .split(/\s+/)
  .filter((token) => token.startsWith('--'));

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: mb(kb('VmRSS')), peak: mb(kb('VmHWM')) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function startService(env: Record<string, string>) {
  const file = await compile('src/server.ts');
  const port = await freePort();
  const child = spawn(process.execPath, [...START_FLAGS, file], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      JWT_SECRET: 'bench-memory-secret-bench-memory-secret-0123',
      ENCRYPTION_KEY: 'bench-memory-key-bench-memory-key-bench-0123',
      LOG_LEVEL: 'warn',
      IMPORT_SIZE_LIMIT_BYTES: String(2 ** 31 - 1),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base, port };
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  child.kill('SIGKILL');
  throw new Error('the service did not start');
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await Promise.race([once(child, 'exit'), sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

const signIn = async (base: string) =>
  (
    (await (
      await call(base, 'POST', '/api/sign-in', undefined, { username: EMAIL, password: PASSWORD })
    ).json()) as {
      token: string;
    }
  ).token;

async function writeCsv(file: string, rows: number) {
  const out = createWriteStream(file);
  out.write('externalId,name,email,website\n');
  for (let i = 1; i <= rows; i++) {
    if (
      !out.write(
        `M${String(i).padStart(7, '0')},"Company ${i}, Ltd",contact${i}@example.com,https://c${i}.example\n`,
      )
    ) {
      await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
}

function upload(port: number, token: string, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----memory${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n16\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="delimiter"\r\n\r\ncomma\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="companies.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/imports',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + statSync(file).size + tail.length),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file);
    source.on('error', reject);
    source.on('end', () => req.end(tail));
    source.pipe(req, { end: false });
  });
}

/** Idle RSS: started, one sign-in, then IDLE_SECONDS without a request. */
async function idle(label: string, env: Record<string, string>) {
  const service = await startService(env);
  try {
    await signIn(service.base);
    await sleep(IDLE_SECONDS * 1000);
    return { label, ...memoryOf(service.child.pid!) };
  } finally {
    await stop(service.child);
  }
}

/** The bare baseline: a Node process that only answers HTTP. */
async function bareNode() {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
    } catch {
      await sleep(100);
    }
  }
  await sleep(IDLE_SECONDS * 1000);
  const memory = memoryOf(child.pid!);
  child.kill('SIGKILL');
  return { label: 'baseline: bare Node HTTP server, idle', ...memory };
}

async function peakOnPglite(dataDir: string) {
  const service = await startService({ DATA_DIR: dataDir });
  const { base, port, child } = service;
  const pid = child.pid!;
  try {
    const token = await signIn(base);
    const csv = join(dataDir, 'companies.csv');
    await writeCsv(csv, IMPORT_ROWS);
    const uploaded = await upload(port, token, csv);
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.body}`);
    const importId = JSON.parse(uploaded.body).id as string;
    const started = Date.now();
    let record: { status: number; stats?: Record<string, number> } = { status: 0 };
    while (![3, 4, 5, 6, 7].includes(record.status)) {
      if (Date.now() - started > 30 * 60_000) throw new Error('the import did not finish in 30 minutes');
      await sleep(1000);
      record = (await (await call(base, 'GET', `/api/imports/${importId}`, token)).json()) as typeof record;
    }
    const afterImport = memoryOf(pid);

    const company = (await (
      await call(base, 'POST', '/api/companies', token, { name: 'PDF buyer' })
    ).json()) as {
      id: string;
    };
    const article = (await (
      await call(base, 'POST', '/api/articles', token, {
        companyId: company.id,
        name: 'Label',
        code: 'MEM-1',
        price: 0.5,
      })
    ).json()) as { id: string };
    for (let i = 0; i < PDFS; i++) {
      const quote = (await (
        await call(base, 'POST', '/api/quotes', token, {
          companyId: company.id,
          name: `Memory ${i}`,
          items: [{ articleId: article.id, quantity: 100 + i }],
        })
      ).json()) as { id: string };
      await call(base, 'PUT', `/api/quotes/${quote.id}`, token, { state: 'published' });
      await (await call(base, 'GET', `/api/quotes/${quote.id}/localisation/en`, token)).arrayBuffer();
    }
    const afterPdfs = memoryOf(pid);
    await sleep(IDLE_SECONDS * 1000);
    const idleAgain = memoryOf(pid);
    return { record, afterImport, afterPdfs, idleAgain, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await stop(child);
  }
}

async function main() {
  const scratch = await createScratchDatabase('bench_memory');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  const peakDir = mkdtempSync(join(tmpdir(), 'bench-memory-peak-'));
  try {
    const rows = [
      await bareNode(),
      await idle('service on PostgreSQL, idle', { DATABASE_URL: scratch.url }),
      await idle('service on PGlite, idle', { DATA_DIR: dataDir }),
    ];
    // BENCH_PEAK=0: the idle figures only (the peak run takes about five minutes).
    const peak = process.env.BENCH_PEAK === '0' ? undefined : await peakOnPglite(peakDir);
    console.log('\n## Memory (npm run bench:memory)\n');
    console.log(
      `${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${loadavg()[0]!.toFixed(1)}.\n`,
    );
    console.log('| run | RSS MB | peak (VmHWM) MB |\n|---|--:|--:|');
    for (const row of rows) console.log(`| ${row.label} | ${row.rss} | ${row.peak} |`);
    if (!peak) return;
    console.log(
      `| PGlite: after a ${IMPORT_ROWS.toLocaleString('en')}-row import (status ${peak.record.status}, ${JSON.stringify(peak.record.stats ?? {})}) | ${peak.afterImport.rss} | ${peak.afterImport.peak} |`,
    );
    console.log(
      `| PGlite: and after ${PDFS} quote PDFs rendered | ${peak.afterPdfs.rss} | ${peak.afterPdfs.peak} |`,
    );
    console.log(
      `| PGlite: idle again ${IDLE_SECONDS} s later | ${peak.idleAgain.rss} | ${peak.idleAgain.peak} |`,
    );
    console.log(`\n(import and PDFs took ${peak.seconds} s)`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(peakDir, { recursive: true, force: true });
    await scratch.drop();
  }
}

await main();
