import { IMPORT_STATUS, type ImportStatus, type ImportStatusName } from '../../db/schema/imports.ts';
import { articlesImport } from './articles.ts';
import { companiesImport } from './companies.ts';
import { contactsImport } from './contacts.ts';
import { ordersImport } from './orders.ts';
import type { ImportType } from './types.ts';

/** The import types by code. 16 is the specification's "companies by external id". */
export const IMPORT_TYPES: readonly ImportType[] = [
  companiesImport,
  contactsImport,
  articlesImport,
  ordersImport,
];

const byCode = new Map(IMPORT_TYPES.map((t) => [t.code, t]));
const byName = new Map(IMPORT_TYPES.map((t) => [t.name, t]));

/** The type for a code ("16") or a name ("companies"), or undefined. */
export function importTypeOf(value: string): ImportType | undefined {
  const text = value.trim();
  return byCode.get(text) ?? byName.get(text.toLowerCase());
}

export type Delimiter = { value: string; name: string; label: string };

export const DELIMITERS: readonly Delimiter[] = [
  { value: ',', name: 'comma', label: 'Comma (,)' },
  { value: ';', name: 'semicolon', label: 'Semicolon (;)' },
  { value: '\t', name: 'tab', label: 'Tab' },
  { value: '|', name: 'pipe', label: 'Pipe (|)' },
];

/** The delimiter character for a name (`comma`) or the character itself (`\t` also as `\\t`). */
export function delimiterOf(value: string): Delimiter | undefined {
  const text = value === '\t' ? value : value.trim();
  const lowered = text.toLowerCase();
  return DELIMITERS.find(
    (d) =>
      d.value === text ||
      d.name === lowered ||
      (d.value === '\t' && (text === '\\t' || lowered === 'tabulation')),
  );
}

export const STATUS_DESCRIPTIONS: Record<ImportStatusName, string> = {
  REQUESTED: 'Requested, not started',
  IN_PROGRESS: 'Being processed',
  ABORTED: 'Cancelled (rows of batches committed before the cancellation stay)',
  SENT: 'Done, and the result was e-mailed to the creator (or kept in the outbox when no SMTP server is set)',
  DONE: 'Done; the result e-mail has not been sent yet, or the SMTP server refused it',
  FAILED: 'Not used any more: a refused file ends in 7 CRASH with stats.refused (kept for older records)',
  CRASH:
    'Crashed or failed (see stats.reason): the file was refused (stats.refused true, nothing written), or ' +
    'processing failed unexpectedly (rows of committed batches stay)',
};

export const STATUS_NAMES = Object.fromEntries(
  Object.entries(IMPORT_STATUS).map(([name, code]) => [code, name]),
) as Record<ImportStatus, ImportStatusName>;

export const TERMINAL_STATUSES: readonly ImportStatus[] = [
  IMPORT_STATUS.ABORTED,
  IMPORT_STATUS.SENT,
  IMPORT_STATUS.FAILED,
  IMPORT_STATUS.CRASH,
];
