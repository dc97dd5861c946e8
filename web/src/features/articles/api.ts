import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { byId, resourceKeys } from '../../api/keys.ts';
import type { Body, Query } from '../../api/types.ts';

export type ArticleListQuery = Query<'/api/articles'>;

const articleResource = resourceKeys<'articles', ArticleListQuery>('articles');

/** The articles' query keys (`all` covers lists and details). */
export const articleKeys = {
  ...articleResource,
};

export const articleQueries = {
  list: (query: ArticleListQuery) =>
    queryOptions({
      queryKey: articleKeys.list(query),
      queryFn: () => articleApi.list(query),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: articleKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/articles/{id}', { params: { path: { id } } })),
    }),
};

export type ArticleCreate = Body<'/api/articles', 'post'>;
export type ArticleUpdate = Body<'/api/articles/{id}', 'patch'>;

/** The articles' reads outside a query (a brief's article lookup) and changes, typed from the API document. */
export const articleApi = {
  list: (query: ArticleListQuery) => unwrap(api.GET('/api/articles', { params: { query } })),
  create: (body: ArticleCreate) => unwrap(api.POST('/api/articles', { body })),
  update: (id: string, body: ArticleUpdate) => unwrap(api.PATCH('/api/articles/{id}', { ...byId(id), body })),
  /** The file shown as the article's preview (null clears it). */
  setPreview: (id: string, fileId: string | null) =>
    unwrap(api.PUT('/api/articles/{id}/preview', { ...byId(id), body: { fileId } })),
  /** "Order again": the article's last order's prices against today's. */
  reorder: (id: string) => unwrap(api.POST('/api/articles/{id}/reorder', { ...byId(id), body: {} })),
};
