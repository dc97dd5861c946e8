/**
 * Fuzz run over the whole OpenAPI document (issue 14): every operation, authenticated as a
 * superadmin and as an external sales user, with requests generated from the operation's own
 * schemas by fast-check (test/fuzz/schema-arbitrary.ts), half of them carrying hostile values.
 * The pass condition is that no answer is a 5xx.
 *
 * Bounded: operations are visited round-robin, so every operation gets its first rounds before
 * any gets more; it stops after FUZZ_ROUNDS rounds (default 80) or FUZZ_SECONDS (default 45) of
 * requests, whichever comes first, after at least two rounds. FUZZ_SEED fixes the generation
 * (default: a new seed each run, printed with any failure so it can be replayed).
 *
 * Three bounded sweeps follow (issue 23, probe 3): HEAD on every GET operation (401 without a
 * credential, never a 5xx), a body with 3,000 unknown properties to every JSON write operation
 * (a 4xx listing at most 20 issues, under 10 KB), and `{"$ne": null}` in every string field and
 * every object of texts of every JSON body (400 pointing at that field).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyUsers } from '../../src/db/schema/index.ts';
import { auth, buildTestApp, type Credentials, makeUser, type TestApp } from '../helpers/app.ts';
import {
  fromSchema,
  type Generation,
  HOSTILE_VALUES,
  type JsonSchema,
  serialise,
  uuidArbitrary,
  withHostileValues,
} from './schema-arbitrary.ts';

const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 80);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 45);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema };
type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { type: string; schema?: JsonSchema };
  /** The operation requires a credential (its OpenAPI `security`). */
  secured: boolean;
};

let t: TestApp;
let actors: Array<{ role: string; headers: Record<string, string> }>;
const ids: string[] = [];
/** The actors' own ids stay out of the pool: archiving or demoting them would end the run's credentials. */
const reserved = new Set<string>();
let document: { paths: Record<string, Record<string, Record<string, unknown>>>; components?: unknown };

