import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import { lazySerializers } from './lazy-serializers.ts';

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
// biome-ignore lint/suspicious/noExplicitAny: Fastify's compilers take and return untyped functions.
type AnyFunction = (...args: any[]) => any;

/**
 * Fastify's own compilers (ajv for requests, fast-json-stringify for responses), building each
 * route's validator and serializer on its first use instead of all of them when the app gets ready.
 *
 * Why (issue 31): compiling every route's validator at ready allocated about 400 MB at each start
 * (of 730 MB in all, measured with V8's sampling heap profiler) for about 680 validators, plus one
 * ajv instance per plugin context with its own schemas (27 here, each compiling ajv's meta-schema
 * and every shared schema); what stayed (4.6 MB of generated sources, their code and schema
 * environments) sat in the heap of a process that may never call most of those routes, and the
 * garbage made V8 grow the old generation, so the idle service held 180 to 250 MB from one start
 * to the next. In tests it cost about 2.5 s of CPU per app built, in every test file.
 *
 * The ajv instance of a plugin context is made on its first compile too, from the same shared
 * schemas (Fastify hands over a copy of them). A schema that cannot be compiled fails on its
 * route's first request instead of at start-up: buildApp without `lazySchemas` (the OpenAPI build,
 * test/platform/errors.test.ts) still compiles every route's schemas at ready.
 * The validator keeps ajv's own function's face: `errors` and `schemaEnv` (Fastify passes the
 * parent data when it is there, so ajv may coerce a root value) read the compiled function.
 */
export function lazySchemaCompilers(): Compilers {
  const validators = AjvCompiler();
  return {
    buildValidator(externalSchemas: unknown, ajvOptions: unknown) {
      let compile: AnyFunction | undefined;
      return ((route: unknown) => {
        let compiled: AnyFunction | undefined;
        const get = () => {
          compile ??= validators(externalSchemas as never, ajvOptions as never) as AnyFunction;
          compiled ??= compile(route) as AnyFunction;
          return compiled;
        };
        const validate = (...args: unknown[]) => get()(...args);
        Object.defineProperty(validate, 'errors', {
          get: () => compiled && (compiled as { errors?: unknown }).errors,
        });
        Object.defineProperty(validate, 'schemaEnv', {
          get: () => (get() as { schemaEnv?: unknown }).schemaEnv,
        });
        return validate;
      }) as never;
    },
    buildSerializer: lazySerializers,
  };
}
