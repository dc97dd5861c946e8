/**
 * A short customer flow written only against a client generated from the OpenAPI document
 * (openapi-typescript types + openapi-fetch): sign in, create a company, a brief, a quote,
 * publish it and download its PDF as bytes. It type-checks against the generated types
 * (test/contract/tsconfig.json) and runs against the real app (test/platform/openapi-client.test.ts).
 * No cast and no hand-written response type: if the document is wrong, this file does not compile.
 */

import createClient from 'openapi-fetch';
import type { paths } from '#contract-schema';

export type FlowOptions = {
  baseUrl: string;
  email: string;
  password: string;
  fetch?: typeof globalThis.fetch;
};

export type FlowResult = {
  companyId: string;
  briefId: string;
  quoteId: string;
  state: string;
  pdf: Uint8Array;
  /** The problem `code` of a refused request, typed as the registry's enum. */
  refusedCode: string;
};

const fail = (step: string, error: unknown): never => {
  throw new Error(`${step}: ${JSON.stringify(error)}`);
};

export async function runFlow(options: FlowOptions): Promise<FlowResult> {
  const anonymous = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const signIn = await anonymous.POST('/api/sign-in', {
    body: { username: options.email, password: options.password },
  });
  if (!signIn.data) return fail('sign-in', signIn.error);
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: { authorization: `Bearer ${signIn.data.token}` },
  });

  const company = await client.POST('/api/companies', { body: { name: 'Contract Tea Ltd' } });
  if (!company.data) return fail('company', company.error);

  // A product and a board of the catalogue that go together: the board's matter is one the
  // product's style can be made of.
  const products = await client.GET('/api/products');
  const boards = await client.GET('/api/material-references');
  if (!products.data || !boards.data) return fail('catalogue', products.error ?? boards.error);
  const product = products.data.find((p) => p.code === 'STE');
  const board = boards.data.find((b) => product?.allowedMatterIds.includes(b.matterId));
  if (!product || !board) return fail('catalogue', 'no STE product with a board of an allowed matter');

  const brief = await client.POST('/api/briefs', {
    body: {
      name: 'Tea box',
      companyId: company.data.id,
      briefElements: [
        {
          position: 0,
          productId: product.id,
          materialReferenceId: board.id,
          lengthDimension: 120,
          widthDimension: 40,
          heightDimension: 180,
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
          wantDecoration: true,
          sidePrinted: 'RECTO',
          rectoColorCount: 4,
        },
      ],
    },
  });
  if (!brief.data) return fail('brief', brief.error);

  const quote = await client.POST('/api/quotes', {
    body: { name: 'Spring tea boxes', companyId: company.data.id, briefIds: [brief.data.id] },
  });
  if (!quote.data) return fail('quote', quote.error);

  const published = await client.PUT('/api/quotes/{id}', {
    params: { path: { id: quote.data.id } },
    body: { state: 'published' },
  });
  if (!published.data) return fail('publish', published.error);

  // The PDF is bytes, not JSON: openapi-fetch reads it as a Blob.
  const pdf = await client.POST('/api/quotes/{id}/generate-pdf', {
    params: { path: { id: quote.data.id } },
    body: { localisationId: 'en' },
    parseAs: 'blob',
  });
  if (!pdf.data) return fail('pdf', pdf.error);

  // A refused request: its problem is typed, `code` one of the registry's codes.
  const refused = await client.GET('/api/quotes/{id}', {
    params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
  });
  if (!refused.error) return fail('refused', 'an unknown quote was answered');
  const refusedCode: 'not_found' | (string & {}) = refused.error.code;

  return {
    companyId: company.data.id,
    briefId: brief.data.id,
    quoteId: quote.data.id,
    state: published.data.state,
    pdf: new Uint8Array(await pdf.data.arrayBuffer()),
    refusedCode,
  };
}

/** What the generated types must refuse (checked by tsc, never run). */
export function refusedByTheTypes(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error a quote needs companyId or projectId
  void client.POST('/api/quotes', { body: { name: 'x', briefIds: ['b'] } });
  // @ts-expect-error a brief needs companyId or projectId
  void client.POST('/api/briefs', { body: { briefElements: [] } });
  // @ts-expect-error a quote needs briefIds or items
  void client.POST('/api/quotes', { body: { name: 'x', companyId: 'c' } });
  // @ts-expect-error a date is a string, not a number
  void client.POST('/api/orders', { body: { billedAmount: 1, orderDate: 42 } });
  // @ts-expect-error `code` is one of the registry's codes
  const code: import('#contract-schema').components['schemas']['Problem']['code'] = 'no_such_code';
  return code;
}
