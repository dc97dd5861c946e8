import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { createCartonBrief } from './fixtures.ts';
import { ADMIN, openE2eSession, screenshot, signInApi } from './harness.ts';

/**
 * The administration screens in a real Chromium: users (create with the API's refusal shown, archive
 * and unarchive), an access token minted in the UI that works for direct HTTP calls and stops after
 * a revoke in the UI, statuses and custom fields, a machine rate changed by the admin that changes a
 * re-priced brief (through the UI and the API), and a sales user who is offered no admin action.
 * Screenshots go to test-results/e2e (admin-*.png).
 */
const e2e = openE2eSession({ name: 'admin' });
const { url, signInAs, signOut } = e2e;
const SALES = { email: 'sam.sales@e2e.test', password: 'sales-password-1' };
const state: { briefId?: string; briefCode?: string; token?: string; storedBefore?: number } = {};

beforeAll(async () => {
  // A saved folding carton to re-price (the configurator's own scenario is sales-desk.e2e.ts).
  const { api } = e2e;
  const company = await api('POST', '/api/companies', { name: 'Rate Test Co' });
  const brief = await createCartonBrief(api, company.id, 'Rate test carton');
  Object.assign(state, { briefId: brief.id, briefCode: brief.code, storedBefore: brief.totalPrice });
  await api('POST', '/api/users', {
    email: 'temp.guest@e2e.test',
    password: 'guest-password-1',
    role: 'guest',
  });
  await api('POST', '/api/users/contacts', {
    firstName: 'Cleo',
    lastName: 'Contact',
    email: 'cleo@rate-test.test',
    collaborationIds: [company.id],
  });
});

