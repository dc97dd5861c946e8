/**
 * CSV import benchmark: `npm run bench:imports` (ROWS=1000000 for a larger file).
 *
 * Generates a company CSV (externalId, name, parentExternalId for one row in ten, email,
 * phoneNumber, website, vatNumber), then, each in its own child process so that peak memory is
 * that of the run alone:
 *   1. baseline: csv-parse alone reading the file (same options as the import);
 *   2. the import on PGlite (a data directory under the system temp dir);
 *   3. the import on PostgreSQL (a scratch database on DATABASE_URL, created and dropped).
 * An import child runs the real app on an HTTP port, streams the file to POST /api/imports over
 * HTTP, processes it (the job body, in-process), then imports the same file again (every row
 * unchanged). Rows/s is rows / processing time (check pass + batches + e-mail); peak RSS is
 * sampled every 50 ms and read from /proc/self/status (VmHWM).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { BENCH_DATABASE_URL, compile, createScratchDatabase, machine } from './lib.ts';

const ROWS = Number(process.env.ROWS ?? 100_000);

type Result = {
  label: string;
  rows: number;
  ms: number;
  rowsPerSecond: number;
  peakRssMb: number;
  hwmMb: number;
  extra?: Record<string, unknown>;
};

function rssSampler() {
  let peak = process.memoryUsage().rss;
  let ticks = 0;
  const timer = setInterval(() => {
    const usage = process.memoryUsage();
    peak = Math.max(peak, usage.rss);
    // BENCH_MEMORY_TRACE=1: the breakdown every second, on stderr.
    if (process.env.BENCH_MEMORY_TRACE && ++ticks % 20 === 0) {
      const mb = (n: number) => Math.round(n / 1048576);
      console.error(
        `rss ${mb(usage.rss)} heapTotal ${mb(usage.heapTotal)} heapUsed ${mb(usage.heapUsed)} external ${mb(usage.external)} arrayBuffers ${mb(usage.arrayBuffers)}`,
      );
    }
  }, 50);
  timer.unref();
  return {
    peakMb: () => Math.round(Math.max(peak, process.memoryUsage().rss) / 1048576),
    stop: () => clearInterval(timer),
  };
}

function vmHwmMb(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : -1;
  } catch {
    return -1;
  }
}

async function generate(file: string, rows: number) {
  const out = createWriteStream(file);
  out.write('externalId,name,parentExternalId,email,phoneNumber,website,vatNumber\n');
  for (let i = 1; i <= rows; i++) {
    const parent = i % 10 === 0 ? `C${String(i - 9).padStart(7, '0')}` : '';
    const line = `C${String(i).padStart(7, '0')},"Company ${i}, Ltd",${parent},contact${i}@example.com,+33 1 23 45 ${String(i % 100).padStart(2, '0')} 00,https://company${i}.example,FR${String(i).padStart(11, '0')}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

// ---------------------------------------------------------------------------------------------
// Child: csv-parse alone.

async function childParse(file: string): Promise<Result> {
  const sampler = rssSampler();
  const started = performance.now();
  const parser = createReadStream(file).pipe(parse({ delimiter: ',', bom: true, relax_column_count: true }));
  let rows = -1;
  for await (const _record of parser) rows++;
  const ms = performance.now() - started;
  sampler.stop();
  return {
    label: 'csv-parse alone (file -> records)',
    rows,
    ms,
    rowsPerSecond: Math.round(rows / (ms / 1000)),
    peakRssMb: sampler.peakMb(),
    hwmMb: vmHwmMb(),
  };
}

// ---------------------------------------------------------------------------------------------
// Child: the import through the real app.

function streamUpload(port: number, token: string, file: string): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n16\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="delimiter"\r\n\r\ncomma\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="companies.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
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
          'content-length': String(length),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
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

async function childImport(file: string, backend: 'pglite' | 'postgres', url?: string): Promise<Result[]> {
  const sampler = rssSampler();
  const { buildApp } = await import('../src/app.ts');
  const { loadConfig } = await import('../src/config.ts');
  const { openDatabase } = await import('../src/db/client.ts');
  const { runMigrations } = await import('../src/db/migrate.ts');
  const { organisationsModule } = await import('../src/modules/organisations/module.ts');
  const { importsModule } = await import('../src/modules/imports/module.ts');

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-imports-'));
  const email = 'bench@example.com';
  const password = 'bench-password-1234';
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: email,
    ADMIN_PASSWORD: password,
    IMPORT_SIZE_LIMIT_BYTES: String(2 ** 31 - 1),
    RUN_WORKERS: 'false',
  });
  const database = await openDatabase(
    backend === 'postgres' ? { kind: 'postgres', url: url! } : { kind: 'pglite', dataDir },
  );
  await runMigrations(database);
  const app = await buildApp({ config, database, runWorkers: false, logger: false });
  await organisationsModule.services(app.ctx).organisations.bootstrap();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const signIn = await fetch(`http://127.0.0.1:${port}/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  const { token } = (await signIn.json()) as { token: string };
  const baseRss = Math.round(process.memoryUsage().rss / 1048576);

  const results: Result[] = [];
  for (const round of ['create', 'unchanged'] as const) {
    const uploadStarted = performance.now();
    const uploaded = await streamUpload(port, token, file);
    const uploadMs = performance.now() - uploadStarted;
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.body}`);
    const id = JSON.parse(uploaded.body).id as string;
    const started = performance.now();
    await importsModule.services(app.ctx).processor.run(id);
    const ms = performance.now() - started;
    const record = (await (
      await fetch(`http://127.0.0.1:${port}/api/imports/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { status: number; stats: Record<string, number> };
    const { rowsRead, created, updated, unchanged, failed } = record.stats;
    results.push({
      label: `import on ${backend === 'pglite' ? 'PGlite' : 'PostgreSQL'} (${round === 'create' ? 'all rows created' : 'same file again: all unchanged'})`,
      rows: rowsRead!,
      ms,
      rowsPerSecond: Math.round(rowsRead! / (ms / 1000)),
      peakRssMb: sampler.peakMb(),
      hwmMb: vmHwmMb(),
      extra: {
        status: record.status,
        created,
        updated,
        unchanged,
        failed,
        uploadMs: Math.round(uploadMs),
        baseRssMb: baseRss,
      },
    });
  }
  sampler.stop();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return results;
}

// ---------------------------------------------------------------------------------------------
// Parent.

async function runChild(args: string[]): Promise<Result[]> {
  // This file compiled as `npm start` compiles the service, so the child's memory is production's.
  const script = await compile(new URL(import.meta.url).pathname);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => {
      const line = output.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) return reject(new Error(`child ${args.join(' ')} exited ${code}: ${output}`));
      resolve(JSON.parse(line.slice(7)));
    });
  });
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === 'parse') {
    console.log(`RESULT ${JSON.stringify([await childParse(rest[0]!)])}`);
    process.exit(0);
  }
  if (mode === 'import') {
    console.log(
      `RESULT ${JSON.stringify(await childImport(rest[0]!, rest[1] as 'pglite' | 'postgres', rest[2]))}`,
    );
    process.exit(0);
  }

  const file = join(tmpdir(), `bench-imports-${ROWS}.csv`);
  if (!existsSync(file)) await generate(file, ROWS);
  const size = statSync(file).size;
  console.log(
    `# Imports benchmark: ${ROWS.toLocaleString('en')} company rows, ${(size / 1048576).toFixed(1)} MiB`,
  );
  console.log(`# ${new Date().toISOString()} · ${machine()}`);

  const results: Result[] = [];
  results.push(...(await runChild(['parse', file])));
  if (!process.env.SKIP_PGLITE) results.push(...(await runChild(['import', file, 'pglite'])));
  if (!process.env.SKIP_POSTGRES) {
    const scratch = await createScratchDatabase('bench_imports');
    try {
      results.push(...(await runChild(['import', file, 'postgres', scratch.url])));
    } finally {
      await scratch.drop();
    }
  }
  console.log('');
  console.log('| run | rows | time | rows/s | peak RSS (50 ms samples) | VmHWM | notes |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    const notes = r.extra
      ? `status ${r.extra.status}; created ${r.extra.created}, unchanged ${r.extra.unchanged}, failed ${r.extra.failed}; upload ${r.extra.uploadMs} ms; RSS before ${r.extra.baseRssMb} MB`
      : '';
    console.log(
      `| ${r.label} | ${r.rows.toLocaleString('en')} | ${(r.ms / 1000).toFixed(2)} s | ${r.rowsPerSecond.toLocaleString('en')} | ${r.peakRssMb} MB | ${r.hwmMb} MB | ${notes} |`,
    );
  }
  console.log(
    `\nPostgreSQL: ${BENCH_DATABASE_URL.replace(/\/\/[^@]*@/, '//')} (scratch database, dropped after the run)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
