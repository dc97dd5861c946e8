import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { byId } from '../../api/keys.ts';
import type { Body, Query, Schema } from '../../api/types.ts';

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

export const contactApi = {
  create: (body: Body<'/api/users/contacts', 'post'>) => unwrap(api.POST('/api/users/contacts', { body })),
  update: (id: string, body: Body<'/api/users/contacts/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/users/contacts/{id}', { ...byId(id), body })),
  /** Gives a contact a password and so an account to sign in with. */
  invite: (id: string, password: string) =>
    unwrap(api.POST('/api/users/{id}/invite', { ...byId(id), body: { password } })),
};
