import i18next, { type TFunction } from 'i18next';
import { ApiError } from '../api/client.ts';

/**
 * The API's refusals in the user's words and language (issue 26). The API writes problem+json
 * `detail` and each issue's `message` in English for people reading the raw answer; the app never
 * shows them. It maps the stable `code` to a sentence of the catalogue (`common.problems`, one per
 * code of the registry: i18n/problems.ts) and each validation issue to a sentence by its JSON
 * Schema `keyword` and `params` (`common.fieldProblems`), put on the field its pointer names.
 * Issues of the service's own rules carry no keyword: their usual wordings are recognised, and
 * any other becomes "This value is not valid" (English keeps a service sentence that reads as one).
 */

type Issue = { pointer: string; message: string; keyword?: string; params?: Record<string, unknown> };

const language = () => i18next.resolvedLanguage ?? i18next.language ?? 'en';
const english = () => language().startsWith('en');

/** A number as the user's locale writes it (50,000,000 / 50 000 000 / 50.000.000). */
const formatNumber = (value: unknown) => {
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? new Intl.NumberFormat(language()).format(number) : String(value);
};

/** The catalogue sentence of a refusal's code (an unknown code: the sentence of its status). */
function codeSentence(problem: ApiError['problem'], t: TFunction): string {
  if (problem.code) {
    const sentence = t(`common.problems.${problem.code}`, { defaultValue: '' });
    if (sentence) return sentence;
  }
  return t(`common.problems.status${problem.status}`, { defaultValue: '' }) || t('common.error');
}

/** The message to show for an error of a call (a refusal, a fault or anything thrown). */
export function problemMessage(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const { status, requestId } = error.problem as ApiError['problem'] & { requestId?: string };
  if (status >= 500) {
    const message = t('common.problems.internal_error');
    return requestId ? `${message} (${t('common.problems.requestId')} ${requestId})` : message;
  }
  // A malformed id in the page's own address (params /id): nothing the user typed is wrong.
  const issues = error.problem.errors ?? [];
  if (issues.length && issues.every((issue) => issue.in === 'params'))
    return t('common.problems.invalidAddress');
  const sentence = codeSentence(error.problem, t);
  const listed = problemIssues(error, t);
  if (!listed.length) return sentence;
  const shown = listed
    .slice(0, MAX_LISTED)
    .map((issue) => t('common.problems.issue', { label: issue.label, message: issue.message }));
  if (listed.length > MAX_LISTED)
    shown.push(t('common.problems.more', { count: listed.length - MAX_LISTED }));
  return `${sentence} ${shown.join(' · ')}`;
}

/** How many issues the summary above a form names (each is also under its field). */
const MAX_LISTED = 5;

/** Whether the call's answer was 404: a missing (or foreign) record, where retrying cannot help. */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.problem.status === 404;

/** Whether retrying can help: faults and throttling, not refusals of the request itself. */
export const isRetryable = (error: unknown) =>
  !(error instanceof ApiError) || error.problem.status >= 500 || error.problem.status === 429;

/** The sentence key (and its values) of a schema issue, by its keyword and params. */
function byKeyword(issue: Issue): [string, Record<string, unknown>] | undefined {
  const params = issue.params ?? {};
  const limit = { n: formatNumber(params.limit), count: Number(params.limit) };
  switch (issue.keyword) {
    case undefined:
      return undefined;
    case 'required':
      return ['required', {}];
    case 'additionalProperties':
      return ['notAccepted', {}];
    case 'minLength':
      // An empty text where one is needed: the user left the field blank.
      return Number(params.limit) === 1 ? ['required', {}] : ['minLength', limit];
    case 'maxLength':
      return [issue.keyword, limit];
    case 'minItems':
    case 'maxItems':
      return [issue.keyword, limit];
    case 'minimum':
      return ['min', limit];
    case 'maximum':
      return ['max', limit];
    case 'exclusiveMinimum':
      return ['exclusiveMin', limit];
    case 'exclusiveMaximum':
      return ['exclusiveMax', limit];
    case 'multipleOf':
      return ['multipleOf', { n: formatNumber(params.multipleOf) }];
    case 'type': {
      const type = String(params.type);
      return [['integer', 'number', 'string', 'boolean'].includes(type) ? type : 'type', {}];
    }
    case 'format': {
      const format = String(params.format);
      if (format === 'uuid' || format === 'email') return [format, {}];
      if (format === 'uri' || format === 'url') return ['url', {}];
      if (format === 'date' || format === 'date-time') return ['date', {}];
      return ['format', {}];
    }
    case 'pattern':
      return [patternKey(params.pattern), {}];
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return ['oneOf', {}];
    case 'uniqueItems':
      return ['uniqueItems', {}];
    // The service's own rules that carry a keyword (docs/errors.md).
    case 'resetToken':
    case 'dateOrder':
    case 'emptyContact':
    case 'quoteLines':
      return [issue.keyword, {}];
    default:
      return ['invalid', {}];
  }
}

/**
 * The API's patterns (its schemas' `pattern`), each with a sentence of what it takes: a user reads
 * "letters, digits and underscores, starting with a letter", never the expression. Any other
 * pattern: the general sentence.
 */
