/**
 * Artwork, preflight and proofs of quote lines over HTTP (docs/proofs.md): upload by sales and by
 * the buyer, recognition by content and the size limit, preflight findings of crafted files (low
 * resolution, RGB, no output intent, no bleed, wrong size), proof versions and their PDF, the
 * buyer's decisions with evidence and events, the order-conversion gate, and isolation (another
 * company's contact and another tenant get 404, a guest may not upload).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, PDFName } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyUsers, events, users } from '../../src/db/schema/index.ts';
import { emailOutbox } from '../../src/db/schema/mail.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { auth, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { multipartFile, pdfArtwork, rasterArtwork } from '../helpers/artwork.ts';
import { caller, expectProblem, type Json } from '../helpers/http.ts';
import { buildMailingApp, mailbox, textOf } from '../helpers/mail.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let contact: Credentials;
let globexContact: Credentials;
let guest: Credentials;
let otherTenant: Credentials;
let acmeId: string;
let briefId: string;
/** A second buyer contact of Acme, German-speaking (the proof e-mails go to every Acme contact). */
let acmeBuyer: Credentials;

const box = mailbox();

const waitForMail = box.waitFor;

const LIMIT = 3 * 1024 * 1024;
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

const call = caller(() => t, { 'user-agent': 'proof-test/1.0' });

async function upload(who: Credentials, quoteId: string, itemId: string, content: Buffer, name = 'art.pdf') {
  const body = await multipartFile(content, name);
  return t.app.inject({
    method: 'POST',
    url: `/api/quotes/${quoteId}/items/${itemId}/artwork`,
    payload: body.payload,
    headers: { ...body.headers, ...auth(who) },
  });
}

/** Polls the proof until its preflight has run (the durable job, on this app's workers). */
async function settled(who: Credentials, quoteId: string, proofId: string): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const response = await call(who, 'GET', `/api/quotes/${quoteId}/proofs/${proofId}`);
    expect(response.statusCode, response.body).toBe(200);
    const proof = response.json();
    if (proof.preflightState !== 'pending') return proof;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('preflight did not run');
}

async function uploadSettled(
  who: Credentials,
  quoteId: string,
  itemId: string,
  content: Buffer,
  name?: string,
) {
  const response = await upload(who, quoteId, itemId, content, name);
  expect(response.statusCode, response.body).toBe(201);
  expect(response.json().preflightState).toBe('pending');
  return settled(who, quoteId, response.json().id);
}

const codes = (proof: Json) => proof.findings.map((f: Json) => `${f.code}:${f.severity}`).sort();

/** A published quote of Acme made from the priced brief: its leaf line ids. */
async function publishedQuote() {
  const created = await call(sales, 'POST', '/api/quotes', {
    companyId: acmeId,
    contactId: contact.userId,
    validUntil: '2099-12-31',
    briefIds: [briefId],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const published = await call(sales, 'PUT', `/api/quotes/${id}`, { state: 'published' });
  expect(published.statusCode, published.body).toBe(200);
  const lines = (await call(sales, 'GET', `/api/quotes/${id}/proofs`)).json();
  return { id, lines: lines.lines as Json[] };
}

let blank: { widthMm: number; heightMm: number; bleedMm: number };

beforeAll(async () => {
  t = await buildMailingApp(box, { fileSizeLimitBytes: LIMIT });
  admin = await makeOrganisation(t);
  otherTenant = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  contact = await makeUser(t, admin, 'contact');
  globexContact = await makeUser(t, admin, 'contact');
  guest = await makeUser(t, admin, 'guest');
  acmeBuyer = await makeUser(t, admin, 'contact');
  const db = t.app.ctx.db;
  await db.update(users).set({ language: 'de' }).where(eq(users.id, acmeBuyer.userId));
  const [acme, globex] = await db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
    ])
    .returning();
  acmeId = acme!.id;
  await db.insert(companyUsers).values([
    { companyId: acmeId, userId: contact.userId, organisationId: admin.organisationId },
    { companyId: globex!.id, userId: globexContact.userId, organisationId: admin.organisationId },
    { companyId: acmeId, userId: acmeBuyer.userId, organisationId: admin.organisationId },
  ]);
  const catalogue = await loadCatalogue(db, admin.organisationId);
  const idOf = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;
  const brief = await call(admin, 'POST', '/api/briefs', {
    name: 'Tea box',
    companyId: acmeId,
    briefElements: [
      {
        position: 0,
        productId: idOf(catalogue.products, 'RTE'),
        lengthDimension: 60,
        widthDimension: 30,
        heightDimension: 90,
        materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
        versoColorCount: 0,
      },
    ],
  });
  expect(brief.statusCode, brief.body).toBe(201);
  briefId = brief.json().id;
}, 300_000);

