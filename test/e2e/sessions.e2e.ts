import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createCartonBrief } from './fixtures.ts';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 26: a team can trust the app all day. In English, French and German:
 *
 * - invalid input greys the price (the estimate, die-line and imposition marked stale, the field's
 *   catalogue sentence, Save explains instead of sending);
 * - a session kept active past the access token's lifetime stays signed in (refreshed, rotated);
 * - an idle session warns, ends, and the configurator's draft is restored after signing in again;
 * - the unsaved-changes guard stops a click away from a dirty form;
 * - no schema text, pointer or id reaches the screen in any of these flows.
 *
 * The service runs with short lifetimes: a 10 s access token, a 30 s idle limit (the app refreshes
 * 3.3 s before the token expires while the user is active, and warns 7.5 s before the session ends).
 * Screenshots: test-results/e2e/sessions-*.png.
 */
const ACCESS_SECONDS = 10;
const IDLE_SECONDS = 30;
const e2e = openE2eSession({
  name: 'sessions',
  env: {
    SESSION_ACCESS_EXPIRES_IN: String(ACCESS_SECONDS),
    SESSION_IDLE_EXPIRES_IN: String(IDLE_SECONDS),
    SESSION_MAX_EXPIRES_IN: '3600',
  },
});
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function expectNoRawText(page: Page) {
  const text = await page.locator('body').innerText();
  for (const raw of ['body /', 'must ', 'params /'])
    expect(text, `visible text holds "${raw}"`).not.toContain(raw);
  expect(text).not.toMatch(UUID);
  return text;
}

async function chooseLanguage(page: Page, label: string, lng: string) {
  await page.getByRole('combobox', { name: /^(Language|Langue|Sprache)$/ }).click();
  await page.getByRole('option', { name: label }).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lng);
}

/** Signs in on the sign-in screen in any language (by the inputs' names). */
async function signInHere(page: Page) {
  await page.locator('input[name=username]').fill(ADMIN.email);
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.locator('button[type=submit]').click();
  await page.getByTestId('signed-in-user').waitFor();
}

/** Works on the page (trusted input: a key that changes nothing) for `seconds`, every second. */
async function keepWorking(page: Page, seconds: number) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    await page.keyboard.press('Shift');
    await page.waitForTimeout(1000);
  }
}

const cases = [
  {
    lng: 'en',
    picker: 'English',
    required: 'Required',
    stale: 'Not up to date',
    saveBlocked: 'Correct the marked fields to save.',
    expired: 'Your session ended after a while without activity',
    warning: 'Without activity you will be signed out in',
    restored: 'Your unsaved changes of',
    leave: 'Leave without saving?',
  },
  {
    lng: 'fr',
    picker: 'Français',
    required: 'Obligatoire',
    stale: 'Pas à jour',
    saveBlocked: 'Corrigez les champs signalés pour enregistrer.',
    expired: 'Votre session a pris fin après une période d’inactivité',
    warning: 'Sans activité, vous serez déconnecté dans',
    restored: 'Vos modifications non enregistrées de',
    leave: 'Quitter sans enregistrer ?',
  },
  {
    lng: 'de',
    picker: 'Deutsch',
    required: 'Pflichtfeld',
    stale: 'Nicht aktuell',
    saveBlocked: 'Korrigieren Sie die markierten Felder, um zu speichern.',
    expired: 'Ihre Sitzung wurde nach längerer Inaktivität beendet',
    warning: 'Ohne Aktivität werden Sie in',
    restored: 'Ihre ungespeicherten Änderungen von',
    leave: 'Ohne Speichern verlassen?',
  },
] as const;

async function newBrief(name: string) {
  const company = await e2e.api('POST', '/api/companies', { name: `${name} Ltd` });
  return (await createCartonBrief(e2e.api, company.id, name)) as { id: string };
}

