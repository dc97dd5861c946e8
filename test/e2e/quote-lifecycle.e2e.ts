import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, clearScreenshots, openE2eSession, screenshot as shot } from './harness.ts';

/**
 * The quote page follows the API's `allowedActions` (the lifecycle table, docs/quotes.md): the
 * buyer reads the buyer's guidance and buttons, the seller the seller's; a converted quote offers
 * neither a second conversion nor a revision, and links its order by name. Screenshots:
 * test-results/e2e/quote-lifecycle-*.png.
 */
const e2e = openE2eSession({ name: 'quote-lifecycle' });
const { url, signInAs, signOut } = e2e;
const BUYER = { email: 'buyer@lifecycle.test', password: 'buyer-password-1' };
const state = {} as { quoteId: string; code: string };

const screenshot = (name: string) => shot(e2e.page, `quote-lifecycle-${name}`);
const guidance = () => e2e.page.getByTestId('quote-next').textContent();
const button = (name: string) => e2e.page.getByRole('button', { name, exact: true });

beforeAll(async () => {
  clearScreenshots((name) => name.startsWith('quote-lifecycle-'));
  e2e.page.setDefaultTimeout(15_000);
  const company = await e2e.api('POST', '/api/companies', { name: 'Lifecycle Teas' });
  const article = await e2e.api('POST', '/api/articles', {
    companyId: company.id,
    code: 'TIN-9',
    name: 'Tea tin',
    price: 1.5,
    stocked: false,
  });
  await e2e.api('POST', '/api/users', {
    email: BUYER.email,
    password: BUYER.password,
    role: 'contact',
    companyIds: [company.id],
  });
  const quote = await e2e.api('POST', '/api/quotes', {
    companyId: company.id,
    name: 'Tins for spring',
    items: [{ articleId: article.id, quantity: 400 }],
  });
  const published = await e2e.api('PUT', `/api/quotes/${quote.id}`, { state: 'published' });
  state.quoteId = quote.id;
  state.code = published.code;
});

describe('the quote page follows allowedActions', () => {
  it('a buyer is asked to answer, with the buyer’s words and buttons only', async () => {
    await signInAs(BUYER.email, BUYER.password);
    await e2e.page.goto(url(`/quotes/${state.quoteId}`));
    await button('Accept').waitFor();
    expect(await guidance()).toContain('awaits your answer');
    expect(await guidance()).not.toContain('on their behalf');
    expect(await button('New revision').count()).toBe(0);
    expect(await button('Publish').count()).toBe(0);
    await screenshot('01-buyer-published');
    await expectAccessible(e2e.page, 'buyer quote');
    await button('Accept').click();
    // Accepting is signing (acceptances module): typed name and the explicit confirmation.
    const dialog = e2e.page.getByTestId('accept-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('accept-name').fill('Bea Buyer');
    await dialog.getByTestId('accept-confirm').check();
    await dialog.getByTestId('accept-submit').click();
    await expect.poll(() => e2e.page.getByTestId('quote-state').textContent()).toBe('Signed');
    expect(await guidance()).toContain('accepted by the buyer');
    expect(await button('Convert to an order').count()).toBe(0);
    await signOut();
  });

  it('the seller converts the signed quote; the ordered quote offers no revision and links its order', async () => {
    await signInAs(ADMIN.email, ADMIN.password);
    await e2e.page.goto(url(`/quotes/${state.quoteId}`));
    await button('Convert to an order').waitFor();
    expect(await guidance()).toContain('convert it into an order');
    expect(await button('New revision').count()).toBe(1);
    await button('Convert to an order').click();
    await e2e.page.getByTestId('quote-order').waitFor();
    expect(await guidance()).toContain('Signed and converted into an order');
    expect(await guidance()).not.toContain('convert it into an order');
    expect(await button('Convert to an order').count()).toBe(0);
    expect(await button('New revision').count()).toBe(0);
    const link = e2e.page.getByTestId('quote-order').getByRole('link');
    const name = (await link.textContent())!;
    // The order by its number (and ERP id when it has one), never a raw id.
    expect(name).toMatch(/^No\. \d+$/);
    expect(await e2e.page.getByTestId('quote-order').textContent()).not.toMatch(/[0-9a-f-]{36}/);
    await screenshot('02-seller-ordered');
    await expectAccessible(e2e.page, 'ordered quote');
    await link.click();
    await e2e.page.waitForURL(/\/app\/orders\/[0-9a-f-]{36}$/);
    expect(await e2e.page.getByTestId('order-title').textContent()).toContain(name);
    await screenshot('03-order-from-quote');
  });
});
