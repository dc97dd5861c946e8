import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { companyUsers, events } from '../../src/db/schema/platform.ts';
import type { components, paths } from '../../web/src/api/schema.d.ts';
import { auth, type Credentials, type TestApp } from './app.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in tests
export type Json = Record<string, any>;

/** The API's schemas as the OpenAPI document declares them (web/src/api/schema.d.ts, generated). */
export type Schemas = components['schemas'];

type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, V extends Verb> = NonNullable<paths[P][V]>;
/** The documented paths (`/api/quotes/{id}`) that answer a method. */
export type PathOf<V extends Verb> = {
  [P in keyof paths]: paths[P][V] extends { responses: object } ? P : never;
}[keyof paths];
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : unknown;
/** The JSON body of an operation's success answer (its 200, else 201, else 202) as documented. */
export type Ok<P extends keyof paths, V extends Verb = 'get'> =
  Operation<P, V> extends { responses: infer R }
    ? 200 extends keyof R
      ? JsonContent<R[200]>
      : 201 extends keyof R
        ? JsonContent<R[201]>
        : 202 extends keyof R
          ? JsonContent<R[202]>
          : unknown
    : never;
type PathParameters<P extends keyof paths, V extends Verb> =
  Operation<P, V> extends { parameters: { path: infer X } } ? X : never;

/** An injected answer whose `json()` is the documented success body. */
export type Reply<T> = Omit<LightMyRequestResponse, 'json'> & { json(): T };
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Who = Credentials | null | undefined;
type Headers = Record<string, string>;

/** `/api/quotes/{id}` with `{ id }` filled in (encoded), plus a query string. */
function urlOf(path: string, params: Record<string, unknown> = {}, query: Record<string, unknown> = {}) {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(params[name]));
  });
  const search = new URLSearchParams(
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  ).toString();
  return search ? `${filled}?${search}` : filled;
}

/**
 * The one way tests call the API: `http.get(who, url)`, `http.post(who, url, payload)`... with any
 * URL (bodies read loosely), and `http.api.get(who, '/api/quotes/{id}', { params: { id } })` whose
 * `json()` is the documented success body. `who` null or undefined sends no credential;
 * `headers` are sent with every request (a user agent, an Accept-Language).
 */
export function requests(app: () => TestApp, headers: Headers = {}) {
  const send = (method: Method, who: Who, url: string, payload?: unknown, extra: Headers = {}) =>
    app().app.inject({
      method,
      url,
      headers: { ...(who ? auth(who) : {}), ...headers, ...extra },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const typed =
    <V extends Verb>(verb: V) =>
    <P extends PathOf<V>>(
      who: Who,
      path: P,
      options: { params?: PathParameters<P, V>; query?: Json; body?: unknown; headers?: Headers } = {},
    ) =>
      send(
        verb.toUpperCase() as Method,
        who,
        urlOf(path, options.params as Json, options.query),
        options.body,
        options.headers,
      ) as Promise<Reply<Ok<P, V>>>;
  return {
    send,
    get: (who: Who, url: string, extra?: Headers) => send('GET', who, url, undefined, extra),
    post: (who: Who, url: string, payload?: unknown, extra?: Headers) =>
      send('POST', who, url, payload, extra),
    put: (who: Who, url: string, payload?: unknown, extra?: Headers) => send('PUT', who, url, payload, extra),
    patch: (who: Who, url: string, payload?: unknown, extra?: Headers) =>
      send('PATCH', who, url, payload, extra),
    del: (who: Who, url: string, extra?: Headers) => send('DELETE', who, url, undefined, extra),
    api: {
      get: typed('get'),
      post: typed('post'),
      put: typed('put'),
      patch: typed('patch'),
      delete: typed('delete'),
    },
  };
}

/** `call(who, method, url, payload?, headers?)` against the test app; `who` undefined sends no credential. */
export const caller = (app: () => TestApp, headers: Headers = {}) => {
  const { send } = requests(app, headers);
  return (who: Who, method: string, url: string, payload?: unknown, extra?: Headers) =>
    send(method as Method, who, url, payload, extra);
};

/** The body of a 201 answer; anything else fails the test with the status and body. */
export async function created(response: { statusCode: number; body: string; json(): Json }) {
  if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json();
}

/** A problem+json answer with the given status (and code); returns its body. */
export function expectProblem(
  response: { statusCode: number; json(): Json; headers: Json },
  status: number,
  code?: string,
) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  if (code) expect(response.json().code).toBe(code);
  return response.json() as { errors?: { pointer: string; message: string }[]; code: string };
}

/** Links a user (contact, external sales) to a company, straight in the database. */
export const linker = (app: () => TestApp) => (user: Credentials, companyId: unknown) =>
  app()
    .app.ctx.db.insert(companyUsers)
    .values({ companyId: companyId as string, userId: user.userId, organisationId: user.organisationId });

/** The events recorded for an entity, oldest first. */
export const eventReader = (app: () => TestApp) => (entityId: unknown) =>
  app()
    .app.ctx.db.select()
    .from(events)
    .where(eq(events.entityId, entityId as string))
    .orderBy(asc(events.code));

/** `createCompany(who, name)` through the API. */
export const companyMaker = (call: ReturnType<typeof caller>) => async (who: Credentials, name: string) =>
  created(await call(who, 'POST', '/api/companies', { name }));
