import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, ARTIFACTS, clearScreenshots, openE2eSession, screenshot, WEBGL_ARGS } from './harness.ts';

/**
 * Issue 29's 3D folded preview in a real Chromium (WebGL through SwiftShader): the canvas renders
 * (pixels other than the background), the fold slider changes it (screenshots compared), on the
 * configurator and on the quote page (seller and buyer), for a reverse tuck end, a crash-lock, a
 * tray and a FEFCO 0201. Screenshots: test-results/e2e/p3d-*.png.
 */
const e2e = openE2eSession({ name: 'p3d', launchArgs: WEBGL_ARGS });
const BUYER = { email: 'p3d-buyer@e2e.test', password: 'p3d-buyer-password-1' };
/** Product code, board, screenshot name, and the die-line's style (what the 3D canvas shows). */
const STYLES = [
  ['RTE', 'GC1-350', 'reverse-tuck-end', 'RTE'],
  ['CLB', 'GC1-350', 'crash-lock', 'CLB'],
  ['TRAY', 'GC1-350', 'tray', 'TRAY'],
  ['0201', 'CORR-B-KK', 'fefco-0201', 'FEFCO_0201'],
] as const;
const state = {} as { briefIds: string[]; quoteId: string };

/** Waits until a canvas shows this style at this fold: FoldedBox marks its canvas once drawn. */
const shows = (testId: string, style: string, percent: number) =>
  expect
    .poll(() =>
      e2e.page.getByTestId(testId).evaluate((canvas) => {
        const { style, fold } = (canvas as HTMLCanvasElement).dataset;
        return `${style} ${fold}`;
      }),
    )
    .toBe(`${style} ${percent}`);

/** The share of a canvas's pixels that are not its background (read in the page). */
const drawnShare = (testId: string) =>
  e2e.page.getByTestId(testId).evaluate((canvas) => {
    const c = canvas as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const context = copy.getContext('2d')!;
    context.drawImage(c, 0, 0);
    const { data } = context.getImageData(0, 0, c.width, c.height);
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 24) drawn++;
    return drawn / (data.length / 4);
  });

/** Pixels of the box on the canvas's outer frame (2 px): a box cut off by the canvas's edge has some. */
const edgeDrawn = (testId: string) =>
  e2e.page.getByTestId(testId).evaluate((canvas) => {
    const c = canvas as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const context = copy.getContext('2d')!;
    context.drawImage(c, 0, 0);
    const { data } = context.getImageData(0, 0, c.width, c.height);
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    let drawn = 0;
    for (let y = 0; y < c.height; y++)
      for (let x = 0; x < c.width; x++) {
        if (x > 1 && y > 1 && x < c.width - 2 && y < c.height - 2) continue;
        const i = (y * c.width + x) * 4;
        if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 24) drawn++;
      }
    return drawn;
  });

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('p3d-'));
  e2e.page.setDefaultTimeout(30_000);
  const products = await e2e.api('GET', '/api/products');
  const boards = await e2e.api('GET', '/api/material-references');
  const company = await e2e.api('POST', '/api/companies', { name: 'Fold Teas' });
  await e2e.api('POST', '/api/users', {
    email: BUYER.email,
    password: BUYER.password,
    role: 'contact',
    companyIds: [company.id],
  });
  state.briefIds = [];
  for (const [code, board] of STYLES) {
    const brief = await e2e.api('POST', '/api/briefs', {
      companyId: company.id,
      name: `Box ${code}`,
      briefElements: [
        {
          position: 0,
          productId: products.find((p: { code: string }) => p.code === code).id,
          materialReferenceId: boards.find((b: { code: string }) => b.code === board).id,
          lengthDimension: code === '0201' ? 300 : 120,
          widthDimension: code === '0201' ? 200 : 60,
          heightDimension: code === '0201' ? 150 : code === 'TRAY' ? 50 : 160,
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
          wantDecoration: true,
          sidePrinted: 'RECTO',
          rectoColorCount: 4,
        },
      ],
    });
    state.briefIds.push(brief.id);
  }
  const quote = await e2e.api('POST', '/api/quotes', { companyId: company.id, briefIds: state.briefIds });
  await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
  state.quoteId = quote.id;
});

