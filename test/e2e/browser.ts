/**
 * The e2e service and browser helpers without vitest (bench/web.ts uses them outside a test run);
 * harness.ts adds the vitest session on top.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password' };
/** Screenshots of each screen, kept as test artifacts (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-results', 'e2e');

/** Removes one file's screenshots of an earlier run; the other files' stay (they share the folder). */
export function clearScreenshots(isMine: (name: string) => boolean) {
  for (const name of existsSync(ARTIFACTS) ? readdirSync(ARTIFACTS) : [])
    if (isMine(name)) rmSync(join(ARTIFACTS, name), { force: true });
}

/** Debian's chromium (CI installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type Service = { baseUrl: string; stop(): Promise<void>; log: () => string };

/**
 * The built service (`npm run build` first: dist/server.js and dist/web) on a free port, on a fresh
 * PGlite database in a temporary DATA_DIR, as `npm start` runs it.
 */
export async function startService(env: Record<string, string> = {}): Promise<Service> {
  if (!existsSync(join(ROOT, 'dist/server.js')) || !existsSync(join(ROOT, 'dist/web/index.html'))) {
    throw new Error('Build the service and the web app first: npm run build');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'pqs-e2e-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  // A loaded machine (CI, several suites at once) migrates for a while: E2E_START_TIMEOUT_MS changes it.
  const deadline = Date.now() + Number(process.env.E2E_START_TIMEOUT_MS || 180_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service stopped: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the service did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    log: () => output,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    headless: true,
  });
}

/** WebGL in headless Chromium without a GPU: ANGLE over SwiftShader (the 3D preview's e2e). */
export const WEBGL_ARGS = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
];

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  // From the top: a full-page shot of a scrolled page draws the fixed header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Calls the API directly (setting up data a scenario does not drive through screens). */
export async function apiCall(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return json;
}

export async function signInApi(baseUrl: string, username: string, password: string): Promise<string> {
  return (await apiCall(baseUrl, undefined, 'POST', '/api/sign-in', { username, password })).token;
}

/**
 * Records every Content-Security-Policy violation of the context's pages (their frames included):
 * the service's policies (src/platform/security-headers.ts) must let every screen work, so a
 * violation fails the test in which it happened (see openE2eSession).
 */
export async function watchCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => void violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void })
        .__reportCspViolation;
      report(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'} on ${event.documentURI}`);
    });
  });
  return violations;
}

/** What a scenario file drives: filled in by the beforeAll hook that openE2eSession registers. */
