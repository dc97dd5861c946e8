import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { resourceKeys } from '../../api/keys.ts';
import type { Query } from '../../api/types.ts';

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
      queryFn: () => unwrap(api.GET('/api/articles', { params: { query } })),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: articleKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/articles/{id}', { params: { path: { id } } })),
    }),
};
