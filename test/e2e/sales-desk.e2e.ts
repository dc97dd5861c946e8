import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../helpers/pdf-text.ts';
import { expectAccessible } from './axe.ts';
import {
  ADMIN,
  ARTIFACTS,
  apiCall,
  launchBrowser,
  type Service,
  screenshot,
  signInApi,
  startService,
} from './harness.ts';

/**
 * The "done when" scenario, through the screens of the built app in a real Chromium: sign in;
 * create a company and a contact; configure a folding carton and a corrugated case (the price
 * follows the quantity and a finish, the die-line appears); apply a value-analysis suggestion;
 * save; quote both briefs and an article; publish; preview the PDF; open a guest link signed out;
 * the contact accepts; convert to an order. Then the refusals. Screenshots go to test-results/e2e.
 */
let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminToken: string;
const CONTACT = { email: 'buyer@acme-tea.test', password: 'buyer-password-1' };
const state: { companyId?: string; briefIds: string[]; quoteId?: string; quoteCode?: string } = {
  briefIds: [],
};

beforeAll(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  service = await startService();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-GB' });
  page = await context.newPage();
  adminToken = await signInApi(service.baseUrl, ADMIN.email, ADMIN.password);
});
afterEach(async (context) => {
  // What the screen showed when a step failed, beside the other screenshots.
  if (context.task.result?.state === 'fail' && page)
    await screenshot(page, `failed-${context.task.name.slice(0, 40)}`);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

const url = (path: string) => `${service.baseUrl}/app${path}`;
const total = () => page.getByTestId('estimate-total').textContent();

async function signInAs(username: string, password: string) {
  await page.goto(url('/'));
  await page.getByLabel('Username or e-mail').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in-user').waitFor();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

async function pick(label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Waits until the price shown differs from `before` (the debounced estimate came back). */
async function priceChangedFrom(before: string | null) {
  await page.waitForFunction(
    (previous) => {
      const shown = document.querySelector('[data-testid="estimate-total"]')?.textContent;
      return !!shown && shown !== previous && !document.querySelector('[data-testid="pricing-indicator"]');
    },
    before,
    { timeout: 20_000 },
  );
  return total();
}

async function configure(brief: {
  style: RegExp;
  board: RegExp;
  length: string;
  width: string;
  height: string;
  name: string;
}) {
  await page.getByLabel('Brief name').fill(brief.name);
  await pick('Style', brief.style);
  await page.getByRole('textbox', { name: 'Length (mm)' }).fill(brief.length);
  await page.getByRole('textbox', { name: 'Width (mm)' }).fill(brief.width);
  await page.getByRole('textbox', { name: 'Height (mm)' }).fill(brief.height);
  await pick('Board', brief.board);
  return priceChangedFrom(null);
}

describe('the sales desk, end to end', () => {
  it('signs in (the sign-in screen is accessible; a wrong password shows the reason)', async () => {
    await page.goto(service.baseUrl);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(page.url()).toBe(url('/sign-in'));
    await screenshot(page, '01-sign-in');
    await expectAccessible(page, 'sign-in');
    await page.getByLabel('Username or e-mail').fill(ADMIN.email);
    await page.locator('input[name=password]').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('wrong password');
    await signInAs(ADMIN.email, ADMIN.password);
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(ADMIN.email);
    // A reload keeps the session (the token is refreshed from the httpOnly cookie).
    await page.reload();
    await page.getByTestId('signed-in-user').waitFor();
  });

  it('creates a company (field errors from the API land on the field) and a contact who may sign in', async () => {
    await page.getByRole('link', { name: 'Companies' }).click();
    await page.getByRole('heading', { name: 'Companies' }).waitFor();
    await page.getByRole('button', { name: 'New company' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Acme Tea');
    await dialog.getByLabel('E-mail').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => dialog.locator('.mantine-TextInput-error').first().textContent())
      .toMatch(/email|format/i);
    await screenshot(page, '02-company-form-error');
    await dialog.getByLabel('E-mail').fill('orders@acme-tea.test');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Acme Tea' }).waitFor();
    state.companyId = page.url().split('/').pop();
    await expectAccessible(page, 'company');

    await page.getByRole('button', { name: 'New contact' }).click();
    const contactDialog = page.getByRole('dialog');
    await contactDialog.getByLabel('First name').fill('Bea');
    await contactDialog.getByLabel('Last name').fill('Buyer');
    await contactDialog.getByLabel('E-mail').fill(CONTACT.email);
    await contactDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: CONTACT.email }).waitFor();
    await page.getByRole('button', { name: 'Let sign in' }).click();
    await page.getByRole('dialog').getByLabel('Password for signing in').fill(CONTACT.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Let sign in' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await screenshot(page, '03-company');

    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByLabel('Search').fill('bea');
    await page.getByRole('cell', { name: CONTACT.email }).waitFor();
    await screenshot(page, '04-contacts');
    await expectAccessible(page, 'contacts');
  });

  it('configures a folding carton: the price follows quantity and finishes, the die-line appears, a suggestion applies; saves', async () => {
    await page.goto(url(`/briefs/new?companyId=${state.companyId}`));
    await page.getByRole('heading', { name: 'Brief configurator' }).waitFor();
    const first = await configure({
      name: 'Tea box',
      style: /STE/,
      board: /GC1/,
      length: '120',
      width: '40',
      height: '180',
    });
    expect(first).toMatch(/€/);
    await expect.poll(() => page.getByTestId('die-line-0').locator('img').count()).toBe(1);
    expect(await page.getByTestId('die-line-0').locator('img').getAttribute('src')).toContain('svg');

    const unitBefore = await page.getByTestId('estimate-unit').textContent();
    await page.getByTestId('quantity-0-0').fill('20000');
    const afterQuantity = await priceChangedFrom(first);
    expect(afterQuantity).not.toBe(first);
    expect(await page.getByTestId('estimate-unit').textContent()).not.toBe(unitBefore);

    await page.getByRole('checkbox', { name: 'Lamination' }).check();
    const afterFinish = await priceChangedFrom(afterQuantity);
    expect(afterFinish).not.toBe(afterQuantity);
    await screenshot(page, '05-configurator-carton');
    await expectAccessible(page, 'configurator');

    const suggestions = page.getByTestId('suggestions').getByRole('button', { name: /Apply/ });
    await expect.poll(() => suggestions.count()).toBeGreaterThan(0);
    const board = await page.getByRole('combobox', { name: 'Board' }).inputValue();
    const lamination = await page.getByRole('checkbox', { name: 'Lamination' }).isChecked();
    const quantity = await page.getByTestId('quantity-0-0').inputValue();
    const width = await page.getByRole('textbox', { name: 'Width (mm)' }).inputValue();
    await suggestions.first().click();
    const afterSuggestion = await priceChangedFrom(afterFinish);
    expect(afterSuggestion).not.toBe(afterFinish);
    const formChanged =
      (await page.getByRole('combobox', { name: 'Board' }).inputValue()) !== board ||
      (await page.getByRole('checkbox', { name: 'Lamination' }).isChecked()) !== lamination ||
      (await page.getByTestId('quantity-0-0').inputValue()) !== quantity ||
      (await page.getByRole('textbox', { name: 'Width (mm)' }).inputValue()) !== width;
    expect(formChanged, 'applying a suggestion changes the form').toBe(true);

    await page.getByTestId('save-brief').click();
    await page.waitForURL(/\/app\/briefs\/[0-9a-f-]{36}$/);
    state.briefIds.push(page.url().split('/').pop()!);
    await page.getByTestId('versions').waitFor();
    await screenshot(page, '06-brief-saved');
  });

  it('configures a corrugated case and saves it', async () => {
    await page.goto(url(`/briefs/new?companyId=${state.companyId}`));
    await configure({
      name: 'Shipper',
      style: /0201/,
      board: /CORR|flute/i,
      length: '300',
      width: '200',
      height: '150',
    });
    await page.getByTestId('quantity-0-0').fill('1000');
    await expect.poll(() => page.getByTestId('die-line-0').locator('img').count()).toBe(1);
    await screenshot(page, '07-configurator-case');
    await page.getByTestId('save-brief').click();
    await page.waitForURL(/\/app\/briefs\/[0-9a-f-]{36}$/);
    state.briefIds.push(page.url().split('/').pop()!);

    await page.getByRole('link', { name: 'Briefs', exact: true }).click();
    await page.getByRole('cell', { name: 'Shipper' }).waitFor();
    await screenshot(page, '08-briefs');
    await expectAccessible(page, 'briefs list');
  });

  it('builds a quote from both briefs and an article, publishes it and previews its PDF', async () => {
    await apiCall(service.baseUrl, adminToken, 'POST', '/api/articles', {
      name: 'Tissue paper insert',
      code: 'ART-TISSUE',
      companyId: state.companyId,
      price: 0.12,
    });
    await page.goto(url(`/quotes/new?companyId=${state.companyId}`));
    await page.getByRole('heading', { name: 'New quote' }).waitFor();
    await page.getByLabel('Name').fill('Tea range 2027');
    await pick('Contacts', /Bea Buyer/);
    for (const name of [/Tea box/, /Shipper/]) await pick('Briefs', name);
    await page.keyboard.press('Escape');
    await pick('Articles', /ART-TISSUE/);
    await page.keyboard.press('Escape');
    await screenshot(page, '09-new-quote');
    await expectAccessible(page, 'new quote');
    await page.getByTestId('create-quote').click();
    await page.waitForURL(/\/app\/quotes\/[0-9a-f-]{36}$/);
    state.quoteId = page.url().split('/').pop();
    await expect.poll(() => page.getByTestId('quote-lines').getByRole('row').count()).toBeGreaterThan(3);
    expect(await page.getByTestId('quote-state').textContent()).toBe('Draft');
    await screenshot(page, '10-quote-draft');
    await expectAccessible(page, 'quote');

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => page.getByTestId('quote-state').textContent()).toBe('Published');
    state.quoteCode = (await page.getByTestId('quote-title').textContent())!;
    expect(state.quoteCode).toMatch(/^Q-/);

    await page.getByTestId('pdf-preview').click();
    await page.getByTestId('pdf-frame').waitFor();
    // The PDF the preview rendered (stored with the quote), fetched with the page's session cookie.
    const pdf = await context.request.get(`${service.baseUrl}/api/quotes/${state.quoteId}/localisation/en`);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect(extractPdfText(await pdf.body())).toContain(state.quoteCode);
    expect(await page.getByTestId('pdf-panel').textContent()).toContain(state.quoteCode);
    await screenshot(page, '11-quote-published-pdf');
  });

  it('creates a guest link that opens signed out', async () => {
    await page.getByTestId('create-guest-link').click();
    const link = (await page.getByTestId('guest-link-url').textContent())!;
    expect(link).toContain('/api/public/quotes/pdf/');
    const guest = await browser.newContext();
    const response = await guest.request.get(link);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(extractPdfText(await response.body())).toContain(state.quoteCode!);
    await guest.close();
    await screenshot(page, '12-guest-link');
  });

  it('the contact sees the quote and accepts it', async () => {
    await signOut();
    await signInAs(CONTACT.email, CONTACT.password);
    await page.getByRole('heading', { name: 'My quotes' }).waitFor();
    await page.getByRole('link', { name: state.quoteCode! }).click();
    await page.getByRole('button', { name: 'Accept' }).waitFor();
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    await screenshot(page, '13-buyer-quote');
    await expectAccessible(page, 'buyer quote');
    await page.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => page.getByTestId('quote-state').textContent()).toBe('Signed');
  });

  it('sales converts the signed quote into an order', async () => {
    await signOut();
    await signInAs(ADMIN.email, ADMIN.password);
    await page.goto(url(`/quotes/${state.quoteId}`));
    await page.getByRole('button', { name: 'Convert to an order' }).click();
    await page.getByTestId('quote-order').waitFor();
    expect(await page.getByRole('button', { name: 'Convert to an order' }).count()).toBe(0);
    await screenshot(page, '14-quote-converted');
  });

  it('refuses a contact a draft quote, and an external sales user another company', async () => {
    const draft = await apiCall(service.baseUrl, adminToken, 'POST', '/api/quotes', {
      companyId: state.companyId,
      name: 'Internal draft',
      briefIds: state.briefIds.slice(0, 1),
    });
    const other = await apiCall(service.baseUrl, adminToken, 'POST', '/api/companies', { name: 'Other Co' });
    await apiCall(service.baseUrl, adminToken, 'POST', '/api/users', {
      email: 'rep@e2e.test',
      password: 'rep-password-1',
      role: 'external_sales',
      companyIds: [other.id],
    });

    await signOut();
    await signInAs(CONTACT.email, CONTACT.password);
    await page.goto(url(`/quotes/${draft.id}`));
    await expect.poll(() => page.getByTestId('error-reason').textContent()).toMatch(/not found/i);
    await screenshot(page, '15-contact-refused-draft');

    await signOut();
    await signInAs('rep@e2e.test', 'rep-password-1');
    await page.goto(url(`/companies/${state.companyId}`));
    await expect.poll(() => page.getByTestId('error-reason').textContent()).toMatch(/not found/i);
    await screenshot(page, '16-external-sales-refused');
    // The configurator refuses pricing for a company out of reach, with the API's reason.
    await page.goto(url(`/briefs/new?companyId=${state.companyId}`));
    await page.getByRole('heading', { name: 'Brief configurator' }).waitFor();
    const response = await page.evaluate(async (companyId) => {
      const r = await fetch('/api/briefs/estimate', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrf-token': decodeURIComponent(/pqs_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? ''),
        },
        body: JSON.stringify({ companyId, briefElements: [] }),
      });
      return r.status;
    }, state.companyId);
    expect([400, 403]).toContain(response);
  });
});
