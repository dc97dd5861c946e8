import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addresses,
  articles,
  briefPredictions,
  companies,
  companyUsers,
  events,
  files,
  quoteGuestLinks,
  users,
} from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { foldSnapshot } from '../../src/pricing/geometry/fold-snapshot.ts';
import type { BriefPrediction, Catalogue } from '../../src/pricing/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { type Reply, requests, type Schemas } from '../helpers/http.ts';
import { extractPdfText, pdfContentStreams } from '../helpers/pdf-text.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let guest: Credentials;
let contact: Credentials;
let catalogue: Catalogue;
let acmeId: string;
let articleId: string;
let briefId: string;
/** A published quote of a two-element brief and an article. */
let quote: Quote;

/** A published quote: it has its code and its validity. */
type Quote = Schemas['Quote'] & { code: string; validUntil: string };
type Problem = Schemas['Problem'];
type Response = Reply<unknown>;

/** The priced brief's lead time, working days (what the PDF must state). */
async function leadTimeDays() {
  const rows = await t.app.ctx.db
    .select({ output: briefPredictions.output })
    .from(briefPredictions)
    .where(eq(briefPredictions.briefId, briefId));
  const days = Math.max(...rows.map((r) => (r.output as BriefPrediction).briefPrice.leadTime.workingDays));
  expect(days).toBeGreaterThan(1);
  return days;
}

const idOf = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;

const { send: request, post, get } = requests(() => t);

function expectProblem(response: Response, status: number, code?: string, pointer?: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toContain('application/problem+json');
  const body = response.json() as Problem;
  if (code) expect(body.code).toBe(code);
  if (pointer) expect((body.errors ?? []).map((e) => e.pointer)).toContain(pointer);
}

/** Text with every kind of space as one plain space. */
const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');
const money = (locale: string, value: number) =>
  flat(
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(
      value,
    ),
  );

async function generate(id: string, localisationId: string, who: Credentials = admin) {
  return post(who, `/api/quotes/${id}/generate-pdf`, { localisationId });
}

async function newQuote(payload: Record<string, unknown>, publish = true): Promise<Quote> {
  const created = await post(admin, '/quotes', { companyId: acmeId, ...payload });
  expect(created.statusCode, created.body).toBe(201);
  const draft = created.json() as Quote;
  if (!publish) return draft;
  const published = await request('PUT', admin, `/quotes/${draft.id}`, { state: 'published' });
  expect(published.statusCode, published.body).toBe(200);
  return published.json() as Quote;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t, 'Cartonnages Dupré');
  other = await makeOrganisation(t);
  guest = await makeUser(t, admin, 'guest');
  contact = await makeUser(t, admin, 'contact');
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const db = t.app.ctx.db;
  const [acme] = await db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Łódź Herbata Sp. z o.o.' })
    .returning();
  acmeId = acme!.id;
  await db
    .insert(companyUsers)
    .values({ companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId });
  await db.update(users).set({ firstName: 'Anna', lastName: 'Kowalska' }).where(eq(users.id, contact.userId));
  const [address] = await db
    .insert(addresses)
    .values({
      organisationId: admin.organisationId,
      companyId: acmeId,
      street1: 'ul. Piotrkowska 1',
      postcode: '90-001',
      city: 'Łódź',
      countryCode: 'PL',
    })
    .returning();
  const [article] = await db
    .insert(articles)
    .values({
      organisationId: admin.organisationId,
      companyId: acmeId,
      name: 'Shipping label',
      code: 'LBL-1',
      price: 0.125,
    })
    .returning();
  articleId = article!.id;
  const brief = await post(admin, '/api/briefs', {
    name: 'Tea box',
    companyId: acmeId,
    briefElements: [
      {
        position: 0,
        productId: idOf(catalogue.products, 'STE'),
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
        versoColorCount: 0,
        wantWindow: true,
        windowWidth: 50,
        windowHeight: 80,
      },
      {
        position: 1,
        productId: idOf(catalogue.products, '0201'),
        lengthDimension: 300,
        widthDimension: 200,
        heightDimension: 150,
        materialReferenceId: idOf(catalogue.materialReferences, 'CORR-B-KK'),
        decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 1,
      },
    ],
  });
  expect(brief.statusCode, brief.body).toBe(201);
  briefId = (brief.json() as { id: string }).id;
  quote = await newQuote({
    name: 'Spring tea boxes',
    contactId: contact.userId,
    addressId: address!.id,
    briefIds: [briefId],
    items: [{ articleId, quantity: 2000, comment: 'Fragile' }],
  });
});
afterAll(() => t.close());

