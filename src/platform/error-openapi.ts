import type { FastifyInstance, RouteOptions } from 'fastify';
import { ERROR_CODES, type ErrorCode, type ErrorStatus, statusesOf } from './error-codes.ts';
import { CODES_BY_MODULE } from './error-codes-by-module.ts';

// OpenAPI tags that are not the name of their module's folder.
const MODULE_OF_TAG: Record<string, string> = {
  authentication: 'auth',
  'die-lines': 'dielines',
  'order items': 'orders',
  platform: 'health',
};

/** The feature module a tag names (`custom fields` -> `custom-fields`). */
export const moduleOfTag = (tag: string) => MODULE_OF_TAG[tag] ?? tag.replace(/ /g, '-');

/**
 * The codes a route may answer with a status: those of the platform (any route) and of the
 * modules its tags name, as generated into error-codes-by-module.ts from the source.
 */
export function codesOfRoute(tags: readonly string[], status: ErrorStatus): ErrorCode[] {
  const pool = new Set<ErrorCode>([
    ...(CODES_BY_MODULE.platform ?? []),
    ...tags.flatMap((tag) => CODES_BY_MODULE[moduleOfTag(tag)] ?? []),
  ]);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
    (code) => pool.has(code) && statusesOf(code).includes(status),
  );
}

type SchemaWithResponses = { tags?: string[]; hide?: boolean; response?: Record<string, unknown> };

const isProblemRef = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && (schema as { $ref?: unknown }).$ref === 'Problem';

/**
 * Writes into each problem response of each route's OpenAPI operation the codes it may carry.
 * It runs once every route is registered, so the statuses other hooks add (idempotency's 409 and
 * 422) are covered; only the description changes, so validation and serialization do not.
 */
export function registerErrorCodeDocs(app: FastifyInstance) {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.addHook('onReady', async () => {
    for (const route of routes) {
      const schema = route.schema as SchemaWithResponses | undefined;
      if (!schema?.response || schema.hide) continue;
      const response = { ...schema.response };
      for (const [status, body] of Object.entries(response)) {
        if (!isProblemRef(body)) continue;
        const codes = codesOfRoute(schema.tags ?? [], Number(status) as ErrorStatus);
        if (!codes.length) continue;
        response[status] = {
          ...(body as object),
          description: `RFC 9457 problem details; \`code\` is one of: ${codes.map((c) => `\`${c}\``).join(', ')} (docs/errors.md)`,
        };
      }
      route.schema = { ...schema, response } as RouteOptions['schema'];
    }
  });
}
