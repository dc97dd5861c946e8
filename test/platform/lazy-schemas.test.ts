import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/platform/lazy-schemas.ts';

// Fastify's options for ajv (app.ts sets these customOptions), as its schema controller passes them.
const AJV = { customOptions: { coerceTypes: 'array', allErrors: true, useDefaults: true } };
const route = (schema: object) => ({ schema, method: 'POST', url: '/x', httpPart: 'body' });
type Validate = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string }>;
  schemaEnv?: unknown;
};

describe('lazySchemaCompilers: validators', () => {
  const build = (shared: object = {}) =>
    lazySchemaCompilers().buildValidator!(shared as never, AJV as never) as unknown as (
      r: object,
    ) => Validate;

  it('validates as ajv does, and shows its errors after a refusal', () => {
    const validate = build()(
      route({ type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } }),
    );
    expect(validate({ n: 2 })).toBe(true);
    expect(validate({ n: 0 })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/n');
    expect(validate({ n: 3 })).toBe(true);
  });

  it('coerces and fills defaults in place (the options reach ajv)', () => {
    const validate = build()(
      route({
        type: 'object',
        properties: { n: { type: 'integer' }, tag: { type: 'string', default: 'none' } },
      }),
    );
    const body: Record<string, unknown> = { n: '7' };
    expect(validate(body)).toBe(true);
    expect(body).toEqual({ n: 7, tag: 'none' });
  });

  it('resolves the shared schemas of its plugin context', () => {
    const validate = build({ Thing: { $id: 'Thing', type: 'object', required: ['a'] } })(
      route({ $ref: 'Thing#' }),
    );
    expect(validate({ a: 1 })).toBe(true);
    expect(validate({})).toBe(false);
  });

  it('exposes schemaEnv, which Fastify reads to pass the parent data', () => {
    const validate = build()(route({ type: 'string' }));
    expect(validate.schemaEnv).toBeDefined();
  });

  it('compiles on the first request, not when the route is registered', () => {
    // A reference to a schema that does not exist: Fastify's eager compiler throws at ready.
    const validate = build()(route({ $ref: 'Missing#' }));
    expect(validate.errors).toBeUndefined();
    expect(() => validate({})).toThrow();
  });
});
