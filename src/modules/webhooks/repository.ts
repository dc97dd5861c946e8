import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';
import { webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';
import { notFound } from '../../platform/errors.ts';
import { entity } from '../../platform/events.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';
import { WebhookSchema } from './schemas.ts';

export const WEBHOOK_ENTITY = entity('WEBHOOK', 'webhooks', 'webhooks', { schema: WebhookSchema });
export const MASK = '********';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookInsert = typeof webhooks.$inferInsert;

export const WEBHOOK_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: { createdAt: webhooks.createdAt, name: webhooks.name, updatedAt: webhooks.updatedAt },
  tieBreaker: webhooks.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' },
};

export type CredentialsInput = { username?: string; password?: string; name?: string; token?: string };

/** The API view of a webhook: credentials masked, secrets never included. */
export function publicWebhook(row: WebhookRow) {
  let credentials: Record<string, string> | null = null;
  const stored = row.credentials as CredentialsInput | null;
  if (row.authenticationType === 'basic' && stored)
    credentials = { username: stored.username!, password: MASK };
  if (row.authenticationType === 'header' && stored) credentials = { name: stored.name!, token: MASK };
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    authenticationType: row.authenticationType,
    credentials,
    httpMethod: row.httpMethod,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date()
        ? row.previousSecretExpiresAt
        : null,
    lastSuccessAt: row.lastSuccessAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const snapshotOf = (row: WebhookRow) => publicWebhook(row) as unknown as Record<string, unknown>;

const liveWebhookQuery = (executor: Executor, organisationId: string, id: string) =>
  executor
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.organisationId, organisationId), isNull(webhooks.deletedAt)))
    .limit(1);

/** The organisation's live webhook `id`, or undefined. */
export async function findLiveWebhook(executor: Executor, organisationId: string, id: string) {
  const [row] = await liveWebhookQuery(executor, organisationId, id);
  return row;
}

/** The organisation's live webhook `id` (locked for update with `lock`); 404 when there is none. */
export async function liveWebhook(executor: Executor, organisationId: string, id: string, lock = false) {
  const query = liveWebhookQuery(executor, organisationId, id);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Webhook');
  return row;
}

/** One page of the organisation's live webhooks (only enabled or disabled ones when asked), and their total. */
export async function listWebhooks(
  db: Executor,
  organisationId: string,
  enabled: boolean | undefined,
  page: PageRequest,
) {
  const where = and(
    eq(webhooks.organisationId, organisationId),
    isNull(webhooks.deletedAt),
    enabled === undefined ? undefined : eq(webhooks.enabled, enabled),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhooks)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(webhooks).where(where),
  ]);
  return { rows, total: Number(total?.total ?? 0) };
}

export async function insertWebhook(tx: Executor, values: WebhookInsert) {
  const [row] = await tx.insert(webhooks).values(values).returning();
  return row!;
}

/** Changes a webhook (its updatedAt too), by id: the caller has found it in its organisation. */
export async function updateWebhook(tx: Executor, id: string, values: Partial<WebhookInsert>) {
  const [row] = await tx
    .update(webhooks)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(webhooks.id, id))
    .returning();
  return row!;
}

/** Soft-deletes a webhook, disabled so that nothing is queued for it any more. */
export async function softDeleteWebhook(tx: Executor, id: string) {
  const now = new Date();
  const [row] = await tx
    .update(webhooks)
    .set({ deletedAt: now, enabled: false, updatedAt: now })
    .where(eq(webhooks.id, id))
    .returning();
  return row;
}

/** The webhook, locked for update, while it is live and enabled (of any organisation: the system disables it). */
export async function lockEnabledWebhook(tx: Executor, id: string) {
  const [row] = await tx
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.enabled, true), isNull(webhooks.deletedAt)))
    .for('update');
  return row;
}

/** Cancels the deliveries still waiting for a webhook that stops receiving (disabled, deleted). */
export async function cancelPendingDeliveries(tx: Executor, webhookId: string, reason: string) {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'cancelled', completedAt: new Date(), updatedAt: new Date(), lastError: reason })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));
}

/** The e-mail addresses of the organisation's live admins and superadmins that have one. */
export async function organisationAdminEmails(db: Executor, organisationId: string): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.organisationId, organisationId),
        inArray(users.role, ['admin', 'superadmin']),
        isNull(users.deletedAt),
        sql`${users.email} is not null`,
      ),
    );
  return rows.map((row) => row.email!);
}
