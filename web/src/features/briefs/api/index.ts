import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client.ts';
import { byId, resourceKeys } from '../../../api/keys.ts';
import type { Body, Query } from '../../../api/types.ts';

export type BriefListQuery = Query<'/api/briefs'>;

const briefResource = resourceKeys<'briefs', BriefListQuery>('briefs');

/** The briefs' query keys: a brief's own reads (versions, details, process) sit under its detail key. */
export const briefKeys = {
  ...briefResource,
  versions: (id: string, currentVersion: number | null | undefined) =>
    [...briefResource.detail(id), 'versions', currentVersion] as const,
  details: (id: string, version?: number) =>
    [...briefResource.detail(id), 'details', version ?? 'current'] as const,
  process: (id: string, version: number, position: number) =>
    [...briefResource.detail(id), 'process', version, position] as const,
  predictionPanel: (id: string) => [...briefResource.detail(id), 'prediction-panel'] as const,
  element: (id: string) => [...briefResource.all, 'element', id] as const,
};

export const briefQueries = {
  list: (query: BriefListQuery) =>
    queryOptions({
      queryKey: briefKeys.list(query),
      queryFn: () => unwrap(api.GET('/api/briefs', { params: { query } })),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: briefKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/briefs/{id}', byId(id))),
    }),
  versions: (id: string, currentVersion: number | null | undefined) =>
    queryOptions({
      queryKey: briefKeys.versions(id, currentVersion),
      queryFn: () => unwrap(api.GET('/api/briefs/{id}/predictions', byId(id))),
    }),
  /** The brief's elements as stored, at a version (else the current one). */
  details: (id: string, version?: number) =>
    queryOptions({
      queryKey: briefKeys.details(id, version),
      queryFn: () =>
        unwrap(
          api.GET('/api/briefs/{id}/details', {
            params: { path: { id }, query: version ? { version } : {} },
          }),
        ),
    }),
  process: (id: string, version: number, position: number) =>
    queryOptions({
      queryKey: briefKeys.process(id, version, position),
      queryFn: () =>
        unwrap(
          api.GET('/api/briefs/{id}/process/{elementIndex}', {
            params: { path: { id, elementIndex: position }, query: { version } },
          }),
        ),
    }),
  predictionPanel: (id: string) =>
    queryOptions({
      queryKey: briefKeys.predictionPanel(id),
      queryFn: () => unwrap(api.GET('/api/briefs/{id}/prediction-panel', byId(id))),
    }),
  element: (id: string) =>
    queryOptions({
      queryKey: briefKeys.element(id),
      queryFn: () => unwrap(api.GET('/api/brief-elements/{id}', byId(id))),
    }),
};

export type BriefCreate = Body<'/api/briefs', 'post'>;
export type BriefUpdate = Body<'/api/briefs/{id}', 'put'>;
export type BriefEstimate = Body<'/api/briefs/estimate', 'post'>;

export const briefApi = {
  get: (id: string) => unwrap(api.GET('/api/briefs/{id}', byId(id))),
  create: (body: BriefCreate) => unwrap(api.POST('/api/briefs', { body })),
  update: (id: string, body: BriefUpdate) => unwrap(api.PUT('/api/briefs/{id}', { ...byId(id), body })),
};

/** The key of an estimate: the body priced (the same body is not priced twice within a minute). */
export const estimateKeys = {
  all: ['estimate'] as const,
  quick: (body: BriefEstimate | null) => [...estimateKeys.all, body] as const,
  analysis: (body: BriefEstimate | null) => [...estimateKeys.quick(body), 'analysis'] as const,
};

export const estimateQueries = {
  /** The price of a brief as configured (no analysis: quick, asked for on every settled change). */
  quick: (body: BriefEstimate | null) =>
    queryOptions({
      queryKey: estimateKeys.quick(body),
      // Enabled only with a body (a form the API can price).
      queryFn: ({ signal }) => unwrap(api.POST('/api/briefs/estimate', { body: body!, signal })),
    }),
  /** The same price with the value analysis (curves, price breaks, savings): dozens of pricings. */
  analysis: (body: BriefEstimate | null) =>
    queryOptions({
      queryKey: estimateKeys.analysis(body),
      queryFn: ({ signal }) =>
        unwrap(
          api.POST('/api/briefs/estimate', {
            params: { query: { include: 'analysis' } },
            body: body!,
            signal,
          }),
        ),
    }),
};
