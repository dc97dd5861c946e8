import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 28's download menus in a real Chromium: the brief page and a version page offer the
 * die-line and imposition-sheet files (PDF, DXF, CF2) and the whole-brief PDF; the quote page offers
 * each line's files to the seller and to the buyer; a link downloads the file the server names.
 * Screenshots go to test-results/e2e (prefixed "dl-").
 */
const e2e = openE2eSession({ name: 'dl', context: { acceptDownloads: true } });
const BUYER = { email: 'dl-buyer@e2e.test', password: 'dl-buyer-password-1' };
const state = {} as { briefId: string; briefCode: string; companyId: string };

/**
 * Opens a die-line menu: its code loads on the first click and the menu opens as it is drawn. On a
 * loaded CI machine that first click has once been lost on the quote page (the menu never showed in
 * 30 s; seen once in three runs): click again while no menu item is shown.
 */
async function openMenu(button: Locator) {
  const item = e2e.page.getByRole('menu').getByRole('menuitem').first();
  await button.click();
  await expect
    .poll(
      async () => {
        if (await item.isVisible()) return true;
        await button.click();
        return item.isVisible();
      },
      { timeout: 60_000, interval: 2_000 },
    )
    .toBe(true);
}

describe('die-line downloads, end to end', () => {
  it('offers the three files on the brief and version pages and downloads one', async () => {
    const products = await e2e.api('GET', '/api/products');
    const boards = await e2e.api('GET', '/api/material-references');
    const company = await e2e.api('POST', '/api/companies', { name: 'Acme Tea' });
    const brief = await e2e.api('POST', '/api/briefs', {
      companyId: company.id,
      name: 'Tea box',
      briefElements: [
        {
          position: 0,
          productId: products.find((p: { code: string }) => p.code === 'RTE').id,
          materialReferenceId: boards.find((b: { code: string }) => b.code === 'GC1-350').id,
          lengthDimension: 120,
          widthDimension: 40,
          heightDimension: 180,
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
          wantDecoration: true,
          sidePrinted: 'RECTO',
          rectoColorCount: 4,
        },
      ],
    });
    await e2e.signInAs(ADMIN.email, ADMIN.password);
    // The value analysis (`?include=analysis`) is held back until the menu is open. It arrives after
    // the price and lengthens the price column (curve, savings); a menu opened before must stay open
    // and in view (Mantine hides a dropdown whose button has been pushed out of the screen).
    let releaseAnalysis = () => {};
    const analysisHeld = new Promise<void>((resolve) => {
      releaseAnalysis = resolve;
    });
    const analysisRequest = (url: URL) =>
      url.pathname === '/api/briefs/estimate' && url.searchParams.get('include') === 'analysis';
    await e2e.page.route(analysisRequest, async (route) => {
      await analysisHeld;
      await route.continue();
    });
    await e2e.page.goto(e2e.url(`/briefs/${brief.id}`));
    const files = e2e.page.getByTestId('die-line-files');
    await e2e.page.getByTestId('estimate-total').waitFor();
    await e2e.page.getByTestId('analysing').first().waitFor();
    const button = files.getByTestId('die-line-downloads-0');
    await button.click();
    const menu = e2e.page.getByRole('menu');
    await menu.getByRole('menuitem').first().waitFor();
    const before = await button.boundingBox();
    releaseAnalysis();
    await e2e.page.getByTestId('price-break-0').waitFor();
    await e2e.page.unroute(analysisRequest);
    expect(await e2e.page.getByTestId('analysing').count()).toBe(0);
    // Two frames: the dropdown's position (and hiding) is computed after the layout it follows.
    await e2e.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await button.boundingBox()).toEqual(before);
    expect(await menu.isVisible()).toBe(true);
    // Each format twice (the element's die-line and its imposition sheet), by the items' text.
    for (const name of ['PDF artwork template (designer)', 'DXF (CAD)', 'CF2 (die-maker)'])
      await expect.poll(() => menu.getByRole('menuitem').filter({ hasText: name }).count()).toBe(2);
    await screenshot(e2e.page, 'dl-01-brief-menu');
    await expectAccessible(e2e.page, 'die-line download menu');
    // The full-page screenshot closes the menu: open it again.
    if (!(await menu.isVisible())) await files.getByTestId('die-line-downloads-0').click();
    const download = e2e.page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'CF2 (die-maker)' }).first().click();
    expect((await download).suggestedFilename()).toBe(`${brief.code}-v1-1-RTE-120x40x180.cf2`);

    await e2e.page.goto(e2e.url(`/briefs/${brief.id}/versions/1`));
    await e2e.page.getByTestId('die-line-downloads-0').click();
    const pdf = e2e.page.getByRole('menuitem', { name: 'PDF artwork template (designer)' }).first();
    expect(await pdf.getAttribute('href')).toBe(
      `/api/briefs/${brief.id}/elements/0/die-line?format=pdf&version=1`,
    );
    const whole = e2e.page.getByTestId('die-line-downloads-0-whole');
    expect(await whole.getAttribute('href')).toBe(`/api/briefs/${brief.id}/die-lines?format=pdf&version=1`);
    await screenshot(e2e.page, 'dl-02-version-menu');
    state.briefId = brief.id;
    state.briefCode = brief.code;
    state.companyId = company.id;
  });

  it('offers each quote line’s files on the quote page, to the seller and to the buyer', async () => {
    await e2e.api('POST', '/api/users', {
      email: BUYER.email,
      password: BUYER.password,
      role: 'contact',
      companyIds: [state.companyId],
    });
    const quote = await e2e.api('POST', '/api/quotes', {
      companyId: state.companyId,
      briefIds: [state.briefId],
    });
    await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
    await e2e.page.goto(e2e.url(`/quotes/${quote.id}`));
    const card = e2e.page.getByTestId('quote-die-lines');
    const menu = e2e.page.getByRole('menu');
    await openMenu(card.getByTestId('quote-die-line-1.1'));
    await expectAccessible(e2e.page, 'quote page with a die-line menu open');
    await screenshot(e2e.page, 'dl-03-quote-menu');
    if (!(await menu.isVisible())) await card.getByTestId('quote-die-line-1.1').click();
    const download = e2e.page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'DXF (CAD)' }).first().click();
    expect((await download).suggestedFilename()).toBe(`${state.briefCode}-v1-1-RTE-120x40x180.dxf`);

    await e2e.signOut();
    await e2e.signInAs(BUYER.email, BUYER.password);
    await e2e.page.goto(e2e.url(`/quotes/${quote.id}`));
    await openMenu(e2e.page.getByTestId('quote-die-line-1.1'));
    await screenshot(e2e.page, 'dl-04-buyer-quote-menu');
    // The full-page screenshot scrolls to the top, which may close the menu: open it again.
    if (!(await e2e.page.getByRole('menu').isVisible()))
      await e2e.page.getByTestId('quote-die-line-1.1').click();
    const buyerDownload = e2e.page.waitForEvent('download');
    await e2e.page.getByRole('menuitem', { name: 'CF2 (die-maker)' }).first().click();
    expect((await buyerDownload).suggestedFilename()).toBe(`${state.briefCode}-v1-1-RTE-120x40x180.cf2`);
  });
});
