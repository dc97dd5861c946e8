import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { createCartonBrief } from './fixtures.ts';
import { ADMIN, clearScreenshots, openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 31: the configurator's charts (recharts) and drawings are chunks of their own, loaded once
 * an estimate is shown. While they load, the price and the form are there and each part says it is
 * loading; if a chunk cannot be loaded, the part says so and "Retry" loads it again, the rest of the
 * page untouched. The chunks are held back / refused by intercepting their requests.
 *
 * The frame's dialogs and the die-line download menu load their code on use too: a dialog whose
 * code cannot be loaded still asks its question (a plain box with the same words and buttons), and
 * a menu whose code cannot be loaded says so on its button, which loads it again.
 *
 * So does every select (ui/Select.tsx): a stand-in until one is first used, then Mantine's. What
 * the user does while the code is on its way (a click, a key, typed text) is not lost.
 */
const e2e = openE2eSession({ name: 'configurator-chunks' });
const state: { briefId?: string } = {};

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('chunks-') || name.startsWith('configurator-chunks-failed-'));
  const company = await e2e.api('POST', '/api/companies', { name: 'Chunk Co' });
  const brief = await createCartonBrief(e2e.api, company.id, 'Chunked');
  state.briefId = brief.id;
  await e2e.signInAs(ADMIN.email, ADMIN.password);
});

const CHARTS = '**/assets/EstimateCharts-*.js';
const DIALOG = '**/assets/DialogModal-*.js';
const MENU = '**/assets/DownloadMenu-*.js';
const DRAWINGS = '**/assets/EstimateDrawings-*.js';
const SELECT = '**/assets/SelectCode-*.js';

