import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/db/schema/platform.ts';
import { isAllowed } from '../../src/platform/permissions.ts';
import type { ProtectedRoute } from '../../src/platform/route-security.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { caller, created, type Json } from '../helpers/http.ts';

/**
 * Security contracts generated from the app's own route table (`app.protectedRoutes`,
 * `app.publicRoutes`, recorded by platform/route-security.ts as routes register): a route added
 * tomorrow is covered without touching this file, except for the cross-tenant table below, which
 * fails with a message naming what to add.
 */

/**
 * Everything served without a credential. A route that declares `public` and is not here fails
 * the first test: add it here only if it is meant to be reachable by anyone (docs/security.md).
 */
const PUBLIC_ROUTES = [
  'GET /',
  'GET /app',
  'GET /health',
  'GET /api/openapi.json',
  'POST /api/sign-in',
  'POST /api/session',
  'POST /api/session/refresh',
  'DELETE /api/session',
  'POST /api/password-reset/request',
  'POST /api/password-reset',
  // Guest quote links: the unguessable token in the path is the credential.
  'GET /api/public/quotes/:token',
  'GET /api/public/quotes/pdf/:token',
  'GET /api/public/quotes/:token/logo',
  'GET /api/public/quotes/:token/signed-pdf',
  'POST /api/public/quotes/:token/accept',
  'POST /api/public/quotes/:token/decline',
  'GET /api/public/quotes/:token/proofs',
  'POST /api/public/quotes/:token/proofs/:proofId/decision',
  'GET /api/public/quotes/:token/proofs/:proofId/pdf',
  'GET /api/public/quotes/:token/proofs/:proofId/preview.png',
  'GET /api/public/quotes/:token/proofs/:proofId/artwork',
];

let t: TestApp;
/** One user of each built-in role, all in the bootstrap organisation (tenant A). */
const users = {} as Record<Role, Credentials>;
/** The admin of tenant B, whose rows tenant A's superadmin must not reach. */
let tenantB: Credentials;
const call = caller(() => t);

beforeAll(async () => {
  t = await buildTestApp();
  users.superadmin = t.root;
  for (const role of ROLES.filter((r) => r !== 'superadmin')) users[role] = await makeUser(t, t.root, role);
  tenantB = await makeOrganisation(t);
});
afterAll(() => t.close());

