import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client.ts';
import { byId, resourceKeys } from '../../../api/keys.ts';
import type { Body, Query, Schema } from '../../../api/types.ts';

export type Quote = Schema<'Quote'>;
export type QuoteListQuery = Query<'/api/quotes'>;
export type QuoteItemsBody = Body<'/api/quotes/{id}/quote-items', 'post'>;
export type QuoteUpdate = Body<'/api/quotes/{id}', 'put'>;
export type QuoteCreate = Body<'/api/quotes', 'post'>;

const quoteResource = resourceKeys<'quotes', QuoteListQuery>('quotes');

/**
 * The quotes' query keys: a quote's own reads (acceptance, proofs, guest links) sit under its
 * detail key, so invalidating the detail reads them again; `all` covers lists and details.
 */
export const quoteKeys = {
  ...quoteResource,
  acceptance: (id: string) => [...quoteResource.detail(id), 'acceptance'] as const,
  proofs: (id: string) => [...quoteResource.detail(id), 'proofs'] as const,
  guestLinks: (id: string) => [...quoteResource.detail(id), 'guest-links'] as const,
  /** What a guest link's reader sees: the token is the credential. */
  guest: (token: string) => ['guest-quote', token] as const,
  guestProofs: (token: string) => [...quoteKeys.guest(token), 'proofs'] as const,
};

export const quoteQueries = {
  list: (query: QuoteListQuery) =>
    queryOptions({
      queryKey: quoteKeys.list(query),
      queryFn: () => unwrap(api.GET('/api/quotes', { params: { query } })),
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: quoteKeys.detail(id),
      queryFn: () => unwrap(api.GET('/api/quotes/{id}', byId(id))),
    }),
  acceptance: (id: string) =>
    queryOptions({
      queryKey: quoteKeys.acceptance(id),
      queryFn: () => unwrap(api.GET('/api/quotes/{id}/acceptance', byId(id))),
    }),
  /**
   * The artwork proofs of a quote, read by staff and buyers at its address or by a guest link made
   * for proofs at its public one (403 for a quote-only link, not retried).
   */
  proofs: (id: string, guestToken?: string) =>
    queryOptions({
      queryKey: guestToken ? quoteKeys.guestProofs(guestToken) : (quoteKeys.proofs(id) as readonly unknown[]),
      queryFn: () =>
        guestToken
          ? unwrap(api.GET('/api/public/quotes/{token}/proofs', { params: { path: { token: guestToken } } }))
          : unwrap(api.GET('/api/quotes/{id}/proofs', byId(id))),
      ...(guestToken ? { retry: false } : {}),
    }),
  guestLinks: (id: string) =>
    queryOptions({
      queryKey: quoteKeys.guestLinks(id),
      queryFn: () => unwrap(api.GET('/api/quotes/{id}/guest-links', byId(id))),
    }),
  guest: (token: string) =>
    queryOptions({
      queryKey: quoteKeys.guest(token),
      queryFn: () => unwrap(api.GET('/api/public/quotes/{token}', { params: { path: { token } } })),
      retry: false,
    }),
};

/** The quote's changes, typed from the API document. */
export const quoteApi = {
  create: (body: QuoteCreate) => unwrap(api.POST('/api/quotes', { body })),
  update: (id: string, body: QuoteUpdate) => unwrap(api.PUT('/api/quotes/{id}', { ...byId(id), body })),
  /** Only the fields given (the lines editor's terms). */
  patch: (id: string, body: Body<'/api/quotes/{id}', 'patch'>) =>
    unwrap(api.PATCH('/api/quotes/{id}', { ...byId(id), body })),
  convert: (id: string) => unwrap(api.POST('/api/quotes/{id}/order', { ...byId(id), body: {} })),
  revise: (id: string) => unwrap(api.POST('/api/quotes/{id}/revisions', byId(id))),
  decline: (id: string, body: Body<'/api/quotes/{id}/decline', 'post'>) =>
    unwrap(api.POST('/api/quotes/{id}/decline', { ...byId(id), body })),
  accept: (id: string, body: Body<'/api/quotes/{id}/accept', 'post'>) =>
    unwrap(api.POST('/api/quotes/{id}/accept', { ...byId(id), body })),
  decideProof: (
    id: string,
    proofId: string,
    body: Body<'/api/quotes/{id}/proofs/{proofId}/decision', 'post'>,
  ) =>
    unwrap(
      api.POST('/api/quotes/{id}/proofs/{proofId}/decision', { params: { path: { id, proofId } }, body }),
    ),
  addItems: (id: string, items: QuoteItemsBody['items']) =>
    unwrap(api.POST('/api/quotes/{id}/quote-items', { ...byId(id), body: { items } })),
  updateItem: (id: string, itemId: string, body: Body<'/api/quotes/{id}/quote-items/{itemId}', 'patch'>) =>
    unwrap(api.PATCH('/api/quotes/{id}/quote-items/{itemId}', { params: { path: { id, itemId } }, body })),
  removeItem: (id: string, itemId: string) =>
    unwrap(api.DELETE('/api/quotes/{id}/quote-items/{itemId}', { params: { path: { id, itemId } } })),
  createGuestLink: (id: string, body: Body<'/api/quotes/{id}/guest-links', 'post'>) =>
    unwrap(api.POST('/api/quotes/{id}/guest-links', { ...byId(id), body })),
  revokeGuestLink: (id: string, linkId: string) =>
    unwrap(api.DELETE('/api/quotes/{id}/guest-links/{linkId}', { params: { path: { id, linkId } } })),
};

/** What a guest link's reader may do: the token is the credential, the e-mail typed the evidence. */
export const guestQuoteApi = {
  accept: (token: string, body: Body<'/api/public/quotes/{token}/accept', 'post'>) =>
    unwrap(api.POST('/api/public/quotes/{token}/accept', { params: { path: { token } }, body })),
  decline: (token: string, body: Body<'/api/public/quotes/{token}/decline', 'post'>) =>
    unwrap(api.POST('/api/public/quotes/{token}/decline', { params: { path: { token } }, body })),
  decideProof: (
    token: string,
    proofId: string,
    body: Body<'/api/public/quotes/{token}/proofs/{proofId}/decision', 'post'>,
  ) =>
    unwrap(
      api.POST('/api/public/quotes/{token}/proofs/{proofId}/decision', {
        params: { path: { token, proofId } },
        body,
      }),
    ),
};
