import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/platform.ts';
import { webhookDeliveries, webhooks } from '../../src/db/schema/webhooks.ts';
import {
  cancelPendingDeliveries,
  findLiveWebhook,
  listWebhooks,
  lockEnabledWebhook,
  organisationAdminEmails,
  softDeleteWebhook,
  WEBHOOK_PAGE,
} from '../../src/modules/webhooks/repository.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let a: Credentials;
let b: Credentials;
const db = () => t.app.ctx.db;

async function webhook(
  organisationId: string,
  name: string,
  values: Partial<typeof webhooks.$inferInsert> = {},
) {
  const [row] = await db()
    .insert(webhooks)
    .values({
      organisationId,
      name,
      url: 'https://receiver.test/hook',
      events: ['*'],
      eventsRegex: '.*',
      secret: 'sealed',
      ...values,
    })
    .returning();
  return row!;
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeOrganisation(t);
  b = await makeOrganisation(t);
});
afterAll(() => t?.close());

describe('webhooks repository', () => {
  it('lists the live webhooks of one organisation in the page order, filtered by enabled', async () => {
    const first = await webhook(a.organisationId, 'alpha');
    const second = await webhook(a.organisationId, 'beta', { enabled: false });
    const deleted = await webhook(a.organisationId, 'gamma');
    await softDeleteWebhook(db(), deleted.id);
    await webhook(b.organisationId, 'other tenant');

    const byName = resolvePage({ sort: 'name,ASC' }, WEBHOOK_PAGE);
    const all = await listWebhooks(db(), a.organisationId, undefined, byName);
    expect(all.rows.map((row) => row.id)).toEqual([first.id, second.id]);
    expect(all.total).toBe(2);

    const disabled = await listWebhooks(db(), a.organisationId, false, byName);
    expect(disabled.rows.map((row) => row.id)).toEqual([second.id]);
    expect(disabled.total).toBe(1);

    expect(await findLiveWebhook(db(), a.organisationId, deleted.id)).toBeUndefined();
    expect(await findLiveWebhook(db(), b.organisationId, first.id)).toBeUndefined();
    expect((await findLiveWebhook(db(), a.organisationId, first.id))?.id).toBe(first.id);
  });

  it('locks only a live, enabled webhook, and cancels only its pending deliveries', async () => {
    const enabled = await webhook(a.organisationId, 'to disable');
    const disabled = await webhook(a.organisationId, 'already off', { enabled: false });
    await db().transaction(async (tx) => {
      expect((await lockEnabledWebhook(tx, enabled.id))?.id).toBe(enabled.id);
      expect(await lockEnabledWebhook(tx, disabled.id)).toBeUndefined();
    });

    const delivery = (status: 'pending' | 'succeeded', webhookId = enabled.id) => ({
      organisationId: a.organisationId,
      webhookId,
      eventId: crypto.randomUUID(),
      eventCode: 1,
      eventName: 'ORDER.CREATE',
      status,
    });
    const rows = await db()
      .insert(webhookDeliveries)
      .values([delivery('pending'), delivery('succeeded'), delivery('pending', disabled.id)])
      .returning({ id: webhookDeliveries.id });
    await cancelPendingDeliveries(db(), enabled.id, 'webhook disabled');
    const after = await db().select().from(webhookDeliveries);
    const statusOf = (id: string) => after.find((row) => row.id === id)!;
    expect(statusOf(rows[0]!.id)).toMatchObject({ status: 'cancelled', lastError: 'webhook disabled' });
    expect(statusOf(rows[1]!.id).status).toBe('succeeded');
    expect(statusOf(rows[2]!.id).status).toBe('pending');
  });

  it('answers the e-mails of the live admins of the organisation only', async () => {
    const admin = await makeUser(t, a, 'admin');
    const gone = await makeUser(t, a, 'admin');
    await makeUser(t, a, 'sales');
    await makeUser(t, b, 'admin');
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.userId));

    const emails = await organisationAdminEmails(db(), a.organisationId);
    expect(emails.sort()).toEqual([a.email, admin.email].sort());
  });
});
