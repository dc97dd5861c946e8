import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedRequest, type Receiver, startReceiver } from '../helpers/receiver.ts';
import { expectAccessible } from './axe.ts';
import { ADMIN, openE2eSession, screenshot } from './harness.ts';

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
const e2e = openE2eSession({
  name: 'webhooks',
  env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '1h' },
  signIn: false,
});
const { url } = e2e;
let receiver: Receiver;
let secret = '';
const HOOK = '/erp-hook';

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const nav = () => e2e.page.getByRole('navigation', { name: 'Main' });
const calls = (r: ReceivedRequest) => r.url.startsWith(HOOK);
const verified = (request: ReceivedRequest) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
    eventName: string;
    entity: Record<string, unknown>;
  };
const delivery = (eventName: string, status?: string) =>
  e2e.page.locator(
    `[data-testid="deliveries"] tbody tr[data-event="${eventName}"]${status ? `[data-status="${status}"]` : ''}`,
  );

describe('the webhooks console, end to end', () => {
  it('refuses a private address with the service’s reason, then creates a webhook and shows its secret once', async () => {
    await e2e.page.goto(url('/'));
    await e2e.page.getByLabel('Username or e-mail').fill(ADMIN.email);
    await e2e.page.locator('input[name=password]').fill(ADMIN.password);
    await e2e.page.getByRole('button', { name: 'Sign in' }).click();
    await nav().getByRole('link', { name: 'Webhooks' }).click();
    await e2e.page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await e2e.page.getByText('Nothing here yet').waitFor();
    await expectAccessible(e2e.page, 'webhooks list (empty)');

    await e2e.page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = e2e.page.getByRole('dialog');
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
    await screenshot(e2e.page, 'webhooks-01-form-refused');
    await expectAccessible(e2e.page, 'webhook form');

    await dialog.getByRole('textbox', { name: /^URL/ }).fill(`${receiver.url}${HOOK}`);
    await dialog.getByRole('button', { name: 'Create' }).click();
    secret = (await e2e.page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await screenshot(e2e.page, 'webhooks-02-secret-once');
    await e2e.page.getByRole('button', { name: 'I have copied it' }).click();
    await e2e.page.getByRole('heading', { name: 'ERP' }).waitFor();
    expect(await e2e.page.getByTestId('webhook-state').textContent()).toBe('Enabled');
  });

  it('sends a test event, signed with the secret, and shows the delivery', async () => {
    await e2e.page.getByRole('button', { name: 'Send a test event' }).click();
    const [call] = await receiver.waitFor(1, { filter: calls });
    expect(verified(call!).eventName).toBe('event.webhooks.test');
    await delivery('event.webhooks.test', 'succeeded').waitFor();
    expect(await e2e.page.getByTestId('webhook-secret').count()).toBe(0); // never shown again
  });

  it('delivers a real event; the receiver fails it (500), and a replay from the console succeeds', async () => {
    receiver.script(HOOK, { status: 500, body: 'ERP down for maintenance' });
    await nav().getByRole('link', { name: 'Companies' }).click();
    await e2e.page.getByRole('button', { name: 'New company' }).click();
    await e2e.page.getByRole('dialog').getByRole('textbox', { name: /^Name/ }).fill('Hooked Packaging');
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await e2e.page.getByRole('heading', { name: 'Hooked Packaging' }).waitFor();
    const [, failed] = await receiver.waitFor(2, { filter: calls });
    const sent = verified(failed!);
    expect(sent.eventName).toBe('event.companies.created');
    expect(sent.entity.name).toBe('Hooked Packaging');

    await nav().getByRole('link', { name: 'Webhooks' }).click();
    await e2e.page.getByRole('link', { name: 'ERP' }).click();
    const row = delivery('event.companies.created', 'pending');
    await expect.poll(() => row.locator('td').nth(3).textContent()).toContain('500');
    await row.getByRole('button', { name: 'Attempts' }).click();
    const attempts = e2e.page.getByTestId('delivery-attempts');
    await attempts.waitFor();
    const cells = await attempts.locator('tbody tr').first().locator('td').allTextContents();
    expect(cells[2]).toBe('500');
    expect(cells[3]).toMatch(/\d+ ms/);
    expect(cells[5]).toBe('ERP down for maintenance');
    await screenshot(e2e.page, 'webhooks-03-failed-attempt');
    await expectAccessible(e2e.page, 'delivery attempts');
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await row.getByRole('button', { name: 'Replay' }).click();
    const [, , replayed] = await receiver.waitFor(3, { filter: calls });
    expect(replayed!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expect(verified(replayed!).eventName).toBe('event.companies.created');
    await delivery('event.companies.created', 'succeeded').waitFor();
    expect(await delivery('event.companies.created').count()).toBe(2);
    await screenshot(e2e.page, 'webhooks-04-replayed');
    await expectAccessible(e2e.page, 'webhook page');
  });

  it('edits the webhook: a header credential is sent with the next call, and shown masked', async () => {
    await e2e.page.getByRole('button', { name: 'Edit' }).click();
    const dialog = e2e.page.getByRole('dialog');
    await dialog.getByText('A header (name and value)').click();
    await dialog.getByRole('textbox', { name: 'Header name' }).fill('X-Api-Key');
    await dialog.getByLabel('Header value').fill('erp-key-123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await e2e.page.getByText('A header (name and value) · X-Api-Key').waitFor();
    await e2e.page.getByRole('button', { name: 'Send a test event' }).click();
    const received = await receiver.waitFor(4, { filter: calls });
    expect(received[3]!.headers['x-api-key']).toBe('erp-key-123');
  });

  it('rotates the secret (shown once) and disables the webhook: test and replay are no longer offered', async () => {
    await e2e.page.getByRole('button', { name: 'Rotate the secret' }).click();
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = (await e2e.page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await e2e.page.getByRole('button', { name: 'I have copied it' }).click();
    await e2e.page.getByText(/The previous secret signs until/).waitFor();

    await e2e.page.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => e2e.page.getByTestId('webhook-state').textContent()).toBe('Disabled');
    expect(await e2e.page.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);
    expect(await e2e.page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
    await e2e.page.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => e2e.page.getByTestId('webhook-state').textContent()).toBe('Enabled');
  });

  it('lists the events with filters, and opens an event’s resource in the app', async () => {
    await nav().getByRole('link', { name: 'Event log' }).click();
    await e2e.page.getByRole('heading', { name: 'Event log' }).waitFor();
    await e2e.page.getByRole('textbox', { name: 'Event name' }).fill('event.companies.created');
    const rows = e2e.page.locator('[data-testid="events-list"] tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(e2e.page.url()).toContain('eventName=event.companies.created');
    await screenshot(e2e.page, 'webhooks-05-event-log');
    await expectAccessible(e2e.page, 'event log');
    await rows.first().getByRole('button', { name: 'Payload' }).click();
    await e2e.page.getByRole('dialog').getByText('"name": "Hooked Packaging"').waitFor();
    await e2e.page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await rows.first().getByRole('link', { name: 'Open its page' }).click();
    await e2e.page.getByRole('heading', { name: 'Hooked Packaging' }).waitFor();
  });
});
