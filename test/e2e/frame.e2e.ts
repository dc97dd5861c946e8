import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { createCartonBrief } from './fixtures.ts';
import { ADMIN, ARTIFACTS, clearScreenshots, openE2eSession, screenshot } from './harness.ts';

/**
 * Issue 31: the signed-in frame draws its own header, navbar and main region (Mantine's AppShell
 * is no longer loaded). The layout it replaced: a fixed 56 px header, a 220 px navbar beside the
 * page from 48em up, below that a full-width navbar the burger slides in and out. Checked on the
 * configurator opened from its URL, on a desktop and a phone, in English and French.
 * Screenshots: test-results/e2e/frame-*.png.
 */
const e2e = openE2eSession({ name: 'frame' });
const state: { briefId?: string } = {};

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('frame-'));
  const company = await e2e.api('POST', '/api/companies', { name: 'Frame Co' });
  const brief = await createCartonBrief(e2e.api, company.id, 'Framed');
  state.briefId = brief.id;
  await e2e.signInAs(ADMIN.email, ADMIN.password);
});

const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;
const navbar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** What a phone shows: the screen, not the whole page (the navbar covers the screen, not the page). */
async function phoneShot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

async function openConfigurator(page: Page) {
  await page.goto(e2e.url(`/briefs/${state.briefId}`));
  await page.getByTestId('estimate-total').waitFor();
}

async function chooseFrench(page: Page) {
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'Français' }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fr');
}

describe('the signed-in frame', () => {
  it('on a desktop: header, navbar beside the page, landmarks and the skip link', async () => {
    const { page } = e2e;
    await openConfigurator(page);
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);
    const header = await box(page, 'header');
    const nav = await box(page, 'nav');
    const main = await box(page, 'main');
    expect(header).toMatchObject({ x: 0, y: 0, height: 56, width: 1400 });
    expect(nav).toMatchObject({ x: 0, y: 56, width: 220 });
    // The page starts beside the navbar and below the header, nothing under either.
    const title = await page.getByTestId('estimate-total').boundingBox();
    expect(title!.x).toBeGreaterThan(220);
    expect(main.x).toBe(0);
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    await expect
      .poll(() => navbar(page).getByRole('link', { name: 'Briefs', exact: true }).getAttribute('data-active'))
      .toBe('true');
    // The skip link is the first stop and leads to the main region.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await screenshot(page, 'frame-01-desktop-en');
    await expectAccessible(page, 'configurator in the frame, desktop');
    await navbar(page).getByRole('link', { name: 'Quotes' }).click();
    await page.waitForURL(/\/app\/quotes$/);
    await expect
      .poll(() => navbar(page).getByRole('link', { name: 'Quotes' }).getAttribute('data-active'))
      .toBe('true');
    await openConfigurator(page);
    await chooseFrench(page);
    await screenshot(page, 'frame-02-desktop-fr');
  });

  it('on a phone: the burger slides the navbar in and out', async () => {
    const { page } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const language of ['fr', 'en'] as const) {
        await openConfigurator(page);
        const burger = page.getByRole('button', { name: 'Menu' });
        expect(await burger.isVisible()).toBe(true);
        expect(await burger.getAttribute('aria-expanded')).toBe('false');
        // Closed: the navbar is off the screen, the page takes the whole width.
        await expect
          .poll(async () => (await box(page, 'nav')).x + (await box(page, 'nav')).width)
          .toBeLessThanOrEqual(0);
        expect((await page.getByTestId('estimate-total').boundingBox())!.x).toBeLessThan(100);
        await phoneShot(page, `frame-03-phone-${language}-closed`);
        // The operations table scrolls sideways here: its region takes the focus (ScrollingTable).
        await expectAccessible(page, `configurator in the frame, phone, ${language}`);
        await burger.click();
        expect(await burger.getAttribute('aria-expanded')).toBe('true');
        await expect.poll(async () => (await box(page, 'nav')).x).toBe(0);
        expect((await box(page, 'nav')).width).toBeGreaterThan(360);
        await phoneShot(page, `frame-04-phone-${language}-open`);
        await burger.click();
        await expect
          .poll(async () => (await box(page, 'nav')).x + (await box(page, 'nav')).width)
          .toBeLessThanOrEqual(0);
        if (language === 'fr') {
          await page.getByRole('combobox', { name: 'Langue' }).click();
          await page.getByRole('option', { name: 'EN' }).click();
          await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
        }
      }
      // A link of the open navbar leads to its page.
      await page.getByRole('button', { name: 'Menu' }).click();
      await navbar(page).getByRole('link', { name: 'Quotes' }).click();
      await page.waitForURL(/\/app\/quotes$/);
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});
