import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articles,
  companies,
  companyUsers,
  events,
  organisationSigningKeys,
  users,
} from '../../src/db/schema/index.ts';
import { emailOutbox } from '../../src/db/schema/mail.ts';
import { createCommentsService } from '../../src/modules/files/service.ts';
import { systemActor } from '../../src/platform/actor.ts';
import { type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, expectProblem, type Json } from '../helpers/http.ts';
import { buildMailingApp, mailbox, type Received } from '../helpers/mail.ts';

let t: TestApp;
const box = mailbox();
let admin: Credentials;
let sales: Credentials;
let contact: Credentials;
let globexContact: Credentials;
let otherTenant: Credentials;
let acmeId: string;
let articleId: string;

const call = caller(() => t, { 'user-agent': 'acceptance-test/1.0' });

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** A published quote of Acme for the contact, with its English PDF rendered (as staff would). */
async function publishedQuote(options: { pdf?: boolean; priceBreaks?: number[] } = {}) {
  const created = await call(sales, 'POST', '/api/quotes', {
    companyId: acmeId,
    contactId: contact.userId,
    items: [{ articleId, quantity: 100 }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  if (options.priceBreaks) {
    const line = created.json().items[0].id as string;
    const priced = await call(sales, 'PATCH', `/api/quotes/${id}/quote-items/${line}`, {
      priceBreaks: options.priceBreaks.map((quantity) => ({ quantity })),
    });
    expect(priced.statusCode, priced.body).toBe(200);
  }
  const published = await call(sales, 'PUT', `/api/quotes/${id}`, { state: 'published' });
  expect(published.statusCode, published.body).toBe(200);
  let pdf: Buffer | undefined;
  if (options.pdf !== false) {
    const rendered = await call(sales, 'POST', `/api/quotes/${id}/generate-pdf`, { localisationId: 'en' });
    expect(rendered.statusCode).toBe(201);
    pdf = rendered.rawPayload;
  }
  return { id, code: published.json().code as string, pdf };
}

/** Decoded text of a captured message (quoted-printable soft breaks undone). */
const textOf = (mail: Received) =>
  mail.data
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

const waitForMail = box.waitFor;

const pdfsig = (content: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'pdfsig-'));
  const path = join(dir, 'signed.pdf');
  writeFileSync(path, content);
  try {
    return execFileSync('pdfsig', [path], { encoding: 'utf8' });
  } catch (error) {
    // pdfsig exits non-zero when a certificate is not trusted; its report is still on stdout.
    return String((error as { stdout?: string }).stdout ?? '');
  }
};

beforeAll(async () => {
  t = await buildMailingApp(box);
  admin = await makeOrganisation(t);
  otherTenant = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  contact = await makeUser(t, admin, 'contact');
  globexContact = await makeUser(t, admin, 'contact');
  const db = t.app.ctx.db;
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
  ]);
  await db
    .update(users)
    .set({ language: 'fr', firstName: 'Claire', lastName: 'Martin' })
    .where(eq(users.id, contact.userId));
  const [article] = await db
    .insert(articles)
    .values({
      organisationId: admin.organisationId,
      companyId: acmeId,
      name: 'Shipping label',
      code: 'LBL-1',
      price: 0.5,
    })
    .returning();
  articleId = article!.id;
});
afterAll(async () => {
  await t?.close();
  await box.close();
});

