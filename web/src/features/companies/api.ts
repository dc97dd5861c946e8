import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { byId, resourceKeys } from '../../api/keys.ts';
import type { Body, Query } from '../../api/types.ts';

export type CompanyListQuery = Query<'/api/companies/pagination'>;
export type ProjectListQuery = Query<'/api/projects/pagination'>;

const companyResource = resourceKeys<'companies', CompanyListQuery>('companies');

/** The companies' query keys: a company's addresses, contacts and projects sit under its detail key. */
export const companyKeys = {
  ...companyResource,
  addresses: (id: string) => [...companyResource.detail(id), 'addresses'] as const,
  contacts: (id: string) => [...companyResource.detail(id), 'contacts'] as const,
  /** Names by id, for lists that show a company per row. */
  names: (ids: string[]) => [...companyResource.all, 'names', ids] as const,
  projects: ['projects'] as const,
  projectList: (query: ProjectListQuery) => [...companyKeys.projects, query] as const,
};

export const companyQueries = {
  list: (query: CompanyListQuery) =>
    queryOptions({
      queryKey: companyKeys.list(query),
      queryFn: () => unwrap(api.GET('/api/companies/pagination', { params: { query } })),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: companyKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/companies/{id}', byId(id))),
    }),
  addresses: (id: string) =>
    queryOptions({
      queryKey: companyKeys.addresses(id),
      queryFn: () => unwrap(api.GET('/api/companies/{id}/addresses', byId(id))),
    }),
  contacts: (id: string) =>
    queryOptions({
      queryKey: companyKeys.contacts(id),
      queryFn: () => unwrap(api.GET('/api/companies/{id}/contacts', byId(id))),
    }),
  /**
   * The names of the companies a page of rows refers to (order and article lists carry only ids):
   * one crud search `filter=id||$in||...` for the page, never the whole list.
   */
  names: (ids: string[]) =>
    queryOptions({
      queryKey: companyKeys.names(ids),
      queryFn: async () => {
        const list = await unwrap(
          api.GET('/api/companies', {
            params: { query: { filter: [`id||$in||${ids.join(',')}`], limit: ids.length } },
          }),
        );
        return new Map((list as unknown as { id: string; name: string }[]).map((c) => [c.id, c.name]));
      },
      staleTime: 60_000,
    }),
  projects: (query: ProjectListQuery) =>
    queryOptions({
      queryKey: companyKeys.projectList(query),
      queryFn: () => unwrap(api.GET('/api/projects/pagination', { params: { query } })),
    }),
};

/** A company's changes and its addresses' and projects', typed from the API document. */
export const companyApi = {
  create: (body: Body<'/api/companies', 'post'>) => unwrap(api.POST('/api/companies', { body })),
  update: (id: string, body: Body<'/api/companies/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/companies/{id}', { ...byId(id), body })),
};

export const addressApi = {
  create: (body: Body<'/api/addresses', 'post'>) => unwrap(api.POST('/api/addresses', { body })),
  update: (id: string, body: Body<'/api/addresses/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/addresses/{id}', { ...byId(id), body })),
};

export const projectApi = {
  create: (body: Body<'/api/projects', 'post'>) => unwrap(api.POST('/api/projects', { body })),
  update: (id: string, body: Body<'/api/projects/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/projects/{id}', { ...byId(id), body })),
};
