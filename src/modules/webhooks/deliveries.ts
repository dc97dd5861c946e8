import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/platform.ts';
import { type DeliveryStatus, webhookDeliveries, webhookDeliveryAttempts } from '../../db/schema/webhooks.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { type Change, type ChangeRunner, eventRow } from '../../platform/events.ts';
import { type PageOptions, type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { liveWebhook, snapshotOf, WEBHOOK_ENTITY } from './repository.ts';

export const DELIVERY_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: { createdAt: webhookDeliveries.createdAt, eventCode: webhookDeliveries.eventCode },
  tieBreaker: webhookDeliveries.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' },
};

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  eventCode: webhookDeliveries.eventCode,
  eventName: webhookDeliveries.eventName,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastError: webhookDeliveries.lastError,
  completedAt: webhookDeliveries.completedAt,
  replayOf: webhookDeliveries.replayOf,
  createdAt: webhookDeliveries.createdAt,
  updatedAt: webhookDeliveries.updatedAt,
};
type DeliveryRow = { [K in keyof typeof deliveryColumns]: (typeof webhookDeliveries.$inferSelect)[K] };
const publicDelivery = (row: DeliveryRow) => ({
  ...row,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
});

const attemptColumns = {
  id: webhookDeliveryAttempts.id,
  attempt: webhookDeliveryAttempts.attempt,
  startedAt: webhookDeliveryAttempts.startedAt,
  durationMs: webhookDeliveryAttempts.durationMs,
  statusCode: webhookDeliveryAttempts.statusCode,
  error: webhookDeliveryAttempts.error,
  responseExcerpt: webhookDeliveryAttempts.responseExcerpt,
};

/**
 * The deliveries of a webhook as the API shows them (list, one with its attempts), and the two
 * ways to make one by hand: replay a delivery's event, send a test event. The delivery runtime
 * (delivery.ts) makes and sends the others.
 */
/**
 * `change` runs the writes (a replay, a test event) although they record no change event: that is
 * where a request's Idempotency-Key commits with them (platform/idempotency.ts).
 */
export function createWebhookDeliveries({
  db,
  change,
  wake,
}: {
  db: Db;
  change: ChangeRunner;
  wake: () => void;
}) {
  const deliveries = {
    async listDeliveries(
      actor: Actor,
      webhookId: string,
      query: PageQuery & { status?: DeliveryStatus; eventId?: string },
    ) {
      await liveWebhook(db, actor.organisationId, webhookId);
      const page = resolvePage(query, DELIVERY_PAGE);
      const where = and(
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.organisationId, actor.organisationId),
        query.status ? eq(webhookDeliveries.status, query.status) : undefined,
        query.eventId ? eq(webhookDeliveries.eventId, query.eventId) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select(deliveryColumns)
          .from(webhookDeliveries)
          .where(where)
          .orderBy(...page.orderBy)
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: count() }).from(webhookDeliveries).where(where),
      ]);
      return pageResult(rows.map(publicDelivery), Number(total?.total ?? 0), page);
    },

    async liveDelivery(actor: Actor, webhookId: string, deliveryId: string) {
      await liveWebhook(db, actor.organisationId, webhookId);
      const [row] = await db
        .select(deliveryColumns)
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.id, deliveryId),
            eq(webhookDeliveries.webhookId, webhookId),
            eq(webhookDeliveries.organisationId, actor.organisationId),
          ),
        )
        .limit(1);
      if (!row) throw notFound('Delivery');
      return row;
    },

    async attempts(actor: Actor, webhookId: string, deliveryId: string) {
      await deliveries.liveDelivery(actor, webhookId, deliveryId);
      return db
        .select(attemptColumns)
        .from(webhookDeliveryAttempts)
        .where(eq(webhookDeliveryAttempts.deliveryId, deliveryId))
        .orderBy(desc(webhookDeliveryAttempts.attempt));
    },

    async getDelivery(actor: Actor, webhookId: string, deliveryId: string) {
      const delivery = await deliveries.liveDelivery(actor, webhookId, deliveryId);
      return {
        ...publicDelivery(delivery),
        attempts: await deliveries.attempts(actor, webhookId, deliveryId),
      };
    },

    /** Sends the delivery's event again, as a new delivery (same `webhook-id`: the event id). */
    async replay(actor: Actor, webhookId: string, deliveryId: string) {
      const webhook = await liveWebhook(db, actor.organisationId, webhookId);
      if (!webhook.enabled)
        throw new AppError('webhook_disabled', 'The webhook is disabled: enable it before replaying');
      const original = await deliveries.liveDelivery(actor, webhookId, deliveryId);
      const [created] = await change(actor, (tx) =>
        tx
          .insert(webhookDeliveries)
          .values({
            organisationId: actor.organisationId,
            webhookId,
            eventId: original.eventId,
            eventCode: original.eventCode,
            eventName: original.eventName,
            replayOf: original.id,
          })
          .returning(deliveryColumns),
      );
      wake();
      return publicDelivery(created!);
    },

    /**
     * A test event (`event.webhooks.test`, the webhook's masked view as its entity) delivered to
     * this webhook only, whatever its patterns: it is written already dispatched, so the dispatcher
     * does not fan it out to the organisation's other webhooks. Not a change of the webhook.
     */
    async sendTest(actor: Actor, webhookId: string) {
      const webhook = await liveWebhook(db, actor.organisationId, webhookId);
      if (!webhook.enabled)
        throw new AppError(
          'webhook_disabled',
          'The webhook is disabled: enable it before sending a test event',
        );
      const created = await change(actor, async (tx) => {
        const test: Change = {
          on: WEBHOOK_ENTITY,
          type: 'UPDATE',
          entityId: webhook.id,
          snapshot: snapshotOf(webhook),
        };
        const row = {
          ...eventRow(test, actor.organisationId, actor.userId),
          payload: await change.present(tx, test),
        };
        const [event] = await tx
          .insert(events)
          .values({
            ...row,
            eventName: 'event.webhooks.test',
            category: 'webhooks.test',
            dispatchedAt: new Date(),
          })
          .returning({ id: events.id, code: events.code, eventName: events.eventName });
        const [delivery] = await tx
          .insert(webhookDeliveries)
          .values({
            organisationId: actor.organisationId,
            webhookId,
            eventId: event!.id,
            eventCode: event!.code,
            eventName: event!.eventName,
          })
          .returning(deliveryColumns);
        return delivery!;
      });
      wake();
      return publicDelivery(created);
    },
  };
  return deliveries;
}
