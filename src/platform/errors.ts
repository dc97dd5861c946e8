import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorCode, type ErrorStatus, errorSpec, isErrorCode, statusesOf } from './error-codes.ts';
import { registerErrorCodeDocs } from './error-openapi.ts';

export type ProblemIssue = {
  pointer: string;
  message: string;
  in?: 'body' | 'query' | 'params' | 'headers';
  /**
   * The rule the value broke, for clients that word the message themselves (the web app, in the
   * user's language): the JSON Schema keyword of a schema check (`minLength`, `maximum`, `type`,
   * `format`, `pattern`, `required`, `enum`...). `message` stays the English text.
   */
  keyword?: string;
  /** The rule's parameters, as JSON Schema names them (`limit`, `type`, `format`, `allowedValues`...). */
  params?: Record<string, unknown>;
};

/** What an error carries besides its code and detail. */
export type AppErrorExtras = {
  issues?: ProblemIssue[];
  headers?: Record<string, string>;
  /** Only for the few codes registered with `alsoStatus`; otherwise the code's own status. */
  status?: ErrorStatus;
};

/**
 * An error meant for the client: rendered as RFC 9457 problem+json with a stable `code` of the
 * registry (src/platform/error-codes.ts), whose status it answers with.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly issues?: ProblemIssue[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, extras: AppErrorExtras = {}) {
    super(message);
    this.code = code;
    this.status = extras.status ?? errorSpec(code).status;
    if (!statusesOf(code).includes(this.status as ErrorStatus))
      throw new Error(`${code} is not registered with status ${this.status} (src/platform/error-codes.ts)`);
    this.issues = extras.issues;
    // Every 401 asks for a bearer credential (RFC 9110 11.6.1).
    this.headers = this.status === 401 ? { 'www-authenticate': 'Bearer', ...extras.headers } : extras.headers;
  }
}

// Shorthands for the generic code of a status; a specific code is `new AppError(code, detail)`.
export const badRequest = (message: string, issues?: ProblemIssue[]) =>
  new AppError('validation_failed', message, { issues });
export const unauthorized = (message = 'A valid credential is required') =>
  new AppError('unauthorized', message);
export const forbidden = (message = 'Your role does not allow this operation') =>
  new AppError('forbidden', message);
export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);
export const conflict = (message: string) => new AppError('conflict', message);
export const unprocessable = (message: string, issues?: ProblemIssue[]) =>
  new AppError('business_rule', message, { issues });
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts, retry later') =>
  new AppError('too_many_requests', message, { headers: { 'retry-after': String(retryAfterSeconds) } });

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  requestId?: string;
  errors?: ProblemIssue[];
  /** How many issues were found, when there are more than the MAX_ISSUES listed in `errors`. */
  errorsTotal?: number;
};

/**
 * A problem stays small whatever the request (issue 23: a 649 KB body with 60,000 unknown
 * properties answered 6.9 MB): it lists at most MAX_ISSUES issues and counts the rest in
 * `errorsTotal`, and clips each pointer, message and the detail.
 */
export const MAX_ISSUES = 20;
const MAX_POINTER_LENGTH = 200;
const MAX_MESSAGE_LENGTH = 300;
const MAX_DETAIL_LENGTH = 2000;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The first MAX_ISSUES issues, clipped, and how many there were when some were left out. */
function boundedIssues(issues: ProblemIssue[]): Pick<Problem, 'errors' | 'errorsTotal'> {
  const errors = issues.slice(0, MAX_ISSUES).map((issue) => ({
    ...issue,
    pointer: clip(issue.pointer, MAX_POINTER_LENGTH),
    message: clip(issue.message, MAX_MESSAGE_LENGTH),
  }));
  return issues.length > MAX_ISSUES ? { errors, errorsTotal: issues.length } : { errors };
}

