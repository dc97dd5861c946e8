import { queryOptions } from '@tanstack/react-query';
import { api, multipart, unwrap } from '../../api/client.ts';
import { byId } from '../../api/keys.ts';
import type { CatalogueEntry } from '../../api/queries.ts';
import type { Body, Query } from '../../api/types.ts';
import type { BriefCreate } from '../briefs/api/index.ts';
import type { CataloguePath } from './catalogue.ts';
import { brandQuery, rolesQuery } from './frameQueries.ts';

type CatalogueList =
  | '/api/products'
  | '/api/material-references'
  | '/api/operations'
  | '/api/machines'
  | '/api/product-categories';
export type UserListQuery = Query<'/api/users/pagination'>;
export type CustomFieldEntity = Query<'/api/custom-fields'>['entity'];

/**
 * The administration's query keys. `catalogue` covers every list of the estimating catalogue (an
 * edit reads them all again, with the price previews: useCatalogueChanged).
 */
export const adminKeys = {
  catalogue: ['admin-catalogue'] as const,
  catalogueList: (path: string) => [...adminKeys.catalogue, path] as const,
  names: (path: CatalogueList) => [...adminKeys.catalogue, 'names', path] as const,
  pricingSettings: () => [...adminKeys.catalogue, 'pricing-settings'] as const,
  currencies: ['currencies'] as const,
  customFields: ['custom-fields'] as const,
  customFieldsOf: (entity: CustomFieldEntity) => [...adminKeys.customFields, entity] as const,
  users: ['users'] as const,
  userList: (query: UserListQuery) => [...adminKeys.users, query] as const,
  tokens: (userId: string) => ['access-tokens', userId] as const,
  roles: rolesQuery().queryKey,
  settings: ['organisation-settings'] as const,
  brand: brandQuery().queryKey,
  /** The re-price panel's brief and its price at today's rates. */
  reprice: ['reprice'] as const,
  repriceOf: (briefId: string | null) => [...adminKeys.reprice, briefId] as const,
};

export const adminQueries = {
  /** A catalogue list as the admin edits it (names in every language, disabled entries too). */
  catalogueList: (path: CatalogueList) =>
    queryOptions({
      queryKey: adminKeys.names(path),
      queryFn: async () => (await unwrap(api.GET(path))) as CatalogueEntry[],
    }),
  /** Boards answer a plain array; the compositions (HIPE's route) a page { data, ... } of 50. */
  materials: (path: CataloguePath) =>
    queryOptions({
      queryKey: adminKeys.catalogueList(path),
      queryFn: async () => {
        const body = (await unwrap(api.GET(path))) as CatalogueEntry[] | { data: CatalogueEntry[] };
        return Array.isArray(body) ? body : body.data;
      },
    }),
  pricingSettings: () =>
    queryOptions({
      queryKey: adminKeys.pricingSettings(),
      queryFn: async () => (await unwrap(api.GET('/api/pricing-settings'))) as CatalogueEntry,
    }),
  currencies: () =>
    queryOptions({
      queryKey: [...adminKeys.currencies, 'admin'],
      queryFn: () => unwrap(api.GET('/api/currencies', { params: { query: { limit: 100 } } })),
    }),
  customFields: (entity: CustomFieldEntity) =>
    queryOptions({
      queryKey: adminKeys.customFieldsOf(entity),
      queryFn: () =>
        unwrap(
          api.GET('/api/custom-fields', { params: { query: { entity, limit: 100, sort: 'position' } } }),
        ),
    }),
  users: (query: UserListQuery) =>
    queryOptions({
      queryKey: adminKeys.userList(query),
      queryFn: () => unwrap(api.GET('/api/users/pagination', { params: { query } })),
    }),
  tokens: (userId: string) =>
    queryOptions({
      queryKey: adminKeys.tokens(userId),
      queryFn: () => unwrap(api.GET('/api/access-token/user/{userId}', { params: { path: { userId } } })),
    }),
  /** The roles and their permissions: fixed while the app runs. */
  roles: rolesQuery,
  settings: () =>
    queryOptions({
      queryKey: adminKeys.settings,
      queryFn: () => unwrap(api.GET('/api/organisation/settings')),
    }),
  /** The brief the re-price panel shows, and its price at today's rates (nothing written). */
  repriceBrief: (briefId: string) =>
    queryOptions({
      queryKey: [...adminKeys.repriceOf(briefId), 'brief'],
      queryFn: () => unwrap(api.GET('/api/briefs/{id}', { params: { path: { id: briefId } } })),
    }),
  repriceEstimate: (briefId: string, updatedAt: string | undefined, body: () => BriefCreate) =>
    queryOptions({
      queryKey: [...adminKeys.repriceOf(briefId), 'estimate', updatedAt],
      queryFn: ({ signal }) => unwrap(api.POST('/api/briefs/estimate', { body: body(), signal })),
    }),
  /** The seller's brand (name, logo, colours) that the portal and guest pages show. */
  brand: brandQuery,
};