/** Waits for a screen to catch up with the service (re-pricing, refetches) on a shared, busy machine. */
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });
const euro = (amount: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(
    amount,
  );

/** A direct HTTP call with an access token, as another application (curl) would make it. */
const withToken = (token: string, path = '/api/users/me') =>
  fetch(`${e2e.service.baseUrl}${path}`, { headers: { 'x-access-token': token } });

/** A link of the main navigation (tables also hold links such as "Access tokens"). */
const nav = (name: string) => e2e.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
const row = (text: string) => e2e.page.getByRole('row').filter({ hasText: text });

describe('administration, end to end', () => {
  it('creates a user (the API’s refusal shows in the form), archives and unarchives another', async () => {
    await signInAs(ADMIN.email, ADMIN.password);
    await nav('Users').click();
    await e2e.page.getByRole('heading', { name: 'Users' }).waitFor();
    await row('temp.guest@e2e.test').waitFor();
    await e2e.page.getByRole('button', { name: 'New user' }).click();
    const dialog = e2e.page.getByRole('dialog');
    // An e-mail already taken: 409 from the API, its reason in the form.
    await dialog.getByLabel('E-mail').fill('temp.guest@e2e.test');
    await dialog.getByLabel('First password').fill(SALES.password);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await poll(() => dialog.getByRole('alert').textContent()).toMatch(/already used/);
    await screenshot(e2e.page, 'admin-01-user-refused');
    await dialog.getByLabel('E-mail').fill(SALES.email);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await e2e.page.getByRole('option', { name: 'Sales', exact: true }).click();
    await dialog.getByLabel('First name').fill('Sam');
    await dialog.getByLabel('Last name').fill('Sales');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(SALES.email).getByText('Sales', { exact: true }).waitFor();

    await row('temp.guest@e2e.test').getByRole('button', { name: 'Archive' }).click();
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await poll(() => row('temp.guest@e2e.test').count()).toBe(0);
    // The switch follows the URL (a router navigation), so it is clicked rather than checked.
    await e2e.page.getByLabel('Archived users').click();
    await row('temp.guest@e2e.test').getByRole('button', { name: 'Unarchive' }).click();
    await poll(() => row('temp.guest@e2e.test').count()).toBe(0);
    await e2e.page.getByLabel('Archived users').click();
    await row('temp.guest@e2e.test').waitFor();
    // A contact without a password is invited to sign in from the list.
    await row('cleo@rate-test.test').getByRole('button', { name: 'Let sign in' }).click();
    await e2e.page.getByRole('dialog').getByLabel('Password for signing in').fill('cleo-password-1');
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Let sign in' }).click();
    await e2e.page.getByRole('dialog').waitFor({ state: 'detached' });
    await poll(() => row('cleo@rate-test.test').getByRole('button', { name: 'Let sign in' }).count()).toBe(0);
    expect(await signInApi(e2e.service.baseUrl, 'cleo@rate-test.test', 'cleo-password-1')).toBeTruthy();
    await screenshot(e2e.page, 'admin-02-users');
    await expectAccessible(e2e.page, 'users');
  });

  it('an access token created in the UI works for direct calls and stops working once revoked', async () => {
    await nav('Access tokens').click();
    await e2e.page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    await e2e.page.getByRole('button', { name: 'Create token' }).click();
    // No name: the API's pointer lands on the field.
    await poll(() => e2e.page.locator('.mantine-TextInput-error').first().textContent()).toMatch(/\S/);
    await e2e.page.getByLabel('Application name').fill('ERP sync');
    await e2e.page.getByRole('button', { name: 'Create token' }).click();
    const shown = e2e.page.getByTestId('new-token-value');
    await shown.waitFor();
    state.token = (await shown.textContent())!.trim();
    expect(state.token.length).toBeGreaterThan(20);
    await e2e.page.getByTestId('new-token').getByRole('button', { name: 'Copy' }).waitFor();
    await row('ERP sync').getByText('Active').waitFor();
    await screenshot(e2e.page, 'admin-03-token-created');
    await expectAccessible(e2e.page, 'access tokens');

    const me = await withToken(state.token);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(ADMIN.email);
    expect((await withToken(state.token, '/api/companies/pagination')).status).toBe(200);
    // The list shows the prefix, never the token again.
    expect(await e2e.page.getByTestId('access-tokens').textContent()).not.toContain(state.token);

    await row('ERP sync').getByRole('button', { name: 'Revoke' }).click();
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row('ERP sync').getByText('Revoked').waitFor();
    const refused = await withToken(state.token);
    expect(refused.status).toBe(401);
    expect((await refused.json()).detail).toMatch(/revoked/);
    await screenshot(e2e.page, 'admin-04-token-revoked');
  });

  it('manages statuses and custom fields', async () => {
    await nav('Statuses & settings').click();
    await e2e.page.getByRole('heading', { name: 'Statuses & settings' }).waitFor();
    await e2e.page.getByRole('button', { name: 'New status' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByLabel('Name (staff)').fill('In press');
    await dialog.getByRole('textbox', { name: 'Colour', exact: true }).fill('#2b8a3e');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const statuses = e2e.page.getByTestId('statuses');
    await statuses.getByRole('cell', { name: 'In press' }).first().waitFor();
    const lastBefore = await statuses.getByRole('row').last().textContent();
    expect(lastBefore).toContain('In press');
    await e2e.page.getByRole('button', { name: 'Move In press up' }).click();
    await poll(() => statuses.getByRole('row').last().textContent()).not.toContain('In press');
    await screenshot(e2e.page, 'admin-05-statuses');
    await expectAccessible(e2e.page, 'statuses');

    await e2e.page.getByRole('tab', { name: 'Currencies' }).click();
    await e2e.page.getByTestId('currencies').waitFor();
    await expectAccessible(e2e.page, 'currencies');

    await e2e.page.getByRole('tab', { name: 'Custom fields' }).click();
    await e2e.page.getByRole('button', { name: 'New field' }).click();
    await e2e.page.getByRole('dialog').getByLabel('Label').fill('PO number');
    await e2e.page.getByRole('dialog').getByLabel('Key').fill('poNumber');
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await e2e.page.getByRole('dialog').waitFor({ state: 'detached' });
    await e2e.page.getByTestId('custom-fields').getByText('poNumber').waitFor();
    await screenshot(e2e.page, 'admin-06-custom-fields');
    await expectAccessible(e2e.page, 'custom fields');
    const fields = await e2e.api('GET', '/api/custom-fields?entity=order');
    expect(fields.data.map((f: { key: string }) => f.key)).toContain('poNumber');
  });

  it('a machine rate changed by the admin changes a re-priced brief (UI and API)', async () => {
    await nav('Estimating catalogue').click();
    await e2e.page.getByRole('heading', { name: 'Estimating catalogue' }).waitFor();
    const panel = e2e.page.getByTestId('reprice-panel');
    await panel.getByRole('combobox', { name: 'Brief' }).click();
    await e2e.page.getByRole('option', { name: new RegExp(state.briefCode!) }).click();
    const stored = panel.getByTestId('reprice-stored');
    const now = panel.getByTestId('reprice-now');
    await poll(() => stored.textContent()).toBe(euro(state.storedBefore!));
    await poll(() => panel.getByTestId('reprice-difference').textContent()).toBe('No change');
    await screenshot(e2e.page, 'admin-07-catalogue');
    await expectAccessible(e2e.page, 'catalogue');

    const machine = e2e.page.getByTestId('machine-DIECUT-106');
    // A default figure without a published source is marked "estimate" (issue 30), until edited.
    expect(await machine.getByTestId('estimate-DIECUT-106').textContent()).toBe('estimate');
    expect(await e2e.page.getByTestId('machine-OFFSET-XL106').getByText('estimate').count()).toBe(0);
    await machine.getByRole('button', { name: 'Edit' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByLabel('Hourly rate').fill('900');
    await screenshot(e2e.page, 'admin-08-machine-form');
    await expectAccessible(e2e.page, 'machine form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => machine.getByTestId('hourly-rate').textContent()).toBe(euro(900));
    expect(await machine.getByTestId('estimate-DIECUT-106').count()).toBe(0);
    const machines = await e2e.api('GET', '/api/machines');
    expect(machines.find((m: { code: string }) => m.code === 'DIECUT-106').hourlyRate).toBe(900);

    // The preview follows the new rate; the stored price has not moved yet.
    await poll(() => panel.getByTestId('reprice-difference').textContent()).toMatch(/^\+/);
    const preview = (await now.textContent())!;
    expect(await stored.textContent()).toBe(euro(state.storedBefore!));
    await screenshot(e2e.page, 'admin-09-reprice-preview');

    await panel.getByTestId('reprice-brief').click();
    await poll(() => stored.textContent()).toBe(preview);
    const brief = await e2e.api('GET', `/api/briefs/${state.briefId}`);
    expect(brief.currentVersion).toBe(2);
    expect(brief.totalPrice).toBeGreaterThan(state.storedBefore!);
    expect(euro(brief.totalPrice)).toBe(preview);
    await poll(() => panel.getByTestId('reprice-difference').textContent()).toBe('No change');
    await screenshot(e2e.page, 'admin-10-repriced');
  });

  it('a sales user sees the administration read-only, and a refused call shows the API’s reason', async () => {
    await signOut();
    await signInAs(SALES.email, SALES.password);
    await nav('Users').click();
    await row(ADMIN.email).waitFor();
    expect(await e2e.page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(await e2e.page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await e2e.page.getByRole('button', { name: 'Archive' }).count()).toBe(0);
    expect(await e2e.page.getByLabel('Archived users').count()).toBe(0);
    // Tokens: only one's own (no link on the admin's row, no owner picker).
    expect(await row(ADMIN.email).getByRole('link', { name: 'Access tokens' }).count()).toBe(0);
    await screenshot(e2e.page, 'admin-11-sales-users');
    await expectAccessible(e2e.page, 'users (sales)');

    // What the screen does not offer can still be asked by URL: the API refuses, with its reason.
    await e2e.page.goto(url('/admin/users?archived=true'));
    await poll(() => e2e.page.getByTestId('error-reason').textContent()).toMatch(/role does not allow/);
    await screenshot(e2e.page, 'admin-12-sales-refused');

    await nav('Estimating catalogue').click();
    await e2e.page.getByTestId('machine-DIECUT-106').waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await e2e.page.getByRole('tab', { name: 'Pricing settings' }).click();
    await e2e.page.getByLabel('Default commercial margin').waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Save' }).count()).toBe(0);

    await nav('Statuses & settings').click();
    await e2e.page.getByTestId('statuses').waitFor();
    expect(await e2e.page.getByRole('button', { name: 'New status' }).count()).toBe(0);
    expect(await e2e.page.getByRole('button', { name: /Move .* up/ }).count()).toBe(0);

    await nav('Access tokens').click();
    await e2e.page.getByRole('button', { name: 'Create token' }).waitFor();
    expect(await e2e.page.getByLabel('Tokens of').count()).toBe(0);
    // The admin's tokens are out of a sales user's reach: the API's reason, not an empty list.
    const me = await e2e.api('GET', '/api/users/me');
    await e2e.page.goto(url(`/admin/access-tokens?userId=${me.id}`));
    await poll(() => e2e.page.getByTestId('error-reason').textContent()).toMatch(/role does not allow/);
    expect(await e2e.page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    await screenshot(e2e.page, 'admin-13-sales-tokens-refused');

    // The same screens in French.
    await e2e.page.getByRole('combobox', { name: 'Language' }).click();
    await e2e.page.getByRole('option', { name: 'Français' }).click();
    await e2e.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Catalogue de chiffrage' })
      .click();
    await e2e.page.getByRole('heading', { name: 'Catalogue de chiffrage' }).waitFor();
    await e2e.page.getByRole('tab', { name: 'Matières' }).click();
    await e2e.page.getByRole('heading', { name: 'Cartons' }).waitFor();
    await e2e.page.getByText('GC1-350', { exact: true }).waitFor();
    // The corrugated compositions load too (a page from /corrugated-material-compositions).
    await e2e.page.getByText('B-K150-T125-K150', { exact: true }).waitFor();
    await screenshot(e2e.page, 'admin-14-catalogue-fr');
    await expectAccessible(e2e.page, 'catalogue (fr)');
  });
});
