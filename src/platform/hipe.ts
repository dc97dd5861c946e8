import { isDeepStrictEqual } from 'node:util';
import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

/**
 * Compatibility with HIPE's integration clients (the published n8n node): where HIPE names the
 * same data differently, both names are accepted on input, the value is stored once under our
 * name, and answers carry both (ours documented, HIPE's described as an alias). See
 * docs/hipe-compatibility.md.
 */

/** One HIPE property name for one of ours. */
export type Alias = {
  /** HIPE's property name, e.g. `phone`. */
  alias: string;
  /** Our property, e.g. `phoneNumber`. */
  of: string;
  /** Input schema of the alias when it is not the same as ours (e.g. a free-text country). */
  input?: TSchema;
  /** Output schema of the alias when it is not the same as ours. */
  output?: TSchema;
  /** Our value from HIPE's (after validation); throw HipeValueError to refuse it. */
  toOurs?: (value: unknown) => unknown;
  /** HIPE's value from ours, for answers. */
  toTheirs?: (value: unknown) => unknown;
};

/** What a route accepts from HIPE clients (the route's `config.hipe`). */
export type HipeCompat = {
  aliases: readonly Alias[];
  /**
   * HIPE clients send optional text fields as "" when left empty: on the properties the body schema
   * allows to be null, "" is read as null (no value). Default true.
   */
  blankAsNull?: boolean;
  /** Properties holding an object whose properties belong to the body (HIPE's `additionalFields`). */
  flatten?: readonly string[];
  /**
   * Properties n8n's `json` parameters may send as JSON text (`"{\"a\":1}"`): parsed before
   * validation; "" means not sent.
   */
  jsonStrings?: readonly string[];
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** HIPE property aliases this route accepts (platform/hipe.ts). */
    hipe?: HipeCompat;
  }
}

/** A HIPE value that has no equivalent here (e.g. an unknown country name). */
export class HipeValueError extends Error {}

export const aliasDescription = (of: string, extra?: string) =>
  `Alias of \`${of}\` (HIPE client)${extra ? `. ${extra}` : ''}`;

/** A copy of a schema with another description and without TypeBox's optional marker. */
function described(schema: TSchema, description: string): TSchema {
  const copy = { ...schema, description } as TSchema & Record<symbol, unknown>;
  for (const key of Object.getOwnPropertySymbols(copy)) {
    if (String(key) === 'Symbol(TypeBox.Optional)') delete copy[key];
  }
  return copy;
}

function objectOptions(schema: TObject) {
  const {
    type: _type,
    properties: _properties,
    required: _required,
    ...options
  } = schema as TObject & Record<string, unknown>;
  return options;
}

/**
 * A request body schema with the HIPE aliases added (optional). A required property of ours stays
 * required: before validation, a value sent only under HIPE's name is copied to ours.
 */
export function withInputAliases<T extends TObject>(
  schema: T,
  aliases: readonly Alias[],
  extra: TProperties = {},
) {
  const properties: TProperties = { ...schema.properties };
  for (const a of aliases) {
    const ours = schema.properties[a.of];
    const source = a.input ?? ours;
    if (!source) throw new Error(`HIPE alias ${a.alias}: ${a.of} is not a property of the schema`);
    properties[a.alias] = Type.Optional(described(source, aliasDescription(a.of, source.description)));
  }
  Object.assign(properties, extra);
  return Type.Object(properties, objectOptions(schema)) as unknown as T;
}

/** A response schema with the HIPE aliases added (always sent when ours is). */
export function withOutputAliases<T extends TObject>(schema: T, aliases: readonly Alias[]) {
  const properties: TProperties = { ...schema.properties };
  for (const a of aliases) {
    const ours = schema.properties[a.of];
    const source = a.output ?? ours;
    if (!source) throw new Error(`HIPE alias ${a.alias}: ${a.of} is not a property of the schema`);
    properties[a.alias] = Type.Optional(described(source, aliasDescription(a.of)));
  }
  return Type.Object(properties, objectOptions(schema)) as unknown as T;
}

/** Every alias of every module, for the answers (one HIPE name means one of our names). */
const OUTPUT_ALIASES = new Map<string, Alias>();

/** Declares aliases whose HIPE name is added to every answer that carries our property. */
export function registerOutputAliases(aliases: readonly Alias[]) {
  for (const a of aliases) {
    const known = OUTPUT_ALIASES.get(a.alias);
    if (known && known.of !== a.of) {
      throw new Error(`HIPE alias ${a.alias} stands for both ${known.of} and ${a.of}`);
    }
    OUTPUT_ALIASES.set(a.alias, a);
  }
  return aliases;
}

/**
 * The registered HIPE names an answer carrying these properties is served with (for a schema of
 * an answer serialized as plain JSON, e.g. catalogue entries: withOutputAliases documents them).
 */
export const outputAliasesFor = (properties: TProperties): Alias[] =>
  [...OUTPUT_ALIASES.values()].filter((a) => a.of in properties && !(a.alias in properties));

function decorate(record: unknown, depth = 0) {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return;
  const target = record as Record<string, unknown>;
  for (const a of OUTPUT_ALIASES.values()) {
    if (a.of in target && !(a.alias in target)) {
      const value = target[a.of];
      target[a.alias] = a.toTheirs && value !== null && value !== undefined ? a.toTheirs(value) : value;
    }
  }
  // Nested lists of records (an order's items): one level down.
  if (depth === 0) {
    for (const value of Object.values(target)) {
      if (Array.isArray(value)) for (const item of value) decorate(item, 1);
    }
  }
}

