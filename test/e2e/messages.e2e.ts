import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCartonBrief } from './fixtures.ts';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 26: refusals in the user's words and language. In French and German, forms submitted with
 * invalid input show the catalogue's sentence under the field the API's pointer names, and no
 * schema text, pointer or id reaches the screen (`body /`, `must `, `params /`, a UUID). German is
 * chosen in the language picker (issue 24). Screenshots: test-results/e2e/messages-*.png and
 * /tmp/shots-words/.
 */
const e2e = openE2eSession({ name: 'messages' });
const SHOTS = '/tmp/shots-words';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

async function shot(page: Page, name: string) {
  await screenshot(page, `messages-${name}`);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The text a user reads, which the API's raw wording never is part of. */
async function expectNoRawText(page: Page) {
  const text = await page.locator('body').innerText();
  for (const raw of ['body /', 'must ', 'params /'])
    expect(text, `visible text holds "${raw}"`).not.toContain(raw);
  expect(text).not.toMatch(UUID);
  return text;
}

/** The text Mantine ties to an input (aria-describedby): its error message under the field. */
async function describedBy(page: Page, label: string) {
  const input = page.getByRole('dialog').getByRole('textbox', { name: label, exact: true });
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  return (await Promise.all(ids.map((id) => page.locator(`#${id}`).innerText()))).join(' ');
}

/** Chooses a language in the header's picker (its label is in the current language). */
async function chooseLanguage(page: Page, label: string) {
  await page.getByRole('combobox', { name: /^(Language|Langue|Sprache)$/ }).click();
  await page.getByRole('option', { name: label }).click();
  await page.waitForFunction(
    (lng) => document.documentElement.lang === lng,
    label === 'Deutsch' ? 'de' : 'fr',
  );
}

const cases = [
  {
    lng: 'fr',
    picker: 'Français',
    companies: 'Sociétés',
    newCompany: 'Nouvelle société',
    name: 'Nom',
    email: 'E-mail',
    create: 'Créer',
    nameMessage: 'Obligatoire',
    emailMessage: 'Saisissez une adresse e-mail valide',
    summary: 'Certains champs ne sont pas valides',
    settings: 'Statuts et réglages',
    fieldsTab: 'Champs personnalisés',
    newField: 'Nouveau champ',
    label: 'Libellé',
    key: 'Clé',
    keyMessage: 'Lettres, chiffres et tirets bas uniquement, en commençant par une lettre',
    badLink: "L'adresse de cette page n'est pas valide",
  },
  {
    lng: 'de',
    picker: 'Deutsch',
    companies: 'Firmen',
    newCompany: 'Neue Firma',
    name: 'Name',
    email: 'E-Mail',
    create: 'Anlegen',
    nameMessage: 'Pflichtfeld',
    emailMessage: 'Bitte eine gültige E-Mail-Adresse eingeben',
    summary: 'Einige Felder sind ungültig',
    settings: 'Status & Einstellungen',
    fieldsTab: 'Zusatzfelder',
    newField: 'Neues Feld',
    label: 'Bezeichnung',
    key: 'Schlüssel',
    keyMessage: 'Nur Buchstaben, Ziffern und Unterstriche, beginnend mit einem Buchstaben',
    badLink: 'Die Adresse dieser Seite ist ungültig',
  },
] as const;

describe('refusals in the user’s words, French and German', () => {
  it('signs in and finds German in the language picker', async () => {
    await e2e.signInAs(ADMIN.email, ADMIN.password);
    await e2e.page.getByRole('combobox', { name: 'Language' }).click();
    await e2e.page.getByRole('option', { name: 'Deutsch' }).waitFor();
    await e2e.page.keyboard.press('Escape');
  });

  for (const c of cases) {
    it(`${c.lng}: an invalid company shows the catalogue sentence on each field`, async () => {
      const { page } = e2e;
      await page.goto(e2e.url('/companies'));
      await chooseLanguage(page, c.picker);
      await page.getByRole('heading', { name: c.companies }).waitFor();
      await page.getByRole('button', { name: c.newCompany }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(c.email).fill('not-an-address');
      await dialog.getByRole('button', { name: c.create }).click();
      // Mantine links the error text to its input (aria-describedby): the sentence is that field's.
      const name = dialog.getByRole('textbox', { name: c.name, exact: true });
      await expect.poll(() => name.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
      expect(await describedBy(page, c.name)).toContain(c.nameMessage);
      expect(await describedBy(page, c.email)).toContain(c.emailMessage);
      await expect
        .poll(() => dialog.getByRole('alert').innerText(), { timeout: 20_000 })
        .toContain(c.summary);
      const text = await expectNoRawText(page);
      expect(text).toContain(c.nameMessage);
      await shot(page, `${c.lng}-company-form`);
      await page.keyboard.press('Escape');
    });

    it(`${c.lng}: a custom field key against its pattern shows the sentence, not the regex`, async () => {
      const { page } = e2e;
      await page.goto(e2e.url('/admin/settings'));
      await page.getByRole('heading', { name: c.settings }).first().waitFor();
      await page.getByRole('tab', { name: c.fieldsTab }).click();
      await page.getByRole('button', { name: c.newField }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: c.label, exact: true }).fill('PO');
      await dialog.getByRole('textbox', { name: c.key, exact: true }).fill('1 bad key');
      await dialog.getByRole('button', { name: c.create }).click();
      const key = dialog.getByRole('textbox', { name: c.key, exact: true });
      await expect.poll(() => key.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
      expect(await describedBy(page, c.key)).toContain(c.keyMessage);
      const text = await expectNoRawText(page);
      expect(text).not.toContain('^[a-zA-Z]');
      await shot(page, `${c.lng}-custom-field`);
      await page.keyboard.press('Escape');
    });

    it(`${c.lng}: a malformed id in the address is a bad link, in words`, async () => {
      const { page } = e2e;
      await page.goto(e2e.url('/companies/not-a-uuid'));
      await page.getByText(c.badLink).waitFor();
      await expectNoRawText(page);
      await shot(page, `${c.lng}-bad-link`);
    });
  }

  it('de: the configurator prices in German and words a refused quantity, its savings and its lead time', async () => {
    const { page } = e2e;
    const company = await e2e.api('POST', '/api/companies', { name: 'Kaffee Rösterei' });
    await page.goto(e2e.url(`/briefs/new?companyId=${company.id}`));
    await page.getByRole('heading', { name: 'Briefing-Konfigurator' }).waitFor();
    const pick = async (label: string, option: RegExp) => {
      await page.getByRole('combobox', { name: label }).first().click();
      await page.getByRole('option', { name: option }).first().click();
    };
    await page.getByLabel('Name des Briefings').fill('Kaffeeschachtel');
    await pick('Bauart', /STE/);
    await page.getByRole('textbox', { name: 'Länge (mm)' }).fill('120');
    await page.getByRole('textbox', { name: 'Breite (mm)' }).fill('40');
    await page.getByRole('textbox', { name: 'Höhe (mm)' }).fill('180');
    await pick('Karton', /GC1/);
    await page.getByTestId('estimate-total').waitFor();
    await expect
      .poll(() => page.getByTestId('estimate-total').textContent(), { timeout: 30_000 })
      .toMatch(/€/);
    // German plural of the lead time, and the engine's words in German (no English description).
    await expect
      .poll(() => page.locator('body').innerText(), { timeout: 30_000 })
      .toMatch(/\d+ Arbeitstage?\b/);
    await page.getByRole('heading', { name: 'Wertanalyse' }).waitFor();
    const priced = await expectNoRawText(page);
    for (const english of ['instead of', 'gang run', 'working day', 'drop the'])
      expect(priced).not.toContain(english);
    await shot(page, 'de-configurator');

    // A quantity beyond the engine's limit: the estimate is refused, in words, with the limit in German.
    await page.getByTestId('quantity-0-0').fill('60000000');
    await page.getByText('Höchstens 50.000.000').first().waitFor({ timeout: 30_000 });
    await expectNoRawText(page);
    await shot(page, 'de-configurator-refused');
  });

  it('de: a quote’s PDF is made in German from the quote page', async () => {
    const { page } = e2e;
    const company = await e2e.api('POST', '/api/companies', { name: 'Tee Kontor' });
    const brief = await createCartonBrief(e2e.api, company.id, 'Teeschachtel');
    const quote = await e2e.api('POST', '/api/quotes', {
      companyId: company.id,
      name: 'Tee 2027',
      briefIds: [brief.id],
    });
    await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
    await page.goto(e2e.url(`/quotes/${quote.id}`));
    const panel = page.getByTestId('pdf-panel');
    await panel.waitFor();
    // The PDF language follows the app's: German is offered and chosen.
    await expect
      .poll(() => panel.getByRole('radio', { name: 'Deutsch' }).isChecked(), { timeout: 20_000 })
      .toBe(true);
    const rendered = page.waitForResponse(
      (r) => r.url().endsWith('/generate-pdf') && r.request().method() === 'POST',
    );
    await panel.getByRole('button', { name: 'PDF-Vorschau' }).click();
    const response = await rendered;
    expect(response.ok()).toBe(true);
    expect(JSON.parse(response.request().postData() ?? '{}')).toEqual({ localisationId: 'de' });
    await expectNoRawText(page);
    await shot(page, 'de-quote-pdf');
  });
});
