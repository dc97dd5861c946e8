/**
 * The seller's identity and commercial settings (docs/settings-and-files.md), the customers' VAT
 * fields, the terms and VAT of the quotes and what the quote PDF prints of them (docs/quotes.md,
 * "VAT and terms"). Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, articles } from '../../src/db/schema/index.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, eventReader, expectProblem, type Json, linker } from '../helpers/http.ts';
import { makePng } from '../helpers/png.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let externalSales: Credentials;
let guest: Credentials;
let contact: Credentials;
let otherAdmin: Credentials;

const call = caller(() => t);
const eventsOf = eventReader(() => t);
const link = linker(() => t);
const SETTINGS = '/api/organisation/settings';
const LOGO = '/api/organisation/settings/logo';

/** Text with every kind of space as one plain space. */
const flat = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

/**
 * The text of a PDF as poppler's pdftotext reads it (pdfjs-dist is not installed), in layout
 * mode so that a label and its value on one row read as one line; spaces flattened.
 */
function pdfText(pdf: Buffer): string {
  return flat(
    execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8'),
  );
}

async function multipart(file: { content: Uint8Array; filename: string; type: string }) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.content)], { type: file.type }), file.filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

async function uploadLogo(who: Credentials, file: { content: Uint8Array; filename: string; type: string }) {
  const body = await multipart(file);
  return call(who, 'PUT', LOGO, body.payload, body.headers);
}

const SELLER = {
  legalName: 'Cartonnages Dupré SAS',
  tradingName: 'Dupré Packaging',
  registeredAddress: { street1: '12 rue des Papetiers', postcode: '69007', city: 'Lyon', countryCode: 'FR' },
  email: 'devis@dupre.test',
  phoneNumber: '+33 4 72 00 00 00',
  vatNumber: 'fr 40 303 265 045',
  registrationNumber: 'RCS Lyon 303 265 045',
  bankName: 'Banque de Lyon',
  accountHolder: 'Cartonnages Dupré SAS',
  iban: 'FR14 2004 1010 0505 0001 3M02 606',
  bic: 'psstfrppxxx',
  paymentTerms: '30 days net from invoice date',
  paymentDays: 30,
  incoterm: 'FCA',
  incotermPlace: 'Lyon',
  deliveryTerms: 'Delivery 3 weeks after artwork approval',
  termsAndConditions: {
    en: 'ARTICLE 1 - SCOPE. These conditions govern every sale of Dupré Packaging.',
    fr: 'ARTICLE 1 - OBJET. Les présentes conditions régissent toute vente de Dupré Packaging.',
  },
  defaultVatRate: 20,
  vatRates: { DE: 19, BE: 21 },
  pdfFooter: 'SAS au capital de 100 000 EUR · www.dupre.test',
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t, 'Default organisation');
  sales = await makeUser(t, admin, 'sales');
  externalSales = await makeUser(t, admin, 'external_sales');
  guest = await makeUser(t, admin, 'guest');
  contact = await makeUser(t, admin, 'contact');
  otherAdmin = await makeOrganisation(t);
});
afterAll(() => t.close());

describe('organisation settings: reads and permissions', () => {
  it('answers the defaults before anything is saved, to every staff role', async () => {
    for (const who of [admin, sales, externalSales]) {
      const response = await call(who, 'GET', SETTINGS);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        organisationId: admin.organisationId,
        name: 'Default organisation',
        legalName: null,
        logo: null,
        iban: null,
        incoterm: null,
        termsAndConditions: {},
        defaultVatRate: null,
        vatRates: {},
        updatedAt: null,
      });
    }
  });

  it('is refused to buyers (contact, guest): they see only what their PDF prints', async () => {
    for (const who of [contact, guest]) {
      expectProblem(await call(who, 'GET', SETTINGS), 403, 'forbidden');
      expectProblem(await call(who, 'GET', LOGO), 403, 'forbidden');
    }
  });

  it('is changed by admins only (sales, external sales: 403)', async () => {
    for (const who of [sales, externalSales, contact]) {
      expectProblem(await call(who, 'PATCH', SETTINGS, { legalName: 'Hijack' }), 403, 'forbidden');
    }
    expect((await call(admin, 'GET', SETTINGS)).json().legalName).toBeNull();
  });
});

