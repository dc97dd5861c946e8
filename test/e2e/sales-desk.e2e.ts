import { beforeAll, describe, expect, it } from 'vitest';
import { extractPdfText } from '../helpers/pdf-text.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, clearScreenshots, openE2eSession, screenshot } from './harness.ts';

/**
 * The "done when" scenario, through the screens of the built app in a real Chromium: sign in;
 * create a company and a contact; configure a folding carton and a corrugated case (the price
 * follows the quantity and a finish, the die-line appears); apply a value-analysis suggestion;
 * save; quote both briefs and an article; publish; preview the PDF; open a guest link signed out;
 * the contact accepts; convert to an order. Then the refusals. Screenshots go to test-results/e2e.
 */
const e2e = openE2eSession({ name: 'sales-desk' });
const { url, signInAs, signOut } = e2e;
const CONTACT = { email: 'buyer@acme-tea.test', password: 'buyer-password-1' };
const state: { companyId?: string; briefIds: string[]; quoteId?: string; quoteCode?: string } = {
  briefIds: [],
};

beforeAll(async () => {
  // Its screenshots are numbered (01-sign-in.png ...); the other files' stay.
  clearScreenshots((name) => /^\d{2}-/.test(name) || name.startsWith('sales-desk-failed-'));
});

const total = () => e2e.page.getByTestId('estimate-total').textContent();

async function pick(label: string, option: string | RegExp) {
  await e2e.page.getByRole('combobox', { name: label }).first().click();
  await e2e.page.getByRole('option', { name: option }).first().click();
}

