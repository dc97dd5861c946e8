import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfArtwork } from '../helpers/artwork.ts';
import { expectAccessible } from './axe.ts';
import {
  ARTIFACTS,
  apiCall,
  clearScreenshots,
  openE2eSession,
  screenshot as shot,
  signInApi,
  WEBGL_ARGS,
} from './harness.ts';

/**
 * Issue 29's proof loop in a real Chromium: on a phone-sized screen (390 x 844) the buyer uploads
 * artwork for the line of a signed quote, reads the preflight findings, uploads a corrected
 * version and approves its proof with a typed name; then the sales user converts the quote, which
 * the proof gate refused before. The approved artwork is printed on the folded 3D box (compared
 * with the bare board). Screenshots: test-results/e2e/proofs-*.png (and the proof PDF).
 */
const e2e = openE2eSession({ name: 'proofs', launchArgs: WEBGL_ARGS });
const BUYER = { email: 'buyer@proofs.test', password: 'buyer-password-1' };
const SALES = { email: 'sales@proofs.test', password: 'sales-password-1' };
const state = {} as { quoteId: string; lineId: string; bad: string; good: string };

const screenshot = (name: string) => shot(e2e.page, `proofs-${name}`);
/** The share of a canvas's pixels in a saturated colour (the artwork; the bare board is white/grey). */
const colouredShare = (testId: string) =>
  e2e.page.getByTestId(testId).evaluate((canvas) => {
    const c = canvas as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const context = copy.getContext('2d')!;
    context.drawImage(c, 0, 0);
    const { data } = context.getImageData(0, 0, c.width, c.height);
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
    }
    return coloured / (data.length / 4);
  });