describe('a team can trust the app all day (issue 26)', () => {
  it('signs in', async () => {
    await e2e.signInAs(ADMIN.email, ADMIN.password);
  });

  for (const c of cases) {
    it(`${c.lng}: invalid input greys the price, marks the drawings stale and puts the sentence on the field`, async () => {
      const { page } = e2e;
      const brief = await newBrief(`Stale ${c.lng}`);
      await page.goto(e2e.url(`/briefs/${brief.id}`));
      await chooseLanguage(page, c.picker, c.lng);
      const summary = page.getByTestId('estimate-summary');
      await summary.waitFor({ timeout: 60_000 });
      await expect.poll(() => summary.getAttribute('data-stale')).toBe('false');
      await page.getByTestId('die-line-0').waitFor();

      // A cleared length: stale at once, no call needed.
      await page.locator('#el0-length').fill('');
      await expect.poll(() => summary.getAttribute('data-stale'), { timeout: 5000 }).toBe('true');
      expect(await page.getByTestId('die-line-0').getAttribute('data-stale')).toBe('true');
      expect(await page.getByTestId('imposition-0').getAttribute('data-stale')).toBe('true');
      await page.getByTestId('estimate-stale').getByText(c.stale).waitFor();
      // Every panel drawn from the estimate is marked too, not only the price and the drawings.
      for (const name of ['operations', 'suggestions', 'curve', 'cost-shares', 'lead-time']) {
        const panel = page.locator(`[data-panel="${name}"]`).first();
        expect(await panel.getAttribute('data-stale'), name).toBe('true');
        expect(await page.getByTestId(`${name}-stale`).first().textContent(), name).toBe(c.stale);
      }
      const length = page.locator('#el0-length');
      expect(await length.getAttribute('aria-invalid')).toBe('true');
      const describedBy = ((await length.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      const message = (await Promise.all(describedBy.map((id) => page.locator(`#${id}`).innerText()))).join(
        ' ',
      );
      expect(message).toContain(c.required);
      expect(await page.getByTestId('save-brief').isDisabled()).toBe(true);
      await page.getByTestId('save-blocked').getByText(c.saveBlocked).waitFor();
      await expectNoRawText(page);
      await screenshot(page, `sessions-${c.lng}-stale-length`);

      // A variant's quantity of 0, the length back: still stale (never the price of another form).
      await length.fill('120');
      await page.getByTestId('quantity-0-0').fill('0');
      await expect.poll(() => summary.getAttribute('data-stale'), { timeout: 5000 }).toBe('true');
      await expectNoRawText(page);
      await screenshot(page, `sessions-${c.lng}-stale-quantity`);

      // Fixed: priced again, not stale.
      await page.getByTestId('quantity-0-0').fill('6000');
      await expect.poll(() => summary.getAttribute('data-stale'), { timeout: 30_000 }).toBe('false');
      await expect
        .poll(() => page.locator('[data-panel="operations"]').first().getAttribute('data-stale'))
        .toBe('false');
      expect(await page.getByTestId('operations-stale').count()).toBe(0);
      expect(await page.getByTestId('save-brief').isDisabled()).toBe(false);
    });

    it(`${c.lng}: the guard stops a click away from a dirty form`, async () => {
      const { page } = e2e;
      const brief = await newBrief(`Guard ${c.lng}`);
      await page.goto(e2e.url(`/briefs/${brief.id}`));
      await page.getByTestId('estimate-summary').waitFor({ timeout: 60_000 });
      await page.getByTestId('quantity-0-0').fill('7000');
      await page.locator('nav a[href$="/quotes"]').first().click();
      const guard = page.getByRole('dialog');
      await guard.getByText(c.leave).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/app/briefs/${brief.id}`);
      await expectNoRawText(page);
      await screenshot(page, `sessions-${c.lng}-guard`);
      await page.getByTestId('unsaved-stay').click();
      await guard.waitFor({ state: 'hidden' });
      expect(new URL(page.url()).pathname).toBe(`/app/briefs/${brief.id}`);
      expect(await page.getByTestId('quantity-0-0').inputValue()).toMatch(/7.?000/);
      // Leaving without saving goes, and forgets the draft.
      await page.locator('nav a[href$="/quotes"]').first().click();
      await page.getByTestId('unsaved-leave').click();
      await page.waitForURL(/\/app\/quotes$/);
      await page.goto(e2e.url(`/briefs/${brief.id}`));
      await page.getByTestId('estimate-summary').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('draft-restored').count()).toBe(0);
    });

    it(`${c.lng}: a session kept active past the access token's lifetime stays signed in`, async () => {
      const { page } = e2e;
      const refreshes: number[] = [];
      const onResponse = (r: { url(): string; status(): number }) => {
        if (r.url().endsWith('/api/session/refresh')) refreshes.push(r.status());
      };
      page.on('response', onResponse);
      await page.goto(e2e.url('/briefs'));
      await page.getByTestId('signed-in-user').waitFor();
      await keepWorking(page, ACCESS_SECONDS * 2);
      page.off('response', onResponse);
      // Refreshed (and rotated) while working, never refused.
      expect(refreshes.length).toBeGreaterThan(0);
      expect(refreshes.every((s) => s === 200)).toBe(true);
      // Still signed in: the next screen loads its data with the current token.
      await page.locator('nav a[href$="/quotes"]').first().click();
      await page.waitForURL(/\/app\/quotes$/);
      await page.getByTestId('signed-in-user').waitFor();
      expect(await page.locator('input[name=password]').count()).toBe(0);
    });

    it(`${c.lng}: an idle session warns, ends, and the draft is restored after signing in`, async () => {
      const { page } = e2e;
      const brief = await newBrief(`Draft ${c.lng}`);
      await page.goto(e2e.url(`/briefs/${brief.id}`));
      await page.getByTestId('estimate-summary').waitFor({ timeout: 60_000 });
      await page.getByTestId('quantity-0-0').fill('8000');
      // Idle from here: the warning comes before the end.
      const warning = page.getByRole('dialog').getByText(c.warning);
      await warning.waitFor({ timeout: IDLE_SECONDS * 1000 + 10_000 });
      await expectNoRawText(page);
      await screenshot(page, `sessions-${c.lng}-warning`);
      if (c.lng === 'en') {
        // "Stay signed in" refreshes: the warning goes and the session goes on.
        await page.getByTestId('stay-signed-in').click();
        await warning.waitFor({ state: 'hidden' });
        await page.getByTestId('signed-in-user').waitFor();
        await warning.waitFor({ timeout: IDLE_SECONDS * 1000 + 10_000 });
      }
      // The end: the sign-in screen says why, in the user's language.
      await page.locator('input[name=password]').waitFor({ timeout: 20_000 });
      await page.getByTestId('signed-out-reason').getByText(c.expired).waitFor();
      await expectNoRawText(page);
      await screenshot(page, `sessions-${c.lng}-expired`);
      await signInHere(page);
      // Back on the brief, with the unsaved quantity.
      await page.waitForURL(new RegExp(`/app/briefs/${brief.id}$`));
      await page.getByTestId('draft-restored').getByText(c.restored).waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('quantity-0-0').inputValue()).toMatch(/8.?000/);
      await expectNoRawText(page);
      await screenshot(page, `sessions-${c.lng}-draft-restored`);
      // Saving clears the draft.
      await page.getByTestId('save-brief').click();
      await page.getByTestId('draft-restored').waitFor({ state: 'hidden', timeout: 30_000 });
      await page.reload();
      await page.getByTestId('estimate-summary').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('draft-restored').count()).toBe(0);
    });
  }

  it('fr: the configurator, quote, order and admin screens read in French (screenshots)', async () => {
    const { page } = e2e;
    const brief = await newBrief('Écrin thé');
    const briefRow = (await e2e.api('GET', `/api/briefs/${brief.id}`)) as { companyId: string };
    const quote = (await e2e.api('POST', '/api/quotes', {
      companyId: briefRow.companyId,
      name: 'Thé 2027',
      briefIds: [brief.id],
    })) as { id: string };
    const order = (await e2e.api('POST', '/api/orders', {
      companyId: briefRow.companyId,
      billedAmount: 1250,
      externalId: 'ERP-FR-1',
    })) as { id: string };
    await page.goto(e2e.url('/briefs/new'));
    await chooseLanguage(page, 'Français', 'fr');
    const screens: [string, string][] = [
      ['configurator-new', '/briefs/new'],
      ['configurator', `/briefs/${brief.id}`],
      ['quotes', '/quotes'],
      ['quote', `/quotes/${quote.id}`],
      ['orders', '/orders'],
      ['order', `/orders/${order.id}`],
      ['admin-users', '/admin/users'],
      ['admin-settings', '/admin/settings'],
      ['admin-organisation', '/admin/organisation'],
      ['admin-catalogue', '/admin/catalogue'],
    ];
    for (const [name, path] of screens) {
      await page.goto(e2e.url(path));
      await page.getByTestId('signed-in-user').waitFor();
      await page.waitForLoadState('networkidle');
      if (name === 'configurator') await page.getByTestId('estimate-summary').waitFor({ timeout: 60_000 });
      await expectNoRawText(page);
      await screenshot(page, `sessions-fr-screen-${name}`);
    }
  });
});