const generation: Generation = {
  resolve(ref) {
    if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`);
    let node: unknown = document;
    for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part];
    return node as JsonSchema;
  },
  ids: () => ids,
};

function rememberIds(body: string) {
  try {
    const json = JSON.parse(body) as { id?: unknown; data?: Array<{ id?: unknown }> };
    const found = [json?.id, ...(Array.isArray(json?.data) ? json.data.slice(0, 3).map((r) => r?.id) : [])];
    for (const id of found)
      if (typeof id === 'string' && !ids.includes(id) && !reserved.has(id)) ids.push(id);
    if (ids.length > 300) ids.splice(0, ids.length - 300);
  } catch {
    // Not JSON (a PDF, a CSV): nothing to remember.
  }
}

function operationsOf(doc: typeof document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)
        ?.content;
      const type = content ? Object.keys(content)[0] : undefined;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        ...(type ? { body: { type, schema: content![type]!.schema } } : {}),
        secured: Array.isArray(op.security) && op.security.length > 0,
      });
    }
  }
  return operations;
}

/** Percent-encodes a path value; a lone surrogate (not encodable) goes as the raw bytes it would be. */
function encodePathValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

type Request = { url: string; headers: Record<string, string>; payload?: string; contentType?: string };

/** One request for an operation: path, query string, headers and body from its schemas. */
function requestArbitrary(op: Operation, { hostile = true } = {}): fc.Arbitrary<Request> {
  const maybeHostile = (arbitrary: fc.Arbitrary<unknown>) =>
    hostile ? withHostileValues(arbitrary) : arbitrary;
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const pathValues = fc.tuple(
    ...pathParams.map(() =>
      fc.oneof(
        { weight: 6, arbitrary: uuidArbitrary(generation) },
        {
          weight: hostile ? 1 : 0,
          arbitrary: fc.constantFrom(...HOSTILE_VALUES.filter((v) => typeof v === 'string')),
        },
      ),
    ),
  );
  const queryObject: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema ?? { type: 'string' }])),
    required: queryParams.filter((p) => p.required).map((p) => p.name),
  };
  const headerObject: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(headerParams.map((p) => [p.name, p.schema ?? { type: 'string' }])),
    required: headerParams.filter((p) => p.required).map((p) => p.name),
  };
  const body =
    op.body?.type === 'application/json'
      ? maybeHostile(fromSchema(op.body.schema, generation)).map((value) => serialise(value))
      : op.body
        ? fc.constantFrom(
            '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nname\r\nA\u0000\r\n--fuzz--\r\n',
            '--fuzz\r\n\r\n',
            'not multipart at all',
          )
        : fc.constant(undefined);
  return fc
    .tuple(
      pathValues,
      maybeHostile(fromSchema(queryObject, generation)),
      maybeHostile(fromSchema(headerObject, generation)),
      body,
    )
    .map(([pathValues, query, headers, payload]) => {
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => encodePathValue(String(pathValues[i++])));
      const search = new URLSearchParams();
      if (query && typeof query === 'object' && !Array.isArray(query)) {
        for (const [key, value] of Object.entries(query)) {
          if (value === undefined) continue;
          if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
          else
            search.append(
              key,
              value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value),
            );
        }
      }
      const headerValues: Record<string, string> = {};
      if (headers && typeof headers === 'object' && !Array.isArray(headers))
        for (const [key, value] of Object.entries(headers)) headerValues[key] = String(value);
      const queryString = search.toString();
      return {
        url: queryString ? `${path}?${queryString}` : path,
        headers: headerValues,
        ...(payload !== undefined
          ? {
              payload,
              contentType:
                op.body?.type === 'application/json'
                  ? 'application/json'
                  : 'multipart/form-data; boundary=fuzz',
            }
          : {}),
      };
    });
}

beforeAll(async () => {
  t = await buildTestApp();
  document = t.app.swagger() as unknown as typeof document;
  const root = t.root;
  reserved.add(root.userId);
  // Some records to aim at: the fuzz also remembers every id it is answered.
  const seed = async (url: string, payload: object) => {
    const response = await t.app.inject({ method: 'POST', url, headers: auth(root), payload });
    rememberIds(response.body);
    return response.json() as { id: string };
  };
  const company = await seed('/api/companies', { name: 'Fuzz Co' });
  await seed('/api/projects', { name: 'Fuzz project', companyId: company.id });
  const order = await seed('/api/orders', { billedAmount: 10, companyId: company.id });
  await seed('/api/order-items', { orderId: order.id, quantity: 2, unitPrice: 3 });
  await seed('/api/articles', { name: 'Fuzz box', companyId: company.id, price: 1 });
  const external: Credentials = await makeUser(t, root, 'external_sales');
  reserved.add(external.userId);
  await t.app.ctx.db
    .insert(companyUsers)
    .values({ organisationId: root.organisationId, companyId: company.id, userId: external.userId });
  // Access tokens: unlike bearer tokens, a password change the fuzz makes does not revoke them.
  const tokenOf = async (who: Credentials) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/access-token/user/${who.userId}`,
      headers: auth(who),
      payload: { name: 'fuzz' },
    });
    return response.json().token as string;
  };
  actors = [
    { role: 'superadmin', headers: { 'x-access-token': await tokenOf(root) } },
    { role: 'external_sales', headers: { 'x-access-token': await tokenOf(external) } },
  ];
}, 120_000);
afterAll(() => t?.close());

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