describe('accepting with evidence', () => {
  it('records every field, the SHA-256 of the PDF served, and puts the evidence in the quote event', async () => {
    // Offered at 100 and 250 pieces: the buyer chooses the 100 column (docs/quotes.md, "Price breaks").
    const { id, code, pdf } = await publishedQuote({ priceBreaks: [100, 250] });
    const served = await call(contact, 'GET', `/api/quotes/${id}/localisation/en`);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(pdf!)).toBe(true);
    const accepted = await call(contact, 'POST', `/api/quotes/${id}/accept`, {
      typedName: 'Claire Martin',
      confirm: true,
      poNumber: 'PO-7781',
      comment: 'Deliver to dock 4',
      localisationId: 'en',
      pdfSha256: sha256(served.rawPayload).toUpperCase(),
      option: { quantity: 100 },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'signed', respondedById: contact.userId });

    const evidence = await call(contact, 'GET', `/api/quotes/${id}/acceptance`);
    expect(evidence.statusCode, evidence.body).toBe(200);
    expect(evidence.json()).toMatchObject({
      quoteId: id,
      decision: 'accepted',
      userId: contact.userId,
      guestLinkId: null,
      actorRole: 'contact',
      onBehalf: false,
      email: contact.email,
      typedName: 'Claire Martin',
      confirmed: true,
      ip: '127.0.0.1',
      userAgent: 'acceptance-test/1.0',
      quoteCode: code,
      quoteVersion: 1,
      localisationId: 'en',
      pdfSha256: sha256(served.rawPayload),
      pdfHashFromClient: true,
      poNumber: 'PO-7781',
      comment: 'Deliver to dock 4',
      option: { id: '1', position: 1, quantity: 100, currency: 'EUR' },
      signedPdfUrl: `/api/quotes/${id}/acceptance/signed-pdf`,
    });
    const answeredAt = Date.parse(evidence.json().answeredAt);
    expect(Math.abs(answeredAt - Date.parse(accepted.json().signedAt))).toBeLessThan(1000);
    // Staff read the same evidence.
    expect((await call(sales, 'GET', `/api/quotes/${id}/acceptance`)).json().id).toBe(evidence.json().id);

    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, id), eq(events.fieldName, 'state')))
      .orderBy(asc(events.code))
      .then((rows) => rows.filter((r) => (r.payload as Json).state === 'signed'));
    expect(event).toBeDefined();
    expect((event!.payload as Json).acceptance).toMatchObject({
      id: evidence.json().id,
      typedName: 'Claire Martin',
      pdfSha256: sha256(pdf!),
      poNumber: 'PO-7781',
    });
  });

  it('refuses an acceptance without the typed name or the confirmation (400), and changes nothing', async () => {
    const { id } = await publishedQuote();
    const noBody = expectProblem(
      await call(contact, 'POST', `/api/quotes/${id}/accept`),
      400,
      'validation_failed',
    );
    expect(noBody.errors!.map((e) => e.pointer).sort()).toEqual(['/confirm', '/typedName']);
    const blank = expectProblem(
      await call(contact, 'POST', `/api/quotes/${id}/accept`, { typedName: '  ', confirm: true }),
      400,
    );
    expect(blank.errors!.map((e) => e.pointer)).toEqual(['/typedName']);
    const unconfirmed = expectProblem(
      await call(contact, 'POST', `/api/quotes/${id}/accept`, { typedName: 'Claire', confirm: false }),
      400,
    );
    expect(unconfirmed.errors!.map((e) => e.pointer)).toEqual(['/confirm']);
    expect((await call(contact, 'GET', `/api/quotes/${id}`)).json().state).toBe('published');
    expectProblem(await call(contact, 'GET', `/api/quotes/${id}/acceptance`), 404, 'acceptance_not_found');
  });

  it('refuses (409) a hash that is not the PDF the server has, and accepts nothing', async () => {
    const { id } = await publishedQuote();
    const problem = expectProblem(
      await call(contact, 'POST', `/api/quotes/${id}/accept`, {
        typedName: 'Claire Martin',
        confirm: true,
        pdfSha256: 'a'.repeat(64),
      }),
      409,
      'pdf_hash_mismatch',
    );
    expect(JSON.stringify(problem)).toContain('a'.repeat(64));
    expect((await call(contact, 'GET', `/api/quotes/${id}`)).json().state).toBe('published');
  });

  it('a second answer is refused (409) and the first evidence stays', async () => {
    const { id } = await publishedQuote();
    const body = { typedName: 'Claire Martin', confirm: true };
    expect((await call(contact, 'POST', `/api/quotes/${id}/accept`, body)).statusCode).toBe(200);
    expectProblem(await call(contact, 'POST', `/api/quotes/${id}/accept`, body), 409, 'invalid_transition');
    expectProblem(
      await call(contact, 'POST', `/api/quotes/${id}/decline`, { reason: 'x' }),
      409,
      'invalid_transition',
    );
    expect((await call(sales, 'GET', `/api/quotes/${id}/acceptance`)).json().decision).toBe('accepted');
  });

  it('a contact of another company and another tenant get 404, nothing is recorded', async () => {
    const { id } = await publishedQuote();
    const body = { typedName: 'Mallory', confirm: true };
    expectProblem(await call(globexContact, 'POST', `/api/quotes/${id}/accept`, body), 404);
    expectProblem(await call(otherTenant, 'POST', `/api/quotes/${id}/accept`, body), 404);
    expectProblem(await call(otherTenant, 'POST', `/api/quotes/${id}/decline`, { reason: 'x' }), 404);
    expectProblem(await call(globexContact, 'GET', `/api/quotes/${id}/acceptance`), 404);
    expect(
      (await call(contact, 'POST', `/api/quotes/${id}/accept`, { typedName: 'Claire', confirm: true }))
        .statusCode,
    ).toBe(200);
    expectProblem(await call(otherTenant, 'GET', `/api/quotes/${id}/acceptance`), 404);
    expectProblem(await call(otherTenant, 'GET', `/api/quotes/${id}/acceptance/signed-pdf`), 404);
    expectProblem(await call(globexContact, 'GET', `/api/quotes/${id}/acceptance/signed-pdf`), 404);
  });

  it('renders the PDF in the contact’s language when none was stored, and records its hash', async () => {
    const { id } = await publishedQuote({ pdf: false });
    expect(
      (await call(contact, 'POST', `/api/quotes/${id}/accept`, { typedName: 'Claire', confirm: true }))
        .statusCode,
    ).toBe(200);
    const evidence = (await call(contact, 'GET', `/api/quotes/${id}/acceptance`)).json();
    expect(evidence.localisationId).toBe('fr');
    const served = await call(contact, 'GET', `/api/quotes/${id}/localisation/fr`);
    expect(served.statusCode).toBe(200);
    expect(evidence.pdfSha256).toBe(sha256(served.rawPayload));
    // The signed PDF is not one of the quote's language PDFs: one PDF per language at most
    // (the publish job may have stored the organisation's language meanwhile).
    const quote = (await call(contact, 'GET', `/api/quotes/${id}`)).json();
    const languages = quote.pdfs.map((p: Json) => p.localisationId);
    expect(languages).toContain('fr');
    expect(new Set(languages).size).toBe(languages.length);
  });

  it('staff may record an acceptance without a body (on behalf of the buyer)', async () => {
    const { id } = await publishedQuote();
    const accepted = await call(sales, 'POST', `/api/quotes/${id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    // No language sent and none on the sales user: the buyer contact's (fr), rendered then.
    const shown = await call(sales, 'GET', `/api/quotes/${id}/localisation/fr`);
    expect((await call(sales, 'GET', `/api/quotes/${id}/acceptance`)).json()).toMatchObject({
      userId: sales.userId,
      actorRole: 'sales',
      onBehalf: true,
      typedName: null,
      confirmed: false,
      localisationId: 'fr',
      pdfSha256: sha256(shown.rawPayload),
    });
  });
});

describe('declining', () => {
  it('records the reason with the same evidence; no signed PDF', async () => {
    const { id, pdf } = await publishedQuote();
    const declined = await call(contact, 'POST', `/api/quotes/${id}/decline`, {
      reason: 'Too expensive',
      localisationId: 'en',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ state: 'rejected', rejectionReason: 'Too expensive' });
    expect((await call(contact, 'GET', `/api/quotes/${id}/acceptance`)).json()).toMatchObject({
      decision: 'declined',
      reason: 'Too expensive',
      userId: contact.userId,
      pdfSha256: sha256(pdf!),
      signedPdfUrl: null,
    });
    expectProblem(
      await call(contact, 'GET', `/api/quotes/${id}/acceptance/signed-pdf`),
      409,
      'quote_not_signed',
    );
  });
});

describe('the signed PDF', () => {
  it('is the shown PDF with a PAdES signature pdfsig verifies, the same for both sides', async () => {
    const { id, pdf } = await publishedQuote();
    await call(contact, 'POST', `/api/quotes/${id}/accept`, {
      typedName: 'Claire Martin',
      confirm: true,
      poNumber: 'PO-1',
      localisationId: 'en',
    });
    const buyerCopy = await call(contact, 'GET', `/api/quotes/${id}/acceptance/signed-pdf`);
    expect(buyerCopy.statusCode, buyerCopy.body).toBe(200);
    expect(buyerCopy.headers['content-type']).toBe('application/pdf');
    const staffCopy = await call(sales, 'GET', `/api/quotes/${id}/acceptance/signed-pdf`);
    expect(staffCopy.rawPayload.equals(buyerCopy.rawPayload)).toBe(true);
    // An incremental update: the signed file starts with the exact bytes the buyer was shown.
    expect(buyerCopy.rawPayload.subarray(0, pdf!.length).equals(pdf!)).toBe(true);
    const report = pdfsig(buyerCopy.rawPayload);
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signing Hash Algorithm: SHA-256');
    expect(report).toMatch(
      /Certificate Validation: Certificate issuer is unknown|Certificate is not trusted|Certificate has Expired/,
    );
    // The organisation's certificate was made once, its private key stored sealed.
    const [key] = await t.app.ctx.db
      .select()
      .from(organisationSigningKeys)
      .where(eq(organisationSigningKeys.organisationId, admin.organisationId));
    expect(key!.privateKeySealed).toMatch(/^sealed:v1:/);
    expect(key!.privateKeySealed).not.toContain('PRIVATE KEY');
  });

  it('a tampered copy fails pdfsig', async () => {
    const { id } = await publishedQuote();
    await call(contact, 'POST', `/api/quotes/${id}/accept`, { typedName: 'Claire Martin', confirm: true });
    const signed = Buffer.from(
      (await call(contact, 'GET', `/api/quotes/${id}/acceptance/signed-pdf`)).rawPayload,
    );
    // Change one byte inside the shown PDF's first content (a covered range).
    const at = signed.indexOf('%PDF-') + 200;
    signed[at] = signed[at]! ^ 0x01;
    expect(pdfsig(signed)).not.toContain('Signature is Valid.');
  });
});

describe('guest acceptance', () => {
  async function guestLink(id: string, localisationId = 'en') {
    const response = await call(sales, 'POST', `/api/quotes/${id}/guest-links`, { localisationId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().token as string;
  }

  it('a guest reviews and accepts through the link, with the same evidence', async () => {
    const { id, code } = await publishedQuote({ pdf: false });
    const token = await guestLink(id, 'de');
    const view = await call(null, 'GET', `/api/public/quotes/${token}`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      quote: { id, code, state: 'published' },
      localisationId: 'de',
      acceptance: null,
    });
    expect(JSON.stringify(view.json())).not.toMatch(/cost|margin|rate/i);
    const shown = await call(null, 'GET', `/api/public/quotes/pdf/${token}`);
    expect(sha256(shown.rawPayload)).toBe(view.json().pdfSha256);

    expectProblem(
      await call(null, 'POST', `/api/public/quotes/${token}/accept`, {
        typedName: 'Hans Berg',
        confirm: true,
      }),
      400,
      'validation_failed',
    );
    const accepted = await call(null, 'POST', `/api/public/quotes/${token}/accept`, {
      typedName: 'Hans Berg',
      email: 'hans@buyer.example',
      confirm: true,
      poNumber: 'B-55',
      pdfSha256: view.json().pdfSha256,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      quote: { state: 'signed' },
      acceptance: {
        decision: 'accepted',
        actorRole: 'guest',
        userId: null,
        email: 'hans@buyer.example',
        typedName: 'Hans Berg',
        localisationId: 'de',
        pdfSha256: sha256(shown.rawPayload),
        pdfHashFromClient: true,
        signedPdfUrl: `/api/public/quotes/${token}/signed-pdf`,
      },
    });
    const evidence = (await call(sales, 'GET', `/api/quotes/${id}/acceptance`)).json();
    expect(evidence.guestLinkId).toEqual(expect.any(String));
    const signed = await call(null, 'GET', `/api/public/quotes/${token}/signed-pdf`);
    expect(signed.statusCode).toBe(200);
    expect(pdfsig(signed.rawPayload)).toContain('Signature is Valid.');
    expectProblem(
      await call(null, 'POST', `/api/public/quotes/${token}/decline`, { reason: 'changed my mind' }),
      409,
      'invalid_transition',
    );
  });

  it('a guest declines with a reason; revoked links and unknown tokens are refused', async () => {
    const { id } = await publishedQuote();
    const token = await guestLink(id);
    const declined = await call(null, 'POST', `/api/public/quotes/${token}/decline`, {
      reason: 'Budget cut',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().acceptance).toMatchObject({
      decision: 'declined',
      reason: 'Budget cut',
      actorRole: 'guest',
    });
    expectProblem(await call(null, 'GET', `/api/public/quotes/${'x'.repeat(43)}`), 404);

    const other = await publishedQuote();
    const links = await call(sales, 'POST', `/api/quotes/${other.id}/guest-links`, { localisationId: 'en' });
    await call(sales, 'DELETE' as 'GET', `/api/quotes/${other.id}/guest-links/${links.json().id}`);
    expectProblem(
      await call(null, 'POST', `/api/public/quotes/${links.json().token}/accept`, {
        typedName: 'X',
        email: 'x@example.com',
        confirm: true,
      }),
      410,
      'guest_link_revoked',
    );
  });
});

describe('notification e-mails', () => {
  it('the buyer contact on publish (portal link, their language); the sales owner on accept and decline', async () => {
    const { id, code } = await publishedQuote();
    const published = await waitForMail((m) => m.to.includes(contact.email) && textOf(m).includes(code));
    const text = textOf(published);
    expect(text).toMatch(/^Subject: .*Devis/m);
    expect(text).toContain(`https://quotes.example/app/quotes/${id}`);
    expect(text).toContain('Consultez-le');

    await call(contact, 'POST', `/api/quotes/${id}/accept`, {
      typedName: 'Claire Martin',
      confirm: true,
      poNumber: 'PO-9',
    });
    const accepted = await waitForMail(
      (m) => m.to.includes(sales.email) && textOf(m).includes(`${code} accepted`),
    );
    expect(textOf(accepted)).toContain('Claire Martin');
    expect(textOf(accepted)).toContain('PO number: PO-9');

    const second = await publishedQuote();
    await call(contact, 'POST', `/api/quotes/${second.id}/decline`, { reason: 'Lead time too long' });
    const declined = await waitForMail(
      (m) => m.to.includes(sales.email) && textOf(m).includes(`${second.code} declined`),
    );
    expect(textOf(declined)).toContain('Reason: Lead time too long');

    const [row] = await t.app.ctx.db
      .select()
      .from(emailOutbox)
      .where(
        and(eq(emailOutbox.organisationId, admin.organisationId), eq(emailOutbox.kind, 'quote_declined')),
      );
    expect(row).toMatchObject({ to: [sales.email] });
  });

  it('a comment on a quote tells its owner; an opted-out user gets nothing', async () => {
    const { id, code } = await publishedQuote();
    // The comments service, as a contact (the route, POST /quotes/{id}/comments, in test/reorders/portal.test.ts).
    const comments = createCommentsService(t.app.ctx);
    await comments.create(
      { ...systemActor(admin.organisationId, contact.userId), role: 'contact' },
      { entity: 'quote', entityId: id },
      'Can you ship in March?',
    );
    const told = await waitForMail(
      (m) => m.to.includes(sales.email) && textOf(m).includes('Can you ship in March?'),
    );
    expect(textOf(told)).toMatch(/^Subject: .*comment/m);
    expect(textOf(told)).toContain('Claire Martin');
    const prefs = await call(sales, 'PUT', '/api/users/me/notification-preferences', {
      emailOptOuts: ['quote_accepted'],
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    expect(prefs.json().kinds).toContainEqual(
      expect.objectContaining({ kind: 'quote_accepted', enabled: false }),
    );
    expectProblem(
      await call(sales, 'PUT', '/api/users/me/notification-preferences', { emailOptOuts: ['nope'] }),
      400,
    );
    await call(contact, 'POST', `/api/quotes/${id}/accept`, { typedName: 'Claire', confirm: true });
    const rows = await t.app.ctx.db
      .select()
      .from(emailOutbox)
      .where(
        and(eq(emailOutbox.organisationId, admin.organisationId), eq(emailOutbox.kind, 'quote_accepted')),
      );
    expect(rows.filter((r) => r.text.includes(code))).toEqual([]);
    await call(sales, 'PUT', '/api/users/me/notification-preferences', { emailOptOuts: [] });
  });
});
