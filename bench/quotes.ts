/**
 * npm run bench:quotes — publishing a 50-item quote and rendering its PDF, against a one-line
 * PDF in the same fonts measured in the same run (the cost of pdfkit itself).
 *
 * Workload: a quote of 4 briefs of 4 elements each (4 parent items + 16 element items, each with
 * its die-line) and 30 article lines = 50 items, on PostgreSQL. Per run, on a fresh draft:
 *
 *   publish        PUT /api/quotes/:id {state: published} (reprices nothing: all items are valid;
 *                  checks, code allocation under the counter lock, events)
 *   generate-pdf   POST /api/quotes/:id/generate-pdf {localisationId: fr}: loads the quote, its
 *                  items and die-lines, renders the PDF, stores it (file + bytes + events)
 *   render only    renderQuotePdf of the same data in process (no database)
 *   baseline       renderOneLinePdf: a one-line PDF in the same embedded fonts
 *
 * Requests go through app.inject (the full Fastify stack, no sockets). It creates a scratch
 * database next to DATABASE_URL (default postgres://root@127.0.0.1:5432/test) and drops it.
 *
 * Environment: DATABASE_URL, BENCH_RUNS (default 30), BENCH_WARMUP (default 3).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { articles } from '../src/db/schema/orders.ts';
import { companies } from '../src/db/schema/platform.ts';
import { loadCatalogue } from '../src/modules/catalogue/loader.ts';
import { organisationsModule } from '../src/modules/organisations/module.ts';
import { languageOf } from '../src/modules/quotes/i18n.ts';
import { renderQuotePdf } from '../src/modules/quotes/pdf.ts';
import {
  bytesOf,
  createDocument,
  FONT,
  INK,
  MARGIN,
  type RenderOptions,
} from '../src/modules/quotes/pdf-document.ts';
import { pdfDataOf } from '../src/modules/quotes/pdf-service.ts';
import { findQuoteWithRefs } from '../src/modules/quotes/repository.ts';
import { extractPdfText } from '../test/helpers/pdf-text.ts';
import { createScratchDatabase } from './lib.ts';

/** A one-line document in the quote PDF's fonts: the baseline the quote PDF is measured against. */
async function renderOneLinePdf(text: string, options: RenderOptions = {}) {
  const doc = await createDocument(options);
  const bytes = bytesOf(doc);
  doc.font(FONT).fontSize(10).fillColor(INK).text(text, MARGIN, MARGIN);
  doc.end();
  return bytes;
}