/** The detail of a validation failure: its first issues, and how many more there are. */
export function issuesDetail(issues: ProblemIssue[]): string {
  const listed = issues
    .slice(0, MAX_ISSUES)
    .map((e) => `${e.in} ${clip(e.pointer, MAX_POINTER_LENGTH)} ${clip(e.message, MAX_MESSAGE_LENGTH)}`)
    .join('; ');
  return issues.length > MAX_ISSUES ? `${listed}; and ${issues.length - MAX_ISSUES} more` : listed;
}

/**
 * Fastify's message of a validation error (schemaErrorFormatter): the handler below answers from
 * the issues themselves, so this only names the first ones instead of joining every one of them.
 */
export function formatSchemaErrors(
  errors: Array<{ instancePath?: string; message?: string }>,
  dataVar: string,
): Error {
  const listed = errors
    .slice(0, MAX_ISSUES)
    .map((e) => `${dataVar}${e.instancePath ?? ''} ${e.message ?? 'is invalid'}`)
    .join(', ');
  return new Error(errors.length > MAX_ISSUES ? `${listed}, and ${errors.length - MAX_ISSUES} more` : listed);
}

// Tests and development fail loudly on a code missing from the registry; production answers anyway.
const STRICT_CODES = process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development';

/**
 * The problem document of a registered code, as the error handler renders it, for an answer made
 * ahead of time (the provisional answer of an idempotency key, platform/idempotency.ts).
 */
export function problemDocument(
  code: ErrorCode,
  detail: string,
  where: { instance: string; requestId: string },
): Problem {
  const { status } = errorSpec(code);
  return {
    type: `https://problems.packaging-quote.dev/${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...where,
  };
}

function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: Omit<Problem, 'type' | 'title' | 'code' | 'errorsTotal'> & { code: string },
) {
  if (STRICT_CODES && !isErrorCode(problem.code))
    throw new Error(`Unregistered error code "${problem.code}": add it to src/platform/error-codes.ts`);
  const { errors, ...rest } = problem;
  const body: Problem = {
    type: `https://problems.packaging-quote.dev/${problem.code}`,
    title: TITLES[problem.status] ?? 'Error',
    ...rest,
    detail: clip(problem.detail, MAX_DETAIL_LENGTH),
    ...(errors ? boundedIssues(errors) : {}),
    code: problem.code as ErrorCode, // framework codes are checked above, not by the compiler
    instance: request.url.split('?')[0],
    requestId: request.id,
  };
  return reply.status(problem.status).type('application/problem+json').send(body);
}

type AjvIssue = { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> };

/**
 * The keyword and parameters of a schema issue, for a client to translate (issue 26). The
 * parameters are ajv's, minus those that only repeat the pointer; long lists are clipped like
 * messages so a problem stays small.
 */
function machineReadable(issue: AjvIssue): Pick<ProblemIssue, 'keyword' | 'params'> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(issue.params ?? {})) {
    if (name === 'missingProperty' || name === 'additionalProperty') continue;
    params[name] = Array.isArray(value) ? value.slice(0, MAX_ISSUES) : value;
  }
  return Object.keys(params).length ? { keyword: issue.keyword, params } : { keyword: issue.keyword };
}