describe('3D folded preview', () => {
  it('renders on the configurator and the fold slider changes it', async () => {
    await e2e.signInAs(ADMIN.email, ADMIN.password);
    await e2e.page.goto(e2e.url(`/briefs/${state.briefIds[0]}`));
    const canvas = e2e.page.getByTestId('box-3d-0-canvas');
    await shows('box-3d-0-canvas', STYLES[0][3], 100);
    expect(await drawnShare('box-3d-0-canvas')).toBeGreaterThan(0.02);
    const folded = await canvas.screenshot();
    await e2e.page.getByTestId('box-3d-0').getByRole('slider').focus();
    await e2e.page.keyboard.press('Home');
    await shows('box-3d-0-canvas', STYLES[0][3], 0);
    const flat = await canvas.screenshot({ path: join(ARTIFACTS, 'p3d-01-configurator-flat.png') });
    expect(Buffer.compare(folded, flat)).not.toBe(0);
    await e2e.page.keyboard.press('End');
    await shows('box-3d-0-canvas', STYLES[0][3], 100);
    await canvas.screenshot({ path: join(ARTIFACTS, 'p3d-02-configurator-folded.png') });
    await e2e.page.getByTestId('preview-3d-0').scrollIntoViewIfNeeded();
    await e2e.page
      .getByTestId('preview-3d-0')
      .screenshot({ path: join(ARTIFACTS, 'p3d-03-configurator-card.png') });
  });

  it('shows each quote line folded (four styles) and half folded', async () => {
    await e2e.page.goto(e2e.url(`/quotes/${state.quoteId}`));
    const card = e2e.page.getByTestId('quote-preview-3d');
    await card.getByTestId('quote-box-3d-canvas').waitFor();
    for (const [index, [, , name, style]] of STYLES.entries()) {
      if (index > 0) {
        await card.getByTestId('quote-preview-3d-line').click();
        await e2e.page.getByRole('option').nth(index).click();
      }
      const canvas = card.getByTestId('quote-box-3d-canvas');
      await shows('quote-box-3d-canvas', style, 100);
      expect(await drawnShare('quote-box-3d-canvas'), name).toBeGreaterThan(0.02);
      await canvas.screenshot({ path: join(ARTIFACTS, `p3d-1${index}-${name}.png`) });
      const folded = await canvas.screenshot();
      await card.getByRole('slider').focus();
      for (let i = 0; i < 50; i++) await e2e.page.keyboard.press('ArrowLeft');
      await shows('quote-box-3d-canvas', style, 50);
      const half = await canvas.screenshot({ path: join(ARTIFACTS, `p3d-2${index}-${name}-half.png`) });
      expect(Buffer.compare(folded, half), name).not.toBe(0);
      // Half open, every flap stays in view (a tuck end's lid and tuck flap used to leave it).
      expect(await edgeDrawn('quote-box-3d-canvas'), `${name} half`).toBe(0);
      for (let i = 0; i < 50; i++) await e2e.page.keyboard.press('ArrowLeft');
      await shows('quote-box-3d-canvas', style, 0);
      await canvas.screenshot({ path: join(ARTIFACTS, `p3d-3${index}-${name}-flat.png`) });
      expect(await edgeDrawn('quote-box-3d-canvas'), `${name} flat`).toBe(0);
    }
    await screenshot(e2e.page, 'p3d-39-quote-page');
    await expectAccessible(e2e.page, 'quote page with the 3D preview');
  });

  it('shows the buyer the folded box on their quote', async () => {
    await e2e.signOut();
    await e2e.signInAs(BUYER.email, BUYER.password);
    await e2e.page.goto(e2e.url(`/quotes/${state.quoteId}`));
    await shows('quote-box-3d-canvas', STYLES[0][3], 100);
    expect(await drawnShare('quote-box-3d-canvas')).toBeGreaterThan(0.02);
    await e2e.page.getByTestId('quote-preview-3d').screenshot({ path: join(ARTIFACTS, 'p3d-40-buyer.png') });
  });
});
