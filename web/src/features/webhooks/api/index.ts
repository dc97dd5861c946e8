import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client.ts';
import { byId, resourceKeys } from '../../../api/keys.ts';
import type { Body, Query } from '../../../api/types.ts';

export type WebhookListQuery = Query<'/api/webhooks'>;
export type DeliveryListQuery = Query<'/api/webhooks/{id}/deliveries'>;
export type EventListQuery = Query<'/api/events'>;

const webhookResource = resourceKeys<'webhooks', WebhookListQuery>('webhooks');

/** The webhooks' query keys: a webhook's deliveries and their attempts sit under its detail key. */
export const webhookKeys = {
  ...webhookResource,
  deliveries: (id: string) => [...webhookResource.detail(id), 'deliveries'] as const,
  deliveryList: (id: string, query: DeliveryListQuery) => [...webhookKeys.deliveries(id), query] as const,
  attempts: (id: string, deliveryId: string | undefined) =>
    [...webhookResource.detail(id), 'attempts', deliveryId] as const,
  /** The event log (what webhooks are sent). */
  events: (query: EventListQuery) => ['events', query] as const,
};

export const webhookQueries = {
  list: (query: WebhookListQuery) =>
    queryOptions({
      queryKey: webhookKeys.list(query),
      queryFn: () => unwrap(api.GET('/api/webhooks', { params: { query } })),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: webhookKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/webhooks/{id}', byId(id))),
    }),
  deliveries: (id: string, query: DeliveryListQuery) =>
    queryOptions({
      queryKey: webhookKeys.deliveryList(id, query),
      queryFn: () => unwrap(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query } })),
    }),
  /** A delivery's attempts (enabled only once a delivery is shown). */
  attempts: (id: string, deliveryId: string | undefined) =>
    queryOptions({
      queryKey: webhookKeys.attempts(id, deliveryId),
      queryFn: () =>
        unwrap(
          api.GET('/api/webhooks/{id}/deliveries/{deliveryId}/attempts', {
            params: { path: { id, deliveryId: deliveryId ?? '' } },
          }),
        ),
    }),
  events: (query: EventListQuery) =>
    queryOptions({
      queryKey: webhookKeys.events(query),
      queryFn: () => unwrap(api.GET('/api/events', { params: { query } })),
    }),
};

/** A webhook's changes and actions, typed from the API document. */
export const webhookApi = {
  create: (body: Body<'/api/webhooks', 'post'>) => unwrap(api.POST('/api/webhooks', { body })),
  update: (id: string, body: Body<'/api/webhooks/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/webhooks/{id}', { ...byId(id), body })),
  remove: (id: string) => unwrap(api.DELETE('/api/webhooks/{id}', byId(id))),
  /** Sends a test event (a delivery shown with the others). */
  test: (id: string) => unwrap(api.POST('/api/webhooks/{id}/test', byId(id))),
  enable: (id: string) => unwrap(api.POST('/api/webhooks/{id}/enable', byId(id))),
  disable: (id: string) => unwrap(api.POST('/api/webhooks/{id}/disable', byId(id))),
  /** A new signing secret, answered once. */
  rotateSecret: (id: string) => unwrap(api.POST('/api/webhooks/{id}/rotate-secret', byId(id))),
  replay: (id: string, deliveryId: string) =>
    unwrap(
      api.POST('/api/webhooks/{id}/deliveries/{deliveryId}/replay', { params: { path: { id, deliveryId } } }),
    ),
};