afterAll(async () => {
  await t?.close();
  await box.close();
});

describe('artwork upload and preflight', () => {
  let quote: { id: string; lines: Json[] };
  let lineId: string;

  beforeAll(async () => {
    quote = await publishedQuote();
    expect(quote.lines).toHaveLength(1);
    lineId = quote.lines[0]!.quoteItemId;
    expect(quote.lines[0]).toMatchObject({ hasTemplate: true, status: 'none', versions: [] });
  });

  it('a wrong-sized PDF: wrong_size, and what preflight read (the blank of the die-line)', async () => {
    const proof = await uploadSettled(
      sales,
      quote.id,
      lineId,
      await pdfArtwork({ widthMm: 100, heightMm: 100, outputIntent: true }),
    );
    expect(proof.preflightState).toBe('done');
    expect(codes(proof)).toEqual(['wrong_size:error']);
    expect(proof.version).toBe(1);
    blank = proof.artwork.blank;
    expect(blank.widthMm).toBeGreaterThan(100);
    expect(blank.bleedMm).toBe(3);
    expect(proof.artwork).toMatchObject({
      kind: 'pdf',
      widthMm: 100,
      heightMm: 100,
      outputIntent: 'FOGRA39',
    });
    expect(proof.findings[0].params).toMatchObject({
      widthMm: 100,
      expectedWidthMm: Math.round((blank.widthMm + 6) * 10) / 10,
    });
  });

  it('a PDF of the template size in CMYK with an output intent: no findings, and a proof PDF', async () => {
    const proof = await uploadSettled(
      sales,
      quote.id,
      lineId,
      await pdfArtwork({
        widthMm: blank.widthMm + 6,
        heightMm: blank.heightMm + 6,
        outputIntent: true,
        imagePpi: 320,
      }),
    );
    expect(proof.findings).toEqual([]);
    expect(proof.version).toBe(2);
    expect(proof.artwork.colourSpaces).toContain('CMYK');
    expect(proof.artwork.minPpi).toBeGreaterThanOrEqual(300);
    const pdf = await call(sales, 'GET', proof.urls.proofPdf);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha256(pdf.rawPayload)).toBe(proof.proofSha256);
    expect(pdf.headers.etag).toBe(`"${proof.proofSha256}"`);
    // The die-line is an optional-content layer of the proof.
    const doc = await PDFDocument.load(pdf.rawPayload);
    expect(String(doc.catalog.get(PDFName.of('OCProperties')))).toContain('OCGs');
    expect(doc.getPage(0).getWidth()).toBeGreaterThan(((blank.widthMm + 6) * 72) / 25.4);
  });

  it('the artwork covering the die-line without bleed: no_bleed', async () => {
    const proof = await uploadSettled(
      contact,
      quote.id,
      lineId,
      await pdfArtwork({ widthMm: blank.widthMm, heightMm: blank.heightMm, outputIntent: true }),
    );
    expect(codes(proof)).toEqual(['no_bleed:error']);
    expect(proof.findings[0].params).toMatchObject({ bleedMm: 3 });
    expect(proof.createdById).toBe(contact.userId);
  });

  it('RGB colours and no output intent: rgb_colour_space and no_output_intent warnings', async () => {
    const proof = await uploadSettled(
      sales,
      quote.id,
      lineId,
      await pdfArtwork({ widthMm: blank.widthMm + 6, heightMm: blank.heightMm + 6, colour: 'rgb' }),
    );
    expect(codes(proof)).toEqual(['no_output_intent:warning', 'rgb_colour_space:warning']);
  });

  it('low resolution: an image at 200 ppi warns, a CMYK JPEG at 100 ppi is an error', async () => {
    const warned = await uploadSettled(
      sales,
      quote.id,
      lineId,
      await pdfArtwork({
        widthMm: blank.widthMm + 6,
        heightMm: blank.heightMm + 6,
        outputIntent: true,
        imagePpi: 200,
      }),
    );
    expect(codes(warned)).toEqual(['low_resolution:warning']);
    expect(warned.findings[0].params.ppi).toBeGreaterThanOrEqual(195);
    expect(warned.findings[0].params.ppi).toBeLessThanOrEqual(205);

    const raster = await rasterArtwork({
      widthMm: blank.widthMm + 6,
      heightMm: blank.heightMm + 6,
      ppi: 100,
      format: 'jpeg',
      cmyk: true,
    });
    const refused = await uploadSettled(sales, quote.id, lineId, raster, 'art.jpg');
    expect(refused.artwork).toMatchObject({ kind: 'jpeg', minPpi: 100, colourSpaces: ['CMYK'] });
    expect(codes(refused)).toEqual(['low_resolution:error']);
  });

  it('rasters: an RGB PNG warns of RGB; a TIFF at 300 ppi in CMYK is clean', async () => {
    const png = await uploadSettled(
      sales,
      quote.id,
      lineId,
      await rasterArtwork({
        widthMm: blank.widthMm + 6,
        heightMm: blank.heightMm + 6,
        ppi: 300,
        format: 'png',
      }),
      'art.png',
    );
    expect(codes(png)).toEqual(['rgb_colour_space:warning']);
    const tiff = await uploadSettled(
      sales,
      quote.id,
      lineId,
      await rasterArtwork({
        widthMm: blank.widthMm + 6,
        heightMm: blank.heightMm + 6,
        ppi: 300,
        format: 'tiff',
        cmyk: true,
      }),
      'art.tif',
    );
    expect(tiff.artwork.kind).toBe('tiff');
    expect(codes(tiff)).toEqual([]);
  });

  it('the PNG preview covers the blank corner to corner (for the folded preview)', async () => {
    const list = (await call(contact, 'GET', `/api/quotes/${quote.id}/proofs`)).json();
    const latest = list.lines[0].versions[0];
    const response = await call(contact, 'GET', latest.urls.preview);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(Number(response.headers['x-blank-width-mm'])).toBeCloseTo(blank.widthMm, 1);
    const meta = await sharp(response.rawPayload).metadata();
    expect(Math.abs(meta.width! / meta.height! - blank.widthMm / blank.heightMm)).toBeLessThan(0.02);
    const page = await call(contact, 'GET', `${latest.urls.preview}?fit=page`);
    const pageMeta = await sharp(page.rawPayload).metadata();
    expect(pageMeta.width!).toBeGreaterThan(0);
    const bad = await call(contact, 'GET', `${latest.urls.preview}?fit=sideways`);
    expectProblem(bad, 400, 'validation_failed');
  });

  it('versions are listed newest first and numbered per line; the artwork downloads as uploaded', async () => {
    const list = (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs`)).json();
    const versions = list.lines[0].versions as Json[];
    expect(versions.map((v) => v.version)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(list.lines[0].status).toBe('awaiting_decision');
    expect(list.proofsPending).toBe(1);
    const artwork = await call(sales, 'GET', versions[0]!.urls.artwork);
    expect(artwork.statusCode).toBe(200);
    expect(sha256(artwork.rawPayload)).toBe(versions[0]!.artworkSha256);
  });

  it('refuses what is not artwork by its content (415), beyond the size limit (413), and other lines (404)', async () => {
    const text = await upload(sales, quote.id, lineId, Buffer.from('just some text, named like a PDF'));
    expectProblem(text, 415, 'unsupported_artwork');
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(LIMIT + 10, 32)]);
    expectProblem(await upload(sales, quote.id, lineId, big), 413, 'file_too_large');
    const stranger = await upload(
      sales,
      quote.id,
      '00000000-0000-7000-8000-000000000000',
      await pdfArtwork({ widthMm: 10, heightMm: 10 }),
    );
    expectProblem(stranger, 404, 'not_found');
    const list = (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs`)).json();
    expect(list.lines[0].versions).toHaveLength(8);
    // Artwork and proof PDFs are files of the quote, never among its PDFs in a language.
    const shown = (await call(sales, 'GET', `/api/quotes/${quote.id}`)).json();
    for (const pdf of shown.pdfs as Json[]) expect(['en', 'fr', 'de']).toContain(pdf.localisationId);
  });

  it('isolation: another company’s contact and another tenant get 404, a guest may not upload', async () => {
    const art = await pdfArtwork({ widthMm: 20, heightMm: 20 });
    const proofId = (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs`)).json().lines[0].versions[0]
      .id;
    for (const who of [globexContact, otherTenant]) {
      expectProblem(await call(who, 'GET', `/api/quotes/${quote.id}/proofs`), 404, 'not_found');
      expectProblem(await call(who, 'GET', `/api/quotes/${quote.id}/proofs/${proofId}`), 404, 'not_found');
      expectProblem(
        await call(who, 'GET', `/api/quotes/${quote.id}/proofs/${proofId}/pdf`),
        404,
        'not_found',
      );
      expectProblem(await upload(who, quote.id, lineId, art), 404, 'not_found');
      expectProblem(
        await call(who, 'POST', `/api/quotes/${quote.id}/proofs/${proofId}/decision`, {
          decision: 'approved',
          typedName: 'Intruder',
          confirm: true,
        }),
        404,
        'not_found',
      );
    }
    expectProblem(await upload(guest, quote.id, lineId, art), 403, 'forbidden');
    expectProblem(
      await call(guest, 'POST', `/api/quotes/${quote.id}/proofs/${proofId}/decision`, {
        decision: 'approved',
        typedName: 'Guest',
        confirm: true,
      }),
      403,
      'forbidden',
    );
  });
});

describe('decisions, evidence and the order-conversion gate', () => {
  it('a draft takes no artwork; the buyer decides the latest version with evidence; the gate holds until then', async () => {
    // A draft's lines are still changing.
    const draft = await call(sales, 'POST', '/api/quotes', {
      companyId: acmeId,
      contactId: contact.userId,
      validUntil: '2099-12-31',
      briefIds: [briefId],
    });
    const draftLines = (await call(sales, 'GET', `/api/quotes/${draft.json().id}/proofs`)).json();
    expect(draftLines.uploadOpen).toBe(false);
    const art = await pdfArtwork({ widthMm: 30, heightMm: 30 });
    expectProblem(
      await upload(sales, draft.json().id, draftLines.lines[0].quoteItemId, art),
      409,
      'artwork_closed',
    );

    const quote = await publishedQuote();
    const lineId = quote.lines[0]!.quoteItemId;
    const good = await pdfArtwork({
      widthMm: blank.widthMm + 6,
      heightMm: blank.heightMm + 6,
      outputIntent: true,
    });
    const first = await uploadSettled(contact, quote.id, lineId, good);
    const second = await uploadSettled(contact, quote.id, lineId, good);
    expect(second.version).toBe(2);

    // The buyer signs the quote; the gate refuses the conversion while the proof waits.
    expect(
      (await call(sales, 'POST', `/api/quotes/${quote.id}/generate-pdf`, { localisationId: 'en' }))
        .statusCode,
    ).toBe(201);
    const accepted = await call(contact, 'POST', `/api/quotes/${quote.id}/accept`, {
      typedName: 'Claire Martin',
      confirm: true,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const signed = (await call(sales, 'GET', `/api/quotes/${quote.id}`)).json();
    expect(signed.state).toBe('signed');
    expect(signed.allowedActions).not.toContain('convert');
    const gated = expectProblem(
      await call(sales, 'POST', `/api/quotes/${quote.id}/order`, {}),
      409,
      'proofs_not_approved',
    );
    expect(gated.errors?.[0]?.pointer).toBe('/items');

    const decide = (who: Credentials, proofId: string, body: Json) =>
      call(who, 'POST', `/api/quotes/${quote.id}/proofs/${proofId}/decision`, body);
    // Validation: approving needs confirm, requesting changes needs a comment, a typed name always.
    expectProblem(await decide(contact, second.id, { decision: 'approved', typedName: 'Claire' }), 400);
    expectProblem(
      await decide(contact, second.id, { decision: 'changes_requested', typedName: 'Claire' }),
      400,
    );
    expectProblem(await decide(contact, second.id, { decision: 'approved', confirm: true }), 400);
    // Only the latest version; the hash must be the stored proof's.
    expectProblem(
      await decide(contact, first.id, { decision: 'approved', typedName: 'Claire', confirm: true }),
      409,
      'proof_superseded',
    );
    expectProblem(
      await decide(contact, second.id, {
        decision: 'approved',
        typedName: 'Claire',
        confirm: true,
        proofSha256: 'a'.repeat(64),
      }),
      409,
      'proof_hash_mismatch',
    );
    // Changes requested, a new version, then approval of it.
    const requested = await decide(contact, second.id, {
      decision: 'changes_requested',
      typedName: 'Claire Martin',
      comment: 'Logo larger on the front, please',
    });
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().decision).toMatchObject({ decision: 'changes_requested', role: 'contact' });
    expectProblem(
      await decide(contact, second.id, { decision: 'approved', typedName: 'Claire', confirm: true }),
      409,
      'proof_superseded',
    );
    const third = await uploadSettled(sales, quote.id, lineId, good);
    const pdf = await call(contact, 'GET', third.urls.proofPdf);
    const approved = await decide(contact, third.id, {
      decision: 'approved',
      typedName: 'Claire Martin',
      confirm: true,
      proofSha256: sha256(pdf.rawPayload),
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const evidence = approved.json().decision;
    expect(evidence).toMatchObject({
      decision: 'approved',
      userId: contact.userId,
      role: 'contact',
      typedName: 'Claire Martin',
      userAgent: 'proof-test/1.0',
      proofSha256: sha256(pdf.rawPayload),
      hashFromClient: true,
    });
    expect(evidence.ip).toBeTruthy();
    expect(new Date(evidence.decidedAt).getTime()).toBeGreaterThan(0);
    // Decided once.
    expectProblem(
      await decide(contact, third.id, { decision: 'approved', typedName: 'Claire', confirm: true }),
      409,
      'proof_superseded',
    );

    // Evented: the decision's event carries the evidence (webhooks deliver it).
    const [decided] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, third.id), eq(events.fieldName, 'decision')));
    expect(decided).toMatchObject({ eventName: 'event.artwork_proofs.updated', relationId: quote.id });
    expect((decided!.payload as Json).decision).toMatchObject({
      typedName: 'Claire Martin',
      role: 'contact',
    });
    const created = await t.app.ctx.db
      .select({ name: events.eventName })
      .from(events)
      .where(and(eq(events.entityId, third.id), eq(events.type, 'CREATE')));
    expect(created.map((e) => e.name)).toEqual(['event.artwork_proofs.created']);

    // The gate opens: the sales user converts; the quote is then closed to artwork.
    const open = (await call(sales, 'GET', `/api/quotes/${quote.id}`)).json();
    expect(open.allowedActions).toContain('convert');
    const order = await call(sales, 'POST', `/api/quotes/${quote.id}/order`, {});
    expect(order.statusCode, order.body).toBe(201);
    expectProblem(await upload(contact, quote.id, lineId, good), 409, 'artwork_closed');
  });

  it('a quote without artwork converts as before', async () => {
    const quote = await publishedQuote();
    await call(sales, 'POST', `/api/quotes/${quote.id}/generate-pdf`, { localisationId: 'en' });
    const accepted = await call(contact, 'POST', `/api/quotes/${quote.id}/accept`, {
      typedName: 'Claire Martin',
      confirm: true,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const order = await call(sales, 'POST', `/api/quotes/${quote.id}/order`, {});
    expect(order.statusCode, order.body).toBe(201);
  });
});

describe('proof e-mails to the other side', () => {
  const outbox = async (kind: string, needle: string) =>
    (
      await t.app.ctx.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.organisationId, admin.organisationId), eq(emailOutbox.kind, kind)))
    ).filter((row) => row.text.includes(needle));

  it('a proof ready asks the buyer contacts (their language, the portal link); decisions tell the sales owner; opt-outs hold', async () => {
    const quote = await publishedQuote();
    const lineId = quote.lines[0]!.quoteItemId;
    const { code } = (await call(sales, 'GET', `/api/quotes/${quote.id}`)).json();
    const good = await pdfArtwork({
      widthMm: blank.widthMm + 6,
      heightMm: blank.heightMm + 6,
      outputIntent: true,
    });
    // Sales uploads: both Acme contacts are asked, each in their language, with the link.
    const first = await uploadSettled(sales, quote.id, lineId, good);
    const link = `https://quotes.example/app/quotes/${quote.id}`;
    const en = await waitForMail(
      (m) =>
        m.to.includes(contact.email) && textOf(m).includes(`${code}`) && /Proof to approve/.test(textOf(m)),
    );
    expect(textOf(en)).toContain(link);
    expect(textOf(en)).toContain('version 1 of "Reverse tuck end carton" in the quote');
    const de = await waitForMail(
      (m) => m.to.includes(acmeBuyer.email) && textOf(m).includes(`${code}`) && /Freigabe/.test(textOf(m)),
    );
    expect(textOf(de)).toContain(link);
    // Nobody outside the quote's company, and not the sales side.
    const asked = await outbox('proof_requested', `${code}`);
    expect(asked.map((row) => row.to).sort()).toEqual([[acmeBuyer.email], [contact.email]].sort());

    // The buyer requests changes: the sales owner is told, with the comment; the buyer is not.
    const decided = await call(contact, 'POST', `/api/quotes/${quote.id}/proofs/${first.id}/decision`, {
      decision: 'changes_requested',
      typedName: 'Claire Martin',
      comment: 'Barcode on the back panel, please',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const changes = await waitForMail(
      (m) => m.to.includes(sales.email) && textOf(m).includes('Barcode on the back panel, please'),
    );
    expect(textOf(changes)).toContain('Claire Martin');
    expect(textOf(changes)).toContain(link);
    expect(await outbox('proof_changes_requested', `${code}`)).toMatchObject([
      { to: [sales.email], subject: expect.stringMatching(/^Proof changes requested: .*\(v1\)/) },
    ]);

    // The German contact opts out; the buyer uploads v2 themselves: nobody is told of their own
    // upload, so no proof_requested e-mail goes out for v2 at all.
    const prefs = await call(acmeBuyer, 'PUT', '/api/users/me/notification-preferences', {
      emailOptOuts: ['proof_requested'],
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    const second = await uploadSettled(contact, quote.id, lineId, good);
    expect(second.version).toBe(2);
    expect((await outbox('proof_requested', `${code}`)).length).toBe(2);

    // The sales owner opted out of approvals gets none; opted in again, gets the next one.
    await call(sales, 'PUT', '/api/users/me/notification-preferences', { emailOptOuts: ['proof_approved'] });
    const approved = await call(contact, 'POST', `/api/quotes/${quote.id}/proofs/${second.id}/decision`, {
      decision: 'approved',
      typedName: 'Claire Martin',
      confirm: true,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await outbox('proof_approved', `${code}`)).toEqual([]);
    await call(sales, 'PUT', '/api/users/me/notification-preferences', { emailOptOuts: [] });

    // v3 by sales: only the contact still opted in is asked; approving it tells sales.
    const third = await uploadSettled(sales, quote.id, lineId, good);
    await waitForMail(
      (m) =>
        m.to.includes(contact.email) &&
        textOf(m).includes(`${code}`) &&
        textOf(m).includes('proof version 3'),
    );
    expect(
      (await outbox('proof_requested', `${code}`)).filter((r) => r.subject.includes('(v3)')),
    ).toMatchObject([{ to: [contact.email] }]);
    const again = await call(contact, 'POST', `/api/quotes/${quote.id}/proofs/${third.id}/decision`, {
      decision: 'approved',
      typedName: 'Claire Martin',
      confirm: true,
    });
    expect(again.statusCode, again.body).toBe(200);
    const ok = await waitForMail(
      (m) =>
        m.to.includes(sales.email) &&
        textOf(m).includes(`${code}`) &&
        textOf(m).includes('approved the artwork proof version 3'),
    );
    expect(textOf(ok)).toContain('Claire Martin of Acme approved');
    expect(await outbox('proof_approved', `${code}`)).toMatchObject([
      { to: [sales.email], subject: expect.stringMatching(/^Proof approved: .*\(v3\)/) },
    ]);
    await call(acmeBuyer, 'PUT', '/api/users/me/notification-preferences', { emailOptOuts: [] });
  });

  it('a failed write sends nothing: a refused decision queues no e-mail', async () => {
    const quote = await publishedQuote();
    const lineId = quote.lines[0]!.quoteItemId;
    const { code } = (await call(sales, 'GET', `/api/quotes/${quote.id}`)).json();
    const art = await pdfArtwork({
      widthMm: blank.widthMm + 6,
      heightMm: blank.heightMm + 6,
      outputIntent: true,
    });
    const proof = await uploadSettled(sales, quote.id, lineId, art);
    expectProblem(
      await call(contact, 'POST', `/api/quotes/${quote.id}/proofs/${proof.id}/decision`, {
        decision: 'approved',
        typedName: 'Claire',
        confirm: true,
        proofSha256: 'b'.repeat(64),
      }),
      409,
      'proof_hash_mismatch',
    );
    expect(await outbox('proof_approved', `${code}`)).toEqual([]);
    // Another company's contact never hears of this quote's proofs.
    expect(
      (await outbox('proof_requested', `${code}`)).filter((r) => r.to.includes(globexContact.email)),
    ).toEqual([]);
  });
});

describe('a guest link made for proofs', () => {
  const guestCall = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { 'user-agent': 'guest-browser/2.0', 'x-forwarded-for': '203.0.113.7' },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const link = async (quoteId: string, body: Json) => {
    const made = await call(sales, 'POST', `/api/quotes/${quoteId}/guest-links`, body);
    expect(made.statusCode, made.body).toBe(201);
    return made.json() as Json;
  };

  it('lets the guest read the proofs and approve or request changes, with the link and e-mail as evidence', async () => {
    const quote = await publishedQuote();
    const lineId = quote.lines[0]!.quoteItemId;
    const good = await pdfArtwork({
      widthMm: blank.widthMm + 6,
      heightMm: blank.heightMm + 6,
      outputIntent: true,
    });
    const first = await uploadSettled(sales, quote.id, lineId, good);
    const made = await link(quote.id, { localisationId: 'en', proofs: true });
    expect(made.proofs).toBe(true);
    const listed = (await call(sales, 'GET', `/api/quotes/${quote.id}/guest-links`)).json();
    expect(listed.find((l: Json) => l.id === made.id).proofs).toBe(true);

    // The proofs, with files at the link's public addresses, readable without credentials.
    const seen = await guestCall('GET', `/api/public/quotes/${made.token}/proofs`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.headers['cache-control']).toBe('private, no-store');
    const version = seen.json().lines[0].versions[0];
    expect(version.id).toBe(first.id);
    expect(version.urls.proofPdf).toBe(`/api/public/quotes/${made.token}/proofs/${first.id}/pdf`);
    const pdf = await guestCall('GET', version.urls.proofPdf);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha256(pdf.rawPayload)).toBe(first.proofSha256);
    const png = await guestCall('GET', version.urls.preview);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');

    // Changes requested: a comment is needed (400, nothing written), the e-mail too.
    const url = `/api/public/quotes/${made.token}/proofs/${first.id}/decision`;
    expectProblem(
      await guestCall('POST', url, {
        decision: 'changes_requested',
        typedName: 'Gia Guest',
        email: 'gia@buyer.test',
      }),
      400,
    );
    expectProblem(
      await guestCall('POST', url, {
        decision: 'changes_requested',
        typedName: 'Gia Guest',
        comment: 'Bigger logo',
      }),
      400,
    );
    expectProblem(
      await guestCall('POST', url, {
        decision: 'changes_requested',
        typedName: 'Gia Guest',
        comment: 'Bigger logo',
        email: 'not-an-email',
      }),
      400,
    );
    expect(
      (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs/${first.id}`)).json().decision,
    ).toBeNull();
    const before = Date.now();
    const changed = await guestCall('POST', url, {
      decision: 'changes_requested',
      typedName: 'Gia Guest',
      comment: 'Bigger logo',
      email: 'gia@buyer.test',
      proofSha256: first.proofSha256,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const evidence = (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs/${first.id}`)).json().decision;
    expect(evidence).toMatchObject({
      decision: 'changes_requested',
      userId: null,
      role: 'guest',
      guestLinkId: made.id,
      email: 'gia@buyer.test',
      typedName: 'Gia Guest',
      comment: 'Bigger logo',
      userAgent: 'guest-browser/2.0',
      proofSha256: first.proofSha256,
      hashFromClient: true,
    });
    expect(evidence.ip).toBeTruthy();
    expect(new Date(evidence.decidedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, first.id), eq(events.fieldName, 'decision')));
    expect(event).toBeTruthy();
    // Decided once: the same version again is refused.
    expectProblem(
      await guestCall('POST', url, {
        decision: 'approved',
        typedName: 'Gia',
        confirm: true,
        email: 'gia@buyer.test',
      }),
      409,
      'proof_superseded',
    );

    // A new version, approved by the guest: the line is approved and the gate clears.
    const second = await uploadSettled(sales, quote.id, lineId, good);
    const approve = (body: Json) =>
      guestCall('POST', `/api/public/quotes/${made.token}/proofs/${second.id}/decision`, body);
    expectProblem(
      await approve({ decision: 'approved', typedName: 'Gia Guest', email: 'gia@buyer.test' }),
      400,
    );
    expectProblem(
      await approve({
        decision: 'approved',
        typedName: 'Gia Guest',
        confirm: true,
        email: 'gia@buyer.test',
        proofSha256: 'a'.repeat(64),
      }),
      409,
      'proof_hash_mismatch',
    );
    const approved = await approve({
      decision: 'approved',
      typedName: 'Gia Guest',
      confirm: true,
      email: 'gia@buyer.test',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().decision).toMatchObject({
      decision: 'approved',
      role: 'guest',
      guestLinkId: made.id,
    });
    const lines = (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs`)).json();
    expect(lines.lines[0].status).toBe('approved');
    expect(lines.proofsPending).toBe(0);
  });

  it('isolation: a link that shares the quote only 403; unknown token, another quote’s proof 404; revoked 410', async () => {
    const quote = await publishedQuote();
    const lineId = quote.lines[0]!.quoteItemId;
    const art = await pdfArtwork({
      widthMm: blank.widthMm + 6,
      heightMm: blank.heightMm + 6,
      outputIntent: true,
    });
    const proof = await uploadSettled(sales, quote.id, lineId, art);
    const other = await publishedQuote();
    const otherProof = await uploadSettled(sales, other.id, other.lines[0]!.quoteItemId, art);
    const decide = (token: string, proofId: string) =>
      guestCall('POST', `/api/public/quotes/${token}/proofs/${proofId}/decision`, {
        decision: 'approved',
        typedName: 'Eve',
        confirm: true,
        email: 'eve@elsewhere.test',
      });

    // A link that shares the quote only: its PDF page works, its proofs do not.
    const plain = await link(quote.id, { localisationId: 'en' });
    expect(plain.proofs).toBe(false);
    expectProblem(
      await guestCall('GET', `/api/public/quotes/${plain.token}/proofs`),
      403,
      'guest_link_not_for_proofs',
    );
    expectProblem(await decide(plain.token, proof.id), 403, 'guest_link_not_for_proofs');
    expectProblem(
      await guestCall('GET', `/api/public/quotes/${plain.token}/proofs/${proof.id}/pdf`),
      403,
      'guest_link_not_for_proofs',
    );

    const made = await link(quote.id, { localisationId: 'en', proofs: true });
    // Another quote's proof through this quote's link: 404, nothing decided.
    expectProblem(await decide(made.token, otherProof.id), 404);
    expectProblem(
      await guestCall('GET', `/api/public/quotes/${made.token}/proofs/${otherProof.id}/pdf`),
      404,
    );
    expectProblem(
      await guestCall('GET', `/api/public/quotes/${made.token}/proofs/${otherProof.id}/artwork`),
      404,
    );
    expect(
      (await call(sales, 'GET', `/api/quotes/${other.id}/proofs/${otherProof.id}`)).json().decision,
    ).toBeNull();
    // Unknown token: 404; a malformed one: 400.
    expectProblem(await decide('x'.repeat(43), proof.id), 404);
    expectProblem(await guestCall('GET', `/api/public/quotes/${'x'.repeat(43)}/proofs`), 404);
    expectProblem(await guestCall('GET', '/api/public/quotes/short/proofs'), 400);
    // Another tenant's staff cannot list this quote's proofs either.
    expectProblem(await call(otherTenant, 'GET', `/api/quotes/${quote.id}/proofs`), 404);
    // Revoked: 410, nothing decided.
    const revoked = await call(sales, 'DELETE', `/api/quotes/${quote.id}/guest-links/${made.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expectProblem(await decide(made.token, proof.id), 410, 'guest_link_revoked');
    expectProblem(
      await guestCall('GET', `/api/public/quotes/${made.token}/proofs`),
      410,
      'guest_link_revoked',
    );
    expect(
      (await call(sales, 'GET', `/api/quotes/${quote.id}/proofs/${proof.id}`)).json().decision,
    ).toBeNull();
  });
});
