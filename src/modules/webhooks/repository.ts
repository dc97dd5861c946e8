import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { webhooks } from '../../db/schema/webhooks.ts';
import { notFound } from '../../platform/errors.ts';
import { entity } from '../../platform/events.ts';
import { WebhookSchema } from './schemas.ts';

export const WEBHOOK_ENTITY = entity('WEBHOOK', 'webhooks', 'webhooks', { schema: WebhookSchema });
export const MASK = '********';

export type WebhookRow = typeof webhooks.$inferSelect;

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

/** The organisation's live webhook `id` (locked for update with `lock`); 404 when there is none. */
export async function liveWebhook(executor: Executor, organisationId: string, id: string, lock = false) {
  const query = executor
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.organisationId, organisationId), isNull(webhooks.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Webhook');
  return row;
}
