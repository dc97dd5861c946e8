import type { TFunction } from 'i18next';
import { fieldMessage } from '../../ui/problem.ts';

/**
 * Issue 26: an import's row errors in the user's words and language. The service records each
 * refused cell with an English message (stats.errors, also mailed and downloadable); the app shows
 * the catalogue's sentence instead: the import's own rules by their wording (`imports.rowProblems`),
 * the usual value checks (at most N characters, at least N, an e-mail) as the forms word them
 * (`common.fieldProblems`), anything else as "This value is not valid" (never the English text
 * outside English).
 */
const ROW_ERRORS: [RegExp, string, (m: RegExpExecArray) => Record<string, unknown>][] = [
  [/^no company has the external id "(.*?)"/, 'unknownCompany', (m) => ({ key: m[1] })],
  [/^no order status has the internal label "(.*)"$/, 'unknownStatus', (m) => ({ label: m[1] })],
  [/^must not be empty: an article belongs to a company$/, 'companyRequired', () => ({})],
  [/^is required to create an? /, 'requiredToCreate', () => ({})],
  [/^is required: the contact signs in with it$/, 'signInEmail', () => ({})],
  [/^is the company itself$/, 'selfParent', () => ({})],
  [/^would make the company hierarchy a cycle$/, 'cycle', () => ({})],
  [/^needs an externalId or an email to be matched$/, 'noKey', () => ({})],
  [/(belongs to|is the e-mail of) a user who is not a contact$/, 'notContact', () => ({})],
  [/^is the e-mail of the contact with external id "(.*)"$/, 'emailOfContact', (m) => ({ key: m[1] })],
  [/^is already the (e-mail|username) of another user$/, 'emailTaken', () => ({})],
  [/^cannot change: the order has a project or shipping address/, 'companyLocked', () => ({})],
  [/^must not be before (\S+)$/, 'notBefore', (m) => ({ field: m[1] })],
  [/^must be true\/false, 1\/0 or yes\/no$/, 'boolean', () => ({})],
  [/^must be a number/, 'number', () => ({})],
  [/^must be a date/, 'date', () => ({})],
  [/^is not a custom field$/, 'notCustomField', () => ({})],
  [/^could not be written/, 'notWritten', () => ({})],
  [/^could not be imported$/, 'rowFailed', () => ({})],
];

/** Usual value checks worded as the API's schema messages, so the forms' sentences apply. */
const AS_FIELD: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^must not be empty$/, () => 'is required'],
  [/^has a value longer than (\d+) characters?$/, (m) => `must NOT have more than ${m[1]} characters`],
  [/^must have at most (\d+) characters?$/, (m) => `must NOT have more than ${m[1]} characters`],
  [/^must be at least (.+)$/, (m) => `must be >= ${m[1]}`],
  [/^is not an e-mail address$/, () => 'must match format "email"'],
];

/** The sentence of one recorded row error, in the user's language. */
export function importErrorMessage(message: string, t: TFunction): string {
  for (const [pattern, key, values] of ROW_ERRORS) {
    const match = pattern.exec(message);
    if (match) return t(`imports.rowProblems.${key}`, values(match));
  }
  for (const [pattern, as] of AS_FIELD) {
    const match = pattern.exec(message);
    if (match) return fieldMessage(as(match), t);
  }
  const field = fieldMessage(message, t);
  return field === t('common.fieldProblems.invalid') ? t('imports.rowProblems.other') : field;
}
