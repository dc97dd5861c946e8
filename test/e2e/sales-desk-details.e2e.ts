import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

/**
 * The sales desk beyond the main scenario (sales-desk.e2e.ts): a keyboard-only pass (sign in,
 * configure, price and save a brief without the mouse, the focus always visible), the brief's
 * project, its revisions and an older version read-only, not-found states, a guest link revoked,
 * a quote declined by the buyer, and the French interface with a translated API error.
 * Screenshots go to test-results/e2e (prefixed "d-").
 */
const e2e = openE2eSession({ name: 'd' });
const { url, api } = e2e;
const CONTACT = { email: 'bea@acme-tea.test', password: 'buyer-password-1' };
const data: {
  companyId: string;
  projectId: string;
  briefId?: string;
  elementBody?: Record<string, unknown>;
} = {
  companyId: '',
  projectId: '',
};

beforeAll(async () => {
  const company = await api('POST', '/api/companies', { name: 'Acme Tea' });
  data.companyId = company.id;
  data.projectId = (await api('POST', '/api/projects', { name: 'Spring range', companyId: company.id })).id;
  await api('POST', '/api/projects', { name: 'Autumn range', companyId: company.id });
  const contact = await api('POST', '/api/users/contacts', {
    email: CONTACT.email,
    firstName: 'Bea',
    lastName: 'Buyer',
    collaborationIds: [company.id],
  });
  await api('POST', `/api/users/${contact.id}/invite`, { password: CONTACT.password });
});

/** The element currently focused, checked to show a visible focus ring (keyboard focus, 2.4.7). */
async function expectFocusVisible() {
  const focus = await e2e.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { element: 'body', visible: false };
    // A password field's <input> sits inside the box that draws its border and ring.
    const style = getComputedStyle(el.closest('.mantine-Input-input') ?? el);
    const ring = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 1;
    return {
      element: `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}`,
      visible: el.matches(':focus-visible') && ring,
    };
  });
  expect(focus.visible, `visible focus on ${focus.element}`).toBe(true);
}

/** Tabs (or shift-tabs) until `target` has the focus: it is reachable with the keyboard alone. */
async function tabTo(target: Locator, { back = false, max = 80 } = {}) {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      await expectFocusVisible();
      return;
    }
    await e2e.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`the keyboard never reached ${target}`);
}

/** A searchable select, by keyboard: type, then the first matching option. */
async function chooseByKeyboard(combobox: Locator, search: string) {
  await tabTo(combobox);
  await e2e.page.keyboard.type(search);
  await e2e.page.getByRole('option').first().waitFor();
  await e2e.page.keyboard.press('ArrowDown');
  await e2e.page.keyboard.press('Enter');
}

async function signInAs(
  username: string,
  password: string,
  labels = { user: 'Username or e-mail', submit: 'Sign in' },
) {
  await e2e.page.goto(url('/sign-in'));
  await e2e.page.getByLabel(labels.user).fill(username);
  await e2e.page.locator('input[name=password]').fill(password);
  await e2e.page.getByRole('button', { name: labels.submit }).click();
  await e2e.page.getByTestId('signed-in-user').waitFor();
}

async function signOut(label = 'Sign out') {
  await e2e.page.getByRole('button', { name: label }).click();
  await e2e.page.locator('input[name=password]').waitFor();
}

async function priceChangedFrom(before: string | null) {
  await e2e.page.waitForFunction(
    (previous) => {
      const shown = document.querySelector('[data-testid="estimate-total"]')?.textContent;
      return !!shown && shown !== previous && !document.querySelector('[data-testid="pricing-indicator"]');
    },
    before,
    { timeout: 20_000 },
  );
  return e2e.page.getByTestId('estimate-total').textContent();
}

/** A published quote of one new brief (set up through the API: the screens are tested elsewhere). */
async function publishedQuote(name: string) {
  const brief = await api('POST', '/api/briefs', {
    companyId: data.companyId,
    name: `${name} brief`,
    briefElements: [data.elementBody],
  });
  const quote = await api('POST', '/api/quotes', { companyId: data.companyId, name, briefIds: [brief.id] });
  return api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
}

