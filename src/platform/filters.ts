import { Type } from '@sinclair/typebox';
import { badRequest } from './errors.ts';

/** A date filter or date field in a request: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 timestamp. */
export const dateInput = (description = 'ISO 8601 date (`YYYY-MM-DD`, midnight UTC) or timestamp') =>
  Type.String({ anyOf: [{ format: 'date' }, { format: 'date-time' }], description });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export const isDateOnly = (value: string) => DATE_ONLY.test(value);

export function toDate(value: string): Date {
  return new Date(isDateOnly(value) ? `${value}T00:00:00.000Z` : value);
}

/** The end of a range: a date alone covers its whole day, so the bound is the next midnight (exclusive). */
export function rangeEnd(value: string): { at: Date; inclusive: boolean } {
  if (isDateOnly(value)) {
    const at = toDate(value);
    at.setUTCDate(at.getUTCDate() + 1);
    return { at, inclusive: false };
  }
  return { at: toDate(value), inclusive: true };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A comma-separated list of UUIDs in a query string (`statusId=a,b`). */
export function uuidList(value: string, pointer: string): string[] {
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.filter((id) => !UUID.test(id));
  if (!ids.length || bad.length) {
    throw badRequest(`${pointer.slice(1)} must be a comma-separated list of UUIDs`, [
      { pointer, message: 'must be a comma-separated list of UUIDs', in: 'query' },
    ]);
  }
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** Escapes LIKE wildcards so a search term matches literally. */
export const likeEscape = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);