const withUnknownIds = (url: string) => url.replace(/:[A-Za-z]+/g, () => randomUUID());
const label = (route: Pick<ProtectedRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/**
 * A request that would fail validation if it got that far (a query and body no schema accepts):
 * the refusal must come from the credential or the role, before the input is looked at.
 */
function invalidRequest(route: ProtectedRoute, headers: Record<string, string>) {
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  return t.app.inject({
    method: route.method as 'GET',
    url: `${withUnknownIds(route.url)}?page=0&limit=-1&notAParameter=1`,
    headers,
    ...(hasBody ? { payload: { notAProperty: [] } } : {}),
  });
}

/** `undefined` when the answer is the problem expected, else what was wrong. */
function problemMismatch(
  response: { statusCode: number; headers: Json; json(): Json },
  status: number,
  codes: string[],
): string | undefined {
  const type = String(response.headers['content-type'] ?? '');
  const code = type.includes('application/problem+json')
    ? response.json().code
    : `(${type || 'no content-type'})`;
  if (response.statusCode === status && codes.includes(code)) return undefined;
  return `${response.statusCode} ${code}`;
}

describe('the route table', () => {
  it('serves exactly the documented public routes without a credential; every other route declares a permission', () => {
    const served = t.app.publicRoutes.map(label).sort();
    expect(served).toEqual([...PUBLIC_ROUTES].sort());
    const protectedLabels = new Set(t.app.protectedRoutes.map(label));
    expect(PUBLIC_ROUTES.filter((route) => protectedLabels.has(route))).toEqual([]);
    // The table must be the real one (route-security.ts refuses a route with neither).
    expect(t.app.protectedRoutes.length).toBeGreaterThan(300);
  });

  it('answers 401 problem+json to every protected route without a credential, or with a malformed one, before validation', async () => {
    const failures: string[] = [];
    for (const route of t.app.protectedRoutes) {
      for (const [credential, headers, codes] of [
        ['no credential', {}, ['unauthorized']],
        ['a malformed bearer', { authorization: 'Bearer not-a-token' }, ['invalid_token']],
      ] as const) {
        const mismatch = problemMismatch(await invalidRequest(route, headers), 401, [...codes]);
        if (mismatch) failures.push(`${label(route)} with ${credential}: ${mismatch}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 problem+json to each role without the route’s permission, before validation and before looking the id up', async () => {
    const failures: string[] = [];
    for (const route of t.app.protectedRoutes) {
      for (const role of ROLES.filter((r) => !isAllowed(r, route.permission))) {
        const response = await invalidRequest(route, { authorization: `Bearer ${users[role].token}` });
        const mismatch = problemMismatch(response, 403, ['forbidden']);
        if (mismatch) failures.push(`${label(route)} as ${role} (lacks ${route.permission}): ${mismatch}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * How to make a row of each tenant-owned collection in tenant B, keyed by the path after `/api/`.
 * Without `make`, the first row tenant B's admin lists is used (seeded settings and catalogue).
 * `bodies` holds a valid body per sub-path as the route names it (`''` for `/{id}` itself), so
 * that a write reaches the row lookup: a 400 would prove nothing about tenancy.
 */
type Resource = {
  make?: () => Promise<string>;
  bodies?: Record<string, unknown | (() => Promise<unknown>)>;
  /**
   * A value of tenant B for each further path parameter (a comment of B's row, an element index):
   * a random id would answer 404 for itself and prove nothing. `weak` marks the few filled with
   * an unknown id because making the child is a long story (a proof); their 404 proves less.
   */
  params?: Record<string, () => Promise<string>>;
};
const weak = async () => randomUUID();
const value = (v: string) => async () => v;

const madeIds = new Map<string, Promise<string>>();
/** The id of tenant B's row of `collection`, made once. */
const idIn = (collection: string): Promise<string> => {
  const resource = RESOURCES[collection];
  if (!resource) throw new Error(`no resource ${collection}`);
  let id = madeIds.get(collection);
  if (!id) {
    id = resource.make ? resource.make() : firstListed(collection);
    madeIds.set(collection, id);
  }
  return id;
};
const makeInB = async (url: string, payload: Json) =>
  (await created(await call(tenantB, 'POST', url, payload))).id;
async function firstListed(collection: string): Promise<string> {
  const response = await call(tenantB, 'GET', `/api/${collection}`);
  const body = response.json();
  const first = (Array.isArray(body) ? body : body.data)?.[0];
  if (!first) throw new Error(`tenant B lists no ${collection}: give RESOURCES['${collection}'] a make()`);
  return first.id;
}
const codeIdInB = async (collection: string, code: string) => {
  const list = (await call(tenantB, 'GET', `/api/${collection}`)).json() as Json[];
  return list.find((row) => row.code === code)!.id as string;
};
const named = (name: string) => ({ '': { name } });
const changedName = named('changed by another tenant');
const comment = {
  '/comments': { body: 'from another tenant' },
  '/comments/:commentId': { body: 'from another tenant' },
};

async function briefInB(): Promise<Json> {
  return created(
    await call(tenantB, 'POST', '/api/briefs', {
      companyId: await idIn('companies'),
      briefElements: [
        {
          position: 0,
          productId: await codeIdInB('products', 'STE'),
          lengthDimension: 120,
          widthDimension: 40,
          heightDimension: 180,
          materialReferenceId: await codeIdInB('material-references', 'GC1-350'),
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        },
      ],
    }),
  );
}
const theBriefInB = once(briefInB);

/** Tenant B uploads a multipart form: the fields, then the file (the order the upload routes read). */
async function uploadInB(url: string, fields: Record<string, string>, file: { field: string; name: string }) {
  const form = new FormData();
  for (const [name, text] of Object.entries(fields)) form.append(name, text);
  form.append(file.field, new Blob(['name\nImported\n'], { type: 'text/csv' }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${tenantB.token}`,
      'content-type': request.headers.get('content-type')!,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return (await created(response)).id as string;
}
const importInB = () =>
  uploadInB('/api/imports', { type: '16', delimiter: ',' }, { field: 'csv', name: 'companies.csv' });

/** A comment and a file of tenant B on a row of `collection`, for the routes that name one. */
const attachmentsOf = (collection: string) => ({
  commentId: once(async () =>
    makeInB(`/api/${collection}/${await idIn(collection)}/comments`, { body: 'tenant B' }),
  ),
  fileId: once(async () =>
    uploadInB(`/api/${collection}/${await idIn(collection)}/files`, {}, { field: 'file', name: 'b.csv' }),
  ),
});
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

const articleAttachments = attachmentsOf('articles');

const RESOURCES: Record<string, Resource> = {
  companies: {
    make: () => makeInB('/api/companies', { name: 'Tenant B company' }),
    bodies: changedName,
    params: { contactId: () => idIn('users/contacts') },
  },
  'users/contacts': {
    make: async () => makeInB('/api/users/contacts', { email: `${randomUUID()}@b.test`, firstName: 'B' }),
    bodies: { '': { firstName: 'Changed' } },
  },
  users: { bodies: { '': { firstName: 'Changed' }, '/invite': { password: 'another-long-password' } } },
  addresses: {
    make: async () =>
      makeInB('/api/addresses', {
        companyId: await idIn('companies'),
        street1: '1 rue de la Paix',
        city: 'Paris',
        countryCode: 'FR',
      }),
    bodies: { '': { city: 'Lyon' } },
  },
  projects: {
    make: async () => makeInB('/api/projects', { name: 'B project', companyId: await idIn('companies') }),
    bodies: { ...changedName, ...comment },
    params: attachmentsOf('projects'),
  },
  articles: {
    make: async () =>
      makeInB('/api/articles', { name: 'B box', code: 'B-1', companyId: await idIn('companies') }),
    bodies: {
      ...changedName,
      ...comment,
      '/brief-element': {},
      '/preview': async () => ({ fileId: await articleAttachments.fileId() }),
    },
    params: articleAttachments,
  },
  orders: {
    make: async () => makeInB('/api/orders', { billedAmount: 10, companyId: await idIn('companies') }),
    bodies: { '': { poNumber: 'changed' }, ...comment, '/order-items': [{ quantity: 1 }] },
    params: { ...attachmentsOf('orders'), itemId: () => idIn('order-items') },
  },
  'order-items': {
    make: async () => makeInB('/api/order-items', { orderId: await idIn('orders'), quantity: 1 }),
    bodies: { '': { quantity: 7 } },
  },
  briefs: {
    make: async () => (await theBriefInB()).id,
    bodies: changedName,
    params: { elementIndex: value('0') },
  },
  'brief-elements': {
    make: async () => (await theBriefInB()).briefElements[0].id,
    bodies: { '': { lengthDimension: 99 } },
  },
  quotes: {
    // Published, so that it has a guest link (routes of a draft answer the same 404).
    make: async () => {
      const id = await makeInB('/api/quotes', {
        companyId: await idIn('companies'),
        briefIds: [await idIn('briefs')],
      });
      const published = await call(tenantB, 'PUT', `/api/quotes/${id}`, { state: 'published' });
      if (published.statusCode !== 200) throw new Error(`publish: ${published.statusCode} ${published.body}`);
      return id;
    },
    bodies: {
      ...changedName,
      ...comment,
      '/quote-items': async () => ({ items: [{ briefId: await idIn('briefs') }] }),
      '/generate-pdf': { localisationId: 'en' },
      '/guest-links': { localisationId: 'en' },
      '/quote-items/:itemId': { name: 'changed' },
      '/proofs/:proofId/decision': { decision: 'approved', typedName: 'A', confirm: true },
    },
    params: {
      commentId: attachmentsOf('quotes').commentId,
      itemId: async () =>
        (await call(tenantB, 'GET', `/api/quotes/${await idIn('quotes')}`)).json().items[0].id,
      localisationId: value('en'),
      linkId: once(async () =>
        makeInB(`/api/quotes/${await idIn('quotes')}/guest-links`, { localisationId: 'en' }),
      ),
      // A proof needs artwork uploaded and a proof made from it: not made here.
      proofId: weak,
    },
  },
  statuses: { bodies: { '': { internalLabel: 'changed' } } },
  currencies: { bodies: changedName },
  'custom-fields': {
    make: () =>
      makeInB('/api/custom-fields', { entity: 'company', key: 'b_field', label: 'B field', type: 'string' }),
    bodies: { '': { label: 'changed' } },
  },
  webhooks: {
    make: () =>
      makeInB('/api/webhooks', { name: 'B hook', url: 'http://127.0.0.1:9/hook', events: ['event.**'] }),
    bodies: changedName,
    params: {
      deliveryId: once(async () => {
        const response = await call(tenantB, 'POST', `/api/webhooks/${await idIn('webhooks')}/test`);
        if (response.statusCode !== 202)
          throw new Error(`webhook test: ${response.statusCode} ${response.body}`);
        return response.json().id;
      }),
    },
  },
  imports: { make: importInB },
  exports: { make: () => makeInB('/api/exports', { type: 16 }) },
  // Another user's access tokens: listed, minted and (below) revoked by the user's id.
  'access-token/user': {
    make: () => idIn('users'),
    bodies: { '': { name: 'from another tenant' } },
    params: {
      tokenId: once(async () => makeInB(`/api/access-token/user/${await idIn('users')}`, { name: 'B' })),
    },
  },
  'events/ressources': { make: () => idIn('events') },
  // Listed as `{ eventName, event }`, the form webhooks deliver.
  events: { make: async () => (await call(tenantB, 'GET', '/api/events')).json().data[0].event.id },
  pipelines: {},
  'product-categories': { bodies: changedName },
  products: { bodies: changedName },
  matters: { bodies: changedName },
  'material-types': { bodies: changedName },
  'material-references': { bodies: changedName },
  machines: { bodies: changedName },
  operations: { bodies: changedName },
  consumables: { bodies: changedName },
  'tooling-rules': { bodies: changedName },
  'packing-cases': { bodies: changedName },
  pallets: { bodies: changedName },
  'delivery-zones': { bodies: changedName },
  'corrugated-materials': { bodies: changedName },
  'corrugated-material-compositions': { bodies: { '': { pricePerSquareMetre: 9.99 } } },
  'corrugated-material-composition-prices': {
    make: async () =>
      makeInB('/api/corrugated-material-composition-prices', {
        corrugatedMaterialComposition: await idIn('corrugated-material-compositions'),
        price: 1,
        currency: 'EUR',
      }),
    bodies: { '': { price: 9.99 } },
  },
  'corrugated-formats': {
    make: () => makeInB('/api/corrugated-formats', { width: 1000, length: 800 }),
    bodies: { '': { width: 900 } },
  },
  'corrugated-suppliers': {
    make: () => makeInB('/api/corrugated-suppliers', { name: 'B supplier' }),
    bodies: changedName,
  },
  'corrugated-flutes': { bodies: changedName },
  'corrugated-liners': {
    make: () => makeInB('/api/corrugated-liners', { name: 'B liner' }),
    bodies: changedName,
  },
};

/**
 * The routes of one row: `/api/<collection>/:id` (whatever the parameter is named) and every
 * sub-path of it, whose further parameters (`/comments/:commentId`) take tenant B's values.
 */
const ROW_ROUTE = /^\/api\/([a-z-]+(?:\/[a-z-]+)?)\/:[A-Za-z]+((?:\/[a-zA-Z.:-]+)*)$/;

/** The sub-path with tenant B's values for its parameters; undefined when one has none. */
async function fillParams(collection: string, subPath: string): Promise<string | undefined> {
  const names = [...subPath.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const params = RESOURCES[collection]!.params ?? {};
  if (names.some((name) => !params[name])) return undefined;
  let filled = subPath;
  for (const name of names) filled = filled.replace(`:${name}`, await params[name]!());
  return filled;
}

describe('another tenant’s row', () => {
  it('is missing (404) on every route of a row, and is left unchanged, for tenant A’s superadmin', async () => {
    const rowRoutes = t.app.protectedRoutes.flatMap((route) => {
      const match = ROW_ROUTE.exec(route.url);
      return match ? [{ ...route, collection: match[1]!, subPath: match[2] ?? '' }] : [];
    });
    const uncovered = [...new Set(rowRoutes.map((r) => r.collection))].filter((c) => !RESOURCES[c]);
    expect(
      uncovered,
      'a collection with /{id} routes has no entry in RESOURCES of test/security/route-contract.test.ts: add how to make one of its rows',
    ).toEqual([]);

    const failures: string[] = [];
    for (const collection of Object.keys(RESOURCES)) {
      const routes = rowRoutes.filter((r) => r.collection === collection);
      if (routes.length === 0) {
        failures.push(`RESOURCES['${collection}'] has no /{id} route any more: remove it`);
        continue;
      }
      const id = await idIn(collection);
      // Every child and body is made before the first read, so the row reads the same after.
      const requests = [];
      for (const route of routes) {
        const subPath = await fillParams(collection, route.subPath);
        if (subPath === undefined)
          failures.push(
            `${label(route)}: give RESOURCES['${collection}'].params a value of tenant B for each parameter`,
          );
        const given = route.method === 'GET' ? undefined : RESOURCES[collection]!.bodies?.[route.subPath];
        const body = typeof given === 'function' ? await given() : given;
        if (subPath !== undefined) requests.push({ route, url: `/api/${collection}/${id}${subPath}`, body });
      }
      const readBack = async () => (await call(tenantB, 'GET', `/api/${collection}/${id}`)).body;
      const before = await readBack();
      for (const { route, url, body } of requests) {
        const response = await call(users.superadmin, route.method, url, body);
        const mismatch = problemMismatch(response, 404, ['not_found']);
        if (mismatch)
          failures.push(
            `${label(route)}: ${mismatch}${response.statusCode === 400 ? ` (give RESOURCES['${collection}'].bodies['${route.subPath}'] a valid body)` : ''}`,
          );
      }
      if ((await readBack()) !== before) failures.push(`${collection}: tenant B's row changed`);
    }
    expect(failures).toEqual([]);
  });
});