describe('the sales desk, in detail', () => {
  it('keyboard only: signs in, configures, prices and saves a brief; the focus is always visible', async () => {
    await e2e.page.goto(url('/'));
    const user = e2e.page.getByLabel('Username or e-mail');
    await tabTo(user);
    await e2e.page.keyboard.type(ADMIN.email);
    await tabTo(e2e.page.locator('input[name=password]'));
    await e2e.page.keyboard.type(ADMIN.password);
    await e2e.page.keyboard.press('Enter');
    await e2e.page.getByTestId('signed-in-user').waitFor();

    await tabTo(e2e.page.getByRole('link', { name: 'New brief' }));
    await e2e.page.keyboard.press('Enter');
    await e2e.page.getByRole('heading', { name: 'Brief configurator' }).waitFor();
    await chooseByKeyboard(e2e.page.getByRole('combobox', { name: 'Company' }), 'Acme');
    await tabTo(e2e.page.getByRole('textbox', { name: 'Brief name' }));
    await e2e.page.keyboard.type('Keyboard box');
    await chooseByKeyboard(e2e.page.getByRole('combobox', { name: 'Style' }), 'STE');
    for (const [name, value] of [
      ['Length (mm)', '120'],
      ['Width (mm)', '40'],
      ['Height (mm)', '180'],
    ] as const) {
      await tabTo(e2e.page.getByRole('textbox', { name }));
      await e2e.page.keyboard.type(value);
    }
    await chooseByKeyboard(e2e.page.getByRole('combobox', { name: 'Board' }), 'GC1');
    const price = await priceChangedFrom(null);
    expect(price).toMatch(/€/);
    await tabTo(e2e.page.getByRole('checkbox', { name: 'Varnish' }));
    await e2e.page.keyboard.press('Space');
    expect(await priceChangedFrom(price)).not.toBe(price);
    await screenshot(e2e.page, 'd-01-keyboard-configurator');

    await tabTo(e2e.page.getByTestId('save-brief'), { back: true });
    await e2e.page.keyboard.press('Enter');
    await e2e.page.waitForURL(/\/app\/briefs\/[0-9a-f-]{36}$/);
    data.briefId = e2e.page.url().split('/').pop()!;
    const saved = await api('GET', `/api/briefs/${data.briefId}`);
    expect(saved).toMatchObject({ name: 'Keyboard box', companyId: data.companyId, hasPrice: true });
    expect(saved.briefElements[0].wantVarnishRecto).toBe(true);
    const { id: _id, ...element } = saved.briefElements[0];
    data.elementBody = Object.fromEntries(
      Object.entries(element).filter(
        ([k, v]) =>
          v !== null &&
          [
            'position',
            'productId',
            'lengthDimension',
            'widthDimension',
            'heightDimension',
            'materialReferenceId',
            'decorationsCount',
            'wantDecoration',
            'sidePrinted',
            'rectoColorCount',
            'versoColorCount',
          ].includes(k),
      ),
    );
  });

  it("chooses the brief's project among the company's, saves it with the brief, and clears it", async () => {
    await e2e.page.goto(url(`/briefs/${data.briefId}`));
    const project = e2e.page.getByRole('combobox', { name: 'Project' });
    await project.click();
    await expect
      .poll(() => e2e.page.getByRole('option').allTextContents())
      .toEqual(expect.arrayContaining(['Spring range', 'Autumn range']));
    await e2e.page.getByRole('option', { name: 'Spring range' }).click();
    await e2e.page.getByTestId('save-brief').click();
    await expect
      .poll(async () => (await api('GET', `/api/briefs/${data.briefId}`)).projectId)
      .toBe(data.projectId);
    await e2e.page.reload();
    await expect
      .poll(() => e2e.page.getByRole('combobox', { name: 'Project' }).inputValue())
      .toBe('Spring range');
    await screenshot(e2e.page, 'd-02-brief-project');
    await expectAccessible(e2e.page, 'configurator with a project');

    // Cleared by choosing the selected project again (Mantine's clear button is mouse-only).
    await e2e.page.getByRole('combobox', { name: 'Project' }).click();
    await e2e.page.getByRole('option', { name: 'Spring range' }).click();
    await expect.poll(() => e2e.page.getByRole('combobox', { name: 'Project' }).inputValue()).toBe('');
    await e2e.page.getByTestId('save-brief').click();
    await expect.poll(async () => (await api('GET', `/api/briefs/${data.briefId}`)).projectId).toBeNull();
    expect((await api('GET', `/api/briefs/${data.briefId}`)).companyId).toBe(data.companyId);
  });

  it('lists the revisions (who, when, what changed) and shows an older version read-only with its drawings', async () => {
    await e2e.page.goto(url(`/briefs/${data.briefId}`));
    const before = await priceChangedFrom(null);
    await e2e.page.getByTestId('quantity-0-0').fill('20000');
    await priceChangedFrom(before);
    await e2e.page.getByTestId('save-brief').click();
    await expect.poll(() => e2e.page.getByTestId('versions').getByRole('row').count()).toBe(3);

    await e2e.page.getByTestId('open-revisions').click();
    await e2e.page.getByTestId('revisions').waitFor();
    const latest = e2e.page.getByTestId('revision-2');
    await expect.poll(() => latest.textContent()).toMatch(/Quantities per artwork variant: 5,000 → 20,000/);
    expect(await latest.textContent()).toContain(ADMIN.email);
    expect(await e2e.page.getByTestId('revision-1').textContent()).toContain('First pricing');
    await screenshot(e2e.page, 'd-03-revisions');
    await expectAccessible(e2e.page, 'revisions');

    await e2e.page.getByRole('link', { name: 'Version 1' }).click();
    await e2e.page.getByTestId('version-read-only').waitFor();
    expect(await e2e.page.getByTestId('version-quantity').textContent()).toBe('5,000');
    expect(await e2e.page.getByTestId('version-spec-0').textContent()).toContain('5,000');
    await expect
      .poll(() => e2e.page.getByTestId('version-operations-0').getByRole('row').count())
      .toBeGreaterThan(2);
    await expect
      .poll(() => e2e.page.getByTestId('version-breakdown').getByRole('row').count())
      .toBeGreaterThan(3);
    // The drawings of version 1 load (authenticated by the session cookie) and are real images.
    for (const testId of ['version-die-line-0', 'version-imposition-0']) {
      await expect
        .poll(() =>
          e2e.page
            .getByTestId(testId)
            .locator('img')
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .toBeGreaterThan(0);
    }
    const compare = e2e.page.getByTestId('version-compare');
    expect(await compare.textContent()).toMatch(/5,000.*20,000/);
    // Read-only: nothing on the page saves or edits.
    expect(await e2e.page.getByTestId('save-brief').count()).toBe(0);
    expect(await e2e.page.getByRole('textbox').count()).toBe(0);
    await screenshot(e2e.page, 'd-04-version-1');
    await expectAccessible(e2e.page, 'older version');
  });

  it('shows a not-found state, without Retry, for a missing brief, quote, version or page', async () => {
    for (const path of [
      '/briefs/00000000-0000-4000-8000-000000000000',
      '/quotes/00000000-0000-4000-8000-000000000000',
      `/briefs/${data.briefId}/versions/99`,
      '/no-such-screen',
    ]) {
      await e2e.page.goto(url(path));
      await e2e.page.getByTestId('not-found').waitFor();
      expect(await e2e.page.getByRole('button', { name: 'Retry' }).count(), path).toBe(0);
    }
    await screenshot(e2e.page, 'd-05-not-found');
    await expectAccessible(e2e.page, 'not found');
  });

  it('revokes a guest link: the link stops working', async () => {
    const quote = await publishedQuote('Guest quote');
    await e2e.page.goto(url(`/quotes/${quote.id}`));
    // The guest links are the page's last card: the parts above (proofs, die-lines, the 3D view)
    // arrive one by one and move it down; a click while one arrives lands beside the button.
    await e2e.page.waitForLoadState('networkidle');
    await e2e.page.getByTestId('create-guest-link').click();
    const link = (await e2e.page.getByTestId('guest-link-url').textContent())!;
    const guest = await e2e.browser.newContext();
    expect((await guest.request.get(link)).status()).toBe(200);
    await expectAccessible(e2e.page, 'guest links');
    await e2e.page.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => e2e.page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect(await e2e.page.getByText('revoked or expired').count()).toBe(1);
    // The link just revoked is no longer offered to copy.
    expect(await e2e.page.getByTestId('guest-link-url').count()).toBe(0);
    const refused = await guest.request.get(link);
    expect(refused.status()).toBe(410);
    expect((await refused.json()).code).toBe('guest_link_revoked');
    await guest.close();
    await screenshot(e2e.page, 'd-06-guest-link-revoked');
  });

  it('the buyer declines a quote with a reason', async () => {
    const quote = await publishedQuote('Declined quote');
    await signOut();
    await signInAs(CONTACT.email, CONTACT.password);
    await e2e.page.goto(url(`/quotes/${quote.id}`));
    await e2e.page.getByRole('button', { name: 'Decline' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByLabel('Reason').fill('Too expensive for this run');
    await expectAccessible(e2e.page, 'decline dialog');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => e2e.page.getByTestId('quote-state').textContent()).toBe('Declined');
    expect(await e2e.page.getByTestId('quote-next').textContent()).toContain('Too expensive for this run');
    expect(await e2e.page.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    expect((await api('GET', `/api/quotes/${quote.id}`)).state).toBe('rejected');
    await screenshot(e2e.page, 'd-07-quote-declined');
    await expectAccessible(e2e.page, 'declined quote');
    await signOut();
  });

  it('speaks French: the language switch, key screens, and API errors translated onto the right field', async () => {
    // A refused sign-in, in French from the first screen.
    await e2e.page.goto(url('/sign-in'));
    // The sign-in screen's language picker is the browser's own select (its bundle budget).
    await e2e.page.getByLabel('Language').selectOption({ label: 'Français' });
    await e2e.page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await e2e.page.getByLabel('Identifiant ou e-mail').fill(ADMIN.email);
    await e2e.page.locator('input[name=password]').fill('not-the-password');
    await e2e.page.getByRole('button', { name: 'Se connecter' }).click();
    await expect.poll(() => e2e.page.getByRole('alert').textContent()).toContain('mot de passe erroné');
    await signInAs(ADMIN.email, ADMIN.password, { user: 'Identifiant ou e-mail', submit: 'Se connecter' });
    expect(await e2e.page.evaluate(() => document.documentElement.lang)).toBe('fr');

    // Key screens: navigation, quotes list, briefs, configurator.
    await e2e.page.getByRole('link', { name: 'Devis', exact: true }).click();
    await e2e.page.getByRole('heading', { name: 'Devis', exact: true }).waitFor();
    await e2e.page.getByRole('link', { name: 'Nouveau brief', exact: true }).click();
    await e2e.page.getByRole('heading', { name: 'Configurateur de brief' }).waitFor();
    await screenshot(e2e.page, 'd-08-fr-configurator');
    await e2e.page.goto(url(`/briefs/${data.briefId}/versions`));
    await e2e.page.getByRole('heading', { name: /Révisions de B-/ }).waitFor();
    expect(await e2e.page.getByTestId('revision-1').textContent()).toContain('Premier chiffrage');
    await screenshot(e2e.page, 'd-09-fr-revisions');

    // A company with a bad e-mail: the API answers in English; the screen says it in French,
    // under the E-mail field.
    await e2e.page.getByRole('link', { name: 'Sociétés', exact: true }).click();
    await e2e.page.getByRole('button', { name: 'Nouvelle société' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByLabel('Nom').fill('Société Test');
    await dialog.getByLabel('E-mail').fill('pas-un-email');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    const emailError = dialog
      .locator('.mantine-TextInput-root', { has: e2e.page.getByLabel('E-mail') })
      .locator('.mantine-TextInput-error');
    await expect.poll(() => emailError.textContent()).toBe('Saisissez une adresse e-mail valide');
    expect(await dialog.textContent()).toContain('Certains champs ne sont pas valides');
    await screenshot(e2e.page, 'd-10-fr-field-error');
    await expectAccessible(e2e.page, 'company form in French');
    await e2e.page.keyboard.press('Escape');

    // The configurator's price refused by the API (a dimension out of range), in French on the field.
    await e2e.page.goto(url(`/briefs/${data.briefId}`));
    await e2e.page.getByTestId('estimate-total').waitFor();
    await e2e.page.getByRole('textbox', { name: 'Longueur (mm)' }).fill('20000');
    const lengthError = e2e.page.getByTestId('element-0').locator('.mantine-NumberInput-error').first();
    await expect.poll(() => lengthError.textContent(), { timeout: 20_000 }).toBe('Au plus 10\u202f000');
    await expect.poll(() => e2e.page.getByTestId('error-reason').textContent()).toContain('Certains champs');

    // A draft's lines editor in French: a discount above the line refused with a French sentence.
    const brief = await api('POST', '/api/briefs', {
      companyId: data.companyId,
      name: 'Brief à éditer',
      briefElements: [data.elementBody],
    });
    const draft = await api('POST', '/api/quotes', { companyId: data.companyId, briefIds: [brief.id] });
    await e2e.page.goto(url(`/quotes/${draft.id}`));
    await e2e.page.getByTestId('quote-lines-editor').waitFor();
    const line = e2e.page.getByTestId('quote-line').nth(1);
    await line.getByRole('button', { name: 'Modifier' }).click();
    const lineDialog = e2e.page.getByRole('dialog');
    await lineDialog.getByText('EUR', { exact: true }).click();
    await lineDialog.getByRole('textbox', { name: 'Remise' }).fill('99999999');
    await lineDialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect
      .poll(() => lineDialog.getByTestId('line-editor-error').textContent())
      .toContain('La remise n');
    await screenshot(e2e.page, 'd-10b-fr-quote-line-refused');
    await expectAccessible(e2e.page, 'quote line dialog in French');
    await lineDialog.getByRole('button', { name: 'Annuler' }).click();
    await screenshot(e2e.page, 'd-10c-fr-quote-lines');

    // Not found, in French, with no "Réessayer".
    await e2e.page.goto(url('/briefs/00000000-0000-4000-8000-000000000000'));
    await e2e.page.getByRole('heading', { name: 'Introuvable' }).waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Réessayer' }).count()).toBe(0);
    await screenshot(e2e.page, 'd-11-fr-not-found');
  });
});
