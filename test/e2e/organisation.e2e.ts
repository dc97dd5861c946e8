import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '../helpers/png.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, ARTIFACTS, openE2eSession, screenshot } from './harness.ts';

/**
 * The Organisation screen in Chromium (1440x900): an admin sets the seller's identity (a bad IBAN
 * refused under its field), uploads a logo and sees its preview, sets the VAT rate and the terms;
 * a quote then shows its net, VAT and gross totals and its terms. English and French screenshots
 * go to test-results/e2e (organisation-*.png).
 */
const e2e = openE2eSession({ name: 'organisation', context: { viewport: { width: 1440, height: 900 } } });
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });

describe('the Organisation screen, end to end', () => {
  it('an admin sets the identity, the logo, the VAT and the terms', async () => {
    const { page } = e2e;
    await e2e.signInAs(ADMIN.email, ADMIN.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organisation' }).click();
    await page.getByRole('heading', { name: 'Organisation' }).waitFor();
    await page.getByLabel('Legal name').fill('Cartonnages Dupré SAS');
    await page.getByLabel('Trading name').fill('Dupré Packaging');
    await page.getByLabel('VAT number').fill('FR 40 303 265 045');
    await page.getByLabel('Company registration').fill('RCS Lyon 303 265 045');
    await page.getByLabel('Street', { exact: true }).first().fill('12 rue des Papetiers');
    await page.getByLabel('Postcode').first().fill('69007');
    await page.getByLabel('City').first().fill('Lyon');
    await page.getByLabel('Country (ISO code)').first().fill('FR');
    await page.getByLabel('Bank', { exact: true }).fill('Banque de Lyon');
    await page.getByLabel('IBAN').fill('FR14 2004 1010 0505 0001 3M02 607');
    await page.getByLabel('BIC').fill('PSSTFRPPXXX');
    await page.getByLabel('Payment terms').fill('30 days net from invoice date');
    await page.getByLabel('Payment days').fill('30');
    await page.getByLabel('Default VAT rate').fill('20');
    await page
      .getByLabel('Terms and conditions (en)')
      .fill('ARTICLE 1 - SCOPE. These conditions govern every sale.');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    // The IBAN's checksum is wrong: the API's pointer lands under the field.
    await poll(() => page.locator('.mantine-TextInput-error').first().textContent()).toMatch(/IBAN/i);
    await screenshot(page, 'organisation-01-bad-iban');
    await page.getByLabel('IBAN').fill('FR14 2004 1010 0505 0001 3M02 606');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const settings = await e2e.api('GET', '/api/organisation/settings');
    expect(settings).toMatchObject({
      legalName: 'Cartonnages Dupré SAS',
      vatNumber: 'FR40303265045',
      iban: 'FR1420041010050500013M02606',
      defaultVatRate: 20,
      registeredAddress: { city: 'Lyon', countryCode: 'FR' },
    });
    // The logo: chosen in the file dialog, shown once stored.
    const logo = join(ARTIFACTS, 'organisation-logo.png');
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(
      logo,
      makePng(240, 60, (x, y) => (x < 60 ? [31, 78, 121] : y % 20 < 10 ? [200, 120, 40] : [255, 255, 255])),
    );
    await page.locator('input[type=file]').setInputFiles(logo);
    await page.getByText('Logo saved').waitFor();
    const preview = page.getByRole('img', { name: 'The organisation’s logo' });
    await preview.waitFor();
    await poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    expect(readFileSync(logo).length).toBeGreaterThan(0);
    await screenshot(page, 'organisation-02-saved-en');
    await expectAccessible(page, 'organisation');
  });

  it('a quote shows its net, VAT and gross totals and its terms; the screen in French', async () => {
    const { page } = e2e;
    const company = await e2e.api('POST', '/api/companies', { name: 'Lyon Thé', vatNumber: 'FR83404833048' });
    await e2e.api('POST', '/api/addresses', {
      companyId: company.id,
      type: 'billing',
      street1: '1 quai Rambaud',
      city: 'Lyon',
      countryCode: 'FR',
    });
    const article = await e2e.api('POST', '/api/articles', {
      companyId: company.id,
      name: 'Folding carton',
      code: 'FC-1',
      price: 1.2345,
    });
    const quote = await e2e.api('POST', '/api/quotes', {
      companyId: company.id,
      items: [{ articleId: article.id, quantity: 1000 }],
      poNumber: 'PO-2026-118',
    });
    expect(quote).toMatchObject({ vatRate: 20, netTotal: 1234.5, vatAmount: 246.9, grossTotal: 1481.4 });
    await page.goto(e2e.url(`/quotes/${quote.id}`));
    await page.getByTestId('quote-vat').waitFor();
    await poll(() => page.getByTestId('quote-vat').textContent()).toContain('€1,481.40');
    await poll(() => page.getByTestId('quote-terms').textContent()).toContain('PO-2026-118');
    await expect(page.getByTestId('quote-terms').textContent()).resolves.toContain(
      '30 days net from invoice date',
    );
    await screenshot(page, 'organisation-03-quote-en');
    await page.evaluate(() => localStorage.setItem('pqs.language', 'fr'));
    await page.reload();
    await poll(() => page.getByTestId('quote-vat').textContent()).toContain('Total TTC');
    await screenshot(page, 'organisation-04-quote-fr');
    await page.goto(e2e.url('/admin/organisation'));
    await page.getByRole('heading', { name: 'Organisation' }).waitFor();
    await page.getByLabel('Raison sociale').waitFor();
    await screenshot(page, 'organisation-05-fr');
    await page.evaluate(() => localStorage.setItem('pqs.language', 'en'));
  });
});