describe('generating a PDF', () => {
  it('is refused for a quote that is not published, and for an unknown language', async () => {
    const draft = await newQuote({ items: [{ articleId, quantity: 1 }] }, false);
    expectProblem(await generate(draft.id, 'fr'), 409, 'quote_not_published');
    expectProblem(await generate(quote.id, 'xx'), 400, 'unsupported_language', '/localisationId');
    expectProblem(await generate(quote.id, 'tlh-KLINGON'), 400, 'unsupported_language', '/localisationId');
    expectProblem(
      await post(admin, `/api/quotes/${quote.id}/generate-pdf`, {}),
      400,
      'validation_failed',
      '/localisationId',
    );
    const signed = await newQuote({ items: [{ articleId, quantity: 1 }] });
    await post(admin, `/quotes/${signed.id}/accept`);
    expectProblem(await generate(signed.id, 'fr'), 409, 'quote_not_published');
  });

  it('is refused to readers and to other tenants', async () => {
    expectProblem(await generate(quote.id, 'fr', guest), 403, 'forbidden');
    expectProblem(await generate(quote.id, 'fr', contact), 403, 'forbidden');
    expectProblem(await generate(quote.id, 'fr', other), 404);
    expectProblem(await get(other, `/quotes/${quote.id}/localisation/fr`), 404);
  });

  it('renders in French: code, dates, blocks, items, totals and French labels', async () => {
    const response = await generate(quote.id, 'fr');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers.location).toBe(`/api/quotes/${quote.id}/localisation/fr`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = flat(extractPdfText(response.rawPayload));
    for (const expected of [
      'DEVIS',
      'Devis n°',
      quote.code,
      'Cartonnages Dupré',
      'Łódź Herbata Sp. z o.o.',
      'ul. Piotrkowska 1',
      '90-001 Łódź',
      'Anna Kowalska',
      'Spring tea boxes',
      'Désignation',
      'Prix unitaire',
      'Outillage',
      'Livraison',
      'Tea box',
      // The style, board and tool in French (the catalogue's names per language, issue 24).
      'Étui à rabats droits',
      'Carton GC1 350 g/m2 · 4/0',
      'Forme de découpe',
      'Dimensions: 120 × 40 × 180 mm',
      '5 000',
      'Shipping label',
      'Remarque: Fragile',
      'Total HT',
      money('fr-FR', quote.totalPrice),
      money('fr-FR', quote.toolingCost),
      'Valable jusqu’au',
      'Ce devis est valable jusqu’au',
      'Bon pour accord',
      'Tracés de découpe',
      'Page 1 sur',
    ]) {
      expect(text, `"${expected}" in the French PDF`).toContain(flat(expected));
    }
    expect(text).not.toContain('Quote no.');
    // The lead time of the brief the items were priced from (issue 30).
    expect(text).toContain(
      flat(`Délai : ${await leadTimeDays()} jours ouvrés du bon à tirer à la livraison`),
    );
    expect(text).not.toContain('Straight tuck end carton');
  });

  it('renders in English with English labels and number formats', async () => {
    const response = await generate(quote.id, 'en-GB');
    expect(response.statusCode, response.body).toBe(201);
    const text = flat(extractPdfText(response.rawPayload));
    for (const expected of [
      'QUOTE',
      'Quote no.',
      quote.code,
      'Unit price',
      'Tooling',
      'Delivery',
      'Total',
      money('en-GB', quote.totalPrice),
      'This quote is valid until',
      'Die-lines',
      'Page 1 of',
      '5,000',
    ]) {
      expect(text, `"${expected}" in the English PDF`).toContain(flat(expected));
    }
    expect(text).not.toContain('Devis');
    expect(text).toContain(
      flat(`Lead time: ${await leadTimeDays()} working days from artwork approval to delivery`),
    );
  });

  it('draws the die-line of each brief element as vector paths (cuts solid, creases dashed)', async () => {
    const response = await generate(quote.id, 'de');
    expect(response.statusCode).toBe(201);
    const text = flat(extractPdfText(response.rawPayload));
    expect(text).toContain('Stanzkonturen');
    expect(text).toContain('Angebot');
    const drawing = pdfContentStreams(response.rawPayload).join('\n');
    expect(drawing).toMatch(/\[3 2\] 0 d/); // creases
    const [prediction] = await t.app.ctx.db
      .select({ output: briefPredictions.output })
      .from(briefPredictions)
      .where(eq(briefPredictions.briefId, briefId));
    const dieLines = (prediction!.output as BriefPrediction).briefComputed.briefElements.map(
      (e) => e.dieLine,
    );
    const expected = dieLines.reduce((n, d) => n + d.segments.length, 0);
    expect(expected).toBeGreaterThan(20);
    // One moveTo/lineTo per cut or crease segment (plus the table rules).
    const segments = drawing.match(/ l\n/g)?.length ?? 0;
    expect(segments).toBeGreaterThanOrEqual(expected);
    // The board outlines are filled polygons, windows cut out of the carton.
    expect(dieLines[0]!.holes.length).toBe(1);
    // Beside each die-line, the folded box (the 3D snapshot): one filled and outlined polygon
    // (fill-and-stroke, `B`) per face it shows, in the board's shaded colours.
    const faces = dieLines.reduce((n, d) => n + (foldSnapshot(d)?.polygons.length ?? 0), 0);
    expect(faces).toBeGreaterThan(10);
    expect(drawing.match(/\nB\n/g)?.length ?? 0).toBeGreaterThanOrEqual(faces);
  });

  it('lists each element line’s template files under its drawing, as the line’s die-line route names them', async () => {
    const response = await generate(quote.id, 'en-GB');
    expect(response.statusCode).toBe(201);
    mkdirSync('test-results/dielines', { recursive: true });
    writeFileSync('test-results/dielines/quote-templates.pdf', response.rawPayload);
    const text = flat(extractPdfText(response.rawPayload));
    expect(text).toContain('Templates:');
    const full = (await get(admin, `/quotes/${quote.id}`)).json() as {
      items: { children: { id: string }[] }[];
    };
    const lines = full.items.flatMap((i) => i.children);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const file = await get(admin, `/api/quotes/${quote.id}/quote-items/${line.id}/die-line?format=cf2`);
      expect(file.statusCode, file.body).toBe(200);
      const stem = /filename="([^"]+)\.cf2"/.exec(file.headers['content-disposition'] as string)![1]!;
      expect(text).toContain(flat(stem));
    }
    expect(text).toContain(flat('.pdf · .dxf · .cf2'));
    // The names link to the quote's page, where a signed-in reader downloads the files (pdf.js
    // reads the link annotations as a viewer does).
    const pdf = await getDocument({ data: new Uint8Array(response.rawPayload), isEvalSupported: false })
      .promise;
    const links: string[] = [];
    for (let i = 1; i <= pdf.numPages; i++) {
      for (const annotation of await (await pdf.getPage(i)).getAnnotations()) {
        if (annotation.subtype === 'Link' && annotation.url) links.push(annotation.url as string);
      }
    }
    expect(links.length).toBeGreaterThanOrEqual(lines.length);
    expect(new Set(links)).toEqual(new Set([`${t.app.ctx.config.publicBaseUrl}/app/quotes/${quote.id}`]));
  });

  it('is stored as a file of the quote per language; generating again replaces it', async () => {
    const first = (await get(admin, `/quotes/${quote.id}`)).json() as Quote;
    expect(first.pdfs.map((p) => p.localisationId).sort()).toEqual(['de', 'en', 'fr']);
    const fr = first.pdfs.find((p) => p.localisationId === 'fr')!;
    expect(fr).toMatchObject({
      url: `/api/quotes/${quote.id}/localisation/fr`,
      filename: `${quote.code}-fr.pdf`,
    });
    const again = await generate(quote.id, 'fr');
    expect(again.statusCode).toBe(201);
    const second = (await get(admin, `/quotes/${quote.id}`)).json() as Quote;
    const frFiles = second.pdfs.filter((p) => p.localisationId === 'fr');
    expect(frFiles).toHaveLength(1);
    expect(frFiles[0]!.id).not.toBe(fr.id);
    const [old] = await t.app.ctx.db.select().from(files).where(eq(files.id, fr.id));
    expect(old!.deletedAt).toBeInstanceOf(Date);
    const deleted = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, fr.id), eq(events.type, 'DELETE')));
    expect(deleted).toMatchObject([{ entity: 'FILE', relation: 'QUOTE', relationId: quote.id }]);

    const download = await get(contact, `/quotes/${quote.id}/localisation/fr`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(String(download.headers['content-disposition'])).toContain(`${quote.code}-fr.pdf`);
    expect(download.rawPayload.equals(again.rawPayload)).toBe(true);
    expect(
      (await get(admin, `/api/quotes/${quote.id}/localisation/fr-FR`)).rawPayload.equals(again.rawPayload),
    ).toBe(true);
    // A published quote's PDF is rendered on the first request when none is stored yet (issue 31);
    // a draft has none.
    const fresh = await newQuote({ items: [{ articleId, quantity: 1 }] });
    const rendered = await get(admin, `/quotes/${fresh.id}/localisation/fr`);
    expect(rendered.statusCode).toBe(200);
    expect(rendered.headers['content-type']).toBe('application/pdf');
    const draft = await newQuote({ items: [{ articleId, quantity: 1 }] }, false);
    expectProblem(await get(admin, `/quotes/${draft.id}/localisation/fr`), 404, 'pdf_not_generated');
    expectProblem(
      await get(admin, `/quotes/${quote.id}/localisation/zz`),
      400,
      'unsupported_language',
      '/localisationId',
    );
  });

  it('runs over several pages, with the table header and page numbers repeated', async () => {
    const long = await newQuote({
      items: Array.from({ length: 45 }, (_, i) => ({ articleId, quantity: i + 1, comment: `Line ${i + 1}` })),
    });
    const response = await generate(long.id, 'en');
    expect(response.statusCode).toBe(201);
    const text = flat(extractPdfText(response.rawPayload));
    expect(text).toContain('Page 2 of');
    expect(text.match(/Unit price/g)!.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('Note: Line 45');
    expect(text).toContain(money('en-GB', long.totalPrice));
  });
});

