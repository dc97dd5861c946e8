import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, Paginated, problemResponses, Uuid } from '../../platform/schemas.ts';
import { DELIVERY_PAGE } from './deliveries.ts';
import {
  AttemptSchema,
  CreateWebhookBody,
  DeliverySchema,
  DeliveryStatusSchema,
  SecretField,
  UpdateWebhookBody,
  WebhookSchema,
} from './schemas.ts';
import { WEBHOOK_PAGE, type WebhookService } from './service.ts';

const Params = Type.Object({ id: Uuid });
const DeliveryParams = Type.Object({ id: Uuid, deliveryId: Uuid });
const WithSecret = Type.Object({ ...WebhookSchema.properties, secret: SecretField });
const DeliveryWithAttempts = Type.Object({
  ...DeliverySchema.properties,
  attempts: Type.Array(Type.Ref('WebhookDeliveryAttempt'), { description: 'Latest first' }),
});

export const webhooksRoutes =
  (service: WebhookService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(WebhookSchema);
    app.addSchema(DeliverySchema);
    app.addSchema(AttemptSchema);
    const tags = ['webhooks'];
    const config = { permission: 'webhooks:manage' as const };

    app.post(
      '/webhooks',
      {
        config,
        schema: {
          tags,
          operationId: 'createWebhook',
          summary: 'Register a webhook; the response holds its signing secret, shown only once',
          description:
            'Each matching event is sent to `url` with the configured method and authentication, signed per ' +
            'Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). See docs/webhooks.md.',
          body: CreateWebhookBody,
          response: { 201: WithSecret, ...problemResponses() },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/webhooks',
      {
        config,
        schema: {
          tags,
          operationId: 'listWebhooks',
          summary: 'List the webhooks of the organisation',
          querystring: pageQuerySchema(WEBHOOK_PAGE, { enabled: Type.Optional(Type.Boolean()) }),
          response: { 200: Paginated(Type.Ref('Webhook')), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/webhooks/:id',
      {
        config,
        schema: {
          tags,
          operationId: 'getWebhook',
          summary: 'One webhook (credentials masked)',
          params: Params,
          response: { 200: Type.Ref('Webhook'), ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/webhooks/:id',
      {
        config,
        schema: {
          tags,
          operationId: 'updateWebhook',
          summary: 'Change a webhook; credentials are replaced as a whole',
          params: Params,
          body: UpdateWebhookBody,
          response: { 200: Type.Ref('Webhook'), ...problemResponses() },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/webhooks/:id',
      {
        config,
        schema: {
          tags,
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook; its waiting deliveries are cancelled',
          params: Params,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );

    for (const [action, enabled] of [
      ['enable', true],
      ['disable', false],
    ] as const) {
      app.post(
        `/webhooks/:id/${action}`,
        {
          config,
          schema: {
            tags,
            operationId: `${action}Webhook`,
            summary: enabled
              ? 'Enable a webhook: events from now on are delivered again'
              : 'Disable a webhook: no event is queued for it, waiting deliveries are cancelled',
            params: Params,
            response: { 200: Type.Ref('Webhook'), ...problemResponses() },
          },
        },
        async (request) => service.setEnabled(actorOf(request), request.params.id, enabled),
      );
    }

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        config,
        schema: {
          tags,
          operationId: 'rotateWebhookSecret',
          summary: 'Replace the signing secret; the previous one keeps signing during a grace period',
          description:
            'During the grace period each call carries two signatures in `webhook-signature` (new, then previous).',
          params: Params,
          querystring: Type.Object(
            {
              gracePeriodSeconds: Type.Optional(
                Type.Integer({
                  minimum: 0,
                  maximum: 30 * 86_400,
                  description:
                    'How long the previous secret keeps signing (default: WEBHOOK_SECRET_GRACE_SECONDS, 1 day)',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: WithSecret, ...problemResponses() },
        },
      },
      async (request) =>
        service.rotateSecret(actorOf(request), request.params.id, request.query.gracePeriodSeconds),
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config,
        schema: {
          tags,
          operationId: 'listWebhookDeliveries',
          summary: 'The deliveries of a webhook, newest first',
          params: Params,
          querystring: pageQuerySchema(DELIVERY_PAGE, {
            status: Type.Optional(DeliveryStatusSchema),
            eventId: Type.Optional(Uuid),
          }),
          response: { 200: Paginated(Type.Ref('WebhookDelivery')), ...problemResponses() },
        },
      },
      async (request) => service.listDeliveries(actorOf(request), request.params.id, request.query),
    );

    app.get(
      '/webhooks/:id/deliveries/:deliveryId',
      {
        config,
        schema: {
          tags,
          operationId: 'getWebhookDelivery',
          summary: 'One delivery with its attempts (latest first)',
          params: DeliveryParams,
          response: {
            200: DeliveryWithAttempts,
            ...problemResponses(),
          },
        },
      },
      async (request) => service.getDelivery(actorOf(request), request.params.id, request.params.deliveryId),
    );

    app.get(
      '/webhooks/:id/deliveries/:deliveryId/attempts',
      {
        config,
        schema: {
          tags,
          operationId: 'listWebhookDeliveryAttempts',
          summary: 'The attempts of a delivery: status code, duration, error, response excerpt',
          params: DeliveryParams,
          response: { 200: Type.Array(Type.Ref('WebhookDeliveryAttempt')), ...problemResponses() },
        },
      },
      async (request) => service.attempts(actorOf(request), request.params.id, request.params.deliveryId),
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/replay',
      {
        config,
        schema: {
          tags,
          operationId: 'replayWebhookDelivery',
          summary: 'Send the delivery’s event again, as a new delivery',
          params: DeliveryParams,
          response: { 202: Type.Ref('WebhookDelivery'), ...problemResponses(409) },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(await service.replay(actorOf(request), request.params.id, request.params.deliveryId)),
    );
    app.post(
      '/webhooks/:id/test',
      {
        config,
        schema: {
          tags,
          operationId: 'sendWebhookTest',
          summary: 'Send a test event (`event.webhooks.test`) to this webhook only',
          params: Params,
          response: { 202: Type.Ref('WebhookDelivery'), ...problemResponses(409) },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await service.sendTest(actorOf(request), request.params.id)),
    );
  };
