import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox } from '../helpers/mailbox.ts';
import { createCartonBrief } from './fixtures.ts';
import { openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 26, forms: password reset through the e-mail the service really sends (a local SMTP server
 * captures it), addresses and projects created and edited on the company page (French and German),
 * and an import's dry run run for real without a new upload. Every message shown is a sentence of
 * the catalogue. Screenshots: test-results/e2e/forms-*.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const box = mailbox();
const { mails } = box;
const env: Record<string, string> = { IMPORT_BATCH_SIZE: '10', MAIL_FROM: 'quotes@e2e.test' };

// Registered before the session's own hooks, so the service starts with SMTP_URL set.
beforeAll(async () => {
  env.SMTP_URL = await box.start();
});
afterAll(() => box.close());

const e2e = openE2eSession({ name: 'forms', env });
const { url } = e2e;

/** The text a user reads: never the API's raw wording nor an id. */
async function expectNoRawText(page: Page) {
  const text = await page.locator('body').innerText();
  for (const raw of ['body /', 'must ', 'params /'])
    expect(text, `visible text holds "${raw}"`).not.toContain(raw);
  expect(text).not.toMatch(UUID);
  return text;
}

function decoded(data: string) {
  const joined = data.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}/.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(joined.charCodeAt(i));
  }
  return Buffer.from(bytes).toString('utf8');
}

async function chooseLanguage(page: Page, label: string, lng: string) {
  await page.getByRole('combobox', { name: /^(Language|Langue|Sprache)$/ }).click();
  await page.getByRole('option', { name: label }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lng);
}

describe('password reset by e-mail', () => {
  it('asks for a link on the sign-in screen, follows the mailed link and signs in with the new password', async () => {
    const email = `reset-${Date.now()}@e2e.test`;
    await e2e.api('POST', '/api/users', {
      email,
      password: 'the-old-password',
      role: 'sales',
      language: 'fr',
    });
    const { page } = e2e;
    await page.goto(url('/sign-in'));
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Username or e-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(/a link is on its way/).waitFor();
    await screenshot(page, 'forms-01-forgot-sent');

    await expect.poll(() => mails.filter((m) => m.to.includes(email)).length, { timeout: 60_000 }).toBe(1);
    const mail = decoded(mails.find((m) => m.to.includes(email))!.data);
    expect(mail).toContain('Choisissez un nouveau mot de passe'); // the user's language
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail)![1]!;

    await page.goto(url(`/reset-password?token=${token}`));
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.locator('input[name=new-password]').fill('short');
    await page.locator('input[name=confirm-password]').fill('short');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('At least 8 characters').first().waitFor();
    await expectNoRawText(page);
    await page.locator('input[name=new-password]').fill('a-new-long-password');
    await page.locator('input[name=confirm-password]').fill('a-new-long-password');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText(/Your password was changed/).waitFor();
    await screenshot(page, 'forms-02-reset-done');

    // The link works once.
    await page.goto(url(`/reset-password?token=${token}`));
    await page.locator('input[name=new-password]').fill('another-long-password');
    await page.locator('input[name=confirm-password]').fill('another-long-password');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page
      .getByText('This password reset link is no longer valid (used or expired); ask for a new one.')
      .waitFor();
    await expectNoRawText(page);
    await screenshot(page, 'forms-03-reset-used');

    await e2e.signInAs(email, 'a-new-long-password');
    await e2e.signOut();
  });
});