/** One request as an actor (or anonymous); undefined when the HTTP layer refuses a header value. */
async function send(
  method: string,
  request: Request,
  headers: Record<string, string>,
): Promise<Response | undefined> {
  try {
    return await t.app.inject({
      method: method as 'GET',
      url: request.url,
      headers: {
        ...request.headers,
        ...headers,
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
      },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
  } catch (error) {
    // The HTTP layer itself refusing a header value (e.g. NUL) never reaches the service.
    if (error instanceof TypeError && /header/i.test(error.message)) return undefined;
    throw error;
  }
}

/** A request of the operation with schema-following values (no hostile ones), fixed by the seed. */
function plainRequest(op: Operation, index: number): Request {
  const [request] = fc.sample(requestArbitrary(op, { hostile: false }), { seed: SEED + index, numRuns: 1 });
  return request!;
}

const resolved = (schema: JsonSchema | undefined): JsonSchema | undefined =>
  schema?.$ref ? resolved(generation.resolve(schema.$ref)) : schema;

/** Whether a schema admits a string (directly, in a type list, or in one of its branches). */
function admitsString(schema: JsonSchema | undefined): boolean {
  const s = resolved(schema);
  if (!s) return false;
  if (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(admitsString);
}

/**
 * Whether a schema (or one of its branches) is an object of texts, such as labels per language
 * (the OpenAPI document shows JSON Schema's `patternProperties` as `additionalProperties`).
 */
function isTextMap(schema: JsonSchema | undefined): boolean {
  const s = resolved(schema) as
    | (JsonSchema & { patternProperties?: Record<string, JsonSchema>; additionalProperties?: unknown })
    | undefined;
  if (!s) return false;
  const values = [...Object.values(s.patternProperties ?? {}), s.additionalProperties];
  if (values.some((v) => v && typeof v === 'object' && admitsString(v as JsonSchema))) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(isTextMap);
}

/**
 * JSON pointers (as paths) of the string fields of a body schema: its properties that admit a
 * string or are texts per key (labels per language), the same in its object properties, and the
 * items of its string arrays, two levels deep.
 */
function stringFields(schema: JsonSchema | undefined, path: string[] = [], depth = 0): string[][] {
  const s = resolved(schema);
  if (!s || depth > 2) return [];
  const found: string[][] = [];
  for (const [key, property] of Object.entries(s.properties ?? {})) {
    const p = resolved(property);
    if (admitsString(p) || isTextMap(p)) found.push([...path, key]);
    const objectBranch = [p, ...(p?.anyOf ?? []), ...(p?.oneOf ?? [])]
      .map(resolved)
      .find((b) => b?.properties);
    if (objectBranch) found.push(...stringFields(objectBranch, [...path, key], depth + 1));
    if (admitsString(p?.items)) found.push([...path, key, '0']);
  }
  return found;
}

/** The body schema with only its required properties and `key`. */
function narrowedTo(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  const s = resolved(schema);
  if (!s?.properties) return s;
  const keep = new Set([...(s.required ?? []), key]);
  return { ...s, properties: Object.fromEntries(Object.entries(s.properties).filter(([k]) => keep.has(k))) };
}

/** `value` with the value at `path` replaced (objects and arrays made along the way). */
function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const isIndex = /^\d+$/.test(head!);
  const base = value && typeof value === 'object' ? value : isIndex ? [] : {};
  const copy = (Array.isArray(base) ? [...base] : { ...base }) as Record<string, unknown>;
  copy[head!] = setAt(copy[head!], rest, replacement);
  return copy;
}

/** A problem never lists more than 20 issues nor grows with the request (issue 23). */
function problemIsBounded(response: Response): string | undefined {
  if (response.body.length >= 10_000) return `answer of ${response.body.length} characters`;
  if (response.statusCode !== 400) return undefined;
  const errors = (response.json() as { errors?: unknown[] }).errors ?? [];
  return errors.length > 20 ? `${errors.length} issues listed` : undefined;
}

describe('fuzz over the OpenAPI document', () => {
  it('answers no request of any operation with a 5xx', { timeout: (SECONDS + 120) * 1000 }, async () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(100);
    const arbitraries = operations.map((op) => requestArbitrary(op));
    const failures: string[] = [];
    const counts = new Map<string, number>();
    const statuses = new Map<number, number>();
    const started = Date.now();
    let requests = 0;
    let rounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      if (round >= 2 && Date.now() - started > SECONDS * 1000) break;
      rounds++;
      for (const [index, op] of operations.entries()) {
        const actor = actors[(round + index) % actors.length]!;
        const [request] = fc.sample(arbitraries[index]!, { seed: SEED + round * 7919 + index, numRuns: 1 });
        const { url, headers, payload, contentType } = request!;
        let response: Awaited<ReturnType<typeof t.app.inject>>;
        try {
          response = await t.app.inject({
            method: op.method as 'GET',
            url,
            headers: {
              ...headers,
              ...actor.headers,
              ...(contentType ? { 'content-type': contentType } : {}),
            },
            ...(payload !== undefined ? { payload } : {}),
          });
        } catch (error) {
          // The HTTP layer itself refusing a header value (e.g. NUL) never reaches the service.
          if (error instanceof TypeError && /header/i.test(error.message)) continue;
          throw error;
        }
        requests++;
        counts.set(`${op.method} ${op.path}`, (counts.get(`${op.method} ${op.path}`) ?? 0) + 1);
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode < 300) rememberIds(response.body);
        if (response.statusCode >= 500) {
          failures.push(
            `${response.statusCode} ${op.method} ${url} as ${actor.role} body=${(payload ?? '').slice(0, 300)} -> ${response.body.slice(0, 200)}`,
          );
        }
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const summary = `fuzz: ${requests} requests, ${counts.size}/${operations.length} operations, ${rounds} rounds, ${seconds} s, seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`;
    console.info(summary);
    expect(counts.size, summary).toBe(operations.length);
    expect(failures, `${summary}\n${failures.join('\n')}`).toEqual([]);
  });

  it('answers HEAD on every GET operation: 401 without a credential, never a 5xx with one', async () => {
    const gets = operationsOf(document).filter((op) => op.method === 'GET');
    expect(gets.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const [index, op] of gets.entries()) {
      const request = plainRequest(op, index);
      const anonymous = await send('HEAD', request, {});
      if (anonymous && op.secured && anonymous.statusCode !== 401)
        failures.push(`HEAD ${request.url} anonymous -> ${anonymous.statusCode} (not 401)`);
      if (anonymous && anonymous.statusCode >= 500)
        failures.push(`HEAD ${request.url} anonymous -> ${anonymous.statusCode}`);
      for (const actor of actors) {
        const response = await send('HEAD', request, actor.headers);
        if (response && response.statusCode >= 500)
          failures.push(`HEAD ${request.url} as ${actor.role} -> ${response.statusCode}`);
        if (response && response.body !== '')
          failures.push(`HEAD ${request.url} as ${actor.role} answered a body`);
      }
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 120_000);

  it('answers bodies with thousands of unknown properties with a 4xx listing at most 20 issues', async () => {
    const writes = operationsOf(document).filter((op) => op.body?.type === 'application/json');
    expect(writes.length).toBeGreaterThan(50);
    const unknown = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`unknownProperty${i}`, i]));
    const failures: string[] = [];
    for (const [index, op] of writes.entries()) {
      const request = plainRequest(op, index);
      const base = JSON.parse(request.payload ?? '{}');
      const body =
        base && typeof base === 'object' && !Array.isArray(base) ? { ...base, ...unknown } : unknown;
      const response = await send(
        op.method,
        { ...request, payload: JSON.stringify(body) },
        actors[0]!.headers,
      );
      if (!response) continue;
      const where = `${op.method} ${request.url} -> ${response.statusCode}`;
      if (response.statusCode < 400 || response.statusCode >= 500)
        failures.push(`${where} ${response.body.slice(0, 200)}`);
      const unbounded = problemIsBounded(response);
      if (unbounded) failures.push(`${where}: ${unbounded}`);
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 120_000);

  it('refuses an operator-like object ({"$ne": null}) in any string field of any body: 400 pointing at it', async () => {
    const writes = operationsOf(document).filter((op) => op.body?.type === 'application/json');
    const failures: string[] = [];
    let requests = 0;
    for (const [index, op] of writes.entries()) {
      const request = plainRequest(op, index);
      for (const field of stringFields(op.body!.schema)) {
        // The required properties and the one aimed at: fewer values that other rules could refuse first.
        const [base] = fc.sample(fromSchema(narrowedTo(op.body!.schema, field[0]!), generation), {
          seed: SEED + index,
          numRuns: 1,
        });
        const pointer = `/${field.join('/')}`;
        const payload = serialise(setAt(base, field, { $ne: null }));
        const response = await send(op.method, { ...request, payload }, actors[0]!.headers);
        if (!response) continue;
        requests++;
        const pointers = ((response.json() as { errors?: Array<{ pointer: string }> }).errors ?? []).map(
          (e) => e.pointer,
        );
        if (response.statusCode !== 400 || !pointers.some((p) => p.startsWith(pointer)))
          failures.push(
            `${op.method} ${request.url} ${pointer} -> ${response.statusCode} ${payload.slice(0, 200)} -> ${response.body.slice(0, 300)}`,
          );
      }
    }
    console.info(`operator-like objects: ${requests} requests over ${writes.length} operations`);
    expect(requests).toBeGreaterThan(100);
    expect(failures, `seed ${SEED}`).toEqual([]);
  }, 120_000);
});