function issuesFromValidation(error: FastifyError): ProblemIssue[] {
  const where = (error.validationContext ?? 'body') as 'body' | 'querystring' | 'params' | 'headers';
  const location = where === 'querystring' ? 'query' : where;
  return ((error.validation ?? []) as AjvIssue[]).map((issue) => {
    let pointer = issue.instancePath || '';
    let message = issue.message ?? 'is invalid';
    if (issue.keyword === 'required') pointer += `/${String(issue.params.missingProperty)}`;
    if (issue.keyword === 'additionalProperties') {
      pointer += `/${String(issue.params.additionalProperty)}`;
      message = 'is not an accepted property';
    }
    if (
      issue.keyword === 'enum' ||
      (issue.keyword === 'anyOf' && Array.isArray(issue.params.allowedValues))
    ) {
      message = `must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    }
    if (issue.keyword === 'format' && issue.params.format === 'uuid') message = 'must be a UUID';
    return { pointer: pointer || '/', message, in: location, ...machineReadable(issue) };
  });
}

/** Merges union-branch noise (anyOf of literals) into one message per pointer. */
function dedupe(issues: ProblemIssue[]): ProblemIssue[] {
  const seen = new Map<string, ProblemIssue>();
  for (const issue of issues) {
    const key = `${issue.in}:${issue.pointer}`;
    const existing = seen.get(key);
    if (!existing || existing.message.startsWith('must be equal to constant')) seen.set(key, issue);
  }
  return [...seen.values()];
}

const PG_ERRORS: Record<string, { status: ErrorStatus; code: ErrorCode; detail: string }> = {
  '23505': { status: 409, code: 'duplicate', detail: 'A record with the same unique value already exists' },
  '23503': {
    status: 409,
    code: 'reference_conflict',
    detail: 'A referenced record does not exist or is in use',
  },
  '22003': { status: 400, code: 'value_out_of_range', detail: 'A numeric value is out of range' },
  // Backstops behind the request checks of platform/input-safety.ts: characters PostgreSQL cannot
  // store (NUL), dates outside its range, and CHECK constraints (money and quantities finite and
  // in range, computed totals included).
  '22021': {
    status: 400,
    code: 'invalid_character',
    detail: 'A text value contains a character that cannot be stored',
  },
  '22P05': {
    status: 400,
    code: 'invalid_character',
    detail: 'A text value contains a character that cannot be stored',
  },
  '22008': { status: 400, code: 'date_out_of_range', detail: 'A date is out of the supported range' },
  '22007': { status: 400, code: 'invalid_value', detail: 'A date has an invalid format' },
  '22P02': { status: 400, code: 'invalid_value', detail: 'A value has an invalid format' },
  '23514': {
    status: 422,
    code: 'value_out_of_range',
    detail: 'A value (or a total computed from it) is outside its allowed range',
  },
  '40001': { status: 409, code: 'serialization_failure', detail: 'A concurrent change conflicted; retry' },
};

/** The client-facing meaning of a database error, looking through the query builder's wrapper. */
function databaseErrorOf(error: unknown): (typeof PG_ERRORS)[string] | undefined {
  for (let current = error, depth = 0; current && depth < 3; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && PG_ERRORS[code]) return PG_ERRORS[code];
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance) {
  registerErrorCodeDocs(app);
  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendProblem(request, reply, {
        status: error.status,
        code: error.code,
        detail: error.message,
        ...(error.issues ? { errors: error.issues } : {}),
      });
    }
    if (error.validation) {
      const errors = dedupe(issuesFromValidation(error));
      return sendProblem(request, reply, {
        status: 400,
        code: 'validation_failed',
        detail: issuesDetail(errors),
        errors,
      });
    }
    const pgError = databaseErrorOf(error);
    if (pgError) {
      request.log.info({ err: error }, 'database constraint refused the change');
      return sendProblem(request, reply, pgError);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type...
      // A body cut off by the client or by the request timeout (Node answered 408 and closed the
      // connection): the content type parser's read fails with ECONNRESET.
      const code =
        error.code === 'ECONNRESET'
          ? 'request_aborted'
          : (error.code ?? 'bad_request').replace(/^FST_ERR_/, '').toLowerCase();
      if (code === 'request_aborted') request.log.info('request cut off before its body arrived');
      if (status === 429 && reply.getHeader('retry-after') === undefined) reply.header('retry-after', '60');
      return sendProblem(request, reply, { status, code, detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, {
      status: 500,
      code: 'internal_error',
      detail: 'internal error',
    });
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, {
      status: 404,
      code: 'route_not_found',
      detail: `No route ${request.method} ${request.url.split('?')[0]}`,
    }),
  );
}
