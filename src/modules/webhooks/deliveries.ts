import type { Db } from '../../db/client.ts';
import type { DeliveryStatus } from '../../db/schema/webhooks.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { type Change, type ChangeRunner, eventRow } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import {
  attemptsOfDelivery,
  DELIVERY_PAGE,
  type DeliveryRow,
  findDelivery,
  insertDelivery,
  insertEvent,
  listDeliveriesPage,
} from './delivery-repository.ts';
import { liveWebhook, snapshotOf, WEBHOOK_ENTITY } from './repository.ts';

export { DELIVERY_PAGE };

const publicDelivery = (row: DeliveryRow) => ({
  ...row,
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
});

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
      const { rows, total } = await listDeliveriesPage(
        db,
        actor.organisationId,
        webhookId,
        { status: query.status, eventId: query.eventId },
        page,
      );
      return pageResult(rows.map(publicDelivery), total, page);
    },

    async liveDelivery(actor: Actor, webhookId: string, deliveryId: string) {
      await liveWebhook(db, actor.organisationId, webhookId);
      const row = await findDelivery(db, actor.organisationId, webhookId, deliveryId);
      if (!row) throw notFound('Delivery');
      return row;
    },

    async attempts(actor: Actor, webhookId: string, deliveryId: string) {
      await deliveries.liveDelivery(actor, webhookId, deliveryId);
      return attemptsOfDelivery(db, deliveryId);
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
      const created = await change(actor, (tx) =>
        insertDelivery(tx, {
          organisationId: actor.organisationId,
          webhookId,
          eventId: original.eventId,
          eventCode: original.eventCode,
          eventName: original.eventName,
          replayOf: original.id,
        }),
      );
      wake();
      return publicDelivery(created);
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
        const event = await insertEvent(tx, {
          ...row,
          eventName: 'event.webhooks.test',
          category: 'webhooks.test',
          dispatchedAt: new Date(),
        });
        return insertDelivery(tx, {
          organisationId: actor.organisationId,
          webhookId,
          eventId: event.id,
          eventCode: event.code,
          eventName: event.eventName,
        });
      });
      wake();
      return publicDelivery(created);
    },
  };
  return deliveries;
}