describe('guest links', () => {
  it('serve the PDF without credentials until revoked', async () => {
    const created = await post(admin, `/api/quotes/${quote.id}/guest-links`, { localisationId: 'fr' });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json() as {
      id: string;
      token: string;
      url: string;
      expiresAt: string;
      active: boolean;
      localisationId: string;
    };
    expect(link).toMatchObject({ active: true, localisationId: 'fr' });
    expect(link.token.length).toBeGreaterThanOrEqual(43);
    expect(link.url.endsWith(`/api/public/quotes/pdf/${link.token}`)).toBe(true);
    const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    // Only the hash is stored.
    const [row] = await t.app.ctx.db.select().from(quoteGuestLinks).where(eq(quoteGuestLinks.id, link.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(link.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(link.token);

    const path = `/api/public/quotes/pdf/${link.token}`;
    const served = await get(null, path);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(String(served.headers['cache-control'])).toContain('no-store');
    expect(flat(extractPdfText(served.rawPayload))).toContain(quote.code);
    expect(
      served.rawPayload.equals((await get(admin, `/quotes/${quote.id}/localisation/fr`)).rawPayload),
    ).toBe(true);

    const listed = (await get(admin, `/api/quotes/${quote.id}/guest-links`)).json() as {
      id: string;
      active: boolean;
    }[];
    expect(listed.find((l) => l.id === link.id)).toMatchObject({ active: true });
    expect(JSON.stringify(listed)).not.toContain('tokenHash');

    const revoked = await request('DELETE', admin, `/api/quotes/${quote.id}/guest-links/${link.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ active: false, revokedAt: expect.any(String) });
    expectProblem(await get(null, path), 410, 'guest_link_revoked');
    expectProblem(await get(null, `/api/public/quotes/pdf/${'x'.repeat(43)}`), 404);
  });

  it('stop working once expired', async () => {
    const created = (
      await post(admin, `/api/quotes/${quote.id}/guest-links`, {
        localisationId: 'en',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      })
    ).json() as { id: string; token: string };
    const path = `/api/public/quotes/pdf/${created.token}`;
    expect((await get(null, path)).statusCode).toBe(200);
    await t.app.ctx.db
      .update(quoteGuestLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(quoteGuestLinks.id, created.id));
    expectProblem(await get(null, path), 410, 'guest_link_expired');
  });

  it('are generated on demand, refused for drafts, past expiries, readers and other tenants', async () => {
    const fresh = await newQuote({ items: [{ articleId, quantity: 3 }] });
    const created = await post(admin, `/quotes/${fresh.id}/guest-links`, { localisationId: 'fr' });
    expect(created.statusCode, created.body).toBe(201);
    expect(
      ((await get(admin, `/quotes/${fresh.id}`)).json() as Quote).pdfs.map((p) => p.localisationId),
    ).toEqual(['fr']);
    const draft = await newQuote({ items: [{ articleId, quantity: 3 }] }, false);
    expectProblem(
      await post(admin, `/quotes/${draft.id}/guest-links`, { localisationId: 'fr' }),
      409,
      'quote_not_published',
    );
    expectProblem(
      await post(admin, `/quotes/${fresh.id}/guest-links`, {
        localisationId: 'fr',
        expiresAt: '2001-01-01T00:00:00Z',
      }),
      422,
      'invalid_expiry',
      '/expiresAt',
    );
    expectProblem(
      await post(admin, `/quotes/${fresh.id}/guest-links`, { localisationId: 'xx' }),
      400,
      'unsupported_language',
      '/localisationId',
    );
    expectProblem(await post(guest, `/quotes/${fresh.id}/guest-links`, { localisationId: 'fr' }), 403);
    expectProblem(await post(other, `/quotes/${fresh.id}/guest-links`, { localisationId: 'fr' }), 404);
    expectProblem(
      await request(
        'DELETE',
        other,
        `/quotes/${fresh.id}/guest-links/${(created.json() as { id: string }).id}`,
      ),
      404,
    );
  });
});
