import { describe, expect, it } from 'vitest';
import { lazySerializers } from '../../src/platform/lazy-serializers.ts';

const route = (schema: object) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('lazySerializers', () => {
  it('serialises by the response schema, as Fastify’s own compiler does (unknown fields left out)', () => {
    const build = lazySerializers({}, {});
    const serialize = build(
      route({ type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } }) as never,
    );
    expect(serialize({ id: 'a', n: 2, secret: 'x' })).toBe('{"id":"a","n":2}');
    // Compiled once, then reused: the same answer again.
    expect(serialize({ id: 'b', n: 3 })).toBe('{"id":"b","n":3}');
  });

  it('resolves the shared schemas it was given', () => {
    const build = lazySerializers(
      { Thing: { $id: 'Thing', type: 'object', properties: { a: { type: 'string' } } } },
      {},
    );
    const serialize = build(route({ $ref: 'Thing#' }) as never);
    expect(serialize({ a: 'x', b: 'y' })).toBe('{"a":"x"}');
  });

  it('compiles on the first answer, not when the route is registered', () => {
    const build = lazySerializers({}, {});
    // A reference to a schema that does not exist: Fastify's eager compiler throws at start-up.
    const serialize = build(route({ $ref: 'Missing#' }) as never);
    expect(() => serialize({})).toThrow();
  });
});
