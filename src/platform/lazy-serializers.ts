import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

/**
 * Response serializers compiled on a route's first answer instead of at start-up (issue 31).
 *
 * Fastify compiles a fast-json-stringify function for every response schema of every route when
 * the app gets ready: about 300 functions here, whose generated sources (10 MB of strings, kept by
 * V8) and code stayed in the heap of a process that may never answer most of those routes. The
 * same compiler (same options, same shared schemas) builds each one when its route first answers
 * with that status, and keeps it: the answers are byte for byte what they were. A schema that
 * cannot be compiled now fails on that first answer, not at start-up; the OpenAPI build and the
 * route tests compile every schema.
 */
export const lazySerializers: BuildSerializer = (externalSchemas, serializerOpts) => {
  const compile = SerializerSelector()(externalSchemas, serializerOpts);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= compile(route) as (data: unknown) => string;
      return serialize(data);
    };
  };
};