const RUNS = Number(process.env.BENCH_RUNS || 30);
const WARMUP = Number(process.env.BENCH_WARMUP || 3);
const JWT_SECRET = 'bench-quotes-secret-bench-quotes-secret-0123456789';

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), min: sorted[0]!, max: sorted.at(-1)! };
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main() {
  const scratch = await createScratchDatabase('bench_quotes');
  try {
    const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 10 });
    await runMigrations(database);
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      JWT_SECRET,
      ADMIN_EMAIL: 'root@bench.local',
      ADMIN_PASSWORD: 'bench-password',
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp({ config, database, logger: false, runWorkers: false });
    await organisationsModule.services(app.ctx).organisations.bootstrap();
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: 'root@bench.local', password: 'bench-password' },
    });
    const { token } = signIn.json() as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const me = (await app.inject({ method: 'GET', url: '/api/users/me', headers })).json() as {
      organisationId: string;
    };
    const org = me.organisationId;
    const call = async (method: 'POST' | 'PUT', url: string, payload: object, expected: number) => {
      const response = await app.inject({ method, url, headers, payload });
      if (response.statusCode !== expected)
        throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response;
    };

    const [company] = await app.ctx.db
      .insert(companies)
      .values({ organisationId: org, name: 'Bench Packaging SA' })
      .returning();
    const companyId = company!.id;
    const catalogue = await loadCatalogue(app.ctx.db, org);
    const id = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;
    const element = (position: number, overrides: Record<string, unknown> = {}) => ({
      position,
      productId: id(catalogue.products, 'STE'),
      lengthDimension: 120 + position * 10,
      widthDimension: 40,
      heightDimension: 180,
      materialReferenceId: id(catalogue.materialReferences, 'GC1-350'),
      decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
      wantDecoration: true,
      sidePrinted: 'RECTO',
      rectoColorCount: 4,
      versoColorCount: 0,
      ...overrides,
    });
    const briefIds: string[] = [];
    for (let b = 0; b < 4; b++) {
      const created = await call(
        'POST',
        '/api/briefs',
        {
          name: `Range ${b + 1}`,
          companyId,
          briefElements: [
            element(0),
            element(1, {
              productId: id(catalogue.products, 'CLB'),
              wantWindow: true,
              windowWidth: 40,
              windowHeight: 60,
            }),
            element(2, { wantVarnishRecto: true }),
            element(3, {
              productId: id(catalogue.products, '0201'),
              lengthDimension: 300,
              widthDimension: 200,
              heightDimension: 150,
              materialReferenceId: id(catalogue.materialReferences, 'CORR-B-KK'),
              decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
              rectoColorCount: 1,
            }),
          ],
        },
        201,
      );
      briefIds.push((created.json() as { id: string }).id);
    }
    const articleRows = await app.ctx.db
      .insert(articles)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          organisationId: org,
          companyId,
          name: `Accessory ${i + 1}`,
          code: `ACC-${i + 1}`,
          description: i % 3 === 0 ? 'Kraft paper, 80 g/m²' : null,
          price: 0.05 + i * 0.1,
        })),
      )
      .returning({ id: articles.id });
    const body = {
      name: 'Spring range',
      companyId,
      validUntil: '2099-12-31',
      briefIds,
      items: articleRows.map((a, i) => ({ articleId: a.id, quantity: 100 * (i + 1) })),
    };

    const total = WARMUP + RUNS;
    console.log(`creating ${total} drafts of 50 items...`);
    const drafts: string[] = [];
    const createTimes: number[] = [];
    for (let i = 0; i < total; i++) {
      const t0 = performance.now();
      const response = await call('POST', '/api/quotes', body, 201);
      createTimes.push(performance.now() - t0);
      const quote = response.json() as { id: string; items: { children: unknown[] }[] };
      const count = quote.items.reduce((n, item) => n + 1 + item.children.length, 0);
      if (count !== 50) throw new Error(`expected 50 items, got ${count}`);
      drafts.push(quote.id);
    }

    const publish: number[] = [];
    const generate: number[] = [];
    const both: number[] = [];
    const render: number[] = [];
    const baseline: number[] = [];
    let pages = 0;
    let bytes = 0;
    for (let i = 0; i < total; i++) {
      const quoteId = drafts[i]!;
      const t0 = performance.now();
      await call('PUT', `/api/quotes/${quoteId}`, { state: 'published' }, 200);
      const t1 = performance.now();
      const pdf = await call('POST', `/api/quotes/${quoteId}/generate-pdf`, { localisationId: 'fr' }, 201);
      const t2 = performance.now();
      const data = await pdfDataOf(app.ctx.db, (await findQuoteWithRefs(app.ctx.db, org, quoteId))!);
      const t3 = performance.now();
      await renderQuotePdf(data, languageOf('fr')!);
      const t4 = performance.now();
      await renderOneLinePdf(`Quote ${i + 1}: one line in the same fonts, 1 234,56 €`);
      const t5 = performance.now();
      if (i < WARMUP) continue;
      publish.push(t1 - t0);
      generate.push(t2 - t1);
      both.push(t2 - t0);
      render.push(t4 - t3);
      baseline.push(t5 - t4);
      if (i === total - 1) {
        bytes = pdf.rawPayload.length;
        const text = extractPdfText(pdf.rawPayload);
        pages = Number(/Page 1 sur (\d+)/.exec(text.replace(/\s+/g, ' '))?.[1] ?? 0);
      }
    }
    await app.close();
    await database.close();

    const rows: [string, number[]][] = [
      ['baseline: one-line PDF, same fonts (in process)', baseline],
      ['render only: renderQuotePdf, 50 items (in process)', render],
      ['PUT /api/quotes/:id {state: published}', publish],
      ['POST /api/quotes/:id/generate-pdf (load + render + store)', generate],
      ['publish + generate-pdf', both],
    ];
    const { rows: version } = await (async () => {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: scratch.url });
      await client.connect();
      const result = await client.query<{ v: string }>(
        `select split_part(version(), ' ', 1) || ' ' || split_part(version(), ' ', 2) v`,
      );
      await client.end();
      return result;
    })();
    const cpu = cpus();
    console.log('');
    console.log(
      `Date ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model.trim()}),`,
    );
    console.log(
      `${Math.round(totalmem() / 2 ** 30)} GB, ${version[0]!.v}, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end.`,
    );
    console.log(
      `Runs: ${RUNS} timed after ${WARMUP} warm-up. The PDF: ${pages} pages, ${(bytes / 1024).toFixed(0)} KiB.`,
    );
    console.log(
      `Draft creation (POST /api/quotes, 50 items, not part of the target): median ${ms(stats(createTimes).median)}.`,
    );
    console.log('');
    console.log('| case | median | p95 | min | max |');
    console.log('|---|---|---|---|---|');
    for (const [label, values] of rows) {
      const s = stats(values);
      console.log(`| ${label} | ${ms(s.median)} | ${ms(s.p95)} | ${ms(s.min)} | ${ms(s.max)} |`);
    }
    const over = stats(render).median - stats(baseline).median;
    console.log('');
    console.log(`Rendering cost above the one-line baseline: ${ms(over)} (median).`);
  } finally {
    await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