/**
 * A catalogue entry's changes. The catalogue's lists share their update's shape, so one typed path
 * stands for them all: `/api/products/{id}` for the names, `/api/machines/{id}` for the settings.
 */
export const catalogueApi = {
  rename: (path: string, id: string, body: Body<'/api/products/{id}', 'patch'>) =>
    unwrap(api.PATCH(`${path}/{id}` as '/api/products/{id}', { ...byId(id), body })),
  update: (path: CataloguePath, id: string, body: Body<'/api/machines/{id}', 'patch'>) =>
    unwrap(api.PATCH(`${path}/{id}` as '/api/machines/{id}', { ...byId(id), body })),
  updateMachine: (id: string, body: Body<'/api/machines/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/machines/{id}', { ...byId(id), body })),
  updatePricingSettings: (body: Body<'/api/pricing-settings', 'patch'>) =>
    unwrap(api.PATCH('/api/pricing-settings', { body })),
};

export const statusApi = {
  create: (body: Body<'/api/statuses', 'post'>) => unwrap(api.POST('/api/statuses', { body })),
  update: (id: string, body: Body<'/api/statuses/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/statuses/{id}', { ...byId(id), body })),
  remove: (id: string) => unwrap(api.DELETE('/api/statuses/{id}', byId(id))),
};

export const currencyApi = {
  create: (body: Body<'/api/currencies', 'post'>) => unwrap(api.POST('/api/currencies', { body })),
  update: (id: string, body: Body<'/api/currencies/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/currencies/{id}', { ...byId(id), body })),
  remove: (id: string) => unwrap(api.DELETE('/api/currencies/{id}', byId(id))),
};

export const customFieldApi = {
  create: (body: Body<'/api/custom-fields', 'post'>) => unwrap(api.POST('/api/custom-fields', { body })),
  update: (id: string, body: Body<'/api/custom-fields/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/custom-fields/{id}', { ...byId(id), body })),
  remove: (id: string) => unwrap(api.DELETE('/api/custom-fields/{id}', byId(id))),
};

export const userApi = {
  create: (body: Body<'/api/users', 'post'>) => unwrap(api.POST('/api/users', { body })),
  update: (id: string, body: Body<'/api/users/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/users/{id}', { ...byId(id), body })),
  unarchive: (id: string) => unwrap(api.POST('/api/users/{id}/unarchive', byId(id))),
  /** Deletes an archived user for good. */
  removeArchived: (id: string) => unwrap(api.DELETE('/api/users/{id}/archived', byId(id))),
};

export const accessTokenApi = {
  create: (userId: string, body: Body<'/api/access-token/user/{userId}', 'post'>) =>
    unwrap(api.POST('/api/access-token/user/{userId}', { params: { path: { userId } }, body })),
  revoke: (userId: string, tokenId: string) =>
    unwrap(
      api.DELETE('/api/access-token/user/{userId}/{tokenId}', { params: { path: { userId, tokenId } } }),
    ),
};

export const organisationApi = {
  updateSettings: (body: Body<'/api/organisation/settings', 'patch'>) =>
    unwrap(api.PATCH('/api/organisation/settings', { body })),
  /** The logo as multipart (openapi-fetch sends JSON bodies). */
  setLogo: (file: File) =>
    unwrap(
      api.PUT('/api/organisation/settings/logo', multipart({ file: file.name }, { field: 'file', file })),
    ),
  removeLogo: () => unwrap(api.DELETE('/api/organisation/settings/logo')),
};
