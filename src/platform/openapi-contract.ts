/**
 * The last pass over the OpenAPI document (@fastify/swagger's `transformObject`): fixes that hold
 * for every route are made here, in one place, rather than in each route's schema, so that a
 * generated client (openapi-typescript + openapi-fetch) can trust the document. It only rewrites
 * the document: the schemas that validate requests and serialize answers are untouched, so what
 * the server accepts and answers does not change. docs/decisions.md, "The OpenAPI contract".
 */

type Json = Record<string, unknown>;
type Operation = Json & { responses?: Record<string, Json>; requestBody?: Json; security?: unknown[] };
export type OpenApiDocument = Json & {
  info: Json;
  servers?: Json[];
  paths?: Record<string, Record<string, Operation>>;
  components?: Json & { schemas?: Record<string, Json> };
};

/** Problem answers (RFC 9457) are served with this media type (platform/errors.ts). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';
const PROBLEM_REF = '#/components/schemas/Problem';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isJsonMediaType = (mediaType: string) =>
  mediaType === 'application/json' || mediaType.endsWith('+json');

/**
 * A requirement on a request body that JSON Schema can state but the route does not validate
 * with a schema (the service checks it, with its own code and pointer): documented as an
 * `anyOf` of `required` lists so a generated client's type demands one of the properties.
 */
export type BodyRequirement = {
  method: string;
  path: string;
  /** Each entry: properties that together satisfy the requirement. */
  anyOfRequired: readonly (readonly string[])[];
};

export type ContractOptions = {
  /** Unprefixed paths also serving the /api operations (HIPE clients), listed in `x-unprefixed-paths`. */
  unprefixedPrefixes: readonly string[];
  bodyRequirements?: readonly BodyRequirement[];
};

/**
 * A date input is written `type: string` (or `[string, null]`) with an `anyOf` of bare `format`s
 * (`date` or `date-time`), which ajv reads as intended but which openapi-typescript turns into
 * `unknown` (so `orderDate: 42` type-checks). Each branch gets the type instead.
 */
function typeFormatBranches(schema: Json) {
  const { anyOf, type } = schema;
  if (!Array.isArray(anyOf) || anyOf.length === 0) return;
  const bareFormats = anyOf.every(
    (branch) => isObject(branch) && Object.keys(branch).length === 1 && typeof branch.format === 'string',
  );
  if (!bareFormats) return;
  const types = [type].flat().filter((t): t is string => typeof t === 'string');
  const valueTypes = types.filter((t) => t !== 'null');
  if (valueTypes.length !== 1) return;
  const branches: Json[] = anyOf.map((branch) => ({ type: valueTypes[0], format: (branch as Json).format }));
  if (types.includes('null')) branches.push({ type: 'null' });
  delete schema.type;
  schema.anyOf = branches;
}

function walkSchemas(node: unknown, visit: (schema: Json) => void) {
  if (Array.isArray(node)) for (const item of node) walkSchemas(item, visit);
  else if (isObject(node)) {
    visit(node);
    for (const value of Object.values(node)) walkSchemas(value, visit);
  }
}

/** Error answers are `application/problem+json`, as the error handler sends them. */
function problemMediaType(response: Json) {
  const content = response.content;
  if (!isObject(content)) return;
  const json = content['application/json'];
  if (!isObject(json) || !isObject(json.schema) || json.schema.$ref !== PROBLEM_REF) return;
  response.content = { [PROBLEM_MEDIA_TYPE]: json };
}

/**
 * Successful answers that are not JSON (PDFs, CSV exports, stored files) are documented as bytes
 * (`type: string, format: binary`), so a generated client reads them as a Blob or ArrayBuffer
 * (openapi-fetch: `parseAs: 'blob'`) instead of trying to parse `%PDF` as JSON.
 */
function binaryAnswers(response: Json) {
  const content = response.content;
  if (!isObject(content)) return;
  for (const [mediaType, media] of Object.entries(content)) {
    if (isJsonMediaType(mediaType) || !isObject(media)) continue;
    const description = isObject(media.schema) ? media.schema.description : undefined;
    media.schema = { type: 'string', format: 'binary', ...(description ? { description } : {}) };
  }
}

/**
 * Written as `allOf: [{anyOf: [...]}]` whose branches name the properties with their schemas (an
 * array must then be non-empty), so openapi-typescript types the body as `Body & ({companyId} |
 * {projectId})`; bare `{required: [...]}` branches would be typed `unknown`.
 */
function applyBodyRequirement(operation: Operation, requirement: BodyRequirement) {
  const content = operation.requestBody?.content;
  if (!isObject(content)) return false;
  const media = content['application/json'];
  if (!isObject(media) || !isObject(media.schema) || !isObject(media.schema.properties)) return false;
  const properties = media.schema.properties;
  const branches = requirement.anyOfRequired.map((required) => ({
    type: 'object',
    required: [...required],
    properties: Object.fromEntries(
      required.map((name) => {
        const schema = properties[name];
        if (!isObject(schema))
          throw new Error(`${requirement.method} ${requirement.path}: no property ${name}`);
        return [name, schema.type === 'array' ? { ...schema, minItems: 1 } : schema];
      }),
    ),
  }));
  const allOf = Array.isArray(media.schema.allOf) ? media.schema.allOf : [];
  media.schema.allOf = [...allOf, { anyOf: branches }];
  return true;
}

export function finishOpenApiDocument<T extends object>(document: T, options: ContractOptions): T {
  const doc = document as unknown as OpenApiDocument;
  // Every path of the document is absolute from the service's root (`/api/...`, `/health`), so the
  // one server is the root of wherever the service is deployed (a relative URL: same origin).
  doc.servers = [{ url: '/', description: 'This service (paths are absolute: `/api/...`, `/health`)' }];
  if (options.unprefixedPrefixes.length) {
    // Documented as a list rather than duplicated paths: duplicating ~40 operations under a second
    // path would double the generated client's surface for one integration client (HIPE's n8n
    // node) that does not read this document.
    doc.info['x-unprefixed-paths'] = [...new Set(options.unprefixedPrefixes)].map((prefix) => ({
      path: prefix,
      sameAs: `/api${prefix}`,
    }));
  }

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !isObject(operation)) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!isObject(response)) continue;
        problemMediaType(response);
        if (status.startsWith('2')) binaryAnswers(response);
      }
      for (const requirement of options.bodyRequirements ?? [])
        if (
          requirement.path === path &&
          requirement.method === method &&
          !applyBodyRequirement(operation, requirement)
        )
          throw new Error(`${method} ${path}: no JSON body to state a requirement on`);
    }
  }

  for (const { method, path } of options.bodyRequirements ?? [])
    if (!doc.paths?.[path]?.[method])
      throw new Error(`Body requirement on ${method} ${path}: no such operation`);

  walkSchemas(doc.paths, typeFormatBranches);
  walkSchemas(doc.components?.schemas, typeFormatBranches);
  return document;
}
