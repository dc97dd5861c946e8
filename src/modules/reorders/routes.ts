import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, problemResponses } from '../../platform/schemas.ts';
import { ReorderArticleBody, ReorderSchema } from './schemas.ts';
import type { ReorderService } from './service.ts';

const NOTE =
  'The answer is a new DRAFT quote (the seller reviews and publishes it; a contact who asked for it sees it) ' +
  'with each line’s previous and new unit price and total and the difference. Prices are today’s article ' +
  'prices; the seller may re-price brief-made articles with the engine before publishing. See docs/portal.md.';

export const reorderRoutes =
  (service: ReorderService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(ReorderSchema);
    const Reorder = Type.Ref('Reorder');

    app.post(
      '/orders/:id/reorder',
      {
        config: { permission: 'quotes:reorder' },
        schema: {
          tags: ['orders'],
          operationId: 'reorderOrder',
          summary: 'Order again: a draft quote of a delivered order’s articles at today’s prices',
          description: `${NOTE} 409 \`order_not_delivered\` before the order has an actual delivery date; 422 \`nothing_to_reorder\` when no line is a live article.`,
          params: IdParams,
          body: Type.Optional(Type.Union([Type.Null(), Type.Object({}, { additionalProperties: false })])),
          response: { 201: Reorder, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.fromOrder(actorOf(request), request.params.id)),
    );

    app.post(
      '/articles/:id/reorder',
      {
        config: { permission: 'quotes:reorder' },
        schema: {
          tags: ['articles'],
          operationId: 'reorderArticle',
          summary: 'Order an article again: a draft quote at today’s price beside the last ordered price',
          description: `${NOTE} The quantity defaults to the quantity last ordered.`,
          params: IdParams,
          body: Type.Optional(Type.Union([Type.Null(), ReorderArticleBody])),
          response: { 201: Reorder, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.fromArticle(actorOf(request), request.params.id, request.body ?? {})),
    );
  };