/** Waits until the price shown differs from `before` (the debounced estimate came back). */
async function priceChangedFrom(before: string | null) {
  await e2e.page.waitForFunction(
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
  await e2e.page.getByLabel('Brief name').fill(brief.name);
  await pick('Style', brief.style);
  await e2e.page.getByRole('textbox', { name: 'Length (mm)' }).fill(brief.length);
  await e2e.page.getByRole('textbox', { name: 'Width (mm)' }).fill(brief.width);
  await e2e.page.getByRole('textbox', { name: 'Height (mm)' }).fill(brief.height);
  await pick('Board', brief.board);
  return priceChangedFrom(null);
}

describe('the sales desk, end to end', () => {
  it('signs in (the sign-in screen is accessible; a wrong password shows the reason)', async () => {
    await e2e.page.goto(e2e.service.baseUrl);
    await e2e.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(e2e.page.url()).toBe(url('/sign-in'));
    await screenshot(e2e.page, '01-sign-in');
    await expectAccessible(e2e.page, 'sign-in');
    await e2e.page.getByLabel('Username or e-mail').fill(ADMIN.email);
    await e2e.page.locator('input[name=password]').fill('not-the-password');
    await e2e.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => e2e.page.getByRole('alert').textContent()).toContain('wrong password');
    await signInAs(ADMIN.email, ADMIN.password);
    expect(await e2e.page.getByTestId('signed-in-user').textContent()).toContain(ADMIN.email);
    // A reload keeps the session (the token is refreshed from the httpOnly cookie).
    await e2e.page.reload();
    await e2e.page.getByTestId('signed-in-user').waitFor();
  });

  it('creates a company (field errors from the API land on the field) and a contact who may sign in', async () => {
    await e2e.page.getByRole('link', { name: 'Companies' }).click();
    await e2e.page.getByRole('heading', { name: 'Companies' }).waitFor();
    await e2e.page.getByRole('button', { name: 'New company' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Acme Tea');
    await dialog.getByLabel('E-mail').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => dialog.locator('.mantine-TextInput-error').first().textContent())
      .toBe('Enter a valid e-mail address');
    await screenshot(e2e.page, '02-company-form-error');
    await dialog.getByLabel('E-mail').fill('orders@acme-tea.test');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await e2e.page.getByRole('heading', { name: 'Acme Tea' }).waitFor();
    state.companyId = e2e.page.url().split('/').pop();
    await expectAccessible(e2e.page, 'company');

    await e2e.page.getByRole('button', { name: 'New contact' }).click();
    const contactDialog = e2e.page.getByRole('dialog');
    await contactDialog.getByLabel('First name').fill('Bea');
    await contactDialog.getByLabel('Last name').fill('Buyer');
    await contactDialog.getByLabel('E-mail').fill(CONTACT.email);
    await contactDialog.getByRole('button', { name: 'Create' }).click();
    await e2e.page.getByRole('cell', { name: CONTACT.email }).waitFor();
    await e2e.page.getByRole('button', { name: 'Let sign in' }).click();
    await e2e.page.getByRole('dialog').getByLabel('Password for signing in').fill(CONTACT.password);
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Let sign in' }).click();
    await e2e.page.getByRole('dialog').waitFor({ state: 'detached' });
    await screenshot(e2e.page, '03-company');

    await e2e.page.getByRole('link', { name: 'Contacts' }).click();
    await e2e.page.getByLabel('Search').fill('bea');
    await e2e.page.getByRole('cell', { name: CONTACT.email }).waitFor();
    await screenshot(e2e.page, '04-contacts');
    await expectAccessible(e2e.page, 'contacts');
  });

  it('configures a folding carton: the price follows quantity and finishes, the die-line appears, a suggestion applies; saves', async () => {
    await e2e.page.goto(url(`/briefs/new?companyId=${state.companyId}`));
    await e2e.page.getByRole('heading', { name: 'Brief configurator' }).waitFor();
    const first = await configure({
      name: 'Tea box',
      style: /STE/,
      board: /GC1/,
      length: '120',
      width: '40',
      height: '180',
    });
    expect(first).toMatch(/€/);
    await expect.poll(() => e2e.page.getByTestId('die-line-0').locator('img').count()).toBe(1);
    expect(await e2e.page.getByTestId('die-line-0').locator('img').getAttribute('src')).toContain('svg');

    const unitBefore = await e2e.page.getByTestId('estimate-unit').textContent();
    await e2e.page.getByTestId('quantity-0-0').fill('20000');
    const afterQuantity = await priceChangedFrom(first);
    expect(afterQuantity).not.toBe(first);
    expect(await e2e.page.getByTestId('estimate-unit').textContent()).not.toBe(unitBefore);

    await e2e.page.getByRole('checkbox', { name: 'Lamination' }).check();
    const afterFinish = await priceChangedFrom(afterQuantity);
    expect(afterFinish).not.toBe(afterQuantity);
    // The seller's staff see where the money goes (a buyer does not: see the contact's brief below).
    await e2e.page.getByRole('heading', { name: 'Where the money goes' }).waitFor();
    await screenshot(e2e.page, '05-configurator-carton');
    await expectAccessible(e2e.page, 'configurator');

    const suggestions = e2e.page.getByTestId('suggestions').getByRole('button', { name: /Apply/ });
    await expect.poll(() => suggestions.count()).toBeGreaterThan(0);
    const board = await e2e.page.getByRole('combobox', { name: 'Board' }).inputValue();
    const lamination = await e2e.page.getByRole('checkbox', { name: 'Lamination' }).isChecked();
    const quantity = await e2e.page.getByTestId('quantity-0-0').inputValue();
    const width = await e2e.page.getByRole('textbox', { name: 'Width (mm)' }).inputValue();
    await suggestions.first().click();
    const afterSuggestion = await priceChangedFrom(afterFinish);
    expect(afterSuggestion).not.toBe(afterFinish);
    const formChanged =
      (await e2e.page.getByRole('combobox', { name: 'Board' }).inputValue()) !== board ||
      (await e2e.page.getByRole('checkbox', { name: 'Lamination' }).isChecked()) !== lamination ||
      (await e2e.page.getByTestId('quantity-0-0').inputValue()) !== quantity ||
      (await e2e.page.getByRole('textbox', { name: 'Width (mm)' }).inputValue()) !== width;
    expect(formChanged, 'applying a suggestion changes the form').toBe(true);

    // The artwork variant's name and artwork reference, saved with the brief (issue 24).
    await e2e.page.getByTestId('variant-name-0-0').fill('Lemon');
    await e2e.page.getByTestId('artwork-0-0').fill('ART-LEMON-v2');
    await e2e.page.getByTestId('save-brief').click();
    await e2e.page.waitForURL(/\/app\/briefs\/[0-9a-f-]{36}$/);
    state.briefIds.push(e2e.page.url().split('/').pop()!);
    await e2e.page.getByTestId('versions').waitFor();
    await screenshot(e2e.page, '06-brief-saved');
    const saved = await e2e.api('GET', `/api/briefs/${state.briefIds.at(-1)}`);
    expect(saved.briefElements[0].decorationsCount[0]).toMatchObject({
      name: 'Lemon',
      artworkReference: 'ART-LEMON-v2',
    });
  });

  it('configures a corrugated case and saves it', async () => {
    await e2e.page.goto(url(`/briefs/new?companyId=${state.companyId}`));
    await configure({
      name: 'Shipper',
      style: /0201/,
      board: /CORR|flute/i,
      length: '300',
      width: '200',
      height: '150',
    });
    await e2e.page.getByTestId('quantity-0-0').fill('1000');
    await expect.poll(() => e2e.page.getByTestId('die-line-0').locator('img').count()).toBe(1);
    await screenshot(e2e.page, '07-configurator-case');
    await e2e.page.getByTestId('save-brief').click();
    await e2e.page.waitForURL(/\/app\/briefs\/[0-9a-f-]{36}$/);
    state.briefIds.push(e2e.page.url().split('/').pop()!);

    await e2e.page.getByRole('link', { name: 'Briefs', exact: true }).click();
    await e2e.page.getByRole('cell', { name: 'Shipper' }).waitFor();
    await screenshot(e2e.page, '08-briefs');
    await expectAccessible(e2e.page, 'briefs list');
  });

  it('builds a quote from both briefs and an article, publishes it and previews its PDF', async () => {
    await e2e.api('POST', '/api/articles', {
      name: 'Tissue paper insert',
      code: 'ART-TISSUE',
      companyId: state.companyId,
      price: 0.12,
    });
    await e2e.page.goto(url(`/quotes/new?companyId=${state.companyId}`));
    await e2e.page.getByRole('heading', { name: 'New quote' }).waitFor();
    await e2e.page.getByLabel('Name').fill('Tea range 2027');
    await pick('Contact', /Bea Buyer/);
    for (const name of [/Tea box/, /Shipper/]) await pick('Briefs', name);
    await e2e.page.keyboard.press('Escape');
    await pick('Articles', /ART-TISSUE/);
    await e2e.page.keyboard.press('Escape');
    // No quantity is assumed for an article: the picker asks for it.
    const articleQuantity = e2e.page.getByRole('textbox', { name: /Quantity · ART-TISSUE/ });
    expect(await articleQuantity.inputValue()).toBe('');
    await articleQuantity.fill('1500');
    await screenshot(e2e.page, '09-new-quote');
    await expectAccessible(e2e.page, 'new quote');
    await e2e.page.getByTestId('create-quote').click();
    await e2e.page.waitForURL(/\/app\/quotes\/[0-9a-f-]{36}$/);
    state.quoteId = e2e.page.url().split('/').pop();
    await expect.poll(() => e2e.page.getByTestId('quote-lines').getByRole('row').count()).toBeGreaterThan(3);
    expect(await e2e.page.getByTestId('quote-state').textContent()).toBe('Draft');
    await screenshot(e2e.page, '10-quote-draft');
    await expectAccessible(e2e.page, 'quote');

    // Edit the article line: quantity, a discount, a comment; then move it to the top.
    const total = await e2e.page.getByTestId('quote-total').textContent();
    const articleRow = e2e.page.getByTestId('quote-line').filter({ hasText: 'Tissue paper insert' });
    await articleRow.getByRole('button', { name: 'Edit' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Quantity', exact: true }).fill('2000');
    await dialog.getByText('%', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Discount' }).fill('10');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Printed both sides');
    await screenshot(e2e.page, '10b-quote-line-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => e2e.page.getByTestId('quote-total').textContent()).not.toBe(total);
    await expect.poll(() => articleRow.textContent()).toContain('Printed both sides');
    // 2,000 x 0.12 = 240.00, less 10 %: 216.00.
    expect(await articleRow.textContent()).toContain('216.00');
    // Up twice: above the Shipper, then above the Tea box (one change each).
    const placeOfArticle = async () =>
      (await e2e.page.getByTestId('quote-line').allTextContents()).findIndex((row) =>
        row.includes('Tissue paper insert'),
      );
    const start = await placeOfArticle();
    await articleRow.getByRole('button', { name: /Move Tissue paper insert up/ }).click();
    await expect.poll(placeOfArticle).toBeLessThan(start);
    await articleRow.getByRole('button', { name: /Move Tissue paper insert up/ }).click();
    await expect.poll(placeOfArticle).toBe(0);
    // A discount above the line is refused with a sentence.
    await articleRow.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByText(/^EUR$/).click();
    await dialog.getByRole('textbox', { name: 'Discount' }).fill('99999');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByTestId('line-editor-error').waitFor();
    await screenshot(e2e.page, '10c-quote-line-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(e2e.page, '10d-quote-lines-edited');
    await expectAccessible(e2e.page, 'quote lines editor');
    // The edits' notifications sit over the Publish button until they close.
    await expect
      .poll(() => e2e.page.locator('.mantine-Notification-root').count(), { timeout: 15_000 })
      .toBe(0);

    await e2e.page.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => e2e.page.getByTestId('quote-state').textContent()).toBe('Published');
    state.quoteCode = (await e2e.page.getByTestId('quote-title').textContent())!;
    expect(state.quoteCode).toMatch(/^Q-/);

    await e2e.page.getByTestId('pdf-preview').click();
    await e2e.page.getByTestId('pdf-frame').waitFor();
    // The PDF the preview rendered (stored with the quote), fetched with the page's session cookie.
    const pdf = await e2e.context.request.get(
      `${e2e.service.baseUrl}/api/quotes/${state.quoteId}/localisation/en`,
    );
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect(extractPdfText(await pdf.body())).toContain(state.quoteCode);
    expect(await e2e.page.getByTestId('pdf-panel').textContent()).toContain(state.quoteCode);
    await screenshot(e2e.page, '11-quote-published-pdf');
  });

  it('creates a guest link that opens signed out', async () => {
    await e2e.page.getByTestId('create-guest-link').click();
    const link = (await e2e.page.getByTestId('guest-link-url').textContent())!;
    expect(link).toContain('/api/public/quotes/pdf/');
    const guest = await e2e.browser.newContext();
    const response = await guest.request.get(link);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(extractPdfText(await response.body())).toContain(state.quoteCode!);
    await guest.close();
    await screenshot(e2e.page, '12-guest-link');
  });

  it('the contact sees the quote and accepts it', async () => {
    await signOut();
    await signInAs(CONTACT.email, CONTACT.password);
    // A buyer lands on the portal's home (issue 25).
    await e2e.page.getByTestId('portal-home').waitFor();
    // The buyer's brief: the price, the drawings and the operations, never the seller's costs.
    await e2e.page.goto(url(`/briefs/${state.briefIds[0]}`));
    await e2e.page.getByTestId('estimate-total').waitFor();
    await e2e.page.getByTestId('operations-0').waitFor();
    expect(await e2e.page.getByRole('heading', { name: 'Where the money goes' }).count()).toBe(0);
    expect(
      await e2e.page.getByTestId('operations-0').getByRole('columnheader', { name: 'Cost' }).count(),
    ).toBe(0);
    await screenshot(e2e.page, '13-buyer-brief');
    await e2e.page.goto(url('/quotes'));
    await e2e.page.getByRole('heading', { name: 'My quotes' }).waitFor();
    await e2e.page.getByRole('link', { name: state.quoteCode! }).click();
    await e2e.page.getByRole('button', { name: 'Accept' }).waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    await screenshot(e2e.page, '13-buyer-quote-accept');
    await expectAccessible(e2e.page, 'buyer quote');
    await e2e.page.getByRole('button', { name: 'Accept' }).click();
    // Accepting is signing: typed name, PO number, comment and the explicit confirmation.
    const dialog = e2e.page.getByTestId('accept-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('accept-submit').isDisabled()).toBe(true);
    await dialog.getByTestId('accept-name').fill('Casey Contact');
    await dialog.getByTestId('accept-po').fill('PO-2026-118');
    await dialog.getByTestId('accept-comment').fill('Deliver to dock 4');
    await dialog.getByTestId('accept-confirm').check();
    await screenshot(e2e.page, '13-buyer-accept-dialog');
    await dialog.getByTestId('accept-submit').click();
    await expect.poll(() => e2e.page.getByTestId('quote-state').textContent()).toBe('Signed');
    await e2e.page.getByTestId('signed-pdf').waitFor();
    const href = await e2e.page.getByTestId('signed-pdf').getAttribute('href');
    const signed = await e2e.page.request.get(`${e2e.service.baseUrl}${href}`);
    expect(signed.status()).toBe(200);
    expect((await signed.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('sales converts the signed quote into an order', async () => {
    await signOut();
    await signInAs(ADMIN.email, ADMIN.password);
    await e2e.page.goto(url(`/quotes/${state.quoteId}`));
    await e2e.page.getByRole('button', { name: 'Convert to an order' }).click();
    await e2e.page.getByTestId('quote-order').waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Convert to an order' }).count()).toBe(0);
    await screenshot(e2e.page, '14-quote-converted');
  });

  it('refuses a contact a draft quote, and an external sales user another company', async () => {
    const draft = await e2e.api('POST', '/api/quotes', {
      companyId: state.companyId,
      name: 'Internal draft',
      briefIds: state.briefIds.slice(0, 1),
    });
    const other = await e2e.api('POST', '/api/companies', { name: 'Other Co' });
    await e2e.api('POST', '/api/users', {
      email: 'rep@e2e.test',
      password: 'rep-password-1',
      role: 'external_sales',
      companyIds: [other.id],
    });

    await signOut();
    await signInAs(CONTACT.email, CONTACT.password);
    await e2e.page.goto(url(`/quotes/${draft.id}`));
    await expect.poll(() => e2e.page.getByTestId('error-reason').textContent()).toMatch(/not found/i);
    await screenshot(e2e.page, '15-contact-refused-draft');

    await signOut();
    await signInAs('rep@e2e.test', 'rep-password-1');
    await e2e.page.goto(url(`/companies/${state.companyId}`));
    await expect.poll(() => e2e.page.getByTestId('error-reason').textContent()).toMatch(/not found/i);
    await screenshot(e2e.page, '16-external-sales-refused');
    // The configurator refuses pricing for a company out of reach, with the API's reason.
    await e2e.page.goto(url(`/briefs/new?companyId=${state.companyId}`));
    await e2e.page.getByRole('heading', { name: 'Brief configurator' }).waitFor();
    const response = await e2e.page.evaluate(async (companyId) => {
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
