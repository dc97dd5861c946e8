import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, type ErrorCode, type ErrorSpec, statusesOf } from '../src/platform/error-codes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
export const ERRORS_DOC_PATH = 'docs/errors.md';
export const CODES_BY_MODULE_PATH = 'src/platform/error-codes-by-module.ts';

/** The generic helpers of platform/errors.ts and the one code each stands for. */
const HELPER_CODES: Record<string, ErrorCode> = {
  badRequest: 'validation_failed',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  unprocessable: 'business_rule',
  tooManyRequests: 'too_many_requests',
};
const REGISTRY_FILES = new Set(['platform/error-codes.ts', 'platform/error-codes-by-module.ts']);

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });

/**
 * The registered codes each source file can answer with: every quoted registry code in it (the
 * first argument of `new AppError(`, a wrapper's code argument, the database and framework tables)
 * and the generic code of every helper it calls. A string that merely equals a code counts too:
 * the lists say what a route may answer, erring on the side of one code too many.
 */
export function scanThrownCodes(): Map<string, Set<ErrorCode>> {
  const byFile = new Map<string, Set<ErrorCode>>();
  for (const file of sourceFiles(SRC)) {
    const relative = path.relative(SRC, file).split(path.sep).join('/');
    // The registry itself, and the database schema whose column names may equal a code.
    if (REGISTRY_FILES.has(relative) || relative.startsWith('db/')) continue;
    const text = readFileSync(file, 'utf8');
    const codes = new Set<ErrorCode>();
    for (const [, code] of text.matchAll(/'([a-z][a-z0-9_]*)'/g))
      if (Object.hasOwn(ERROR_CODES, code as string)) codes.add(code as ErrorCode);
    for (const [, helper] of text.matchAll(/\b(\w+)\(/g))
      if (helper && Object.hasOwn(HELPER_CODES, helper)) codes.add(HELPER_CODES[helper] as ErrorCode);
    if (codes.size) byFile.set(relative, codes);
  }
  return byFile;
}

const moduleOf = (relative: string) => /^modules\/([^/]+)\//.exec(relative)?.[1];

/**
 * Module -> the codes its files throw, plus those of the other modules' files it imports directly
 * (quotes answer `invalid_reference` from orders/references.ts). `platform` holds the codes of
 * everything outside src/modules and of the framework and database: every route may answer them.
 */
export function codesByModule(): Record<string, ErrorCode[]> {
  const byFile = scanThrownCodes();
  const result = new Map<string, Set<ErrorCode>>([['platform', new Set()]]);
  const add = (module: string, codes: Iterable<ErrorCode>) => {
    const set = result.get(module) ?? new Set<ErrorCode>();
    for (const code of codes) set.add(code);
    result.set(module, set);
  };
  for (const [code, spec] of Object.entries(ERROR_CODES) as [ErrorCode, ErrorSpec][])
    if (spec.source) add('platform', [code]);
  for (const [relative, codes] of byFile) add(moduleOf(relative) ?? 'platform', codes);
  for (const file of sourceFiles(path.join(SRC, 'modules'))) {
    const relative = path.relative(SRC, file).split(path.sep).join('/');
    const module = moduleOf(relative) as string;
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/from '(\.\.?\/[^']+)'/g)) {
      const target = path
        .relative(SRC, path.resolve(path.dirname(file), specifier as string))
        .split(path.sep)
        .join('/');
      const targetModule = moduleOf(target);
      if (targetModule && targetModule !== module) add(module, byFile.get(target) ?? []);
    }
  }
  // Answered by the not-found handler and for unexpected failures, never declared by a route.
  result.get('platform')?.delete('route_not_found');
  result.get('platform')?.delete('internal_error');
  const order = Object.keys(ERROR_CODES);
  return Object.fromEntries(
    [...result]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([module, codes]) => [module, [...codes].sort((a, b) => order.indexOf(a) - order.indexOf(b))]),
  );
}

