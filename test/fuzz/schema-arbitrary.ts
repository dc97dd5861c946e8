/**
 * fast-check arbitraries from the JSON Schemas of an OpenAPI 3.1 document, for the fuzz run
 * (test/fuzz/openapi-fuzz.test.ts). Values mostly follow the schema (so requests reach the
 * services), and a share of them has one value replaced by a hostile one: NUL characters, huge
 * or non-finite numbers, dates outside any calendar, long strings, wrong types, unknown ids.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
  minProperties?: number;
};

/** A JSON number literal that JavaScript cannot hold (parses as Infinity): spliced in raw. */
export const RAW_HUGE = '__RAW_NUMBER_1e309__';
export const serialise = (value: unknown) => JSON.stringify(value).replaceAll(`"${RAW_HUGE}"`, '1e309');

/** The classes the hostile probe of issue 14 found 5xx with, drawn more often than the rest. */
export const PRIORITY_HOSTILE_VALUES: unknown[] = [
  'a\u0000b',
  'Infinity',
  '1e309',
  RAW_HUGE,
  1e308,
  '0000-01-01T00:00:00Z',
  '99999-01-01',
  'x'.repeat(10_000),
];

export const HOSTILE_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e309',
  '1e400',
  RAW_HUGE,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53 + 1,
  -1,
  0,
  0.1,
  '0000-01-01T00:00:00Z',
  '99999-01-01',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '1899-12-31',
  '9999-12-31T23:59:59.999Z',
  '2026-02-30',
  'x'.repeat(10_000),
  '',
  ' ',
  '\ud800',
  '%00',
  "' OR 1=1 --",
  '../../etc/passwd',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  {},
  [],
  [null],
  { $gt: '' },
  true,
  null,
];

const URLS = [
  'http://127.0.0.1:9/hook',
  'https://127.0.0.1/x',
  'http://[::127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://10.0.0.1/',
  'ftp://127.0.0.1/',
  'not a url',
];

export type Generation = {
  /** Resolves `#/components/schemas/X` (and other local pointers) in the document. */
  resolve(ref: string): JsonSchema;
  /** Ids seen in answers so far: path parameters and uuid fields draw from them. */
  ids: () => string[];
};

const MAX_DEPTH = 6;

function supportedDate(): fc.Arbitrary<Date> {
  return fc.date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2100-01-01T00:00:00Z'),
    noInvalidDate: true,
  });
}

export function uuidArbitrary(g: Generation): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(null).map(() => pick(g.ids()) ?? randomUUID()) },
    { weight: 1, arbitrary: fc.uuid() },
  );
}

const pick = <T>(list: T[]): T | undefined => list[Math.floor(Math.random() * list.length)];

function stringArbitrary(schema: JsonSchema, g: Generation): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return uuidArbitrary(g);
    case 'date-time':
      return supportedDate().map((d) => d.toISOString());
    case 'date':
      return supportedDate().map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (schema.maxLength ?? 320));
    case 'uri':
    case 'url':
      return fc.constantFrom(...URLS);
  }
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length <= (schema.maxLength ?? 1000));
    } catch {
      // A pattern JavaScript cannot compile: fall through to plain strings.
    }
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  return fc.string({ minLength, maxLength });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum : -1e6);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum : 1e6);
  if (integer) {
    const min = Math.ceil(Math.max(low, -(2 ** 31)));
    const max = Math.floor(Math.min(high, 2 ** 31 - 1));
    return fc.oneof(
      fc.integer({ min, max: Math.max(min, Math.min(max, min + 1000)) }),
      fc.integer({ min, max: Math.max(min, max) }),
    );
  }
  const min = Math.max(low, -1e15);
  const max = Math.max(min, Math.min(high, 1e15));
  return fc
    .oneof(
      fc.double({ min, max: Math.min(max, min + 10_000), noNaN: true, noDefaultInfinity: true }),
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(min, max),
    )
    .filter(
      (n) =>
        (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
        (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum),
    );
}

/** Values that follow `schema` (as far as a generator without a validator can). */
export function fromSchema(schema: JsonSchema | undefined, g: Generation, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > MAX_DEPTH) return fc.constant(null);
  if (schema.$ref) return fromSchema(g.resolve(schema.$ref), g, depth + 1);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    return fc.oneof(...branches.map((b) => fromSchema({ ...rest, ...b }, g, depth + 1)));
  }
  if (schema.allOf?.length) {
    // The schema's own properties too (a body with `allOf: [{anyOf: ...}]` beside them, as the
    // quote creation's requirements in the OpenAPI document).
    const merged: JsonSchema = {
      type: 'object',
      properties: { ...schema.properties },
      required: [...(schema.required ?? [])],
    };
    for (const part of schema.allOf) {
      const resolved = part.$ref ? g.resolve(part.$ref) : part;
      Object.assign(merged.properties!, resolved.properties ?? {});
      merged.required!.push(...(resolved.required ?? []));
    }
    return fromSchema(merged, g, depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => fromSchema({ ...schema, type }, g, depth + 1)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema, g);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      return fc.array(fromSchema(schema.items, g, depth + 1), { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (!schema.properties) return types[0] === 'object' ? fc.constant({}) : fc.constant(null);
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(schema.properties))
        record[key] = fromSchema(property, g, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
    }
    default:
      return fc.constant(null);
  }
}

type Path = Array<string | number>;

function leaves(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => void leaves(v, [...path, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, [...path, k], out);
  return out;
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...rest] = path;
  copy[head!] = replaceAt(copy[head!], rest, replacement);
  return copy;
}

/**
 * Mostly schema-following values; about half of them with one value (anywhere in the tree, or
 * the whole, or an extra property) replaced by a hostile one.
 */
export function withHostileValues(arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const hostile = fc.oneof(fc.constantFrom(...PRIORITY_HOSTILE_VALUES), fc.constantFrom(...HOSTILE_VALUES));
  return fc.oneof(
    { weight: 1, arbitrary },
    {
      weight: 2,
      arbitrary: fc
        .tuple(arbitrary, fc.array(fc.tuple(fc.nat(), hostile), { minLength: 1, maxLength: 3 }), fc.nat(9))
        .map(([value, replacements, extra]) => {
          let result = value;
          for (const [n, replacement] of replacements) {
            const all = leaves(result);
            const target = all.length > 1 ? all[1 + (n % (all.length - 1))]! : all[0]!;
            result = replaceAt(result, target, replacement);
          }
          // Now and then an unknown property as well (refused by additionalProperties: false).
          if (extra === 0 && result && typeof result === 'object' && !Array.isArray(result))
            return { ...result, unknownProperty: replacements[0]![1] };
          return result;
        }),
    },
  );
}
