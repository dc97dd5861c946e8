import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articles,
  companies,
  companyUsers,
  events,
  files,
  organisations,
  quotes,
} from '../../src/db/schema/index.ts';
import { SUPPORTED_LANGUAGES } from '../../src/modules/quotes/i18n.ts';
import { quotesModule } from '../../src/modules/quotes/module.ts';
import { PDF_JOB, type PdfJobData } from '../../src/modules/quotes/pdf-service.ts';
import {
  auth,
  buildPeerApp,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

// Stored quote PDFs (issue 31): a published quote's PDF per language is rendered once (by the
// publish job or the first request, single-flight), stored as a file, served with its ETag (304 on
// If-None-Match), rendered again only when the quote or its template changes; drafts' previews go
// through a bounded pool (here of size 1 and no queue: the second preview at once answers 429).

let t: TestApp;
const http = requests(() => t);
let admin: Credentials;
let contact: Credentials;
let companyId: string;
let articleId: string;

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Credentials = admin, extra = {}) =>
  http.send(method, who, url, undefined, extra);

async function publishedQuote(publish = true): Promise<{ id: string; code: string }> {
  const created = await http.post(admin, '/api/quotes', {
    companyId,
    name: 'Labels',
    items: [{ articleId, quantity: 100 }],
  });
  expect(created.statusCode, created.body).toBe(201);
  if (!publish) return created.json();
  const published = await http.put(admin, `/api/quotes/${created.json().id}`, { state: 'published' });
  expect(published.statusCode, published.body).toBe(200);
  return published.json();
}

/** The live stored PDFs of a quote, by language. */
const storedPdfs = (quoteId: string) =>
  t.app.ctx.db
    .select({ id: files.id, label: files.label, sha256: files.sha256, renderKey: files.renderKey })
    .from(files)
    .where(and(eq(files.entity, 'quote'), eq(files.entityId, quoteId), isNull(files.deletedAt)));

/** The FILE creations recorded for a quote: one per rendering stored. */
const fileCreations = (quoteId: string) =>
  t.app.ctx.db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.entity, 'FILE'), eq(events.type, 'CREATE'), eq(events.relationId, quoteId)));

beforeAll(async () => {
  t = await buildTestApp({ config: { pdfRender: { concurrency: 1, queue: 0 } } });
  admin = await makeOrganisation(t, 'Stored PDFs Ltd');
  contact = await makeUser(t, admin, 'contact');
  const db = t.app.ctx.db;
  const [company] = await db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Buyer GmbH' })
    .returning();
  companyId = company!.id;
  await db
    .insert(companyUsers)
    .values({ companyId, userId: contact.userId, organisationId: admin.organisationId });
  const [article] = await db
    .insert(articles)
    .values({ organisationId: admin.organisationId, companyId, name: 'Label', code: 'L-1', price: 0.5 })
    .returning();
  articleId = article!.id;
});
afterAll(() => t.close());