export function renderCodesByModule(): string {
  const entries = Object.entries(codesByModule())
    .map(
      ([module, codes]) =>
        `  ${/^[a-z]+$/.test(module) ? module : `'${module}'`}: [${codes.map((c) => `'${c}'`).join(', ')}],`,
    )
    .join('\n');
  return `// Generated from the source by \`npm run docs:errors\` (scripts/errors-doc.ts); do not edit by hand.
// The error codes each feature module throws; \`platform\` ones may come from any route.
import type { ErrorCode } from './error-codes.ts';

// biome-ignore format: generated, one line per module
export const CODES_BY_MODULE: Record<string, readonly ErrorCode[]> = {
${entries}
};
`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/errors.md: every code of the registry by status, with where it comes from. */
export function renderErrorsDoc(): string {
  const modules = codesByModule();
  const whereOf = (code: ErrorCode, spec: ErrorSpec) => {
    if (spec.source) return spec.source;
    const names = Object.entries(modules)
      .filter(([, codes]) => codes.includes(code))
      .map(([module]) => module);
    return names.join(', ') || '-';
  };
  const codes = (Object.entries(ERROR_CODES) as [ErrorCode, ErrorSpec][]).sort(
    ([a, x], [b, y]) => x.status - y.status || a.localeCompare(b),
  );
  const rows = codes
    .map(
      ([code, spec]) =>
        `| \`${code}\` | ${statusesOf(code).join(', ')} | ${cell(spec.title)} | ${cell(spec.description)} | ${whereOf(code, spec)} |`,
    )
    .join('\n');
  return `# Error codes

<!-- Generated from src/platform/error-codes.ts by \`npm run docs:errors\`; do not edit by hand. -->

Every error answer is an RFC 9457 \`application/problem+json\` document whose \`code\` is one of the
${codes.length} codes below (\`type\` ends with the code; \`title\` is the title of the HTTP status;
validation answers add \`errors: [{ pointer, message, in, keyword?, params? }]\`, at most 20 of them, with
\`errorsTotal\` counting every issue when there are more). Clients branch on \`code\`, never on
\`detail\`, which is for people.

An issue of a schema check also carries \`keyword\`, the JSON Schema rule the value broke, and
\`params\`, that rule's parameters as JSON Schema (ajv) names them, so a client can word the message
in its user's language instead of showing \`message\` (English text for people):

| keyword | params | example message |
|---|---|---|
| \`required\` | (none: the pointer names the missing property) | must have required property 'name' |
| \`additionalProperties\` | (none: the pointer names the property) | is not an accepted property |
| \`minLength\` / \`maxLength\` | \`limit\` | must NOT have fewer than 1 characters |
| \`minimum\` / \`maximum\` | \`limit\`, \`comparison\` | must be <= 50000000 |
| \`exclusiveMinimum\` / \`exclusiveMaximum\` | \`limit\`, \`comparison\` | must be > 0 |
| \`minItems\` / \`maxItems\` | \`limit\` | must NOT have fewer than 1 items |
| \`type\` | \`type\` (integer, number, string, boolean, object, array, null) | must be integer |
| \`format\` | \`format\` (uuid, email, uri, date, date-time) | must be a UUID |
| \`pattern\` | \`pattern\` | must match pattern "^[a-z]+$" |
| \`enum\`, \`const\`, \`anyOf\` | \`allowedValues\` (at most 20) | must be one of: a, b |

Issues found by the service's own rules (a custom field, an unknown reference) have a pointer and
a message, and no keyword. The existing fields keep their meaning: a client that ignores
\`keyword\` and \`params\` reads the same problem as before. The OpenAPI document lists, for each operation and status, the
codes it may answer. "From" names the feature modules that throw a code; \`platform\` codes may
come from any route.

| code | status | title | when, and what to do | from |
|---|---|---|---|---|
${rows}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(ROOT, ERRORS_DOC_PATH), renderErrorsDoc());
  writeFileSync(path.join(ROOT, CODES_BY_MODULE_PATH), renderCodesByModule());
  console.log(`${ERRORS_DOC_PATH} and ${CODES_BY_MODULE_PATH} written`);
}
