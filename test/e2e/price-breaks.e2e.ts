import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../helpers/pdf-text.ts';
import { makePng } from '../helpers/png.ts';
import { expectAccessible } from './axe.ts';
import { ARTIFACTS, clearScreenshots, openE2eSession, screenshot as shot } from './harness.ts';

/**
 * Price-break columns end to end, in English, French and German (docs/quotes.md, "Price breaks"):
 * a sales user edits a draft line, adds columns (a suggestion from the brief's quantity curve and
 * a typed quantity), publishes; the PDF preview shows the seller's logo, terms, the two variants
 * (named artworks) of the line, its style in the language and the columns
 * (rendered with pdftoppm to test-results/e2e/price-breaks-<lang>-pdf-1.png); the buyer accepts
 * choosing a column, and the order takes its quantity. Screenshots: test-results/e2e/price-breaks-*.png.
 */
const e2e = openE2eSession({ name: 'price-breaks' });
const { url, signInAs, signOut } = e2e;
const SALES = { email: 'sales@breaks.test', password: 'sales-password-1' };
const BUYER = { email: 'buyer@breaks.test', password: 'buyer-password-1' };
const state = {} as { companyId: string; briefId: string };
const screenshot = (name: string) => shot(e2e.page, `price-breaks-${name}`);

const WORDS = {
  en: {
    edit: 'Edit',
    discount: 'Discount',
    comment: 'Comment',
    save: 'Save',
    add: 'Add column',
    title: 'Price breaks',
    publish: 'Publish',
    published: 'Published',
    signed: 'Signed',
    terms: 'ARTICLE 1 - SCOPE. These conditions govern every sale.',
    style: 'Straight tuck end carton',
    variant: 'Lemon · Artwork ART-LEMON-v2',
  },
  fr: {
    edit: 'Modifier',
    discount: 'Remise',
    comment: 'Commentaire',
    save: 'Enregistrer',
    add: 'Ajouter une colonne',
    title: 'Prix par quantité',
    publish: 'Publier',
    published: 'Publié',
    signed: 'Signé',
    terms: 'ARTICLE 1 - OBJET. Les présentes conditions régissent toute vente.',
    style: 'Étui à rabats droits',
    variant: 'Lemon · Fichier ART-LEMON-v2',
  },
  de: {
    edit: 'Bearbeiten',
    discount: 'Rabatt',
    comment: 'Kommentar',
    save: 'Speichern',
    add: 'Spalte hinzufügen',
    title: 'Staffelpreise',
    publish: 'Veröffentlichen',
    published: 'Veröffentlicht',
    signed: 'Unterschrieben',
    terms: 'ARTIKEL 1 - GELTUNGSBEREICH. Diese Bedingungen gelten für jeden Verkauf.',
    style: 'Faltschachtel mit gleichseitigen Steckverschlüssen',
    variant: 'Lemon · Druckvorlage ART-LEMON-v2',
  },
} as const;

async function switchLanguage(language: string) {
  await e2e.page.evaluate((lang) => localStorage.setItem('pqs.language', lang), language);
  await e2e.page.reload();
}