describe('stored quote PDFs', () => {
  it('publishing queues a job that stores the PDF in every language, without anyone asking for it', async () => {
    const quote = await publishedQuote();
    expect(await storedPdfs(quote.id)).toEqual([]);
    // Workers are off in tests: take the queued job and run its handler as the worker would.
    const jobs = await t.app.ctx.jobs.boss.fetch<PdfJobData>(PDF_JOB, { batchSize: 10 });
    const mine = jobs.filter((job) => job.data.quoteId === quote.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.data).toEqual({
      organisationId: admin.organisationId,
      quoteId: quote.id,
      userId: admin.userId,
    });
    for (const job of mine) await quotesModule.services(t.app.ctx).pdfs.storeAfterPublish(job.data);

    const stored = await storedPdfs(quote.id);
    expect(stored.map((f) => f.label).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    for (const file of stored) expect(file.renderKey).toMatch(new RegExp(`/${file.label}/template@`));

    // Read from store: the same file, its tag, nothing rendered again.
    const fr = stored.find((f) => f.label === 'fr')!;
    const download = await inject('GET', `/api/quotes/${quote.id}/localisation/fr`, contact);
    expect(download.statusCode).toBe(200);
    expect(download.headers.etag).toBe(`"${fr.sha256}"`);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await fileCreations(quote.id)).toHaveLength(SUPPORTED_LANGUAGES.length);
    // The job run again (a retry) renders nothing.
    await quotesModule.services(t.app.ctx).pdfs.storeAfterPublish(mine[0]!.data);
    expect(await fileCreations(quote.id)).toHaveLength(SUPPORTED_LANGUAGES.length);
  });

  it('renders once for two concurrent first requests', async () => {
    const quote = await publishedQuote();
    const [a, b] = await Promise.all([
      inject('GET', `/api/quotes/${quote.id}/localisation/en`),
      inject('GET', `/api/quotes/${quote.id}/localisation/en`, contact),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    const stored = await storedPdfs(quote.id);
    expect(stored).toHaveLength(1);
    expect(`"${stored[0]!.sha256}"`).toBe(a.headers.etag);
    expect(await fileCreations(quote.id)).toHaveLength(1);
  });

  it('renders once across two nodes asking at the same time (PostgreSQL)', async (context) => {
    if (!t.databaseUrl) return context.skip();
    const peer = await buildPeerApp(t);
    try {
      const quote = await publishedQuote();
      const url = `/api/quotes/${quote.id}/localisation/fr`;
      const [a, b] = await Promise.all([
        inject('GET', url),
        peer.app.inject({ method: 'GET', url, headers: auth(admin) }),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.headers.etag).toBe(b.headers.etag);
      expect(await storedPdfs(quote.id)).toHaveLength(1);
      expect(await fileCreations(quote.id)).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });

  it('answers 304 to If-None-Match with its tag (weak or strong), 200 to another', async () => {
    const quote = await publishedQuote();
    const url = `/api/quotes/${quote.id}/localisation/en`;
    const first = await inject('GET', url);
    const etag = String(first.headers.etag);
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await inject('GET', url, admin, { 'if-none-match': tag });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    const other = await inject('GET', url, admin, { 'if-none-match': '"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.equals(first.rawPayload)).toBe(true);
    // The guest link serves the same stored file with the same tag.
    const link = await http.post(admin, `/api/quotes/${quote.id}/guest-links`, { localisationId: 'en' });
    expect(link.statusCode, link.body).toBe(201);
    const path = new URL(link.json().url).pathname;
    const guest = await http.get(null, path, { 'if-none-match': etag });
    expect(guest.statusCode).toBe(304);
    expect((await http.get(null, path)).headers.etag).toBe(etag);
  });

  it('is never compressed, whatever the client accepts', async () => {
    const quote = await publishedQuote();
    const response = await inject('GET', `/api/quotes/${quote.id}/localisation/en`, admin, {
      'accept-encoding': 'br, gzip',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
  });

  it('renders again only when the template (the organisation) changes', async () => {
    const quote = await publishedQuote();
    const url = `/api/quotes/${quote.id}/localisation/en`;
    await inject('GET', url);
    const [before] = await storedPdfs(quote.id);
    await inject('GET', url);
    expect((await storedPdfs(quote.id))[0]!.id).toBe(before!.id);
    await t.app.ctx.db
      .update(organisations)
      .set({ updatedAt: new Date(Date.now() + 1000) })
      .where(eq(organisations.id, admin.organisationId));
    const after = await inject('GET', url);
    expect(after.statusCode).toBe(200);
    const stored = await storedPdfs(quote.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id).not.toBe(before!.id);
    expect(stored[0]!.renderKey).not.toBe(before!.renderKey);
  });
});

describe('the download of a stored PDF (one statement when current)', () => {
  it('answers only who may read the quote, and expires a quote past its validity first', async () => {
    const quote = await publishedQuote();
    const url = `/api/quotes/${quote.id}/localisation/en`;
    expect((await inject('GET', url)).statusCode).toBe(200);
    // Stored now: the next reads take the one-statement path, which must decide as the full one.
    const stranger = await makeUser(t, admin, 'contact');
    expect((await inject('GET', url, stranger)).statusCode).toBe(404);
    const otherTenant = await makeOrganisation(t, 'Other tenant');
    expect((await inject('GET', url, otherTenant)).statusCode).toBe(404);
    expect((await inject('GET', url, contact)).statusCode).toBe(200);

    await t.app.ctx.db
      .update(quotes)
      .set({ validUntil: new Date(Date.now() - 60_000) })
      .where(eq(quotes.id, quote.id));
    const expired = await inject('GET', url, contact);
    expect(expired.statusCode).toBe(200);
    const [row] = await t.app.ctx.db
      .select({ state: quotes.state })
      .from(quotes)
      .where(eq(quotes.id, quote.id));
    expect(row!.state).toBe('expired');
    // An expired quote keeps the PDF it has, served from store.
    expect((await inject('GET', url, contact)).headers.etag).toBe(expired.headers.etag);
  });
});

describe('previews of drafts', () => {
  it('renders a draft without storing it, and answers 429 with Retry-After when the pool is full', async () => {
    const draft = await publishedQuote(false);
    const url = `/api/quotes/${draft.id}/preview/en`;
    const ok = await inject('GET', url);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await storedPdfs(draft.id)).toEqual([]);

    // Hold the pool's only slot (size 1, no queue): the next preview is refused at once.
    const pool = quotesModule.services(t.app.ctx).pdfs.renderPool;
    let release!: () => void;
    const held = pool.run(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const busy = await inject('GET', url);
      expect(busy.statusCode).toBe(429);
      expect(busy.headers['content-type']).toContain('application/problem+json');
      expect(busy.json().code).toBe('pdf_render_busy');
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      release();
      await held;
    }
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
    expect((await inject('GET', url)).statusCode).toBe(200);
  });

  it('is for staff: a contact gets 403', async () => {
    const draft = await publishedQuote(false);
    expect((await inject('GET', `/api/quotes/${draft.id}/preview/en`, contact)).statusCode).toBe(403);
  });
});
