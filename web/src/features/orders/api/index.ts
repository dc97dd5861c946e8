import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client.ts';
import type { Body, Query, Schema } from '../../../api/types.ts';

export type Order = Schema<'Order'>;
export type OrderListQuery = Query<'/api/orders'>;

const byId = (id: string) => ({ params: { path: { id } } });

/** The orders' query keys: `all` covers the list, the board's columns, the portal's and each order. */
export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (query: OrderListQuery) => [...orderKeys.lists(), query] as const,
  detail: (id: string) => [...orderKeys.all, 'detail', id] as const,
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

export const orderApi = {
  update: (id: string, body: Body<'/api/orders/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/orders/{id}', { ...byId(id), body })),
  remove: (id: string) => unwrap(api.DELETE('/api/orders/{id}', byId(id))),
};
