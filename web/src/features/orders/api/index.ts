import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client.ts';
import { byId, resourceKeys } from '../../../api/keys.ts';
import type { Body, Query, Schema } from '../../../api/types.ts';

export type Order = Schema<'Order'>;
export type OrderListQuery = Query<'/api/orders'>;
export type OrderUpdate = Body<'/api/orders/{id}', 'patch'>;
export type OrderCreate = Body<'/api/orders', 'post'>;

const orderResource = resourceKeys<'orders', OrderListQuery>('orders');

/** The orders' query keys: `all` covers the list, the board's columns, the portal's and each order. */
export const orderKeys = {
  ...orderResource,
};

export const orderQueries = {
  list: (query: OrderListQuery) =>
    queryOptions({
      queryKey: orderKeys.list(query),
      queryFn: () => unwrap(api.GET('/api/orders', { params: { query } })),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: orderKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/orders/{id}', byId(id))),
    }),
};

/** One entry of POST /api/orders/{id}/order-items (bulk add, all or nothing). */
export type BulkItem = Body<'/api/orders/{id}/order-items', 'post'>[number];

export const orderApi = {
  create: (body: OrderCreate) => unwrap(api.POST('/api/orders', { body })),
  addItems: (id: string, items: BulkItem[]) =>
    unwrap(api.POST('/api/orders/{id}/order-items', { ...byId(id), body: items })),
  /** An item, with its children when it is a kit (the API refuses a kit's parent alone, 409). */
  removeItem: (id: string, itemId: string, cascade: boolean) =>
    unwrap(
      api.DELETE('/api/orders/{id}/order-items/{itemId}', {
        params: { path: { id, itemId }, query: cascade ? { cascade: true } : {} },
      }),
    ),
  update: (id: string, body: OrderUpdate) => unwrap(api.PATCH('/api/orders/{id}', { ...byId(id), body })),
  remove: (id: string) => unwrap(api.DELETE('/api/orders/{id}', byId(id))),
  /** "Order again": the order's prices against today's. */
  reorder: (id: string) => unwrap(api.POST('/api/orders/{id}/reorder', { ...byId(id), body: {} })),
};

/** The records that carry comments and files: their feature's key, so these sit under its detail. */
export type Owner = 'orders' | 'quotes' | 'articles';

export const entityKeys = {
  comments: (owner: Owner, id: string) => [owner, 'detail', id, 'comments'] as const,
  files: (owner: Exclude<Owner, 'quotes'>, id: string) => [owner, 'detail', id, 'files'] as const,
};

export const entityQueries = {
  /** The newest 100 comments of an order, a quote or an article. */
  comments: (owner: Owner, id: string) =>
    queryOptions({
      queryKey: entityKeys.comments(owner, id),
      queryFn: async () => {
        const path = {
          params: { path: { id }, query: { limit: 100, page: 1, sort: 'createdAt', order: 'DESC' } },
        };
        return (
          owner === 'orders'
            ? await unwrap(api.GET('/api/orders/{id}/comments', path))
            : owner === 'quotes'
              ? await unwrap(api.GET('/api/quotes/{id}/comments', path))
              : await unwrap(api.GET('/api/articles/{id}/comments', path))
        ).data;
      },
    }),
  files: (owner: Exclude<Owner, 'quotes'>, id: string) =>
    queryOptions({
      queryKey: entityKeys.files(owner, id),
      queryFn: async () => {
        const path = { params: { path: { id }, query: { limit: 100, page: 1 } } };
        return (
          owner === 'orders'
            ? await unwrap(api.GET('/api/orders/{id}/files', path))
            : await unwrap(api.GET('/api/articles/{id}/files', path))
        ).data;
      },
    }),
};

export const entityApi = {
  comment: (owner: Owner, id: string, body: string) => {
    const path = { ...byId(id), body: { body } };
    return owner === 'orders'
      ? unwrap(api.POST('/api/orders/{id}/comments', path))
      : owner === 'quotes'
        ? unwrap(api.POST('/api/quotes/{id}/comments', path))
        : unwrap(api.POST('/api/articles/{id}/comments', path));
  },
  removeFile: (owner: Exclude<Owner, 'quotes'>, id: string, fileId: string) =>
    unwrap(
      owner === 'orders'
        ? api.DELETE('/api/orders/{id}/files/{fileId}', { params: { path: { id, fileId } } })
        : api.DELETE('/api/articles/{id}/files/{fileId}', { params: { path: { id, fileId } } }),
    ),
};
