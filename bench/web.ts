/**
 * npm run bench:web — the web app, measured in Debian's chromium against the built service
 * (`npm run build` first) on PostgreSQL with 100,000 briefs stored:
 *
 *   1. JavaScript loaded before the sign-in screen is interactive: every script the browser fetched
 *      until the sign-in button can be used, gzipped size (and the size actually sent: the
 *      service serves precompressed brotli/gzip files). Target: <= 250 KB gzipped.
 *      Measured first, on the empty service (it does not depend on the data). Also checked: the 3D
 *      preview's chunk (three.js, FoldedBox-*.js) is not loaded by the sign-in screen nor by a
 *      screen without a 3D view (the quotes and orders lists), and is loaded by the configurator.
 *      Over budget or a 3D chunk where it should not be: the run reports it and exits with 1.
 *   1c. Configurator route JavaScript (issue 31), in a browser context of its own: the scripts
 *      fetched after sign-in to open a priced brief in the app (shell already loaded), without its
 *      parts loaded on demand (charts, drawings, 3D preview: ON_DEMAND), then those parts; and the
 *      brief opened from its URL in a new tab (shell included). Target (cold, without the parts):
 *      <= 250 KB gzipped, and the selects' code (SelectCode-*.js, fetched when a select is first
 *      used) not among them. Over budget or the selects' code loaded: the run exits with 1.
 *   2. Configurator: from the last keystroke in a quantity to the new price on screen, minus the
 *      debounce (ESTIMATE_DEBOUNCE_MS). Target: p95 < 150 ms. The same estimate called directly
 *      (no browser) is the baseline: what the API itself takes.
 *   3. Orders list with BENCH_ORDERS (1,000,000) orders (bench/web-orders.ts): the first page on
 *      screen, opened from its URL (plain and filtered) and as the next page in the app. Target:
 *      p95 < 300 ms. Baseline: the same GET /api/orders from Node.
 *
 * Environment: DATABASE_URL (default postgres://root@127.0.0.1:5432/test; a scratch database is
 * created next to it and dropped), BENCH_BRIEFS (default 100,000), BENCH_SAMPLES (default 40),
 * CHROMIUM_PATH (default /usr/bin/chromium), BENCH_PARTS=signin (only parts 1, 1b and 1c: no
 * seeding, a minute or two).
 */
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import type { Page, Response } from 'playwright-core';
import { ADMIN, apiCall, launchBrowser, signInApi, startService } from '../test/e2e/browser.ts';
import { ESTIMATE_DEBOUNCE_MS } from '../web/src/features/configurator/debounce.ts';
import { createScratchDatabase } from './lib.ts';
import { explainOrders, measureOrdersList, seedOrders, type Timing } from './web-orders.ts';

const BRIEFS = Number(process.env.BENCH_BRIEFS || 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 40);
const SIGN_IN_ONLY = process.env.BENCH_PARTS === 'signin';
const SIGN_IN_BUDGET = 250 * 1024;
const CONFIGURATOR_BUDGET = 250 * 1024;
/** ui/Select.tsx's chunk: Mantine's Select, loaded when a select is first pointed at or focused. */
const SELECT_CHUNK = /\/SelectCode-[^/]*\.js$/;
/** The 3D preview's lazily loaded chunk (web/src/features/preview3d/BoxPreview.tsx). */
const THREE_CHUNK = /\/FoldedBox-[^/]+\.js$/;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

type Script = { url: string; raw: number; gzip: number; sent: number; encoding: string };
const sum = (list: Script[], key: 'raw' | 'gzip' | 'sent') => list.reduce((s, f) => s + f[key], 0);

/**
 * The configurator's parts loaded on demand (EstimatePanel.tsx; FoldedBox: BoxPreview.tsx). The
 * route's own JavaScript is every other script the page fetched for it (the parts' small shared
 * dependencies included: a slight over-count).
 */
const ON_DEMAND = /\/(EstimateCharts|EstimateDrawings|FoldedBox)-[^/]*\.js$/;