/** Adds HIPE's names to an answer: a record, an array of records, or a `{data: [...]}` page. */
export function decorateAnswer(payload: unknown) {
  if (Array.isArray(payload)) for (const record of payload) decorate(record);
  else if (payload && typeof payload === 'object') {
    const data = (payload as { data?: unknown }).data;
    if (Array.isArray(data)) for (const record of data) decorate(record);
    decorate(payload);
  }
  return payload;
}

function isNullable(schema: TSchema | undefined): boolean {
  if (!schema) return false;
  const type = (schema as { type?: unknown }).type;
  if (Array.isArray(type) && type.includes('null')) return true;
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  return Array.isArray(anyOf) && anyOf.some((s) => (s as { type?: unknown }).type === 'null');
}

function bodySchemaOf(request: FastifyRequest): TObject | undefined {
  const body = request.routeOptions.schema?.body as TObject | undefined;
  return body && typeof body === 'object' && 'properties' in body ? body : undefined;
}

/**
 * Before validation: JSON text parsed (`jsonStrings`), "" on nullable properties read as null.
 * `schema` is the body's object schema (or the item schema of a bulk body).
 */
export function prepareHipeInput(
  body: Record<string, unknown>,
  hipe: HipeCompat,
  schema: TObject,
  prefix = '',
) {
  for (const name of hipe.jsonStrings ?? []) {
    const value = body[name];
    if (typeof value !== 'string') continue;
    if (value.trim() === '') {
      delete body[name];
      continue;
    }
    try {
      body[name] = JSON.parse(value);
    } catch {
      throw badRequest(`${name} is neither JSON nor JSON text`, [
        { pointer: `${prefix}/${name}`, message: 'must be JSON', in: 'body' },
      ]);
    }
  }
  if (hipe.blankAsNull !== false) {
    const blank = (record: Record<string, unknown>, properties: TProperties) => {
      for (const [key, value] of Object.entries(record)) {
        if (value === '' && isNullable(properties[key])) record[key] = null;
      }
    };
    blank(body, schema.properties);
    for (const name of hipe.flatten ?? []) {
      const nested = body[name];
      const nestedSchema = schema.properties[name] as TObject | undefined;
      if (nested && typeof nested === 'object' && !Array.isArray(nested) && nestedSchema?.properties) {
        blank(nested as Record<string, unknown>, nestedSchema.properties);
      }
    }
  }
  // A value sent only under HIPE's name is copied to ours, so that our schema (its required
  // properties, its formats) validates it; the alias is dropped after validation.
  const copied = new Set<string>();
  for (const a of hipe.aliases) {
    if (!(a.alias in body) || a.of in body) continue;
    body[a.of] = convert(a, body[a.alias], prefix);
    copied.add(a.alias);
  }
  COPIED.set(body, copied);
}

/** Aliases whose value prepareHipeInput copied to our name, per body. */
const COPIED = new WeakMap<object, Set<string>>();

function convert(a: Alias, value: unknown, prefix: string) {
  if (!a.toOurs || value === null || value === undefined) return value;
  try {
    return a.toOurs(value);
  } catch (error) {
    if (!(error instanceof HipeValueError)) throw error;
    throw badRequest(error.message, [
      { pointer: `${prefix}/${a.alias}`, message: error.message, in: 'body' },
    ]);
  }
}

/**
 * After validation: nested objects flattened, HIPE's names folded into ours (both sent with
 * different values: 400). `prefix` is the JSON pointer of the record.
 */
export function foldHipeInput(body: Record<string, unknown>, hipe: HipeCompat, prefix = '') {
  for (const name of hipe.flatten ?? []) {
    const nested: unknown = body[name];
    delete body[name];
    if (!nested || typeof nested !== 'object') continue;
    for (const [key, value] of Object.entries(nested as Record<string, unknown>)) {
      if (key in body && !isDeepStrictEqual(body[key], value)) {
        throw badRequest(`${name}.${key} and ${key} differ; send one of them`, [
          { pointer: `${prefix}/${name}/${key}`, message: `differs from ${prefix}/${key}`, in: 'body' },
        ]);
      }
      body[key] = value;
    }
  }
  const copied = COPIED.get(body);
  for (const a of hipe.aliases) {
    if (!(a.alias in body)) continue;
    const raw = body[a.alias];
    delete body[a.alias];
    if (copied?.has(a.alias)) continue;
    const value = convert(a, raw, prefix);
    if (a.of in body && !isDeepStrictEqual(body[a.of], value)) {
      throw badRequest(`${a.alias} is another name of ${a.of} and their values differ; send one of them`, [
        { pointer: `${prefix}/${a.alias}`, message: `differs from ${prefix}/${a.of}`, in: 'body' },
      ]);
    }
    body[a.of] = value;
  }
}

/**
 * The hooks of HIPE compatibility: before validation, "" on nullable properties becomes null;
 * after validation, aliases are folded into our names (both sent with different values: 400);
 * before serialisation, HIPE's names are added to answers.
 */
export function registerHipeCompatibility(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const hipe = request.routeOptions.config.hipe;
    const body = request.body as Record<string, unknown> | undefined;
    if (!hipe || !body || typeof body !== 'object' || Array.isArray(body)) return;
    const schema = bodySchemaOf(request);
    if (schema) prepareHipeInput(body, hipe, schema);
  });

  app.addHook('preHandler', async (request) => {
    const hipe = request.routeOptions.config.hipe;
    const body = request.body as Record<string, unknown> | undefined;
    if (!hipe || !body || typeof body !== 'object' || Array.isArray(body)) return;
    foldHipeInput(body, hipe);
  });

  app.addHook('preSerialization', async (_request, reply, payload) => {
    if (reply.statusCode >= 300) return payload;
    return decorateAnswer(payload);
  });
}
