import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emailOutbox } from '../../src/db/schema/mail.ts';
import { companies } from '../../src/db/schema/platform.ts';
import { entity } from '../../src/platform/events.ts';
import { buildTestApp, makeOrganisation, type TestApp, testConfig } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';
import { mailbox } from '../helpers/mailbox.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';

let t: TestApp;
const http = requests(() => t);
let receiver: Receiver;
const box = mailbox();
const { mails } = box;

beforeAll(async () => {
  const smtpUrl = await box.start();
  receiver = await startReceiver();
  t = await buildTestApp({
    runWorkers: true,
    config: {
      smtpUrl,
      mailFrom: 'webhooks@service.test',
      webhooks: {
        ...testConfig().webhooks,
        timeoutMs: 3000,
        retryDelaysMs: [100],
        pollIntervalMs: 100,
        concurrency: 8,
        secretGraceSeconds: 0,
      },
    },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await box.close();
});

it('e-mails the admins over SMTP when a webhook is disabled, and records the message as sent', async () => {
  const admin = await makeOrganisation(t);
  const created = await http.post(admin, '/api/webhooks', {
    name: 'Gone receiver',
    url: `${receiver.url}/gone/`,
    events: ['event.companies.*'],
  });
  expect(created.statusCode).toBe(201);
  receiver.script('/gone/', { status: 410 });
  await t.app.ctx.change(admin, async (tx, record) => {
    const [row] = await tx
      .insert(companies)
      .values({ organisationId: admin.organisationId, name: 'X' })
      .returning();
    await record({ on: entity('COMPANY', 'companies'), type: 'CREATE', entityId: row!.id, snapshot: row });
  });
  const deadline = Date.now() + 10_000;
  while (!mails.some((m) => m.to.includes(admin.email)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const mail = mails.find((m) => m.to.includes(admin.email));
  expect(mail).toBeDefined();
  expect(mail!.from).toBe('webhooks@service.test');
  // Quoted-printable: undo soft line breaks before reading.
  const text = mail!.data.replace(/=\r?\n/g, '');
  expect(text).toMatch(/^Subject: =\?UTF-8\?Q\?Webhook_=22Gone_receiver=22/m);
  expect(text).toContain('receiver answered 410 Gone');
  expect(text).toContain('/enable');
  // The SMTP server has the message before the mailer records the server's answer: wait for it.
  const outboxRow = () =>
    t.app.ctx.db.select().from(emailOutbox).where(eq(emailOutbox.organisationId, admin.organisationId));
  let [row] = await outboxRow();
  while (row?.status !== 'sent' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    [row] = await outboxRow();
  }
  expect(row).toMatchObject({ kind: 'webhook_disabled', status: 'sent', to: [admin.email] });
  expect(row!.sentAt).toBeInstanceOf(Date);
});
