import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedRequest, type Receiver, startReceiver } from '../helpers/receiver.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, launchBrowser, type Service, screenshot, startService } from './harness.ts';

/**
 * The webhooks console in a real Chromium, against a local HTTP receiver started here: a webhook is
 * created (its secret shown once verifies the calls), gets a test event and a real one (a company
 * created in the app); the receiver answers 500 first, the attempt shows it, and a replay from the
 * console succeeds; the event log opens the company. Screenshots: test-results/e2e/webhooks-*.
 *
 * The SSRF guard refuses loopback targets; WEBHOOK_ALLOWED_HOSTS lets this service (only) call the
 * receiver on 127.0.0.1, as the API tests do. Retries are an hour apart, so the failed delivery
 * waits for the replay rather than succeeding on its own.
 */
let service: Service;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let secret = '';
const HOOK = '/erp-hook';

beforeAll(async () => {
  receiver = await startReceiver();
  service = await startService({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '1h' });
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-GB' });
  page = await context.newPage();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && page)
    await screenshot(page, `webhooks-failed-${context.task.name.slice(0, 30)}`);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await receiver?.close();
});

const nav = () => page.getByRole('navigation', { name: 'Main' });
const url = (path: string) => `${service.baseUrl}/app${path}`;
const calls = (r: ReceivedRequest) => r.url.startsWith(HOOK);
const verified = (request: ReceivedRequest) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
    eventName: string;
    entity: Record<string, unknown>;
  };
const delivery = (eventName: string, status?: string) =>
  page.locator(
    `[data-testid="deliveries"] tbody tr[data-event="${eventName}"]${status ? `[data-status="${status}"]` : ''}`,
  );

describe('the webhooks console, end to end', () => {
  it('refuses a private address with the service’s reason, then creates a webhook and shows its secret once', async () => {
    await page.goto(url('/'));
    await page.getByLabel('Username or e-mail').fill(ADMIN.email);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('Nothing here yet').waitFor();
    await expectAccessible(page, 'webhooks list (empty)');

    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('ERP');
    await dialog.getByRole('textbox', { name: /^URL/ }).fill('http://10.1.2.3/hook');
    await dialog.getByLabel('Event patterns').fill('event.companies.*\nevent.orders.**');
    await dialog.getByRole('button', { name: 'Patterns and events' }).click();
    await dialog.getByTestId('patterns-help').getByText('order_items').waitFor();
    await dialog.getByRole('button', { name: 'Create' }).click();
    // The SSRF guard's refusal lands under the URL field.
    await expect
      .poll(() => dialog.getByTestId('error-reason').textContent())
      .toMatch(/not allowed|private|refused/i);
    await screenshot(page, 'webhooks-01-form-refused');
    await expectAccessible(page, 'webhook form');

    await dialog.getByRole('textbox', { name: /^URL/ }).fill(`${receiver.url}${HOOK}`);
    await dialog.getByRole('button', { name: 'Create' }).click();
    secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'webhooks-02-secret-once');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('heading', { name: 'ERP' }).waitFor();
    expect(await page.getByTestId('webhook-state').textContent()).toBe('Enabled');
  });

  it('sends a test event, signed with the secret, and shows the delivery', async () => {
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const [call] = await receiver.waitFor(1, { filter: calls });
    expect(verified(call!).eventName).toBe('event.webhooks.test');
    await delivery('event.webhooks.test', 'succeeded').waitFor();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0); // never shown again
  });

  it('delivers a real event; the receiver fails it (500), and a replay from the console succeeds', async () => {
    receiver.script(HOOK, { status: 500, body: 'ERP down for maintenance' });
    await nav().getByRole('link', { name: 'Companies' }).click();
    await page.getByRole('button', { name: 'New company' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).fill('Hooked Packaging');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Hooked Packaging' }).waitFor();
    const [, failed] = await receiver.waitFor(2, { filter: calls });
    const sent = verified(failed!);
    expect(sent.eventName).toBe('event.companies.created');
    expect(sent.entity.name).toBe('Hooked Packaging');

    await nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'ERP' }).click();
    const row = delivery('event.companies.created', 'pending');
    await expect.poll(() => row.locator('td').nth(3).textContent()).toContain('500');
    await row.getByRole('button', { name: 'Attempts' }).click();
    const attempts = page.getByTestId('delivery-attempts');
    await attempts.waitFor();
    const cells = await attempts.locator('tbody tr').first().locator('td').allTextContents();
    expect(cells[2]).toBe('500');
    expect(cells[3]).toMatch(/\d+ ms/);
    expect(cells[5]).toBe('ERP down for maintenance');
    await screenshot(page, 'webhooks-03-failed-attempt');
    await expectAccessible(page, 'delivery attempts');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await row.getByRole('button', { name: 'Replay' }).click();
    const [, , replayed] = await receiver.waitFor(3, { filter: calls });
    expect(replayed!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expect(verified(replayed!).eventName).toBe('event.companies.created');
    await delivery('event.companies.created', 'succeeded').waitFor();
    expect(await delivery('event.companies.created').count()).toBe(2);
    await screenshot(page, 'webhooks-04-replayed');
    await expectAccessible(page, 'webhook page');
  });

  it('edits the webhook: a header credential is sent with the next call, and shown masked', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('A header (name and value)').click();
    await dialog.getByRole('textbox', { name: 'Header name' }).fill('X-Api-Key');
    await dialog.getByLabel('Header value').fill('erp-key-123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('A header (name and value) · X-Api-Key').waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const received = await receiver.waitFor(4, { filter: calls });
    expect(received[3]!.headers['x-api-key']).toBe('erp-key-123');
  });

  it('rotates the secret (shown once) and disables the webhook: test and replay are no longer offered', async () => {
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByText(/The previous secret signs until/).waitFor();

    await page.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => page.getByTestId('webhook-state').textContent()).toBe('Disabled');
    expect(await page.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => page.getByTestId('webhook-state').textContent()).toBe('Enabled');
  });

  it('lists the events with filters, and opens an event’s resource in the app', async () => {
    await nav().getByRole('link', { name: 'Event log' }).click();
    await page.getByRole('heading', { name: 'Event log' }).waitFor();
    await page.getByRole('textbox', { name: 'Event name' }).fill('event.companies.created');
    const rows = page.locator('[data-testid="events-list"] tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(page.url()).toContain('eventName=event.companies.created');
    await screenshot(page, 'webhooks-05-event-log');
    await expectAccessible(page, 'event log');
    await rows.first().getByRole('button', { name: 'Payload' }).click();
    await page.getByRole('dialog').getByText('"name": "Hooked Packaging"').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await rows.first().getByRole('link', { name: 'Open its page' }).click();
    await page.getByRole('heading', { name: 'Hooked Packaging' }).waitFor();
  });
});