/** Every script the page fetches from now on: `stop()` sizes them (gzip level 6 of the body). */
function collectScripts(page: Page) {
  const scripts: Script[] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const content = await response.body();
        const sizes = await response.request().sizes();
        scripts.push({
          url: new URL(response.url()).pathname,
          raw: content.length,
          gzip: gzipSync(content, { level: 6 }).length,
          sent: sizes.responseBodySize,
          encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
        });
      })(),
    );
  };
  page.on('response', onResponse);
  return {
    stop: async () => {
      page.off('response', onResponse);
      await Promise.all(pending);
      return scripts;
    },
  };
}

/** Waits until the configurator shows a priced brief with its drawings, and the network is quiet. */
async function configuratorShown(page: Page) {
  await page.getByTestId('estimate-total').waitFor({ timeout: 60_000 });
  await page.getByTestId('die-line-0').locator('img').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
}

/**
 * Part 1c: the configurator route's JavaScript. a) In the app: signed in from the sign-in screen,
 * then the brief opened in the same tab by a client-side navigation (the shell is loaded): the
 * scripts fetched for the route, split into the route itself and its on-demand parts. b) Cold:
 * the brief's URL opened in a new tab of the signed-in context (shell included).
 */
async function measureConfiguratorRoute(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  baseUrl: string,
  briefId: string,
) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/app/sign-in`);
    await page.getByLabel('Username or e-mail').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-user').waitFor();
    await page.waitForLoadState('networkidle');
    const afterSignIn = collectScripts(page);
    await page.evaluate((url) => {
      history.pushState(null, '', url);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `/app/briefs/${briefId}`);
    await configuratorShown(page);
    const routeAll = await afterSignIn.stop();
    const cold = await context.newPage();
    const coldScripts = collectScripts(cold);
    await cold.goto(`${baseUrl}/app/briefs/${briefId}`);
    await configuratorShown(cold);
    const coldAll = await coldScripts.stop();
    return {
      route: routeAll.filter((s) => !ON_DEMAND.test(s.url)),
      onDemand: routeAll.filter((s) => ON_DEMAND.test(s.url)),
      coldFirst: coldAll.filter((s) => !ON_DEMAND.test(s.url)),
      coldAll,
    };
  } finally {
    await context.close();
  }
}

const scratch = await createScratchDatabase('bench_web');
const service = await startService({ DATABASE_URL: scratch.url, RUN_WORKERS: 'false' });
const browser = await launchBrowser();
try {
  // --- data: a company, one priced brief, then BRIEFS copies of it (set-based) -----------------
  const token = await signInApi(service.baseUrl, ADMIN.email, ADMIN.password);
  const company = await apiCall(service.baseUrl, token, 'POST', '/api/companies', { name: 'Bench Co' });
  const products = await apiCall(service.baseUrl, token, 'GET', '/api/products');
  const boards = await apiCall(service.baseUrl, token, 'GET', '/api/material-references');
  const ste = products.find((p: { code: string }) => p.code === 'STE');
  const gc1 = boards.find((b: { code: string }) => b.code === 'GC1-350');
  const body = {
    companyId: company.id,
    briefElements: [
      {
        position: 0,
        productId: ste.id,
        materialReferenceId: gc1.id,
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
      },
    ],
  };
  const template = await apiCall(service.baseUrl, token, 'POST', '/api/briefs', {
    ...body,
    name: 'Template',
  });
  // --- 1. JavaScript before the sign-in screen is interactive -----------------------------------
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const scripts: { url: string; raw: number; gzip: number; sent: number; encoding: string }[] = [];
  const pending: Promise<void>[] = [];
  let measuring = true;
  page.on('response', (response) => {
    if (!measuring || response.request().resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const content = await response.body();
        const sizes = await response.request().sizes();
        scripts.push({
          url: new URL(response.url()).pathname,
          raw: content.length,
          gzip: gzipSync(content, { level: 6 }).length,
          sent: sizes.responseBodySize,
          encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
        });
      })(),
    );
  });
  const loadStarted = performance.now();
  await page.goto(`${service.baseUrl}/app/sign-in`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
  const interactiveMs = performance.now() - loadStarted;
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  measuring = false;
  const failures: string[] = [];
  const jsGzip = scripts.reduce((s, f) => s + f.gzip, 0);
  const jsSent = scripts.reduce((s, f) => s + f.sent, 0);
  const jsRaw = scripts.reduce((s, f) => s + f.raw, 0);

  if (jsGzip > SIGN_IN_BUDGET)
    failures.push(`sign-in JavaScript ${kb(jsGzip)} gzipped is over the ${kb(SIGN_IN_BUDGET)} budget`);
  if (scripts.some((s) => THREE_CHUNK.test(s.url))) failures.push('the sign-in screen loaded the 3D chunk');

  // --- 1b. the 3D chunk only where a 3D view is shown ---------------------------------------------
  const loaded: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') loaded.push(new URL(request.url()).pathname);
  });
  await page.getByLabel('Username or e-mail').fill(ADMIN.email);
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in-user').waitFor();
  const threeChunk: Record<string, boolean> = {};
  for (const path of ['/app/quotes', '/app/orders']) {
    await page.goto(`${service.baseUrl}${path}`);
    await page.getByTestId('signed-in-user').waitFor();
    await page.waitForLoadState('networkidle');
    threeChunk[path] = loaded.some((u) => THREE_CHUNK.test(u));
    if (threeChunk[path]) failures.push(`${path} loaded the 3D chunk`);
  }
  await page.goto(`${service.baseUrl}/app/briefs/${template.id}`);
  await page.getByTestId('box-3d-0-canvas').waitFor({ timeout: 60_000 });
  threeChunk[`/app/briefs/{id} (configurator)`] = loaded.some((u) => THREE_CHUNK.test(u));
  if (!threeChunk['/app/briefs/{id} (configurator)'])
    failures.push('the configurator did not load the 3D chunk');
  const threeFile = loaded.find((u) => THREE_CHUNK.test(u));
  const threeGzip = threeFile
    ? gzipSync(Buffer.from(await (await fetch(`${service.baseUrl}${threeFile}`)).arrayBuffer()), { level: 6 })
        .length
    : 0;
  const signInReport = [
    `| JS before the sign-in screen is interactive, gzipped | **${kb(jsGzip)}** in ${scripts.length} files (${kb(jsRaw)} raw; ${kb(jsSent)} sent, ${[...new Set(scripts.map((s) => s.encoding))].join('/')}) | <= 250 KB |`,
    `| sign-in screen interactive after navigation (local) | ${ms(interactiveMs)} | — |`,
    `| 3D chunk (\`${threeFile ?? 'FoldedBox-*.js'}\`, ${kb(threeGzip)} gzipped) loaded by | sign-in ${scripts.some((s) => THREE_CHUNK.test(s.url)) ? 'yes' : 'no'}, ${Object.entries(
      threeChunk,
    )
      .map(([path, yes]) => `${path} ${yes ? 'yes' : 'no'}`)
      .join(', ')} | only the screens that show it (the configurator) |`,
  ];

  // --- 1c. configurator route JavaScript (issue 31) ---------------------------------------------
  const configurator = await measureConfiguratorRoute(browser, service.baseUrl, template.id);
  signInReport.push(
    `| configurator route after sign-in (in the app), gzipped: without its on-demand parts (form, price, operations) | **${kb(sum(configurator.route, 'gzip'))}** in ${configurator.route.length} files (${kb(sum(configurator.route, 'raw'))} raw) | — |`,
    `| configurator route after sign-in: its on-demand parts (charts, drawings, 3D preview), gzipped | ${kb(sum(configurator.onDemand, 'gzip'))} in ${configurator.onDemand.length} files | — |`,
    `| configurator opened from its URL (shell included), gzipped: without its on-demand parts / everything | **${kb(sum(configurator.coldFirst, 'gzip'))}** in ${configurator.coldFirst.length} files / ${kb(sum(configurator.coldAll, 'gzip'))} in ${configurator.coldAll.length} files | <= 250 KB |`,
  );
  const configuratorGzip = sum(configurator.coldFirst, 'gzip');
  if (configuratorGzip > CONFIGURATOR_BUDGET)
    failures.push(
      `configurator opened from its URL: ${kb(configuratorGzip)} gzipped is over the ${kb(CONFIGURATOR_BUDGET)} budget`,
    );
  if (configurator.coldAll.some((s) => SELECT_CHUNK.test(s.url)))
    failures.push('the configurator loaded the selects’ code before any select was used');
  const scriptList = [
    'Scripts before sign-in:',
    '',
    ...scripts.map((s) => `- \`${s.url}\`: ${kb(s.gzip)} gzipped (${kb(s.raw)} raw)`),
    '',
    'Configurator route after sign-in, without its on-demand parts:',
    '',
    ...configurator.route.map((s) => `- \`${s.url}\`: ${kb(s.gzip)} gzipped (${kb(s.raw)} raw)`),
    '',
    'Configurator route, its on-demand parts:',
    '',
    ...configurator.onDemand.map((s) => `- \`${s.url}\`: ${kb(s.gzip)} gzipped (${kb(s.raw)} raw)`),
    '',
    'Configurator opened from its URL, without its on-demand parts (largest first):',
    '',
    ...[...configurator.coldFirst]
      .sort((a, b) => b.gzip - a.gzip)
      .map((s) => `- \`${s.url}\`: ${kb(s.gzip)} gzipped (${kb(s.raw)} raw)`),
  ];
  if (SIGN_IN_ONLY) {
    console.log(
      [
        `### Web app, sign-in, 3D chunk and configurator route JavaScript (bench/web.ts, BENCH_PARTS=signin) — ${new Date().toISOString().slice(0, 10)}`,
        '',
        '| measure | result | target |',
        '|---|---|---|',
        ...signInReport,
        '',
        ...scriptList,
        '',
        ...failures.map((f) => `FAILED: ${f}`),
      ].join('\n'),
    );
    process.exitCode = failures.length ? 1 : 0;
  }
  if (!SIGN_IN_ONLY) {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const seedStarted = performance.now();
    const { rows: columns } = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'briefs' order by ordinal_position`,
    );
    const overrides: Record<string, string> = {
      id: 'gen_random_uuid()',
      code: `'B-' || lpad((b.code_number + g)::text, 7, '0')`,
      code_number: 'b.code_number + g',
      name: `'Brief ' || g`,
      current_prediction_id: 'null',
      current_version: 'null',
      has_price: 'false',
      created_at: `now() - (g || ' minutes')::interval`,
      updated_at: `now() - (g || ' minutes')::interval`,
    };
    const names = columns.map((c) => `"${c.column_name}"`).join(', ');
    const values = columns.map((c) => overrides[c.column_name] ?? `b."${c.column_name}"`).join(', ');
    await client.query(
      `insert into briefs (${names}) select ${values} from briefs b cross join generate_series(1, $2::int) g where b.id = $1`,
      [template.id, BRIEFS],
    );
    await client.query('vacuum analyze briefs');
    const { rows: counted } = await client.query<{ n: number }>('select count(*)::int n from briefs');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const orders = await seedOrders(client, service.baseUrl, token);
    const me = await apiCall(service.baseUrl, token, 'GET', '/api/users/me');
    const plans = await explainOrders(client, me.organisationId, orders.statusId, orders.companyId);
    await client.end();

    // --- 2. configurator: last keystroke -> new price ---------------------------------------------
    await page.getByTestId('estimate-total').waitFor();
    const quantity = page.getByTestId('quantity-0-0');
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES + 3; i++) {
      await page.evaluate(() => {
        const w = window as unknown as { bench: { lastInput: number; priceAt: number; price: string } };
        const total = document.querySelector('[data-testid="estimate-total"]')!;
        w.bench = { lastInput: 0, priceAt: 0, price: total.textContent ?? '' };
        const input = document.querySelector('[data-testid="quantity-0-0"]')!;
        input.addEventListener('input', () => (w.bench.lastInput = performance.now()));
        new MutationObserver(() => {
          const shown = document.querySelector('[data-testid="estimate-total"]')?.textContent ?? '';
          if (shown !== w.bench.price && !w.bench.priceAt) w.bench.priceAt = performance.now();
        }).observe(document.querySelector('main')!, { subtree: true, childList: true, characterData: true });
      });
      await quantity.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type(String(6000 + i * 137), { delay: 30 });
      const result = await page
        .waitForFunction(
          () => {
            const w = window as unknown as { bench: { lastInput: number; priceAt: number } };
            return w.bench.priceAt ? w.bench.priceAt - w.bench.lastInput : null;
          },
          undefined,
          { timeout: 10_000 },
        )
        .then((handle) => handle.jsonValue() as Promise<number>);
      if (i >= 3) samples.push(result - ESTIMATE_DEBOUNCE_MS); // the first ones warm caches up
    }

    // Baseline: the estimate call alone (same body), from Node.
    const direct: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const b = structuredClone(body);
      b.briefElements[0]!.decorationsCount[0]!.quantity = 6000 + i * 137;
      const t0 = performance.now();
      await apiCall(service.baseUrl, token, 'POST', '/api/briefs/estimate', b);
      direct.push(performance.now() - t0);
    }

    // --- 3. orders list ---------------------------------------------------------------------------
    const list = await measureOrdersList(browser, service.baseUrl, token, orders, SAMPLES);
    const row = (label: string, t: Timing, target = '—') =>
      `| ${label}, p50 / p95 / max (${t.n}) | ${ms(t.p50)} / **${ms(t.p95)}** / ${ms(t.max)} | ${target} |`;

    const report = [
      `### Web app (bench/web.ts) — ${new Date().toISOString().slice(0, 10)}`,
      '',
      `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB; Node ${process.version}; Chromium (Debian), headless; the built service (\`npm run build\`) on PostgreSQL with ${counted[0]!.n.toLocaleString('en')} briefs (seeded in ${seedSeconds.toFixed(1)} s).`,
      '',
      '| measure | result | target |',
      '|---|---|---|',
      ...signInReport,
      `| configurator: last keystroke -> new price, after the ${ESTIMATE_DEBOUNCE_MS} ms debounce, p50 / p95 / max (${samples.length} edits) | ${ms(percentile(samples, 50))} / **${ms(percentile(samples, 95))}** / ${ms(Math.max(...samples))} | p95 < 150 ms |`,
      `| baseline: POST /api/briefs/estimate alone, p50 / p95 | ${ms(percentile(direct, 50))} / ${ms(percentile(direct, 95))} | — |`,
      row(
        `orders list (${orders.count.toLocaleString('en')} orders): "Orders" clicked in the menu -> first row on screen`,
        list.menu,
        'p95 < 300 ms',
      ),
      row(
        'orders list opened from its URL (app boot + session refresh included), navigation -> first row',
        list.plain,
      ),
      row('orders list filtered by status + company, opened from its URL (same)', list.filtered),
      row('orders list: next page in the app, click -> new first row', list.next, 'p95 < 300 ms'),
      row('baseline: GET /api/orders?page=1&limit=25 alone (Node)', list.apiPlain),
      row('baseline: the filtered GET /api/orders alone (Node)', list.apiFiltered),
      '',
      `Orders seeded in ${orders.seconds.toFixed(1)} s (one INSERT ... generate_series, then VACUUM ANALYZE).`,
      '',
      ...Object.entries(plans).flatMap(([name, plan]) => [
        `EXPLAIN ANALYZE, ${name}:`,
        '',
        '```',
        plan,
        '```',
        '',
      ]),
      '',
      ...scriptList,
      '',
      ...failures.map((f) => `FAILED: ${f}`),
    ].join('\n');
    console.log(`\n${report}\n`);
    process.exitCode = failures.length ? 1 : 0;
  }
} finally {
  await browser.close();
  await service.stop();
  await scratch.drop();
}
