import type { ImportError } from '../../db/schema/imports.ts';
import { type CustomFieldDefinition, issueFor } from '../custom-fields/validate.ts';
import type { InputRow } from './types.ts';

/**
 * Reads the cells of one row, collecting its errors: each reader returns the converted value,
 * `undefined` when the column is not in the header (the field is left as it is), or `null` for
 * an empty cell (the value is cleared). A wrong value records an error and returns undefined.
 */
export class RowReader {
  readonly errors: ImportError[] = [];

  constructor(readonly input: InputRow) {}

  get failed() {
    return this.errors.length > 0;
  }

  error(column: string | null, message: string) {
    this.errors.push({ row: this.input.row, column, message });
  }

  has(column: string) {
    return column in this.input.values;
  }

  /** A text cell, trimmed; empty is null. */
  text(column: string, maxLength: number): string | null | undefined {
    const raw = this.input.values[column];
    if (raw === undefined) return undefined;
    const value = raw.trim();
    if (value === '') return null;
    if (value.length > maxLength) {
      this.error(column, `must have at most ${maxLength} characters`);
      return undefined;
    }
    return value;
  }

  email(column: string): string | null | undefined {
    const value = this.text(column, 320);
    if (value && !EMAIL.test(value)) {
      this.error(column, 'is not an e-mail address');
      return undefined;
    }
    return value;
  }

  boolean(column: string): boolean | null | undefined {
    const raw = this.input.values[column];
    if (raw === undefined) return undefined;
    const value = raw.trim();
    if (value === '') return null;
    const parsed = parseBoolean(value);
    if (parsed === undefined) this.error(column, 'must be true/false, 1/0 or yes/no');
    return parsed;
  }

  number(column: string, options: { minimum?: number } = {}): number | null | undefined {
    const raw = this.input.values[column];
    if (raw === undefined) return undefined;
    const value = raw.trim();
    if (value === '') return null;
    const parsed = parseNumber(value);
    if (parsed === undefined) {
      this.error(column, 'must be a number (a dot before decimals)');
      return undefined;
    }
    if (options.minimum !== undefined && parsed < options.minimum) {
      this.error(column, `must be at least ${options.minimum}`);
      return undefined;
    }
    return parsed;
  }

  /** `YYYY-MM-DD` (midnight UTC) or an ISO 8601 timestamp. */
  date(column: string): Date | null | undefined {
    const raw = this.input.values[column];
    if (raw === undefined) return undefined;
    const value = raw.trim();
    if (value === '') return null;
    const parsed = parseDate(value);
    if (!parsed) this.error(column, 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp');
    return parsed;
  }

  /** A `|`-separated list; empty is []. */
  list(column: string, maxItemLength: number): string[] | undefined {
    const raw = this.input.values[column];
    if (raw === undefined) return undefined;
    const items = splitList(raw);
    const long = items.find((item) => item.length > maxItemLength);
    if (long) {
      this.error(column, `has a value longer than ${maxItemLength} characters`);
      return undefined;
    }
    return items;
  }

  /**
   * The custom field values of the row merged into `current` (undefined on create). A cleared cell
   * removes the value. Required fields are enforced on create.
   */
  customFields(
    definitions: ReadonlyMap<string, CustomFieldDefinition>,
    current: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined {
    const cells = Object.entries(this.input.customFields);
    if (cells.length === 0 && current) return current;
    const result: Record<string, unknown> = { ...(current ?? {}) };
    for (const [key, raw] of cells) {
      const definition = definitions.get(key);
      const column = `cf.${key}`;
      if (!definition) {
        this.error(column, 'is not a custom field');
        continue;
      }
      const converted = convertCustomField(definition, raw);
      if ('error' in converted) {
        this.error(column, converted.error);
        continue;
      }
      const message = issueFor(definition, converted.value);
      if (message) this.error(column, message);
      else if (converted.value === null) delete result[key];
      else result[key] = converted.value;
    }
    if (!current) {
      for (const definition of definitions.values()) {
        if (
          definition.required &&
          !(definition.key in result) &&
          !this.errors.some((e) => e.column === `cf.${definition.key}`)
        ) {
          this.error(`cf.${definition.key}`, 'is required');
        }
      }
    }
    return result;
  }
}

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function parseBoolean(value: string): boolean | undefined {
  switch (value.trim().toLowerCase()) {
    case 'true':
    case '1':
    case 'yes':
      return true;
    case 'false':
    case '0':
    case 'no':
      return false;
    default:
      return undefined;
  }
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function parseNumber(value: string): number | undefined {
  const text = value.trim();
  if (!NUMBER.test(text)) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseDate(value: string): Date | undefined {
  const text = value.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const date = new Date(Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3])));
    // Refuse dates that roll over (2024-02-31).
    return date.toISOString().startsWith(text) ? date : undefined;
  }
  if (!DATE_TIME.test(text)) return undefined;
  // A timestamp without a zone is read as UTC.
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
  const date = new Date(zoned.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export const splitList = (raw: string) =>
  raw
    .split('|')
    .map((item) => item.trim())
    .filter(Boolean);

/** Converts a custom field cell to the value type of its definition; an empty cell is null. */
export function convertCustomField(
  definition: CustomFieldDefinition,
  raw: string,
): { value: unknown } | { error: string } {
  const text = raw.trim();
  if (text === '') return { value: null };
  switch (definition.type) {
    case 'boolean': {
      const value = parseBoolean(text);
      return value === undefined ? { error: 'must be true/false, 1/0 or yes/no' } : { value };
    }
    case 'number': {
      const value = parseNumber(text);
      return value === undefined ? { error: 'must be a number' } : { value };
    }
    case 'multi-select':
      return { value: splitList(text) };
    default:
      return { value: text };
  }
}

/** Compares two stored values (dates by time, objects by JSON). */
export function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    return stableJson(a) === stableJson(b);
  }
  return a === b;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The fields of `next` whose values differ from `current`. */
export function differences(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  return Object.keys(next).filter((key) => !same(current[key], next[key]));
}