/** Holds back the requests of the given chunks until `release()`; `held()` counts them. */
async function holdBack(page: Page, ...chunks: string[]) {
  const held: Route[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  for (const chunk of chunks)
    await page.route(chunk, async (route) => {
      held.push(route);
      await released;
      await route.continue();
    });
  return { release, held: () => held.length };
}

describe('the configurator loads its charts and drawings on demand', () => {
  it('shows the price first, the charts and drawings loading, then drawn', async () => {
    const { page } = e2e;
    const { release, held } = await holdBack(page, CHARTS, DRAWINGS);
    try {
      await page.goto(e2e.url(`/briefs/${state.briefId}`));
      await page.getByTestId('estimate-total').waitFor();
      expect(await page.getByTestId('estimate-total').textContent()).toMatch(/€/);
      // The parts whose chunks are held say they are loading, in their place.
      for (const id of ['drawings-loading-0', 'cost-share-loading', 'curve-loading']) {
        await page.getByTestId(id).waitFor();
        expect(await page.getByTestId(id).getAttribute('aria-busy')).toBe('true');
        expect(await page.getByTestId(id).textContent()).toContain('Loading');
      }
      expect(await page.getByTestId('die-line-0').count()).toBe(0);
      expect(await page.locator('.recharts-wrapper').count()).toBe(0);
      // The form works meanwhile.
      expect(await page.getByTestId('quantity-0-0').isEditable()).toBe(true);
      expect(held()).toBeGreaterThan(0);
      await screenshot(page, 'chunks-01-loading');
      await expectAccessible(page, 'configurator, charts loading');
    } finally {
      release();
    }
    await expect.poll(() => page.getByTestId('die-line-0').locator('img').count()).toBe(1);
    await expect.poll(() => page.locator('.recharts-wrapper').count()).toBe(2); // donut and curve
    for (const id of ['drawings-loading-0', 'cost-share-loading', 'curve-loading'])
      expect(await page.getByTestId(id).count()).toBe(0);
    await screenshot(page, 'chunks-02-loaded');
    await page.unroute(CHARTS);
    await page.unroute(DRAWINGS);
  });

  it('says a chart could not be loaded, keeps the rest, and loads it again on Retry', async () => {
    const { page } = e2e;
    await page.route(CHARTS, (route) => route.abort('failed'));
    await page.goto(e2e.url(`/briefs/${state.briefId}`));
    await page.getByTestId('estimate-total').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Retry' }).count()).toBe(2);
    expect(await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).count()).toBe(2);
    // The drawings (another chunk) and the price are there.
    await expect.poll(() => page.getByTestId('die-line-0').locator('img').count()).toBe(1);
    expect(await page.locator('.recharts-wrapper').count()).toBe(0);
    await screenshot(page, 'chunks-03-failed');
    await page.unroute(CHARTS);
    await page.getByRole('button', { name: 'Retry' }).first().click();
    await expect.poll(() => page.locator('.recharts-wrapper').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // The donut is drawn (its size comes from the charts' styles), not an empty box.
    expect((await page.locator('.mantine-DonutChart-root').boundingBox())?.height).toBeGreaterThan(100);
    await screenshot(page, 'chunks-04-retried');
  });

  it('asks about unsaved changes even when the dialog’s code cannot be loaded, in the dialog once it can', async () => {
    const { page } = e2e;
    await page.route(DIALOG, (route) => route.abort('failed'));
    await page.goto(e2e.url(`/briefs/${state.briefId}`));
    await page.getByTestId('estimate-total').waitFor();
    await page.getByTestId('quantity-0-0').fill('7000');
    await page.locator('nav a[href$="/quotes"]').first().click();
    const question = page.getByRole('dialog');
    await question.getByText('Leave without saving?').waitFor();
    expect(
      await question.getByText('Your changes on this page are not saved', { exact: false }).count(),
    ).toBe(1);
    expect(new URL(page.url()).pathname).toBe(`/app/briefs/${state.briefId}`);
    // The plain box, not Mantine's modal (whose code was refused).
    expect(await page.locator('.mantine-Modal-content').count()).toBe(0);
    await screenshot(page, 'chunks-05-dialog-fallback');
    await expectAccessible(page, 'unsaved-changes question without its dialog code');
    await page.getByTestId('unsaved-stay').click();
    await question.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('quantity-0-0').inputValue()).toMatch(/7.?000/);
    // The code can be loaded again: the next question is Mantine's modal.
    await page.unroute(DIALOG);
    await page.locator('nav a[href$="/quotes"]').first().click();
    await page.locator('.mantine-Modal-content').getByText('Leave without saving?').waitFor();
    await screenshot(page, 'chunks-06-dialog');
    await page.getByTestId('unsaved-leave').click();
    await page.waitForURL(/\/app\/quotes$/);
  });

  it('says the die-line menu could not be loaded, and opens it when its code loads again', async () => {
    const { page } = e2e;
    await page.route(MENU, (route) => route.abort('failed'));
    await page.goto(e2e.url(`/briefs/${state.briefId}`));
    const button = page.getByTestId('die-line-downloads-0');
    await button.waitFor();
    expect(await button.textContent()).toBe('Die-line files');
    // The menu's code is not loaded with the page.
    expect(await page.getByRole('menu').count()).toBe(0);
    await button.click();
    await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).waitFor();
    expect(await button.textContent()).toBe('Retry');
    await screenshot(page, 'chunks-07-menu-failed');
    await page.unroute(MENU);
    await button.click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem').first().waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).count()).toBe(0);
    expect(await button.textContent()).toBe('Die-line files');
    await expectAccessible(page, 'die-line menu opened after a failed load');
    await screenshot(page, 'chunks-08-menu');
  });

  it('draws a page with a message section from its URL, and switches its language with it', async () => {
    const { page } = e2e;
    // The imports page's sentences are a section of their own (i18n/index.ts), loaded with it.
    await page.goto(e2e.url('/imports'));
    await page.getByRole('heading', { name: 'CSV imports' }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Français' }).click();
    await page.getByRole('heading', { name: 'Imports CSV' }).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/\b(imports|webhooks|nav)\.[a-zA-Z]+/);
    await screenshot(page, 'chunks-09-section-fr');
    await page.getByRole('combobox', { name: 'Langue' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { name: 'CSV-Importe' }).waitFor();
    await page.getByRole('combobox', { name: 'Sprache' }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'CSV imports' }).waitFor();
  });
});

/** Picks German in the language list shown, then English again (the next tests read English). */
async function germanThenEnglish(page: Page) {
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await page.getByRole('combobox', { name: 'Sprache' }).click();
  await page.getByRole('option', { name: 'English' }).click();
  await page.getByRole('combobox', { name: 'Language' }).waitFor();
}

