import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { Paginated, problemResponses, Uuid } from '../../platform/schemas.ts';
import { AnyObject, EventSchema, EventTypeSchema } from './schemas.ts';
import { type createEventService, EVENT_PAGE } from './service.ts';

const ListQuery = pageQuerySchema(EVENT_PAGE, {
  entity: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Entity type, e.g. ORDER' }),
  ),
  type: Type.Optional(EventTypeSchema),
  entityId: Type.Optional(Uuid),
  eventName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exact event name' })),
  sinceCode: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Only events with a greater code (then sorted by code ascending unless `sort` says otherwise)',
    }),
  ),
});

export const eventsRoutes =
  (service: ReturnType<typeof createEventService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(EventSchema);
    const tags = ['events'];

    app.get(
      '/events',
      {
        config: { permission: 'events:read' },
        schema: {
          tags,
          operationId: 'listEvents',
          summary: 'The event log of the organisation, newest first (oldest first with sinceCode)',
          description:
            'Codes are assigned when an event is written, so a transaction that commits late can make an event ' +
            'with a lower code appear after a higher one was read: a consumer reading with `sinceCode` should ' +
            'restart a little behind its last code (or a few seconds back) and skip ids it has seen.',
          querystring: ListQuery,
          response: { 200: Paginated(Type.Ref('Event')), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/events/ressources/:eventId',
      {
        config: { permission: 'events:read' },
        schema: {
          tags,
          operationId: 'getEventResource',
          summary: 'The current state of the entity an event concerns',
          description: '404 when the entity has since been deleted, or the event is unknown or foreign.',
          params: Type.Object({ eventId: Uuid }),
          response: { 200: AnyObject, ...problemResponses() },
        },
      },
      async (request) => service.resource(actorOf(request), request.params.eventId),
    );

    app.get(
      '/events/:id',
      {
        config: { permission: 'events:read' },
        schema: {
          tags,
          operationId: 'getEvent',
          summary: 'One event, in the form webhooks deliver it',
          params: Type.Object({ id: Uuid }),
          response: { 200: Type.Ref('Event'), ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );
  };
