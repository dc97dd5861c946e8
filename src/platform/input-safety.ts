import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError, badRequest, issuesDetail, type ProblemIssue } from './errors.ts';

/**
 * Input safety that holds for every route without each schema repeating it (issue 14, defects
 * 3-6). The ranges are documented in docs/security.md and, for the schema defaults, in the
 * OpenAPI document itself:
 *
 * - no string anywhere in a request (body, query string, path, headers) contains U+0000, which
 *   PostgreSQL cannot store in text or jsonb: 400 before validation;
 * - every number is finite: ajv's type coercion turns "Infinity" and "1e309" into Infinity and then
 *   skips `maximum` for it, so the coerced request is scanned once more after validation: 400;
 * - every number or integer of a request schema that states no bound gets the default range
 *   (`NUMBER_LIMIT`, `INTEGER_LIMIT`), so a schema can be tighter but never unbounded;
 * - dates (`date` and `date-time` formats) lie in the supported years, `SUPPORTED_YEARS`.
 */

/** Default bound of a request number that states none: |x| <= 10^15 keeps cents exact in a double. */
export const NUMBER_LIMIT = 1e15;
/** Default bound of a request integer that states none: a PostgreSQL `integer`. */
export const INTEGER_LIMIT = 2_147_483_647;
/** The years a date may fall in (UTC), well inside what PostgreSQL and JavaScript dates hold. */
export const SUPPORTED_YEARS = { from: 1900, to: 9999 } as const;

const MIN_TIME = Date.UTC(SUPPORTED_YEARS.from, 0, 1);
const MAX_TIME = Date.UTC(SUPPORTED_YEARS.to + 1, 0, 1) - 1;

/** Whether a date is one the service stores and compares (years 1900-9999, UTC). */
export const isSupportedDate = (date: Date) => {
  const time = date.getTime();
  return Number.isFinite(time) && time >= MIN_TIME && time <= MAX_TIME;
};
export const SUPPORTED_DATE_MESSAGE = `must be a date between ${SUPPORTED_YEARS.from}-01-01 and ${SUPPORTED_YEARS.to}-12-31 (UTC)`;

type AjvFormat = ((value: string) => boolean) | { validate: (value: string) => boolean; compare?: unknown };
type AjvLike = {
  formats: Record<string, AjvFormat | RegExp | undefined>;
  addFormat(name: string, format: AjvFormat): unknown;
};

/** Narrows ajv's `date` and `date-time` formats to the supported years (Fastify's ajv `onCreate`). */
export function restrictDateFormats(ajv: AjvLike) {
  for (const name of ['date', 'date-time']) {
    const original = ajv.formats[name];
    if (!original) continue;
    const check =
      original instanceof RegExp
        ? (value: string) => original.test(value)
        : typeof original === 'function'
          ? original
          : original.validate;
    const validate = (value: string) => {
      if (!check(value)) return false;
      const date = new Date(name === 'date' ? `${value}T00:00:00.000Z` : value);
      return isSupportedDate(date);
    };
    ajv.addFormat(
      name,
      typeof original === 'object' && !(original instanceof RegExp) ? { ...original, validate } : validate,
    );
  }
}

type Schema = Record<string | symbol, unknown>;

const isNumeric = (type: unknown) =>
  type === 'number' ||
  type === 'integer' ||
  (Array.isArray(type) && (type.includes('number') || type.includes('integer')));

/** A copy of a request schema where every number or integer without a bound gets the default one. */
export function boundNumbers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundNumbers);
  if (!schema || typeof schema !== 'object') return schema;
  const source = schema as Schema;
  const copy: Schema = {};
  for (const key of Reflect.ownKeys(source)) {
    const value = source[key];
    // `enum`, `const`, `default` and `examples` hold values, not schemas.
    copy[key] =
      typeof key === 'string' && ['enum', 'const', 'default', 'examples'].includes(key)
        ? value
        : boundNumbers(value);
  }
  if (isNumeric(source.type)) {
    const integer =
      source.type === 'integer' || (Array.isArray(source.type) && !source.type.includes('number'));
    const limit = integer ? INTEGER_LIMIT : NUMBER_LIMIT;
    if (source.maximum === undefined && source.exclusiveMaximum === undefined) copy.maximum = limit;
    if (source.minimum === undefined && source.exclusiveMinimum === undefined) copy.minimum = -limit;
  }
  return copy;
}

