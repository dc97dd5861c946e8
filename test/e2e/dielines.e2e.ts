import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 28's download menus in a real Chromium: the brief page and a version page offer the
 * die-line and imposition-sheet files (PDF, DXF, CF2); a link downloads the file the server names.
 * Screenshots go to test-results/e2e (prefixed "dl-").
 */
const e2e = openE2eSession({ name: 'dl', context: { acceptDownloads: true } });

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
    await e2e.page.goto(e2e.url(`/briefs/${brief.id}`));
    const files = e2e.page.getByTestId('die-line-files');
    await files.getByTestId('die-line-downloads-0').click();
    const menu = e2e.page.getByRole('menu');
    await menu.getByRole('menuitem').first().waitFor();
    for (const name of ['PDF artwork template (designer)', 'DXF (CAD)', 'CF2 (die-maker)'])
      expect(await menu.getByRole('menuitem', { name }).count()).toBe(2);
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
    await screenshot(e2e.page, 'dl-02-version-menu');
  });
});
