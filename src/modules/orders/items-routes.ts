import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, Paginated, problemResponses, Uuid } from '../../platform/schemas.ts';
import {
  BulkOrderItemsBody,
  CreateOrderItemBody,
  ORDER_ITEM_ALIASES,
  UpdateOrderItemBody,
} from './items-schemas.ts';

const ITEM_HIPE = { aliases: ORDER_ITEM_ALIASES, jsonStrings: ['customFields'] } as const;

import { ORDER_ITEM_PAGE, type OrderItemService } from './items-service.ts';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const ListQuery = pageQuerySchema(ORDER_ITEM_PAGE, {
  orderId: Type.Optional(Uuid),
  articleId: Type.Optional(Uuid),
  parentId: Type.Optional(Type.String({ format: 'uuid', description: 'Children of this item' })),
  externalId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Items of the order with this externalId (HIPE)',
    }),
  ),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive "contains" on the article name or code, or the order externalId',
    }),
  ),
});

const DeleteQuery = Type.Object(
  {
    cascade: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Also delete the item’s descendants; without it an item with live children answers 409',
      }),
    ),
    hardDelete: Type.Optional(
      Type.Boolean({
        description:
          'HIPE client: accepted; items are always soft-deleted here (the order keeps its history and events)',
      }),
    ),
  },
  { additionalProperties: false },
);

const ItemDeleted = Type.Object({
  id: Uuid,
  deleted: Type.Literal(true),
  deletedIds: Type.Array(Uuid, { description: 'The item and, with cascade, its descendants' }),
});

const RULES =
  'Rules: `quantity` > 0; an item with an article takes the article price as `unitPrice` unless it sends its ' +
  'own (a disabled article answers 422 `article_disabled`); `totalPrice` is quantity x unitPrice rounded to ' +
  'cents when absent and refused (422 `inconsistent_total`) when it differs by more than half a cent; a parent ' +
  '(`parentId`) must be a live item of the same order (422 `parent_in_other_order`).';

export function registerOrderItemsRoutes(app: App, service: OrderItemService) {
  const OrderItem = Type.Ref('OrderItem');
  const tags = ['order items'];

  app.post(
    '/order-items',
    {
      config: { permission: 'orders:write', hipe: ITEM_HIPE },
      schema: {
        tags,
        operationId: 'createOrderItem',
        summary: 'Add an item to an order',
        description: RULES,
        body: CreateOrderItemBody,
        response: { 201: OrderItem, ...problemResponses(422) },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
  );

  app.get(
    '/order-items',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        operationId: 'listOrderItems',
        summary: 'List order items, filtered by order, article or parent',
        description: 'Default: limit 25 (maximum 100), sorted by position then creation order.',
        querystring: ListQuery,
        response: { 200: Paginated(OrderItem), ...problemResponses() },
      },
    },
    async (request) => service.list(actorOf(request), request.query),
  );

  app.get(
    '/order-items/:id',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags,
        operationId: 'getOrderItem',
        summary: 'Get an order item with its article',
        params: IdParams,
        response: { 200: OrderItem, ...problemResponses() },
      },
    },
    async (request) => service.get(actorOf(request), request.params.id),
  );

  app.patch(
    '/order-items/:id',
    {
      config: { permission: 'orders:write', hipe: ITEM_HIPE },
      schema: {
        tags,
        operationId: 'updateOrderItem',
        summary: 'Change some fields of an order item',
        description:
          `${RULES} When quantity or unitPrice change, totalPrice follows. A new parent may not be the item ` +
          'itself or one of its descendants (422 `hierarchy_cycle`). An item cannot move to another order.',
        params: IdParams,
        body: UpdateOrderItemBody,
        response: { 200: OrderItem, ...problemResponses(422) },
      },
    },
    async (request) => service.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/order-items/:id',
    {
      config: { permission: 'orders:write' },
      schema: {
        tags,
        operationId: 'deleteOrderItem',
        summary: 'Soft-delete an order item',
        description: 'An item with live children answers 409 `item_has_children` unless `cascade=true`.',
        params: IdParams,
        querystring: DeleteQuery,
        response: { 200: ItemDeleted, ...problemResponses(409) },
      },
    },
    async (request) =>
      service.remove(actorOf(request), request.params.id, { cascade: request.query.cascade }),
  );

  app.post(
    '/orders/:id/order-items',
    {
      config: { permission: 'orders:write' },
      schema: {
        tags,
        operationId: 'addOrderItems',
        summary: 'Add several items to an order at once (all or nothing)',
        description:
          `${RULES} An item may name its parent by \`parentId\` (an existing item of the order) or by ` +
          '`parentRef`, the `ref` of an item that comes EARLIER in the same array (422 `parent_later` ' +
          'otherwise). The created items are returned in the order of the request.',
        params: IdParams,
        body: BulkOrderItemsBody,
        response: { 201: Type.Array(OrderItem), ...problemResponses(422) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.addMany(actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/orders/:id/order-items/:itemId',
    {
      config: { permission: 'orders:write' },
      schema: {
        tags,
        operationId: 'deleteOrderItemOfOrder',
        summary: 'Remove an item from an order (soft delete)',
        description:
          'The item must belong to the order (404 otherwise). Same rules as DELETE /order-items/{id}.',
        params: Type.Object({ id: Uuid, itemId: Uuid }),
        querystring: DeleteQuery,
        response: { 200: ItemDeleted, ...problemResponses(409) },
      },
    },
    async (request) =>
      service.remove(actorOf(request), request.params.itemId, {
        orderId: request.params.id,
        cascade: request.query.cascade,
      }),
  );
}