describe('organisation settings: writes and validation', () => {
  it('saves the identity and terms, normalised, with one event', async () => {
    const response = await call(admin, 'PATCH', SETTINGS, SELLER);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      legalName: 'Cartonnages Dupré SAS',
      vatNumber: 'FR40303265045',
      iban: 'FR1420041010050500013M02606',
      bic: 'PSSTFRPPXXX',
      incoterm: 'FCA',
      registeredAddress: { street1: '12 rue des Papetiers', street2: null, city: 'Lyon', countryCode: 'FR' },
      termsAndConditions: SELLER.termsAndConditions,
      defaultVatRate: 20,
      vatRates: { DE: 19, BE: 21 },
    });
    expect(body.updatedAt).toEqual(expect.any(String));
    const events = (await eventsOf(admin.organisationId)).filter((e) => e.entity === 'ORGANISATION_SETTINGS');
    expect(events.map((e) => e.type)).toEqual(['CREATE']);
    // Only what is sent changes; blank clears; a language of the terms is removed with null.
    const again = await call(admin, 'PATCH', SETTINGS, {
      website: 'www.dupre.test',
      phoneNumber: '  ',
      termsAndConditions: { de: 'Allgemeine Bedingungen.', fr: null },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      website: 'www.dupre.test',
      phoneNumber: null,
      legalName: 'Cartonnages Dupré SAS',
      termsAndConditions: { en: SELLER.termsAndConditions.en, de: 'Allgemeine Bedingungen.' },
    });
    expect(again.json().termsAndConditions.fr).toBeUndefined();
    // Put the French terms back for the PDF tests.
    await call(admin, 'PATCH', SETTINGS, {
      phoneNumber: SELLER.phoneNumber,
      termsAndConditions: SELLER.termsAndConditions,
    });
    // Sales read what the admin wrote.
    expect((await call(sales, 'GET', SETTINGS)).json().legalName).toBe('Cartonnages Dupré SAS');
  });

  it('refuses a bad IBAN, BIC, VAT number, incoterm, rate or country with 400 and pointers', async () => {
    const cases: [Json, string][] = [
      [{ iban: 'FR14 2004 1010 0505 0001 3M02 607' }, '/iban'],
      [{ iban: 'not an iban' }, '/iban'],
      [{ bic: 'PSST' }, '/bic'],
      [{ vatNumber: 'FR123' }, '/vatNumber'],
      [{ vatNumber: 'DE12345678' }, '/vatNumber'],
      [{ incoterm: 'FOO' }, '/incoterm'],
      [{ incoterm: 'DAT' }, '/incoterm'],
      [{ defaultVatRate: 120 }, '/defaultVatRate'],
      [{ defaultVatRate: 5.555 }, '/defaultVatRate'],
      [{ vatRates: { fr: 20 } }, '/vatRates/fr'],
      [
        { registeredAddress: { street1: 'x', city: 'y', countryCode: 'France' } },
        '/registeredAddress/countryCode',
      ],
      [{ paymentDays: -1 }, '/paymentDays'],
    ];
    for (const [body, pointer] of cases) {
      const problem = expectProblem(await call(admin, 'PATCH', SETTINGS, body), 400, 'validation_failed');
      expect(
        problem.errors?.map((e) => e.pointer),
        JSON.stringify(body),
      ).toContain(pointer);
    }
    // Nothing of it was stored.
    expect((await call(admin, 'GET', SETTINGS)).json()).toMatchObject({
      iban: 'FR1420041010050500013M02606',
      incoterm: 'FCA',
      defaultVatRate: 20,
    });
  });

  it('keeps each tenant’s settings to itself', async () => {
    const mine = await call(otherAdmin, 'GET', SETTINGS);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      organisationId: otherAdmin.organisationId,
      legalName: null,
      iban: null,
    });
    const changed = await call(otherAdmin, 'PATCH', SETTINGS, { legalName: 'Other SA', incoterm: 'EXW' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call(admin, 'GET', SETTINGS)).json()).toMatchObject({
      legalName: 'Cartonnages Dupré SAS',
      incoterm: 'FCA',
    });
  });
});

