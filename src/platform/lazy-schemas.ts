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
 * For the tests (issue 31: `npm test` on 2 cores): `ready()` compiled every route's schemas, about
 * 2.5 s of CPU per app built, in every test file, for the few routes a file calls. The service
 * itself compiles eagerly (buildApp without `lazySchemas`): a broken schema stops it at start.
 * The validator keeps ajv's own function's face: `errors` and `schemaEnv` (Fastify passes the
 * parent data when it is there, so ajv may coerce a root value) read the compiled function.
 */
export function lazySchemaCompilers(): Compilers {
  const validators = AjvCompiler();
  return {
    buildValidator(externalSchemas: unknown, ajvOptions: unknown) {
      const compile = validators(externalSchemas as never, ajvOptions as never) as AnyFunction;
      return ((route: unknown) => {
        let compiled: AnyFunction | undefined;
        const get = () => {
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
