/**
 * The orders part of `npm run bench:web`: 1,000,000 orders seeded with set-based SQL
 * (generate_series, one INSERT), then the first page of the orders list measured in Chromium:
 *
 *   - in the app: "Orders" clicked in the menu (a freshly loaded app, so nothing is cached but the
 *     page's chunk) until the first row is on screen: the page's chunk, the list, the statuses and
 *     the page's company names. This is the measure of the target;
 *   - opening /app/orders from its URL (a bookmark or a reload: the whole app boots, the session is
 *     refreshed from its cookie, then as above), from the navigation's start (performance.now() in
 *     the page);
 *   - the same with the status and company filters in the URL;
 *   - in the app, "next page": from the click to the new first row on screen.
 *
 * Baseline in the same run: GET /api/orders (same query) called directly from Node.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { Browser } from 'playwright-core';
import { ADMIN, apiCall } from '../test/e2e/browser.ts';

export const ORDERS = Number(process.env.BENCH_ORDERS || 1_000_000);
const COMPANIES = 20;

/** Seeds ORDERS orders of the admin's organisation over COMPANIES companies and its order statuses. */
export async function seedOrders(client: pg.Client, baseUrl: string, token: string) {
  const me = await apiCall(baseUrl, token, 'GET', '/api/users/me');
  const companies: string[] = [];
  for (let i = 1; i <= COMPANIES; i++)
    companies.push((await apiCall(baseUrl, token, 'POST', '/api/companies', { name: `Buyer ${i}` })).id);
  const statuses: { id: string; internalLabel: string }[] = await apiCall(
    baseUrl,
    token,
    'GET',
    '/api/statuses/entity?entity=order',
  );
  const started = performance.now();
  // One order a minute back from now; companies in rotation, statuses in rotation over blocks of
  // COMPANIES orders (so every company has orders of every status); a third with a
  // tracking id.
  await client.query(
    `insert into orders (id, organisation_id, company_id, status_id, external_id, billed_amount, order_date,
       expected_delivery_date, tracking_id, created_by_id, created_at, updated_at)
     select gen_random_uuid(), $1, ($2::uuid[])[1 + g % cardinality($2::uuid[])],
       ($3::uuid[])[1 + (g / ${COMPANIES}) % cardinality($3::uuid[])], 'ERP-' || g,
       round((20 + random() * 20000)::numeric, 2)::float8, ts - interval '6 hours',
       ts + (7 + g % 21) * interval '1 day', case when g % 3 = 0 then 'TRK' || g end, $4, ts, ts
     from (select g, now() - g * interval '1 minute' ts from generate_series(1, $5::int) g) x`,
    [me.organisationId, companies, statuses.map((s) => s.id), me.id, ORDERS],
  );
  await client.query('vacuum analyze orders');
  const { rows } = await client.query<{ n: number }>('select count(*)::int n from orders');
  return {
    count: rows[0]!.n,
    seconds: (performance.now() - started) / 1000,
    companyId: companies[0]!,
    statusId: statuses.find((s) => s.internalLabel === 'Processing')?.id ?? statuses[0]!.id,
  };
}

/** EXPLAIN ANALYZE of the list's two steps as the repository runs them (page ids, then count). */
export async function explainOrders(
  client: pg.Client,
  organisationId: string,
  statusId: string,
  companyId: string,
) {
  const plans: Record<string, string> = {};
  const run = async (name: string, sql: string, params: unknown[]) => {
    const { rows } = await client.query(`explain (analyze, buffers) ${sql}`, params);
    plans[name] = rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  const live = 'organisation_id = $1 and deleted_at is null';
  await run(
    'first page, no filter',
    `select id from orders where ${live} order by created_at desc, id desc limit 26`,
    [organisationId],
  );
  await run(
    'count, no filter (capped at 10,001)',
    `select count(*) from (select 1 from orders where ${live} limit 10001) c`,
    [organisationId],
  );
  await run(
    'first page, company + status',
    `select id from orders where ${live} and company_id = $2 and status_id = any($3::uuid[]) order by created_at desc, id desc limit 26`,
    [organisationId, companyId, [statusId]],
  );
  return plans;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export type Timing = { p50: number; p95: number; max: number; n: number };
const timing = (values: number[]): Timing => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  max: Math.max(...values),
  n: values.length,
});

