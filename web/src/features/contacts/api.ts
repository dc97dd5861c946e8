import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import type { Query, Schema } from '../../api/types.ts';

type Contact = Schema<'Contact'>;
export type ContactListQuery = Query<'/api/users/contacts'>;
/** A page of contacts: the crud list answers a page when `page` is given. */
export type ContactPage = {
  data: Contact[];
  meta: { page: number; limit: number; total: number; hasNextPage: boolean };
};

/** The contacts' query keys (a company's own contacts are under the company's key). */
export const contactKeys = {
  all: ['contacts'] as const,
  list: (query: ContactListQuery) => [...contactKeys.all, query] as const,
};

export const contactQueries = {
  list: (query: ContactListQuery & { page: number }) =>
    queryOptions({
      queryKey: contactKeys.list(query),
      queryFn: async () =>
        (await unwrap(api.GET('/api/users/contacts', { params: { query } }))) as unknown as ContactPage,
    }),
};
