import i18next, { type TFunction } from 'i18next';
import { ApiError } from '../api/client.ts';

/**
 * The API's refusals in the user's language. The API writes problem+json `detail` and the field
 * messages in English; the app maps the stable `code` to a translated message (`common.problems`)
 * and the usual validation messages to translated ones (`common.fieldProblems`). In English the
 * API's own `detail` is shown: it names the record or the state and says more than a generic
 * message. An unknown code falls back to the `detail` (better English than nothing).
 */

const english = () => (i18next.resolvedLanguage ?? i18next.language ?? 'en').startsWith('en');

/** The message to show for an error of a call (a refusal, a fault or anything thrown). */
export function problemMessage(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const { code, detail, status, requestId } = error.problem as ApiError['problem'] & { requestId?: string };
  if (status >= 500) {
    const message = t('common.problems.internal_error');
    return requestId ? `${message} (${t('common.problems.requestId')} ${requestId})` : message;
  }
  if (english() && detail) return detail;
  const key = code ? `common.problems.${code}` : undefined;
  if (key && t(key, { defaultValue: '' })) return t(key);
  if (detail) return detail;
  const byStatus = `common.problems.status${status}`;
  return t(byStatus, { defaultValue: '' }) || error.message;
}

/** Whether the call's answer was 404: a missing (or foreign) record, where retrying cannot help. */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.problem.status === 404;

/** Whether retrying can help: faults and throttling, not refusals of the request itself. */
export const isRetryable = (error: unknown) =>
  !(error instanceof ApiError) || error.problem.status >= 500 || error.problem.status === 429;

/** The usual validation messages of the API (JSON Schema, then its own checks), by pattern. */
const FIELD_PATTERNS: [RegExp, string, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^must have required property/, 'required', () => ({})],
  [/^must be a UUID$/, 'uuid', () => ({})],
  [/^is not an accepted property$/, 'notAccepted', () => ({})],
  [/^must match format "email"$/, 'email', () => ({})],
  [/^must match format "(uri|url)"$/, 'url', () => ({})],
  [/^must match format "date(-time)?"$/, 'date', () => ({})],
  [/^must NOT have fewer than (\d+) characters?$/, 'minLength', (m) => ({ n: m[1]! })],
  [/^must NOT have more than (\d+) characters?$/, 'maxLength', (m) => ({ n: m[1]! })],
  [/^must NOT have fewer than (\d+) items?$/, 'minItems', (m) => ({ n: m[1]! })],
  [/^must NOT have more than (\d+) items?$/, 'maxItems', (m) => ({ n: m[1]! })],
  [/^must be >= (.+)$/, 'min', (m) => ({ n: m[1]! })],
  [/^must be > (.+)$/, 'exclusiveMin', (m) => ({ n: m[1]! })],
  [/^must be <= (.+)$/, 'max', (m) => ({ n: m[1]! })],
  [/^must be < (.+)$/, 'exclusiveMax', (m) => ({ n: m[1]! })],
  [/^must be integer$/, 'integer', () => ({})],
  [/^must be number$/, 'number', () => ({})],
  [/^must be one of: (.+)$/, 'oneOf', (m) => ({ values: m[1]! })],
  [/already (taken|exists|in use)/i, 'taken', () => ({})],
];

/** One field message in the user's language (the API's words when no pattern matches). */
export function fieldMessage(message: string, t: TFunction): string {
  if (english()) return message;
  for (const [pattern, key, values] of FIELD_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return t(`common.fieldProblems.${key}`, values(match));
  }
  return message;
}

/**
 * The field errors of a refusal keyed by JSON pointer ("/name", "/briefElements/0/lengthDimension"),
 * in the user's language; the form shows each under the matching input.
 */
export function problemFields(error: unknown, t: TFunction): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [pointer, message] of Object.entries(error.fields)) out[pointer] = fieldMessage(message, t);
  return out;
}