/** Back to English (the harness signs in and out with English labels), then signed out. */
async function leave() {
  await switchLanguage('en');
  await signOut();
}

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('price-breaks-'));
  e2e.page.setDefaultTimeout(20_000);
  await e2e.api('PATCH', '/api/organisation/settings', {
    legalName: 'Cartonnages Dupré SAS',
    paymentTerms: '30 days net',
    termsAndConditions: { en: WORDS.en.terms, fr: WORDS.fr.terms, de: WORDS.de.terms },
  });
  const form = new FormData();
  const logo = makePng(240, 60, (x, y) =>
    x < 60 ? [31, 78, 121] : y % 20 < 10 ? [200, 120, 40] : [255, 255, 255],
  );
  form.append('file', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
  const uploaded = await fetch(`${e2e.service.baseUrl}/api/organisation/settings/logo`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${e2e.token}` },
    body: form,
  });
  expect(uploaded.status, await uploaded.text()).toBe(200);
  const company = await e2e.api('POST', '/api/companies', { name: 'Breaks Teas' });
  state.companyId = company.id;
  await e2e.api('POST', '/api/users', { email: SALES.email, password: SALES.password, role: 'sales' });
  await e2e.api('POST', '/api/users', {
    email: BUYER.email,
    password: BUYER.password,
    role: 'contact',
    companyIds: [company.id],
  });
  const products = await e2e.api('GET', '/api/products');
  const boards = await e2e.api('GET', '/api/material-references');
  const brief = await e2e.api('POST', '/api/briefs', {
    companyId: company.id,
    name: 'Tea box',
    briefElements: [
      {
        position: 0,
        productId: products.find((p: { code: string }) => p.code === 'STE').id,
        materialReferenceId: boards.find((b: { code: string }) => b.code === 'GC1-350').id,
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        // Two artworks making the 5,000 pieces: sub-lines of the element's line and of the PDF.
        decorationsCount: [
          { decorationIndex: 0, quantity: 2000, name: 'Lemon', artworkReference: 'ART-LEMON-v2' },
          { decorationIndex: 1, quantity: 3000, name: 'Mint', artworkReference: 'ART-MINT-v1' },
        ],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
      },
    ],
  });
  state.briefId = brief.id;
});

describe('price-break columns, end to end', () => {
  for (const language of ['en', 'fr', 'de'] as const) {
    const w = WORDS[language];
    it(`${language}: sales add columns and publish, the PDF shows them, the buyer accepts one`, async () => {
      const { page } = e2e;
      const quote = await e2e.api('POST', '/api/quotes', {
        companyId: state.companyId,
        name: `Tea boxes (${language})`,
        briefIds: [state.briefId],
      });
      await signInAs(SALES.email, SALES.password);
      await switchLanguage(language);
      await page.goto(url(`/quotes/${quote.id}`));
      // Row 0 is the brief's group line, row 1 its element.
      const line = page.getByTestId('quote-line').nth(1);
      // The element's line is named by its style in the user's language (the catalogue's names).
      await expect.poll(() => line.textContent()).toContain(w.style);
      await line.getByRole('button', { name: w.edit, exact: true }).click();
      const dialog = page.getByRole('dialog');
      const field = dialog.getByTestId('price-breaks-field');
      // A suggestion of the brief's quantity curve, the line's own quantity, and one typed in.
      await field.getByTestId('price-break-suggestion').first().waitFor();
      await field.getByTestId('price-break-suggestion').first().click();
      await field.getByTestId('price-break-quantity').fill('5000');
      await field.getByRole('button', { name: w.add }).click();
      await field.getByTestId('price-break-quantity').fill('10000');
      await field.getByRole('button', { name: w.add }).click();
      await expect.poll(() => field.getByTestId('price-break-chip').count()).toBe(3);
      // The line itself edited too: a 5 % discount and a comment, saved with the columns.
      await dialog.getByText('%', { exact: true }).click();
      await dialog.getByRole('textbox', { name: w.discount }).fill('5');
      await dialog.getByRole('textbox', { name: w.comment, exact: true }).fill(`Proof by ${language}`);
      await screenshot(`${language}-01-line-dialog`);
      await dialog.getByRole('button', { name: w.save, exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const edited = (await e2e.api('GET', `/api/quotes/${quote.id}`)).items[0].children[0];
      expect(edited).toMatchObject({ discountPercent: 5, comment: `Proof by ${language}` });
      expect(edited.priceBreaks).toHaveLength(3);
      const table = page.getByTestId('price-breaks');
      await table.waitFor();
      await expect.poll(() => table.getByTestId('price-break-total').count()).toBe(3);
      expect(await table.textContent()).toContain(w.title);
      await screenshot(`${language}-02-draft-columns`);
      await expectAccessible(page, `price breaks (${language})`);
      await expect
        .poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 15_000 })
        .toBe(0);

      await page.getByRole('button', { name: w.publish, exact: true }).click();
      await expect.poll(() => page.getByTestId('quote-state').textContent()).toBe(w.published);
      await page.getByTestId('pdf-preview').click();
      await page.getByTestId('pdf-frame').waitFor();
      const response = await e2e.context.request.get(
        `${e2e.service.baseUrl}/api/quotes/${quote.id}/localisation/${language}`,
      );
      expect(response.headers()['content-type']).toContain('application/pdf');
      const bytes = await response.body();
      const text = extractPdfText(bytes);
      expect(text).toContain(w.title);
      expect(text).toContain('Cartonnages Dupré SAS');
      expect(text).toContain(w.terms);
      // The variants under the element's line, the style in the quote's language.
      expect(text.replace(/\s+/g, ' ')).toContain(w.variant);
      expect(text).toContain('Mint');
      expect(text.replace(/\s+/g, ' ')).toContain(w.style);
      mkdirSync(ARTIFACTS, { recursive: true });
      const file = join(ARTIFACTS, `price-breaks-${language}.pdf`);
      writeFileSync(file, bytes);
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '60',
        '-f',
        '1',
        '-l',
        '1',
        file,
        join(ARTIFACTS, `price-breaks-${language}-pdf`),
      ]);
      await screenshot(`${language}-03-published`);

      const published = await e2e.api('GET', `/api/quotes/${quote.id}`);
      const columns = published.priceBreakColumns as { id: string; quantity: number; totalPrice: number }[];
      expect(columns.map((c) => c.quantity)).toHaveLength(3);
      await leave();
      await signInAs(BUYER.email, BUYER.password);
      await switchLanguage(language);
      await page.goto(url(`/quotes/${quote.id}`));
      await page.getByTestId('price-breaks').waitFor();
      await page.getByTestId('quote-accept').click();
      const accept = page.getByTestId('accept-dialog');
      await accept.getByTestId('accept-option').waitFor();
      expect(await accept.getByTestId('accept-option-radio').count()).toBe(3);
      await accept.getByTestId('accept-name').fill('Bea Buyer');
      await accept.getByTestId('accept-confirm').check();
      // No column chosen yet: signing waits for one.
      expect(await accept.getByTestId('accept-submit').isDisabled()).toBe(true);
      await accept.getByRole('radio').nth(2).check();
      await screenshot(`${language}-04-accept-dialog`);
      await expectAccessible(page, `accept with a column (${language})`);
      await accept.getByTestId('accept-submit').click();
      await expect.poll(() => page.getByTestId('quote-state').textContent()).toBe(w.signed);
      // The signed quote marks the buyer's column.
      await page.getByTestId('price-break-chosen').waitFor();
      await screenshot(`${language}-05-signed`);
      const evidence = await e2e.api('GET', `/api/quotes/${quote.id}/acceptance`);
      expect(evidence.option).toMatchObject({ id: '3', quantity: columns[2]!.quantity });
      const { order } = await e2e.api('POST', `/api/quotes/${quote.id}/order`, {});
      expect(order.billedAmount).toBe(columns[2]!.totalPrice);
      expect(JSON.stringify(order.items)).toContain(`"quantity":${columns[2]!.quantity}`);
      await leave();
    });
  }
});