describe('organisation logo', () => {
  const logo = makePng(240, 60, (x, y) =>
    x < 60 ? [31, 78, 121] : y % 20 < 10 ? [200, 120, 40] : [255, 255, 255],
  );

  it('refuses what is not a PNG or JPEG image (415), a huge bitmap (415) and a large file (413)', async () => {
    const text = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expectProblem(
      await uploadLogo(admin, { content: text, filename: 'logo.png', type: 'image/png' }),
      415,
      'unsupported_image',
    );
    expectProblem(
      await uploadLogo(admin, { content: text, filename: 'logo.svg', type: 'image/svg+xml' }),
      415,
      'unsupported_image',
    );
    // A PNG sent as a JPEG.
    expectProblem(
      await uploadLogo(admin, { content: logo, filename: 'logo.jpg', type: 'image/jpeg' }),
      415,
      'unsupported_image',
    );
    // A PNG cut short: its header reads, its data does not.
    expectProblem(
      await uploadLogo(admin, { content: logo.subarray(0, 60), filename: 'logo.png', type: 'image/png' }),
      415,
      'unsupported_image',
    );
    expectProblem(
      await uploadLogo(admin, { content: makePng(5000, 1), filename: 'wide.png', type: 'image/png' }),
      415,
      'unsupported_image',
    );
    const big = Buffer.concat([logo, Buffer.alloc(1024 * 1024)]);
    expectProblem(
      await uploadLogo(admin, { content: big, filename: 'big.png', type: 'image/png' }),
      413,
      'file_too_large',
    );
    expect((await call(admin, 'GET', SETTINGS)).json().logo).toBeNull();
  });

  it('is uploaded by an admin (sales: 403), read back by staff, replaced and removed', async () => {
    expectProblem(
      await uploadLogo(sales, { content: logo, filename: 'logo.png', type: 'image/png' }),
      403,
      'forbidden',
    );
    const response = await uploadLogo(admin, {
      content: logo,
      filename: 'C:\\fakepath\\dupré logo.png',
      type: 'image/png',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().logo).toMatchObject({
      filename: 'dupré logo.png',
      mimeType: 'image/png',
      size: logo.length,
      url: LOGO,
    });
    const read = await call(sales, 'GET', LOGO);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(read.rawPayload, logo)).toBe(0);
    // Another tenant has no logo, and cannot reach this one.
    expectProblem(await call(otherAdmin, 'GET', LOGO), 404, 'not_found');
    // Replaced: the previous file is gone, the new one served.
    const second = makePng(120, 40);
    const replaced = await uploadLogo(admin, { content: second, filename: 'logo2.png', type: 'image/png' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().logo.id).not.toBe(response.json().logo.id);
    expect(Buffer.compare((await call(admin, 'GET', LOGO)).rawPayload, second)).toBe(0);
    const removed = await call(admin, 'DELETE', LOGO);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().logo).toBeNull();
    expectProblem(await call(admin, 'GET', LOGO), 404, 'not_found');
    // Back for the PDF.
    expect(
      (await uploadLogo(admin, { content: logo, filename: 'logo.png', type: 'image/png' })).statusCode,
    ).toBe(200);
  });
});