/** The orders list in Chromium (see the header), SAMPLES of each after 3 warm-ups. */
export async function measureOrdersList(
  browser: Browser,
  baseUrl: string,
  token: string,
  filters: { statusId: string; companyId: string },
  samples: number,
) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // Before any script of the page: note when the first row of the orders table appears.
  await context.addInitScript(() => {
    const w = window as unknown as { firstRowAt: number };
    w.firstRowAt = 0;
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="orders-table"] tbody tr')) {
        w.firstRowAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { subtree: true, childList: true });
  });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/app/sign-in`);
  await page.getByLabel('Username or e-mail').fill(ADMIN.email);
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in-user').waitFor();

  const open = async (search: string) => {
    const values: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      await page.goto(`${baseUrl}/app/orders${search}`);
      const at = await page
        .waitForFunction(() => (window as unknown as { firstRowAt: number }).firstRowAt || null, undefined, {
          timeout: 20_000,
        })
        .then((h) => h.jsonValue() as Promise<number>);
      if (i >= 3) values.push(at);
    }
    return timing(values);
  };
  // In the app: Orders clicked in the menu of a freshly loaded app (empty query cache; the page's
  // chunk comes from the browser cache, as for anyone who has used the app before).
  const menu: number[] = [];
  for (let i = 0; i < samples + 3; i++) {
    await page.goto(`${baseUrl}/app/quotes`);
    await page.waitForLoadState('networkidle');
    const clickedAt = await page.evaluate(() => {
      const at = performance.now();
      (document.querySelector('nav a[href="/app/orders"]') as HTMLAnchorElement).click();
      return at;
    });
    const at = await page
      .waitForFunction(() => (window as unknown as { firstRowAt: number }).firstRowAt || null, undefined, {
        timeout: 20_000,
      })
      .then((h) => h.jsonValue() as Promise<number>);
    if (i >= 3) menu.push(at - clickedAt);
  }
  const plain = await open('');
  const filtered = await open(`?statusId=${filters.statusId}&companyId=${filters.companyId}`);

  // In the app: the next page, from the click to its first row on screen.
  await page.goto(`${baseUrl}/app/orders`);
  await page.getByTestId('orders-table').waitFor();
  const next: number[] = [];
  for (let i = 0; i < samples + 3; i++) {
    const took = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          // No named inner functions here: the bundler would wrap them in a helper the page lacks.
          const rows = '[data-testid="orders-table"] tbody tr a';
          const before = document.querySelector(rows)?.textContent;
          const started = performance.now();
          const observer = new MutationObserver(() => {
            const shown = document.querySelector(rows)?.textContent;
            if (shown && shown !== before) {
              observer.disconnect();
              resolve(performance.now() - started);
            }
          });
          observer.observe(document.querySelector('main')!, {
            subtree: true,
            childList: true,
            characterData: true,
          });
          (document.querySelector('button[aria-label="Next"]') as HTMLButtonElement).click();
        }),
    );
    if (i >= 3) next.push(took);
  }
  await context.close();

  // Baseline: the same list calls straight to the API.
  const direct = async (query: string) => {
    const values: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      const t0 = performance.now();
      await apiCall(baseUrl, token, 'GET', `/api/orders?page=1&limit=25${query}`);
      if (i >= 3) values.push(performance.now() - t0);
    }
    return timing(values);
  };
  return {
    menu: timing(menu),
    plain,
    filtered,
    next: timing(next),
    apiPlain: await direct(''),
    apiFiltered: await direct(`&statusId=${filters.statusId}&companyId=${filters.companyId}`),
  };
}
