import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { dateInput } from '../../platform/filters.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, problemResponses, Uuid } from '../../platform/schemas.ts';
import { type AttachmentServices, registerAttachmentRoutes } from '../files/attachments.ts';
import { registerOrderItemsRoutes } from './items-routes.ts';
import type { OrdersServices } from './module.ts';
import {
  CreateOrderBody,
  OrderItemSchema,
  OrderSchema,
  OrderSummarySchema,
  UpdateOrderBody,
} from './schemas.ts';
import { ORDER_COUNT_CAP, ORDER_PAGE } from './service.ts';

const range = (field: string) => ({
  [`${field}Start`]: Type.Optional(dateInput(`${field} on or after (inclusive); ISO 8601 date or timestamp`)),
  [`${field}End`]: Type.Optional(
    dateInput(`${field} on or before (inclusive; a date alone includes its whole day, UTC)`),
  ),
});

const OrderPage = Type.Object({
  data: Type.Array(Type.Ref('OrderSummary')),
  meta: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer({
      description: `Matching orders: exact up to ${ORDER_COUNT_CAP.toLocaleString('en')}, else a lower bound (see totalIsExact)`,
    }),
    totalIsExact: Type.Boolean({
      description: `False when more than ${ORDER_COUNT_CAP.toLocaleString('en')} orders match: total is then a lower bound`,
    }),
    hasNextPage: Type.Boolean({ description: 'Always exact' }),
  }),
});

const ListQuery = pageQuerySchema(ORDER_PAGE, {
  companyId: Type.Optional(Uuid),
  projectId: Type.Optional(Uuid),
  createdById: Type.Optional(Uuid),
  createdBy: Type.Optional({ ...Uuid, description: 'Alias of `createdById` (HIPE client)' }),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive "contains" on externalId or trackingId',
    }),
  ),
  statusId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 2000, description: 'Comma-separated status ids; matches any' }),
  ),
  externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'ERP order id' })),
  ...range('orderDate'),
  ...range('expectedDeliveryDate'),
  ...range('actualDeliveryDate'),
});

export const ordersRoutes = (
  { orders, items }: OrdersServices,
  attachments: AttachmentServices,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(OrderItemSchema);
    app.addSchema(OrderSummarySchema);
    app.addSchema(OrderSchema);
    const Order = Type.Ref('Order');
    const tags = ['orders'];

    app.post(
      '/orders',
      {
        config: { permission: 'orders:write', hipe: { aliases: [], jsonStrings: ['customFields'] } },
        schema: {
          tags,
          operationId: 'createOrder',
          summary: 'Create an order (its items are added afterwards)',
          description:
            '`billedAmount` is required. `projectId` must be a project of `companyId` (the project company is taken ' +
            'when companyId is absent); `shippingAddressId` an address of that company; `statusId` a status of ' +
            'entity `order` (default: the organisation default order status). `externalId` is unique among live ' +
            'orders (409 `duplicate_external_id`). References that do not exist answer 422 `invalid_reference`.',
          body: CreateOrderBody,
          response: { 201: Order, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => reply.status(201).send(await orders.create(actorOf(request), request.body)),
    );

    app.get(
      '/orders',
      {
        config: { permission: 'orders:read' },
        schema: {
          tags,
          operationId: 'listOrders',
          summary: 'List orders with filters, pagination and sorting',
          description:
            'All filters combine (AND). Date ranges are inclusive. Default: page 1, limit 10 (maximum 100), ' +
            'sorted by createdAt DESC. Contacts and external sales see the orders of their companies only. ' +
            `\`meta.total\` is exact up to ${ORDER_COUNT_CAP.toLocaleString('en')} matching orders; beyond, it is a lower ` +
            'bound and `meta.totalIsExact` is false. `meta.hasNextPage` is always exact.',
          querystring: ListQuery,
          response: { 200: OrderPage, ...problemResponses() },
        },
      },
      async (request) => orders.list(actorOf(request), request.query),
    );

    app.get(
      '/orders/:id',
      {
        config: { permission: 'orders:read' },
        schema: {
          tags,
          operationId: 'getOrder',
          summary:
            'Get an order with its company, project, status, currency and items (one database round trip)',
          params: IdParams,
          response: { 200: Order, ...problemResponses() },
        },
      },
      async (request) => orders.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/orders/:id',
      {
        config: { permission: 'orders:write', hipe: { aliases: [], jsonStrings: ['customFields'] } },
        schema: {
          tags,
          operationId: 'updateOrder',
          summary: 'Change any subset of the order fields',
          description:
            'For example `trackingId`, `actualDeliveryDate` and `statusId` together when the order ships. ' +
            'Send null to clear an optional field; `customFields` are merged (a key set to null is removed).',
          params: IdParams,
          body: UpdateOrderBody,
          response: { 200: Order, ...problemResponses(409, 422) },
        },
      },
      async (request) => orders.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/orders/:id',
      {
        config: { permission: 'orders:write', hipe: { aliases: [], jsonStrings: ['customFields'] } },
        schema: {
          tags,
          operationId: 'deleteOrder',
          summary: 'Soft-delete an order and its items',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => orders.remove(actorOf(request), request.params.id),
    );

    registerOrderItemsRoutes(app, items);

    // Files and comments: /orders/{id}/files, /orders/{id}/comments (files:read / files:write).
    registerAttachmentRoutes(app, attachments, {
      entity: 'order',
      path: '/orders/:id',
      tags,
      assertParentVisible: (actor, id) => orders.assertVisible(actor, id),
    });
  };
};