describe('the company page', () => {
  it('creates and edits an address and a project (French), with the refusals in words', async () => {
    const company = await e2e.api('POST', '/api/companies', { name: 'Cartonnerie Dupont' });
    const { page } = e2e;
    await e2e.signInAs('admin@e2e.test', 'e2e-admin-password');
    await chooseLanguage(page, 'Français', 'fr');
    await page.goto(url(`/companies/${company.id}`));
    await page.getByRole('tab', { name: 'Adresses' }).click();
    await page.getByRole('button', { name: 'Nouvelle adresse' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await dialog.getByText('Obligatoire').first().waitFor();
    await expectNoRawText(page);
    await screenshot(page, 'forms-04-address-refused-fr');
    await dialog.locator('input[name=street1]').fill('12 rue des Lilas');
    await dialog.locator('input[name=postcode]').fill('69001');
    await dialog.locator('input[name=city]').fill('Lyon');
    await dialog.locator('input[name=countryCode]').fill('fr');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await dialog.waitFor({ state: 'detached' });
    const addresses = page.getByTestId('company-addresses');
    await addresses.getByText('12 rue des Lilas, 69001, Lyon, FR').waitFor();
    await addresses.getByRole('button', { name: 'Modifier' }).click();
    await page.getByRole('dialog').locator('input[name=city]').fill('Villeurbanne');
    await page.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
    await addresses.getByText('12 rue des Lilas, 69001, Villeurbanne, FR').waitFor();
    await screenshot(page, 'forms-05-address-fr');

    await page.getByRole('tab', { name: 'Projets' }).click();
    await page.getByRole('button', { name: 'Nouveau projet' }).click();
    await page.getByRole('dialog').locator('input[name=name]').fill('Coffrets 2027');
    await page.getByRole('dialog').getByRole('button', { name: 'Créer' }).click();
    const projects = page.getByTestId('company-projects');
    await projects.getByText('Coffrets 2027').waitFor();
    await projects.getByRole('button', { name: 'Modifier' }).click();
    await page.getByRole('dialog').locator('input[name=name]').fill('Coffrets 2028');
    await page.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
    await projects.getByText('Coffrets 2028').waitFor();
    await expectNoRawText(page);
    await screenshot(page, 'forms-06-project-fr');

    // German: the address form's labels and refusals.
    await chooseLanguage(page, 'Deutsch', 'de');
    await page.getByRole('tab', { name: 'Adressen' }).click();
    await page.getByRole('button', { name: 'Neue Adresse' }).click();
    await page.getByRole('dialog').locator('input[name=street1]').fill('Hauptstraße 1');
    await page.getByRole('dialog').getByRole('button', { name: 'Anlegen' }).click();
    // The city is missing: the field says so, the form's alert names it, in German.
    await page.getByRole('dialog').getByRole('alert').waitFor();
    await page.getByRole('dialog').getByText('Pflichtfeld').first().waitFor();
    expect(await page.getByRole('dialog').getByRole('alert').innerText()).toContain('Ort');
    await expectNoRawText(page);
    await screenshot(page, 'forms-07-address-refused-de');
    await page.keyboard.press('Escape');
    await chooseLanguage(page, 'English', 'en');
  });
});

describe('imports: a dry run, then for real', () => {
  it('runs the dry run for real from its result, without uploading the file again', async () => {
    const { page } = e2e;
    await page.evaluate(() => localStorage.setItem('pqs.language', 'en'));
    await page.goto(url('/imports'));
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(
        new File(['externalId,name\nFORMS-1,Forms One\nFORMS-2,Forms Two\n'], 'forms.csv', {
          type: 'text/csv',
        }),
      );
      return transfer;
    });
    await page.dispatchEvent('[data-testid="import-dropzone"]', 'dragenter', { dataTransfer });
    await page.dispatchEvent('[data-testid="import-dropzone"]', 'drop', { dataTransfer });
    // Dry run is on by default.
    expect(await page.getByLabel('Dry run (check and count, write nothing)').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Start the import' }).click();
    await expect
      .poll(() => page.getByTestId('import-status').textContent(), { timeout: 60_000 })
      .toBe('Checked, nothing written');
    await page.getByTestId('dry-run-note').waitFor();
    await screenshot(page, 'forms-08-dry-run');
    expect((await e2e.api('GET', '/api/companies/pagination?search=Forms%20One')).meta.total).toBe(0);

    await page.getByRole('button', { name: 'Run for real' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run for real' }).click();
    await page.getByRole('link', { name: 'Started from a dry run: open it' }).waitFor();
    await expect
      .poll(() => page.getByTestId('import-status').textContent(), { timeout: 60_000 })
      .toMatch(/^Done/);
    expect(await page.getByTestId('count-created').textContent()).toBe('2');
    expect((await e2e.api('GET', '/api/companies/pagination?search=Forms%20One')).meta.total).toBe(1);
    await expectNoRawText(page);
    await screenshot(page, 'forms-09-real-run');

    // A dry run runs for real once: its page then links to the real run instead of offering it
    // again (the API's 409 dry_run_already_run: test/orders/form-rules.test.ts).
    await page.getByRole('link', { name: 'Started from a dry run: open it' }).click();
    await page.getByTestId('real-run').waitFor();
    expect(await page.getByRole('button', { name: 'Run for real' }).count()).toBe(0);
    await expectNoRawText(page);
    await screenshot(page, 'forms-10-already-run');
    await page.getByTestId('real-run').click();
    await page.getByRole('link', { name: 'Started from a dry run: open it' }).waitFor();
  });

  it('words the refused rows in French and German, never the service’s English', async () => {
    const { page } = e2e;
    for (const [label, lng, expected] of [
      ['Français', 'fr', [/^Obligatoire/, /^Saisissez une adresse e-mail valide$/]],
      ['Deutsch', 'de', [/^Pflichtfeld/, /^Bitte eine gültige E-Mail-Adresse eingeben$/]],
    ] as const) {
      await page.goto(url('/imports'));
      await chooseLanguage(page, label, lng);
      const dataTransfer = await page.evaluateHandle(() => {
        const transfer = new DataTransfer();
        transfer.items.add(
          new File(['externalId,name,email\nW-1,,a@b.test\nW-2,Words Two,not-an-address\n'], 'w.csv', {
            type: 'text/csv',
          }),
        );
        return transfer;
      });
      await page.dispatchEvent('[data-testid="import-dropzone"]', 'dragenter', { dataTransfer });
      await page.dispatchEvent('[data-testid="import-dropzone"]', 'drop', { dataTransfer });
      await page.getByTestId('import-start').click();
      const rows = page.getByTestId('import-errors').locator('tbody tr');
      await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(2);
      const messages = await rows.locator('td:nth-child(3)').allTextContents();
      expect(messages).toHaveLength(2);
      for (const [i, message] of messages.entries()) expect(message).toMatch(expected[i]!);
      await expectNoRawText(page);
      await screenshot(page, `forms-11-row-errors-${lng}`);
    }
    await chooseLanguage(page, 'English', 'en');
  });
});

describe('the configurator’s defaults and searchable selects, the contact picker', () => {
  it('types a category and a style then Enter; each kind starts with its usual print', async () => {
    const { page } = e2e;
    const company = await e2e.api('POST', '/api/companies', { name: 'Defaults Ltd' });
    await page.evaluate(() => localStorage.setItem('pqs.language', 'en'));
    await page.goto(url(`/briefs/new?companyId=${company.id}`));
    await page.getByRole('heading', { name: 'Brief configurator' }).waitFor();
    const category = page.getByRole('combobox', { name: 'Category' }).first();
    const style = page.getByRole('combobox', { name: 'Style' }).first();
    const process = page.getByRole('combobox', { name: 'Process' }).first();
    const recto = page.getByRole('textbox', { name: 'Colours recto' }).first();

    // Category is searchable: typing filters, Enter picks the first match.
    await category.click();
    await category.fill('corr');
    await page.keyboard.press('Enter');
    await expect.poll(() => category.inputValue()).toBe('Corrugated case');
    await style.click();
    await style.fill('0201');
    await page.keyboard.press('Enter');
    await expect.poll(() => style.inputValue()).toMatch(/0201/);
    // A corrugated case starts with one flexo colour, not four-colour offset.
    await expect.poll(() => process.inputValue()).toBe('Flexo');
    expect(await recto.inputValue()).toBe('1');
    await screenshot(page, 'forms-12-corrugated-defaults');

    // A folding carton starts 4/0 offset.
    await category.click();
    await category.fill('fold');
    await page.keyboard.press('Enter');
    await expect.poll(() => category.inputValue()).toBe('Folding carton');
    await expect.poll(() => process.inputValue()).toBe('Offset');
    expect(await recto.inputValue()).toBe('4');
    expect(await style.inputValue()).toBe('');
    await expectNoRawText(page);
    // Leave without the unsaved-changes guard's question.
    page.once('dialog', (dialog) => dialog.accept());
  });

  it('names the quote’s contact and its e-mail, picked by typing, and links it by name', async () => {
    const { page } = e2e;
    const company = await e2e.api('POST', '/api/companies', { name: 'Picker GmbH' });
    const email = `jane.picker-${Date.now()}@e2e.test`;
    await e2e.api('POST', '/api/users/contacts', {
      email,
      firstName: 'Jane',
      lastName: 'Picker',
      collaborationIds: [company.id],
    });
    await createCartonBrief(e2e.api, company.id, 'Picker box');
    await page.goto(url(`/quotes/new?companyId=${company.id}`));
    await page.getByRole('heading', { name: 'New quote' }).waitFor();
    const contact = page.getByTestId('quote-contact');
    await contact.click();
    await page.getByRole('option', { name: `Jane Picker · ${email}` }).waitFor();
    await contact.fill('jane');
    await page.keyboard.press('Enter');
    await expect.poll(() => contact.inputValue()).toBe(`Jane Picker · ${email}`);
    await expectNoRawText(page);
    await screenshot(page, 'forms-13-contact-picker');
    await page.getByLabel('Name', { exact: true }).fill('Picker 2027');
    // Without a line: refused in words, under the lines, no property name.
    await page.getByTestId('create-quote').click();
    await page.getByText('Add at least one brief or article').first().waitFor();
    await expectNoRawText(page);
    expect(await page.locator('body').innerText()).not.toMatch(/briefIds|\/items/);
    await screenshot(page, 'forms-13b-quote-without-lines');
    // A brief picked by typing its name, then Enter.
    const briefs = page.getByRole('combobox', { name: 'Briefs' });
    await briefs.click();
    await briefs.fill('Picker box');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByTestId('create-quote').click();
    await page.waitForURL(/\/quotes\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const link = page.getByTestId('quote-contact-link');
    await link.waitFor({ timeout: 30_000 });
    expect(await link.innerText()).toBe(`Jane Picker · ${email}`);
    expect(await link.getAttribute('href')).toMatch(/\/contacts\?search=Jane%20Picker$/);
    await expectNoRawText(page);
    await screenshot(page, 'forms-14-quote-contact');
    await link.click();
    await page.getByRole('cell', { name: email }).waitFor();
  });
});