describe('the selects load their code on first use', () => {
  it('keeps the focus and the text typed while the code loads, then lists what matches', async () => {
    const { page } = e2e;
    const { release, held } = await holdBack(page, SELECT);
    try {
      await page.goto(e2e.url(`/briefs/${state.briefId}`));
      await page.getByTestId('estimate-total').waitFor();
      await expect.poll(() => page.getByTestId('die-line-0').locator('img').count()).toBe(1);
      // The page, its language picker and its selects are drawn without the select's code.
      const board = page.getByRole('combobox', { name: 'Board' });
      expect(await board.inputValue()).toMatch(/GC1/);
      expect(held()).toBe(0);
      await board.click();
      await expect.poll(held).toBe(1);
      // The choice's label is selected on focus: what is typed replaces it.
      await page.keyboard.type('GC1');
      expect(await board.inputValue()).toBe('GC1');
      expect(await board.getAttribute('aria-busy')).toBe('true');
      await screenshot(page, 'chunks-10-select-loading');
    } finally {
      release();
    }
    // The real select took the stand-in's place, with the focus and the text, its list open.
    const list = page.getByRole('listbox');
    await list.getByRole('option').first().waitFor();
    const board = page.getByRole('combobox', { name: 'Board' });
    expect(await board.inputValue()).toBe('GC1');
    expect(await board.evaluate((input) => input === document.activeElement)).toBe(true);
    const options = await list.getByRole('option').allTextContents();
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) expect(option).toMatch(/GC1/i);
    await screenshot(page, 'chunks-11-select-open');
    await expectAccessible(page, 'a select opened while its code was loading');
    await page.keyboard.press('Escape');
    // Another searchable select, its code there: what is typed replaces its choice and searches.
    const style = page.getByRole('combobox', { name: 'Style' });
    await style.click();
    await page.keyboard.type('tuck');
    expect(await style.inputValue()).toBe('tuck');
    await list.getByRole('option').first().waitFor();
    for (const option of await list.getByRole('option').allTextContents()) expect(option).toMatch(/tuck/i);
    await page.keyboard.press('Escape');
    expect(held()).toBe(1);
    await page.unroute(SELECT);
  });

  it('opens a list asked for by the keyboard once the code has come', async () => {
    const { page } = e2e;
    const { release } = await holdBack(page, SELECT);
    try {
      await page.goto(e2e.url('/quotes'));
      const language = page.getByRole('combobox', { name: 'Language' });
      await language.focus();
      await page.keyboard.press('ArrowDown');
      expect(await page.getByRole('listbox').count()).toBe(0);
    } finally {
      release();
    }
    await germanThenEnglish(page);
    await page.unroute(SELECT);
  });

  it('opens the list of a select pressed while its code arrives, and keeps it open after the click', async () => {
    const { page } = e2e;
    const { release, held } = await holdBack(page, SELECT);
    await page.goto(e2e.url('/quotes'));
    const box = (await page.getByRole('combobox', { name: 'Language' }).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect.poll(held).toBe(1);
    // The code comes between the press and the release: the real select takes the stand-in's place.
    release();
    await page.getByRole('listbox').getByRole('option', { name: 'Deutsch' }).waitFor();
    await page.mouse.up();
    await germanThenEnglish(page);
    await page.unroute(SELECT);
  });

  it('says a select could not be loaded, and opens it when its code loads again', async () => {
    const { page } = e2e;
    await page.route(SELECT, (route) => route.abort('failed'));
    await page.goto(e2e.url(`/briefs/${state.briefId}`));
    await page.getByTestId('estimate-total').waitFor();
    const packing = page.getByTestId('packing-type');
    await packing.click();
    await page.getByText('The list could not be loaded: open it again to retry').waitFor();
    expect(await page.getByRole('listbox').count()).toBe(0);
    await screenshot(page, 'chunks-12-select-failed');
    await page.unroute(SELECT);
    await packing.click();
    await page.getByRole('option', { name: 'Strapped bundles' }).click();
    expect(await page.getByTestId('packing-type').inputValue()).toBe('Strapped bundles');
    expect(await page.getByText('The list could not be loaded', { exact: false }).count()).toBe(0);
  });
});