const button = (name: string) => e2e.page.getByRole('button', { name, exact: true });
/** Waits until the line's artwork preview (PNG over the die-line) has loaded. */
const previewLoaded = (line: ReturnType<typeof e2e.page.getByTestId>) =>
  expect
    .poll(() =>
      line
        .getByTestId('proof-preview')
        .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
    )
    .toBe(true);

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('proofs-'));
  e2e.page.setDefaultTimeout(60_000);
  const products = await e2e.api('GET', '/api/products');
  const boards = await e2e.api('GET', '/api/material-references');
  const company = await e2e.api('POST', '/api/companies', { name: 'Proof Teas' });
  await e2e.api('POST', '/api/users', {
    email: BUYER.email,
    password: BUYER.password,
    role: 'contact',
    companyIds: [company.id],
  });
  await e2e.api('POST', '/api/users', { email: SALES.email, password: SALES.password, role: 'sales' });
  const brief = await e2e.api('POST', '/api/briefs', {
    companyId: company.id,
    name: 'Tea box',
    briefElements: [
      {
        position: 0,
        productId: products.find((p: { code: string }) => p.code === 'RTE').id,
        materialReferenceId: boards.find((b: { code: string }) => b.code === 'GC1-350').id,
        lengthDimension: 60,
        widthDimension: 30,
        heightDimension: 90,
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
      },
    ],
  });
  const quote = await e2e.api('POST', '/api/quotes', {
    companyId: company.id,
    name: 'Tea boxes',
    validUntil: '2099-12-31',
    briefIds: [brief.id],
  });
  await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
  // The quote's PDF (answered as PDF bytes, not JSON) is what the buyer signs.
  const rendered = await fetch(`${e2e.service.baseUrl}/api/quotes/${quote.id}/generate-pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ localisationId: 'en' }),
  });
  expect(rendered.status).toBe(201);
  const buyerToken = await signInApi(e2e.service.baseUrl, BUYER.email, BUYER.password);
  await apiCall(e2e.service.baseUrl, buyerToken, 'POST', `/api/quotes/${quote.id}/accept`, {
    typedName: 'Bea Buyer',
    confirm: true,
  });
  state.quoteId = quote.id;
  const proofs = await e2e.api('GET', `/api/quotes/${quote.id}/proofs`);
  state.lineId = proofs.lines[0].quoteItemId;

  // The die-line template's page is the blank plus the bleed: the size the artwork must have.
  const template = await fetch(`${e2e.service.baseUrl}/api/briefs/${brief.id}/elements/0/die-line`, {
    headers: { authorization: `Bearer ${e2e.token}` },
  });
  const page = (await PDFDocument.load(await template.arrayBuffer())).getPage(0);
  const widthMm = (page.getWidth() * 25.4) / 72;
  const heightMm = (page.getHeight() * 25.4) / 72;
  const dir = mkdtempSync(join(tmpdir(), 'proofs-e2e-'));
  state.bad = join(dir, 'tea-box-rgb.pdf');
  state.good = join(dir, 'tea-box-final.pdf');
  writeFileSync(state.bad, await pdfArtwork({ widthMm: widthMm - 6, heightMm: heightMm - 6, colour: 'rgb' }));
  writeFileSync(state.good, await pdfArtwork({ widthMm, heightMm, outputIntent: true }));
});

describe('the proof loop on the quote page', () => {
  it('the buyer, on a phone, uploads artwork, reads the findings, uploads a corrected version and approves it', async () => {
    // Signed in on a wide screen (the header shows who is signed in only there), then a phone.
    await e2e.signInAs(BUYER.email, BUYER.password);
    await e2e.page.setViewportSize({ width: 390, height: 844 });
    await e2e.page.goto(e2e.url(`/quotes/${state.quoteId}`));
    const panel = e2e.page.getByTestId('proof-panel');
    await panel.waitFor();
    const line = panel.getByTestId(`proof-line-${state.lineId}`);
    expect(await line.getByTestId('proof-status').textContent()).toBe('No artwork');
    await line.locator('input[type=file]').setInputFiles(state.bad);
    // The preflight job runs in the background; the panel polls until the findings are in.
    await line.getByTestId('finding-no_bleed').waitFor();
    expect(await line.getByTestId('finding-no_bleed').textContent()).toContain('No bleed');
    expect(await line.getByTestId('finding-rgb_colour_space').textContent()).toContain('RGB');
    await previewLoaded(line);
    expect(await e2e.page.getByTestId('proof-gate').textContent()).toContain('1 line waits');
    // Nothing overflows the phone's width.
    expect(await e2e.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await panel.scrollIntoViewIfNeeded();
    await screenshot('01-buyer-findings-phone');
    await expectAccessible(e2e.page, 'proof panel with findings');

    await line.locator('input[type=file]').setInputFiles(state.good);
    await line.getByTestId('proof-findings-none').waitFor();
    await previewLoaded(line);
    expect(await line.getByText('Version 2').count()).toBeGreaterThan(0);

    // "See it on the 3D box": the folded box with the artwork printed on it, then the bare board.
    await line.getByTestId('proof-show-on-box').click();
    const view = e2e.page.getByTestId('quote-box-3d-view');
    await expect.poll(() => view.getAttribute('data-artwork')).toBe('shown');
    expect(await view.getAttribute('aria-label')).toContain('artwork of proof version 2');
    // The texture is drawn once its image has loaded, a frame or more after the attribute: wait
    // for the artwork's colours on the canvas rather than for a fixed time (a loaded machine).
    const canvas = e2e.page.getByTestId('quote-box-3d-canvas');
    await expect.poll(() => colouredShare('quote-box-3d-canvas'), { timeout: 30_000 }).toBeGreaterThan(0.05);
    const textured = await canvas.screenshot({
      path: join(ARTIFACTS, 'proofs-05-box-with-artwork-phone.png'),
    });
    await e2e.page.getByRole('switch', { name: /Show the artwork/ }).uncheck();
    await expect.poll(() => view.getAttribute('data-artwork')).toBe('none');
    // The artwork (teal and orange) covers much of the box; the bare white board has no such colour.
    await expect.poll(() => colouredShare('quote-box-3d-canvas'), { timeout: 30_000 }).toBeLessThan(0.01);
    const bare = await canvas.screenshot({ path: join(ARTIFACTS, 'proofs-06-box-bare-phone.png') });
    expect(Buffer.compare(textured, bare)).not.toBe(0);
    await e2e.page.getByRole('switch', { name: /Show the artwork/ }).check();
    await expect.poll(() => view.getAttribute('data-artwork')).toBe('shown');
    await e2e.page
      .getByTestId('quote-preview-3d')
      .screenshot({ path: join(ARTIFACTS, 'proofs-07-box-card-phone.png') });

    await line.getByTestId('proof-approve').click();
    const dialog = e2e.page.getByTestId('proof-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('proof-name').fill('Bea Buyer');
    await dialog.getByTestId('proof-confirm').check();
    await screenshot('02-buyer-approve-dialog-phone');
    await dialog.getByTestId('proof-submit').click();
    await expect.poll(() => line.getByTestId('proof-status').textContent()).toBe('Approved');
    expect(await line.getByTestId('proof-decision').textContent()).toContain('Approved by Bea Buyer');
    expect(await e2e.page.getByTestId('proof-gate').textContent()).toContain('approved proof');
    expect(await e2e.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await previewLoaded(line);
    await screenshot('03-buyer-approved-phone');
    await expectAccessible(e2e.page, 'approved proof');

    // The proof PDF the buyer approved, kept beside the screenshots.
    const proofs = await e2e.api('GET', `/api/quotes/${state.quoteId}/proofs`);
    const pdf = await fetch(`${e2e.service.baseUrl}${proofs.lines[0].versions[0].urls.proofPdf}`, {
      headers: { authorization: `Bearer ${e2e.token}` },
    });
    writeFileSync(join(ARTIFACTS, 'proofs-approved-proof.pdf'), Buffer.from(await pdf.arrayBuffer()));
    await e2e.page.setViewportSize({ width: 1400, height: 900 });
    await e2e.signOut();
  });

  it('the sales user converts the quote once its proof is approved', async () => {
    await e2e.signInAs(SALES.email, SALES.password);
    await e2e.page.goto(e2e.url(`/quotes/${state.quoteId}`));
    await e2e.page.getByTestId('proof-panel').waitFor();
    await button('Convert to an order').click();
    await e2e.page.getByTestId('quote-order').waitFor();
    await screenshot('04-sales-converted');
  });

  it('a guest with a link made for proofs approves the artwork on a phone', async () => {
    // Another quote of the same brief: published, artwork uploaded by sales, a link for proofs.
    const source = await e2e.api('GET', `/api/quotes/${state.quoteId}`);
    const briefIds = [
      ...new Set(
        (source.items as { children?: { briefId?: string }[] }[])
          .flatMap((i) => i.children ?? [])
          .map((c) => c.briefId)
          .filter(Boolean),
      ),
    ];
    const quote = await e2e.api('POST', '/api/quotes', {
      companyId: source.companyId,
      validUntil: '2099-12-31',
      briefIds,
    });
    await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
    const lines = await e2e.api('GET', `/api/quotes/${quote.id}/proofs`);
    const itemId = lines.lines[0].quoteItemId as string;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(readFileSync(state.good))]), 'tea-box-final.pdf');
    const uploaded = await fetch(`${e2e.service.baseUrl}/api/quotes/${quote.id}/items/${itemId}/artwork`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const link = await e2e.api('POST', `/api/quotes/${quote.id}/guest-links`, {
      localisationId: 'en',
      proofs: true,
    });
    expect(link.proofs).toBe(true);

    // The guest has no account: a browser signed in as nobody.
    await e2e.signOut();
    await e2e.page.setViewportSize({ width: 390, height: 844 });
    await e2e.page.goto(link.pageUrl);
    const panel = e2e.page.getByTestId('proof-panel');
    await panel.waitFor();
    const line = panel.getByTestId(`proof-line-${itemId}`);
    await line.getByTestId('proof-findings-none').waitFor();
    await previewLoaded(line);
    expect(await line.getByTestId('proof-upload').count()).toBe(0);
    expect(await panel.textContent()).toContain('then approve it for production');
    await line.getByTestId('proof-approve').click();
    const dialog = e2e.page.getByTestId('proof-dialog');
    await dialog.getByTestId('proof-name').fill('Gia Guest');
    await dialog.getByTestId('proof-email').fill('gia@buyer.test');
    await dialog.getByTestId('proof-confirm').check();
    await screenshot('08-guest-approve-dialog-phone');
    await dialog.getByTestId('proof-submit').click();
    await expect.poll(() => line.getByTestId('proof-status').textContent()).toBe('Approved');
    expect(await e2e.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot('09-guest-approved-phone');
    await expectAccessible(e2e.page, 'guest proof approved');
    const proofs = await e2e.api('GET', `/api/quotes/${quote.id}/proofs`);
    expect(proofs.lines[0].versions[0].decision).toMatchObject({
      role: 'guest',
      guestLinkId: link.id,
      email: 'gia@buyer.test',
      typedName: 'Gia Guest',
    });
    await e2e.page.setViewportSize({ width: 1400, height: 900 });
  });
});
