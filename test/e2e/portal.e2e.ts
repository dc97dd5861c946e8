import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox } from '../helpers/mailbox.ts';
import { expectAccessible } from './axe.ts';
import { createCartonBrief } from './fixtures.ts';
import { clearScreenshots, openE2eSession, screenshot } from './harness.ts';

/**
 * The buyer's side (issue 25) in Chromium at 1440x900 and 390x844: a buyer opens the portal from the
 * e-mail the publication sent (captured by a local SMTP server), asks a question, accepts with
 * name, PO number and comment, downloads the signed PDF (checked with pdfsig); follows an order's
 * delivery and orders it again at today's prices; cannot reach a brief's costs by URL and sees no
 * staff menu. A guest accepts through a guest link's page, in the link's language.
 */

const box = mailbox();
const { mails } = box;
const smtpUrl = await box.start();

const e2e = openE2eSession({
  name: 'portal',
  env: { SMTP_URL: smtpUrl, MAIL_FROM: 'quotes@seller.test' },
  context: { viewport: { width: 1440, height: 900 } },
});
const { api, url } = e2e;

const SIZES = [
  { tag: 'desktop', viewport: { width: 1440, height: 900 } },
  { tag: 'phone', viewport: { width: 390, height: 844 } },
] as const;
const PASSWORD = 'buyer-password-1';
const data = { companyId: '', articleId: '', briefId: '', contacts: {} as Record<string, string> };

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('portal-'));
  const company = await api('POST', '/api/companies', { name: 'Acme Tea' });
  data.companyId = company.id;
  data.articleId = (
    await api('POST', '/api/articles', {
      name: 'Tea box 250 g',
      code: 'TB-250',
      companyId: company.id,
      price: 0.42,
    })
  ).id;
  for (const { tag } of SIZES) {
    const email = `buyer.${tag}@acme-tea.test`;
    const contact = await api('POST', '/api/users/contacts', {
      email,
      firstName: 'Bea',
      lastName: tag === 'phone' ? 'Buyer-Longname' : 'Buyer',
      collaborationIds: [company.id],
    });
    await api('POST', `/api/users/${contact.id}/invite`, { password: PASSWORD });
    data.contacts[tag] = contact.id;
  }
  data.briefId = (await createCartonBrief(api, company.id, 'Tea carton')).id;
});
afterAll(() => box.close());

/** A published quote of two lines; the first offers price breaks of 5,000 and 10,000 (two columns). */
async function publishedQuote(contactId: string, name: string) {
  const quote = await api('POST', '/api/quotes', {
    companyId: data.companyId,
    contactId,
    name,
    items: [
      { articleId: data.articleId, quantity: 5000 },
      { articleId: data.articleId, quantity: 20000, comment: 'Second print run' },
    ],
  });
  const first = quote.items[0].id as string;
  await api('PATCH', `/api/quotes/${quote.id}/quote-items/${first}`, {
    priceBreaks: [{ quantity: 5000 }, { quantity: 10000 }],
  });
  const published = await api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
  return { id: quote.id as string, code: published.code as string };
}

async function mailTo(email: string, contains: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = mails.find((m) => m.to.includes(email) && m.data.includes(contains));
    if (found) return found.data.replace(/=\r?\n/g, '');
    if (Date.now() > deadline)
      throw new Error(`no mail to ${email}; got ${mails.map((m) => m.to).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const pdfsig = (content: Buffer) => {
  const path = join(mkdtempSync(join(tmpdir(), 'portal-pdfsig-')), 'signed.pdf');
  writeFileSync(path, content);
  try {
    return execFileSync('pdfsig', [path], { encoding: 'utf8' });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
};

/** Nothing wider than the screen: no sideways scroll, the header's last button inside the screen. */
async function expectFits(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what}: horizontal overflow`).toBeLessThanOrEqual(0);
  const button = page.getByRole('button', { name: 'Sign out' });
  const signOut = (await button.count()) ? await button.boundingBox() : null;
  if (signOut)
    expect(signOut.x + signOut.width, `${what}: Sign out clipped`).toBeLessThanOrEqual(
      page.viewportSize()!.width,
    );
}

