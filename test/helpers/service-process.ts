import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { TEST_DATABASE_URL, withAdminClient } from './pg-admin.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
export const ADMIN = { email: 'root@fault.local', password: 'fault-suite-password' };

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Where the service processes of one test keep their data: a PGlite data directory (the processes
 * take turns on it), or a fresh PostgreSQL database copied from the test template (shared by
 * several processes at once). DATA_DIR is shared either way: it holds the JWT secret and the
 * encryption key, which every node must share.
 */
export type ServiceStore = {
  kind: 'pglite' | 'postgres';
  env: Record<string, string>;
  /** Opens the store from the test process; on PGlite only while no service process runs. */
  open(): Promise<Database>;
  drop(): Promise<void>;
};

export async function createServiceStore(): Promise<ServiceStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fault-'));
  if (!TEST_DATABASE_URL) {
    return {
      kind: 'pglite',
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `fault_${randomBytes(6).toString('hex')}`;
  await withAdminClient(TEST_DATABASE_URL, (c) =>
    c.query(`create database "${name}" template "${inject('dbTemplate')}"`),
  );
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: () => openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 }),
    drop: async () => {
      await withAdminClient(TEST_DATABASE_URL!, (c) =>
        c.query(`drop database if exists "${name}" with (force)`),
      );
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type ServiceProcess = {
  url: string;
  pid: number;
  /** Everything the process printed, for a failing test's message. */
  output(): string;
  /** kill -9: no shutdown code runs. */
  crash(): Promise<void>;
  /** SIGTERM: the graceful shutdown of src/server.ts. */
  stop(): Promise<void>;
};

/**
 * Starts the service (src/server.ts, as `npm start` runs it but from the sources) in a child process
 * on the project's Node.js, and waits until it answers /health.
 */
export async function startService(
  store: ServiceStore,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...store.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test worker that ends without cleaning up (timeout, crash) takes its services with it.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (gone) throw new Error(`the service exited before answering /health:\n${output}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not answer /health in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    async crash() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A small HTTP client of one service process, signed in as `token` when given. */
export function client(base: () => string, token?: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
    if (body instanceof Uint8Array) init.body = body as BodyInit;
    else if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${base()}${path}`, init);
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in tests
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  };
}

/** Signs in through HTTP and answers the bearer token. */
export async function signInOver(base: () => string, email: string, password: string): Promise<string> {
  const answer = await client(base)('POST', '/api/sign-in', { username: email, password });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  return answer.json.token as string;
}