const PATTERN_SENTENCES: [RegExp, string][] = [
  [/^\^\[a-zA-Z\]\[a-zA-Z0-9_\]/, 'patternIdentifier'],
  [/^\^\[A-Z(a-z)?\]\{2\}\$$/, 'patternCountry'],
  [/^\^\[A-Z\]\{3\}\$$|^\^\[A-Za-z\]\{3\}\$$/, 'patternCurrency'],
  [/^\^#\[0-9A-Fa-f\]\{6\}\$$/, 'patternColour'],
  [/^\^\[(a-z|A-Za-z)\]\{2,3\}/, 'patternLanguage'],
  [/^\\S$/, 'patternNotBlank'],
];

/** The sentence key of a pattern issue, by the pattern the API names in its params. */
export function patternKey(pattern: unknown): string {
  if (typeof pattern !== 'string') return 'pattern';
  return PATTERN_SENTENCES.find(([re]) => re.test(pattern))?.[1] ?? 'pattern';
}

/**
 * The usual wordings of issues without a keyword: the service's own checks, and problems from an
 * API older than the keywords.
 */
const FIELD_PATTERNS: [RegExp, string, (m: RegExpExecArray) => Record<string, unknown>][] = [
  [/^must have required property|^is required/, 'required', () => ({})],
  [/^must be a UUID$/, 'uuid', () => ({})],
  [/^is not an accepted property$/, 'notAccepted', () => ({})],
  [/^must match format "email"$|e-mail address/, 'email', () => ({})],
  [/^must match format "(uri|url)"$/, 'url', () => ({})],
  [/^must match format "date(-time)?"$/, 'date', () => ({})],
  [/^must match pattern "(.*)"$/, 'pattern', () => ({})],
  [/^must NOT have fewer than (\d+) characters?$/, 'minLength', (m) => numberValues(m[1])],
  [/^must NOT have more than (\d+) characters?$/, 'maxLength', (m) => numberValues(m[1])],
  [/^must NOT have fewer than (\d+) items?$/, 'minItems', (m) => numberValues(m[1])],
  [/^must NOT have more than (\d+) items?$/, 'maxItems', (m) => numberValues(m[1])],
  [/^must be >= (.+)$/, 'min', (m) => numberValues(m[1])],
  [/^must be > (.+)$/, 'exclusiveMin', (m) => numberValues(m[1])],
  [/^must be <= (.+)$/, 'max', (m) => numberValues(m[1])],
  [/^must be < (.+)$/, 'exclusiveMax', (m) => numberValues(m[1])],
  [/^must be integer$/, 'integer', () => ({})],
  [/^must be number$/, 'number', () => ({})],
  [/^must be (string|boolean)$/, 'type', () => ({})],
  [/^must be (one of|equal to)/, 'oneOf', () => ({})],
  [/already (taken|exists|in use|used)/i, 'taken', () => ({})],
  [/^at least one item\b/, 'quoteLines', () => ({})],
];
const numberValues = (text: string | undefined) => ({ n: formatNumber(text), count: Number(text) });

/** Text that is the API's wording of a rule, a pointer or an id: never shown to a user. */
const RAW =
  /\bmust\b|\b(body|params|query|headers) \/|\/[A-Za-z]+\/\d|[0-9a-f]{8}-[0-9a-f]{4}-|pattern|[{}^$]/i;
/** A property name in camelCase ("briefIds"): the API's words, not a person's. */
const PROPERTY_NAME = /\b[a-z]+[A-Z]\w*/;

/** One issue of a refusal as a sentence of the catalogue, in the user's language. */
export function fieldMessage(issue: Issue | string, t: TFunction): string {
  const value: Issue = typeof issue === 'string' ? { pointer: '', message: issue } : issue;
  const keyed = byKeyword(value);
  if (keyed) return t(`common.fieldProblems.${keyed[0]}`, keyed[1]);
  for (const [pattern, key, values] of FIELD_PATTERNS) {
    const match = pattern.exec(value.message);
    if (match && key === 'pattern') return t(`common.fieldProblems.${patternKey(match[1])}`);
    if (match) return t(`common.fieldProblems.${key}`, values(match));
  }
  // The service's own sentences are English and written for people: kept in English only.
  if (english() && value.message && !RAW.test(value.message) && !PROPERTY_NAME.test(value.message))
    return value.message;
  return t('common.fieldProblems.invalid');
}

/** The name of the field a pointer names, for the list above a form ("Quantity: at most 10"). */
export function fieldName(pointer: string, t: TFunction, labels: Record<string, string> = {}): string {
  if (labels[pointer]) return labels[pointer];
  const name = pointer
    .split('/')
    .reverse()
    .find((part) => part && !/^\d+$/.test(part));
  return (name && t(`common.fieldNames.${name}`, { defaultValue: '' })) || t('common.fieldNames.other');
}

/** The issues of a refusal, each with its field's name and its sentence (the first per pointer). */
export function problemIssues(
  error: unknown,
  t: TFunction,
  labels?: Record<string, string>,
): { pointer: string; label: string; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  return error.issues.map((issue) => ({
    pointer: issue.pointer,
    label: fieldName(issue.pointer, t, labels),
    message: fieldMessage(issue, t),
  }));
}

/**
 * The field errors of a refusal keyed by JSON pointer ("/name", "/briefElements/0/lengthDimension"),
 * in the user's language; the form shows each under the matching input.
 */
export function problemFields(error: unknown, t: TFunction): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[issue.pointer] = fieldMessage(issue, t);
  return out;
}