describe('customers’ VAT fields', () => {
  it('checks the VAT number of an EU prefix, stores it normalised, keeps others as typed', async () => {
    const ok = await call(sales, 'POST', '/api/companies', {
      name: 'Kunde GmbH',
      vatNumber: 'de 123 456 789',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ vatNumber: 'DE123456789', vatExempt: false, vatExemptionReason: null });
    const swiss = await call(sales, 'POST', '/api/companies', {
      name: 'Suisse SA',
      vatNumber: 'CHE-123.456.789 MWST',
    });
    expect(swiss.json().vatNumber).toBe('CHE-123.456.789 MWST');
    const bad = expectProblem(
      await call(sales, 'POST', '/api/companies', { name: 'Bad', vatNumber: 'NL12345678B01' }),
      400,
      'validation_failed',
    );
    expect(bad.errors?.map((e) => e.pointer)).toEqual(['/vatNumber']);
    const patched = expectProblem(
      await call(sales, 'PATCH', `/api/companies/${ok.json().id}`, { vatNumber: 'DE12' }),
      400,
      'validation_failed',
    );
    expect(patched.errors?.[0]?.pointer).toBe('/vatNumber');
  });

  it('takes an exemption only with its reason; lifting it clears the reason', async () => {
    const refused = expectProblem(
      await call(sales, 'POST', '/api/companies', { name: 'Exempt', vatExempt: true }),
      400,
      'validation_failed',
    );
    expect(refused.errors?.[0]?.pointer).toBe('/vatExemptionReason');
    const created = await call(sales, 'POST', '/api/companies', {
      name: 'Embassy',
      vatExempt: true,
      vatExemptionReason: 'Diplomatic mission, art. 151 Directive 2006/112/EC',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expectProblem(await call(sales, 'PATCH', `/api/companies/${id}`, { vatExemptionReason: null }), 400);
    const lifted = await call(sales, 'PATCH', `/api/companies/${id}`, { vatExempt: false });
    expect(lifted.json()).toMatchObject({ vatExempt: false, vatExemptionReason: null });
  });
});

/** A company (with a VAT number, an exemption) and its address in a country. */
async function customer(name: string, country: string, extra: Json = {}) {
  const company = await call(admin, 'POST', '/api/companies', { name, ...extra });
  expect(company.statusCode, company.body).toBe(201);
  const [address] = await t.app.ctx.db
    .insert(addresses)
    .values({
      organisationId: admin.organisationId,
      companyId: company.json().id,
      type: 'billing',
      street1: '1 Main Street',
      city: 'City',
      countryCode: country,
    })
    .returning();
  const [article] = await t.app.ctx.db
    .insert(articles)
    .values({
      organisationId: admin.organisationId,
      companyId: company.json().id,
      name: 'Folding carton',
      code: `FC-${++articlesMade}`,
      price: 1.2345,
    })
    .returning();
  return { companyId: company.json().id as string, addressId: address!.id, articleId: article!.id };
}

let articlesMade = 0;
type Customer = Awaited<ReturnType<typeof customer>>;

/** A draft of 1,000 x 1.2345 = 1,234.50 net for the customer. */
async function quoteFor({ articleId, ...who }: Customer, extra: Json = {}) {
  const response = await call(sales, 'POST', '/api/quotes', {
    ...who,
    items: [{ articleId, quantity: 1000, price: 1.2345 }],
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('quotes: terms and VAT', () => {
  it('takes the organisation’s terms when created, and the sent ones over them', async () => {
    const who = await customer('Lyon Thé', 'FR', { vatNumber: 'FR40303265045' });
    const quote = await quoteFor(who);
    expect(quote).toMatchObject({
      paymentTerms: SELLER.paymentTerms,
      paymentDays: 30,
      incoterm: 'FCA',
      incotermPlace: 'Lyon',
      deliveryTerms: SELLER.deliveryTerms,
      poNumber: null,
    });
    const own = await quoteFor(who, {
      incoterm: 'DAP',
      incotermPlace: 'Paris',
      poNumber: 'PO-778',
      paymentDays: 45,
    });
    expect(own).toMatchObject({
      incoterm: 'DAP',
      incotermPlace: 'Paris',
      poNumber: 'PO-778',
      paymentDays: 45,
    });
    expectProblem(
      await call(sales, 'POST', '/api/quotes', {
        companyId: who.companyId,
        items: [{ articleId: who.articleId, quantity: 1 }],
        incoterm: 'XYZ',
      }),
      400,
    );
  });

  it('are edited in draft with PUT, and locked once published (409)', async () => {
    const who = await customer('Paris Box', 'FR');
    const quote = await quoteFor(who);
    const edited = await call(sales, 'PUT', `/api/quotes/${quote.id}`, {
      poNumber: 'PO-1',
      incoterm: 'EXW',
      deliveryTerms: null,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ poNumber: 'PO-1', incoterm: 'EXW', deliveryTerms: null });
    const published = await call(sales, 'PUT', `/api/quotes/${quote.id}`, { state: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    expectProblem(
      await call(sales, 'PUT', `/api/quotes/${quote.id}`, { poNumber: 'PO-2' }),
      409,
      'quote_locked',
    );
  });

  it('domestic: the default rate, VAT = round(net x rate) once per quote', async () => {
    const quote = await quoteFor(
      await customer('Marseille Emballages', 'FR', { vatNumber: 'FR40303265045' }),
    );
    expect(quote).toMatchObject({
      vatTreatment: 'standard',
      vatRate: 20,
      totalPrice: 1234.5,
      netTotal: 1234.5,
      vatAmount: 246.9,
      grossTotal: 1481.4,
    });
  });

  it('another country’s rate (a private buyer in Germany: 19 %), rounded half up to the cent', async () => {
    const quote = await quoteFor(await customer('Privat Müller', 'DE'));
    // 1,234.50 x 19 % = 234.555 -> 234.56
    expect(quote).toMatchObject({
      vatTreatment: 'standard',
      vatRate: 19,
      vatAmount: 234.56,
      grossTotal: 1469.06,
    });
  });

  it('reverse charge: a customer in another EU country with a VAT number', async () => {
    const quote = await quoteFor(await customer('Kartonagen AG', 'DE', { vatNumber: 'DE123456789' }));
    expect(quote).toMatchObject({
      vatTreatment: 'reverse_charge',
      vatRate: 0,
      vatAmount: 0,
      grossTotal: 1234.5,
    });
  });

  it('exempt: the company’s exemption, with its reason', async () => {
    const quote = await quoteFor(
      await customer('Ambassade', 'FR', { vatExempt: true, vatExemptionReason: 'Mission diplomatique' }),
    );
    expect(quote).toMatchObject({
      vatTreatment: 'exempt',
      vatRate: 0,
      vatExemptionReason: 'Mission diplomatique',
      vatAmount: 0,
      grossTotal: 1234.5,
    });
  });

  it('export: a customer outside the EU pays no VAT', async () => {
    const quote = await quoteFor(await customer('Boston Boxes', 'US'));
    expect(quote).toMatchObject({ vatTreatment: 'export', vatRate: 0, vatAmount: 0 });
  });

  it('follows a change of address while a draft', async () => {
    const fr = await customer('Moving Co', 'FR', { vatNumber: 'FR40303265045' });
    const quote = await quoteFor(fr);
    expect(quote.vatTreatment).toBe('standard');
    const [belgian] = await t.app.ctx.db
      .insert(addresses)
      .values({
        organisationId: admin.organisationId,
        companyId: fr.companyId,
        street1: 'Rue Neuve 1',
        city: 'Bruxelles',
        countryCode: 'BE',
      })
      .returning();
    const moved = await call(sales, 'PUT', `/api/quotes/${quote.id}`, { addressId: belgian!.id });
    expect(moved.statusCode, moved.body).toBe(200);
    // The customer's country is the quote's address: now Belgium, with a VAT number, so a
    // reverse charge (Belgium's 21 % would apply to a buyer without one).
    expect(moved.json()).toMatchObject({ vatTreatment: 'reverse_charge', vatRate: 0 });
  });

  it('a seller without VAT settings prints no VAT (none)', async () => {
    const company = await call(otherAdmin, 'POST', '/api/companies', { name: 'Client' });
    const [article] = await t.app.ctx.db
      .insert(articles)
      .values({
        organisationId: otherAdmin.organisationId,
        companyId: company.json().id,
        name: 'Box',
        code: 'B',
        price: 2,
      })
      .returning();
    const quote = await call(otherAdmin, 'POST', '/api/quotes', {
      companyId: company.json().id,
      items: [{ articleId: article!.id, quantity: 10 }],
    });
    expect(quote.statusCode, quote.body).toBe(201);
    expect(quote.json()).toMatchObject({
      vatTreatment: 'none',
      vatRate: null,
      vatAmount: 0,
      netTotal: 20,
      grossTotal: 20,
    });
  });
});

describe('the quote PDF prints the seller, the terms and the VAT', () => {
  async function publishedPdf(who: Customer, language: string, extra: Json = {}) {
    const quote = await quoteFor(who, { poNumber: 'PO-2026-118', name: 'Tea boxes', ...extra });
    const published = await call(sales, 'PUT', `/api/quotes/${quote.id}`, { state: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    const generated = await call(sales, 'POST', `/api/quotes/${quote.id}/generate-pdf`, {
      localisationId: language,
    });
    expect(generated.statusCode, generated.body).toBe(201);
    // The buyer downloads it: what the PDF prints is what a contact sees of the seller.
    await link(contact, who.companyId);
    const pdf = await call(contact, 'GET', `/api/quotes/${quote.id}/localisation/${language}`);
    expect(pdf.statusCode).toBe(200);
    return { quote: published.json(), pdf: pdf.rawPayload };
  }

  it('in English: identity, logo, bank, terms, PO number, net/VAT/gross, T&Cs page', async () => {
    const who = await customer('Lyon Thé', 'FR', { vatNumber: 'FR40303265045' });
    const { pdf } = await publishedPdf(who, 'en');
    if (process.env.SAMPLE_PDF) writeFileSync(`${process.env.SAMPLE_PDF}-en.pdf`, pdf);
    const text = pdfText(pdf);
    for (const expected of [
      'Dupré Packaging',
      'Cartonnages Dupré SAS',
      '12 rue des Papetiers',
      'VAT no. FR40303265045',
      'Reg. no. RCS Lyon 303 265 045',
      'IBAN FR14 2004 1010 0505 0001 3M02 606',
      'BIC PSSTFRPPXXX',
      'PAYMENT TERMS',
      'BANK DETAILS',
      '30 days net from invoice date · 30 days',
      'FCA Lyon',
      'Delivery 3 weeks after artwork approval',
      'Your PO no. PO-2026-118',
      'Total excl. VAT €1,234.50',
      'VAT 20 % €246.90',
      'Total incl. VAT €1,481.40',
      'Terms and conditions of sale',
      'ARTICLE 1 - SCOPE. These conditions govern every sale of Dupré Packaging.',
      'SAS au capital de 100 000 EUR',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Default organisation');
    // The logo is drawn: an image XObject in the file.
    expect(pdf.toString('latin1')).toMatch(/\/Subtype\s*\/Image/);
  });

  it('in French: the labels, the French T&Cs, the reverse charge mention', async () => {
    const who = await customer('Kartonagen AG', 'DE', { vatNumber: 'DE123456789' });
    const { pdf } = await publishedPdf(who, 'fr');
    if (process.env.SAMPLE_PDF) writeFileSync(`${process.env.SAMPLE_PDF}-fr.pdf`, pdf);
    const text = pdfText(pdf);
    for (const expected of [
      'Cartonnages Dupré SAS',
      'N° TVA FR40303265045',
      'N° TVA DE123456789',
      'CONDITIONS DE PAIEMENT',
      'Votre commande n° PO-2026-118',
      'Total HT 1 234,50 €',
      'TVA : autoliquidation 0,00 €',
      'Total TTC 1 234,50 €',
      'Autoliquidation : TVA due par le preneur',
      'COORDONNÉES BANCAIRES',
      'Titulaire : Cartonnages Dupré SAS',
      'Conditions générales de vente',
      'ARTICLE 1 - OBJET. Les présentes conditions régissent toute vente de Dupré Packaging.',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('These conditions govern');
  });

  it('in French for an exempt customer: “Exonération de TVA : reason”', async () => {
    const who = await customer('Ambassade', 'FR', {
      vatExempt: true,
      vatExemptionReason: 'Mission diplomatique',
    });
    const { pdf } = await publishedPdf(who, 'fr');
    const text = pdfText(pdf);
    expect(text).toContain('TVA : exonération 0,00 €');
    expect(text).toContain('Total TTC 1 234,50 €');
    expect(text).toContain('Exonération de TVA : Mission diplomatique');
  });
});
