import type { components, paths } from './schema.d.ts';

/** A schema of the API document by name (`Schema<'Quote'>`). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON request body an operation accepts (`Body<'/api/quotes/{id}', 'put'>`). */
export type Body<P extends keyof paths, M extends Method> =
  Operation<P, M> extends {
    requestBody?: { content: { 'application/json': infer B } };
  }
    ? NonNullable<B>
    : never;

/** The query parameters an operation accepts (`Query<'/api/quotes'>`). */
export type Query<P extends keyof paths, M extends Method = 'get'> =
  Operation<P, M> extends {
    parameters: { query?: infer Q };
  }
    ? NonNullable<Q>
    : never;

/** The JSON answer of an operation's success (`Answer<'/api/quotes/{id}'>`). */
export type Answer<P extends keyof paths, M extends Method = 'get'> =
  Operation<P, M> extends {
    responses: { 200: { content: { 'application/json': infer A } } };
  }
    ? A
    : Operation<P, M> extends { responses: { 201: { content: { 'application/json': infer A } } } }
      ? A
      : never;