/** On a phone, the screen also fits the narrowest common width (360 px). */
async function expectFitsNarrow(page: Page, what: string) {
  const size = page.viewportSize()!;
  if (size.width > 400) return;
  await page.setViewportSize({ width: 360, height: 740 });
  await expectFits(page, `${what} at 360`);
  await page.setViewportSize(size);
}

async function expectInside(page: Page, testId: string) {
  const width = page.viewportSize()!.width;
  for (const box of await page.getByTestId(testId).all()) {
    const rect = (await box.boundingBox())!;
    expect(rect.x + rect.width, `${testId} off-screen`).toBeLessThanOrEqual(width);
  }
}

for (const { tag, viewport } of SIZES) {
  describe(`the buyer's portal at ${viewport.width}x${viewport.height}`, () => {
    let context: BrowserContext;
    let page: Page;
    let quote: { id: string; code: string };
    const email = `buyer.${tag}@acme-tea.test`;
    beforeAll(async () => {
      context = await e2e.browser.newContext({ viewport, locale: 'en-GB' });
      page = await context.newPage();
    });
    afterAll(() => context.close());

    it('opens the quote from the publication e-mail, signs in, reads it branded and asks a question', async () => {
      quote = await publishedQuote(data.contacts[tag]!, `Spring tea range ${tag}`);
      const mail = await mailTo(email, quote.code);
      const link = /https?:\/\/[^\s"]+\/app\/quotes\/[0-9a-f-]{36}/.exec(mail)?.[0];
      expect(link, mail).toBeDefined();
      expect(link).toContain(quote.id);
      await page.goto(link!);
      await page.getByLabel('Username or e-mail').fill(email);
      await page.locator('input[name=password]').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('portal-quote').waitFor();
      expect(page.url()).toBe(url(`/quotes/${quote.id}`));
      expect(await page.getByTestId('quote-title').textContent()).toBe(quote.code);
      expect(await page.getByTestId('quote-state').textContent()).toBe('Published');
      await expect.poll(() => page.getByTestId('seller').textContent()).toContain('From');
      // No cost, margin or rate anywhere, no staff tools.
      const text = await page.locator('body').innerText();
      for (const word of [/Margin/, /Cost/, /\bPublish\b/, /Guest links/, /Administration/, /Access tokens/])
        expect(text).not.toMatch(word);
      await expectFits(page, 'quote');
      await expectInside(page, 'line-total');
      await expectFitsNarrow(page, 'quote');
      const badge = (await page.getByTestId('quote-state').boundingBox())!;
      expect(badge.width).toBeGreaterThan(40);
      await page.getByRole('textbox', { name: 'Your question' }).fill('Can you deliver by week 12?');
      await page.getByRole('button', { name: 'Send the question' }).click();
      await expect.poll(() => page.getByTestId('comment-list').textContent()).toContain('week 12');
      await screenshot(page, `portal-${tag}-01-quote`);
      await expectAccessible(page, `portal quote ${tag}`);
    });

    it('accepts with name, PO number, comment and the confirmation; downloads the signed PDF (pdfsig)', async () => {
      await page.getByTestId('quote-accept').click();
      const dialog = page.getByTestId('accept-dialog');
      await dialog.waitFor();
      expect(await dialog.getByTestId('accept-submit').isDisabled()).toBe(true);
      await dialog.getByTestId('accept-name').fill('Bea Buyer');
      await dialog.getByTestId('accept-po').fill(`PO-${tag}-118`);
      await dialog.getByTestId('accept-comment').fill('Deliver to dock 4');
      // Two price-break columns: nothing is chosen for the buyer; they take the second.
      await dialog.getByTestId('accept-option-radio').nth(1).check();
      await dialog.getByTestId('accept-confirm').check();
      await screenshot(page, `portal-${tag}-02-accept-dialog`);
      await dialog.getByTestId('accept-submit').click();
      await expect.poll(() => page.getByTestId('quote-state').textContent()).toBe('Signed');
      await expect.poll(() => page.getByTestId('accepted-by').textContent()).toContain(`PO-${tag}-118`);
      await page.getByTestId('signed-pdf').waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('signed-pdf').click(),
      ]);
      const path = await download.path();
      const { readFileSync } = await import('node:fs');
      const report = pdfsig(readFileSync(path));
      expect(report).toContain('Signature Validation: Signature is Valid.');
      expect(report).toContain('Total document signed');
      await screenshot(page, `portal-${tag}-03-signed`);
      // The seller was told (sales owner = the admin who made the quote).
      const evidence = await api('GET', `/api/quotes/${quote.id}/acceptance`);
      expect(evidence).toMatchObject({
        typedName: 'Bea Buyer',
        poNumber: `PO-${tag}-118`,
        comment: 'Deliver to dock 4',
        option: { position: 2, quantity: 10000 },
      });
    });

    it('home, quotes and orders fit the screen; an order shows its delivery and is ordered again at today’s prices', async () => {
      const order = await api('POST', '/api/orders', {
        billedAmount: 2100,
        companyId: data.companyId,
        externalId: `SO-${tag}-4471`,
        orderDate: '2026-09-01T00:00:00.000Z',
        expectedDeliveryDate: '2026-09-20T00:00:00.000Z',
        actualDeliveryDate: '2026-09-22T00:00:00.000Z',
        trackingId: '1Z999AA10123456784',
      });
      await api('POST', '/api/order-items', {
        orderId: order.id,
        articleId: data.articleId,
        quantity: 5000,
        unitPrice: 0.4,
      });
      await page.goto(url('/'));
      await page.getByTestId('portal-home').waitFor();
      await page.getByTestId('order-card').first().waitFor();
      await expectFits(page, 'home');
      await expectFitsNarrow(page, 'home');
      await screenshot(page, `portal-${tag}-04-home`);
      await page.goto(url('/quotes'));
      await page.getByRole('heading', { name: 'My quotes' }).waitFor();
      await page.getByText(quote.code).first().waitFor();
      await expectFits(page, 'quotes');
      await expectFitsNarrow(page, 'quotes');
      await screenshot(page, `portal-${tag}-05-quotes`);
      await page.goto(url(`/orders/${order.id}`));
      await page.getByTestId('portal-order').waitFor();
      expect(await page.getByTestId('tracking-number').textContent()).toContain('1Z999AA10123456784');
      expect(await page.getByTestId('tracking').textContent()).toContain('Delivered');
      await expectFits(page, 'order');
      await expectFitsNarrow(page, 'order');
      await screenshot(page, `portal-${tag}-06-order`);
      await page.getByTestId('reorder-order').click();
      const result = page.getByTestId('reorder-result');
      await result.waitFor();
      expect(await result.getByTestId('reorder-difference').first().textContent()).toContain('+');
      expect(await result.getByTestId('reorder-total').textContent()).toContain('2,100.00');
      await screenshot(page, `portal-${tag}-07-reorder`);
      await page.getByTestId('open-new-quote').click();
      await page.getByTestId('portal-quote').waitFor();
      expect(await page.getByTestId('quote-state').textContent()).toBe('Draft');
      expect(await page.getByTestId('quote-next').textContent()).toContain('The seller checks it');
      await screenshot(page, `portal-${tag}-08-reorder-draft`);
      // "Order again" from the article's page: its last order's quantity at today's price.
      await page.goto(url(`/articles/${data.articleId}`));
      await page.getByTestId('article-title').waitFor();
      await page.getByTestId('reorder-article').click();
      const again = page.getByTestId('reorder-result');
      await again.waitFor();
      expect(await again.getByTestId('reorder-line').count()).toBe(1);
      expect(await again.getByTestId('reorder-line').textContent()).toContain('× 5,000');
      expect(await again.getByTestId('reorder-difference').textContent()).toContain('+');
      await expectFits(page, 'article reorder');
      await screenshot(page, `portal-${tag}-09-article-reorder`);
      await page.getByTestId('open-new-quote').click();
      await page.getByTestId('portal-quote').waitFor();
      expect(await page.getByTestId('quote-state').textContent()).toBe('Draft');
    });

    it('cannot open a brief’s costs by URL and sees no staff menus', async () => {
      await page.goto(url(`/briefs/${data.briefId}`));
      await page.getByTestId('estimate-total').waitFor();
      expect(await page.getByRole('button', { name: 'Save and re-price' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Apply/ }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Where the money goes' }).count()).toBe(0);
      const text = await page.locator('body').innerText();
      for (const word of ['Margin', 'Hourly rate', 'Access tokens', 'Administration', 'on their behalf'])
        expect(text, word).not.toContain(word);
      const costs = await context.request.get(
        `${e2e.service.baseUrl}/api/briefs/${data.briefId}/prediction-panel`,
      );
      expect(JSON.stringify(await costs.json())).not.toMatch(/"(productCost|marginAmount|costBreakdown)"/);
      await screenshot(page, `portal-${tag}-09-brief`);
    });
  });
}

describe('a guest link', () => {
  it('opens the quote in the link’s language; the guest accepts and downloads the signed PDF', async () => {
    const contact = data.contacts.desktop!;
    const quote = await publishedQuote(contact, 'Autumn tea range');
    const link = await api('POST', `/api/quotes/${quote.id}/guest-links`, { localisationId: 'fr' });
    expect(link.pageUrl).toContain(`/app/guest/${link.token}`);
    for (const { tag, viewport } of SIZES) {
      const guest = await e2e.browser.newContext({ viewport, locale: 'en-GB' });
      const page = await guest.newPage();
      await page.goto(link.pageUrl.replace(/^https?:\/\/[^/]+/, e2e.service.baseUrl));
      await page.getByTestId('guest-quote').waitFor();
      await expect.poll(() => page.getByTestId('quote-title').textContent()).toBe(`Devis ${quote.code}`);
      await expectFits(page, `guest ${tag}`);
      await expectFitsNarrow(page, `guest ${tag}`);
      await expectInside(page, 'line-total');
      await screenshot(page, `portal-${tag}-10-guest`);
      if (tag === 'phone') {
        await page.getByTestId('quote-accept').click();
        const dialog = page.getByTestId('accept-dialog');
        await dialog.getByTestId('accept-name').fill('Gaston Invité');
        await dialog.getByTestId('accept-email').fill('gaston@acme-tea.test');
        await dialog.getByTestId('accept-po').fill('PO-G-7');
        await dialog.getByTestId('accept-option-radio').first().check();
        await dialog.getByTestId('accept-confirm').check();
        await screenshot(page, `portal-${tag}-11-guest-accept`);
        await dialog.getByTestId('accept-submit').click();
        await page.getByTestId('guest-answered').waitFor();
        expect(await page.getByTestId('quote-state').textContent()).toBe('Signé');
        const href = await page.getByTestId('signed-pdf').getAttribute('href');
        const signed = await guest.request.get(`${e2e.service.baseUrl}${href}`);
        expect(pdfsig(await signed.body())).toContain('Signature is Valid.');
        await screenshot(page, `portal-${tag}-12-guest-signed`);
      }
      await guest.close();
    }
    const evidence = await api('GET', `/api/quotes/${quote.id}/acceptance`);
    expect(evidence).toMatchObject({
      actorRole: 'guest',
      typedName: 'Gaston Invité',
      email: 'gaston@acme-tea.test',
    });
  });

  it('the guest declines with a reason and the e-mail typed (the shared decline dialog)', async () => {
    const quote = await publishedQuote(data.contacts.desktop!, 'Winter tea range');
    const link = await api('POST', `/api/quotes/${quote.id}/guest-links`, { localisationId: 'en' });
    const guest = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    const page = await guest.newPage();
    await page.goto(link.pageUrl.replace(/^https?:\/\/[^/]+/, e2e.service.baseUrl));
    await page.getByTestId('guest-quote').waitFor();
    await page.getByTestId('quote-decline').click();
    await page.getByLabel('E-mail').fill('gaston@acme-tea.test');
    await page.getByTestId('decline-reason').fill('Too late for the season');
    await screenshot(page, 'portal-phone-13-guest-decline');
    await page.getByTestId('decline-submit').click();
    await page.getByTestId('guest-answered').waitFor();
    expect(await page.getByTestId('quote-state').textContent()).toBe('Declined');
    await guest.close();
    const evidence = await api('GET', `/api/quotes/${quote.id}/acceptance`);
    expect(evidence).toMatchObject({
      actorRole: 'guest',
      email: 'gaston@acme-tea.test',
      reason: 'Too late for the season',
    });
  });
});