type Location = NonNullable<ProblemIssue['in']>;

/** Where a request value is unsafe: NUL in a string, or a number that is not finite. */
function findUnsafe(
  value: unknown,
  pointer: string,
  where: Location,
  issues: ProblemIssue[],
  checkStrings: boolean,
  depth = 0,
) {
  if (issues.length >= 20 || depth > 64) return;
  if (typeof value === 'string') {
    if (checkStrings && value.includes('\u0000'))
      issues.push({
        pointer: pointer || '/',
        message: 'must not contain the NUL character (U+0000)',
        in: where,
      });
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value))
      issues.push({ pointer: pointer || '/', message: 'must be a finite number', in: where });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      findUnsafe(item, `${pointer}/${i}`, where, issues, checkStrings, depth + 1);
    });
  } else if (value && typeof value === 'object') {
    // Plain parsed JSON or query objects only (the query parser's have a null-prototype class):
    // uploads (multipart parts, streams, buffers) are data.
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null && Object.getPrototypeOf(prototype) !== null)
      return;
    for (const [key, item] of Object.entries(value)) {
      const escaped = key.replace(/~/g, '~0').replace(/\//g, '~1');
      if (checkStrings && key.includes('\u0000'))
        issues.push({
          pointer: `${pointer}/${escaped}`,
          message: 'must not contain the NUL character (U+0000)',
          in: where,
        });
      findUnsafe(item, `${pointer}/${escaped}`, where, issues, checkStrings, depth + 1);
    }
  }
}

function assertSafe(request: FastifyRequest, checkStrings: boolean) {
  const issues: ProblemIssue[] = [];
  findUnsafe(request.params, '', 'params', issues, checkStrings);
  findUnsafe(request.query, '', 'query', issues, checkStrings);
  if (checkStrings) findUnsafe(request.headers, '', 'headers', issues, checkStrings);
  findUnsafe(request.body, '', 'body', issues, checkStrings);
  if (issues.length) {
    throw badRequest(issuesDetail(issues), issues);
  }
}

export function registerInputSafety(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['body', 'querystring', 'params', 'headers']) {
      if (schema[part]) schema[part] = boundNumbers(schema[part]);
    }
  });
  // Before validation: NUL anywhere, and JSON numbers too big for a double (1e309 parses as Infinity).
  app.addHook('preValidation', async (request) => assertSafe(request, true));
  // After validation: what type coercion made of "Infinity", "1e309" or "1e400".
  app.addHook('preHandler', async (request) => assertSafe(request, false));
}

/** Largest amount of money (price, unit price, amount, computed line total) the API accepts: 10^12. */
export const MONEY_MAX = 1e12;
/** Largest quantity the API accepts: 10^9. */
export const QUANTITY_MAX = 1e9;
/** Bound of every money and quantity column (CHECK constraints, migration 0017), aggregates included. */
export const STORED_NUMBER_MAX = 1e15;

/** A total computed from accepted values (quantity x unit price, sums) beyond MONEY_MAX: 422. */
export function assertTotalInRange(total: number, pointer: string) {
  if (Number.isFinite(total) && Math.abs(total) <= MONEY_MAX) return;
  throw new AppError(
    'total_out_of_range',
    `The computed total ${total} is beyond the supported ${MONEY_MAX.toExponential()}`,
    { issues: [{ pointer, message: `the computed total must not exceed ${MONEY_MAX}`, in: 'body' }] },
  );
}
