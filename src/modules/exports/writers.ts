/**
 * What an export writes: for each import type, the organisation's live records in the columns
 * that import reads (so an export can be edited and imported back), then one `cf.<key>` column per
 * live custom field definition of the entity, written as the import reads it (booleans
 * true/false, multi-select values joined by `|`, empty when unset). Text cells that a spreadsheet
 * would run as a formula are escaped (`spreadsheetSafe`); the import drops the escape again.
 */
import type { Executor } from '../../db/client.ts';
import { liveDefinitions } from '../custom-fields/validate.ts';
import { IMPORT_TYPES } from '../imports/import-types.ts';
import { type ExportFilter, findExportRecords, hasExportQuery } from './repository.ts';

const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value == null ? '' : String(value);

/**
 * CSV (formula) injection, OWASP: a spreadsheet runs a cell starting with `=`, `+`, `-` or `@` as
 * a formula (tab and carriage return lead to the same on some), so such a text cell is written
 * with a leading `'`, which spreadsheets read as "text follows". Cells that already start with
 * quotes before such a character get one more, so the import's rule (drop one leading `'` before
 * `'*[=+-@\t\r]`, src/modules/imports/csv.ts `unescapeCell`) gives every text back exactly.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** A number as the database writes it (`-12.5`, `3e-7`): a spreadsheet reads it as that number. */
const NUMBER = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i;

/**
 * The cell as written: a number column's number as it is (a negative amount stays a number), any
 * other cell escaped when it starts like a formula (also a number column's cell that is not a
 * number, which the database does not produce).
 */
export function spreadsheetSafe(text: string, numeric = false): string {
  if (numeric && NUMBER.test(text)) return text;
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The columns of each export type that hold numbers (the others hold text, dates, booleans). */
const NUMBER_COLUMNS: Record<string, ReadonlySet<string>> = {
  '18': new Set(['price', 'quantity']),
  '19': new Set(['billedAmount']),
};

/** A custom field value as the import reads it back. */
const cell = (value: unknown) => (Array.isArray(value) ? value.join('|') : iso(value));

/** The custom field entity of each export type (as its import). */
const CUSTOM_FIELD_ENTITY: Record<string, 'company' | 'contact' | 'article' | 'order'> = {
  '16': 'company',
  '17': 'contact',
  '18': 'article',
  '19': 'order',
};

/** The header and the rows (cells as text) of an export of this type. */
export async function exportRows(db: Executor, type: string, filter: ExportFilter) {
  const importType = IMPORT_TYPES.find((t) => t.code === type);
  if (!importType || !hasExportQuery(type)) throw new Error(`no export for type ${type}`);
  const definitions = await liveDefinitions(db, filter.organisationId, CUSTOM_FIELD_ENTITY[type]!);
  const keys = [...definitions.keys()];
  const header = [...importType.columns.map((c) => c.name), ...keys.map((key) => `cf.${key}`)];
  const numbers = NUMBER_COLUMNS[type] ?? new Set<string>();
  const records = await findExportRecords(db, type, filter);
  const rows = records.map((row) => {
    const custom = (row.customFields ?? {}) as Record<string, unknown>;
    return [
      ...importType.columns.map((column) => spreadsheetSafe(iso(row[column.name]), numbers.has(column.name))),
      ...keys.map((key) => spreadsheetSafe(cell(custom[key]), definitions.get(key)!.type === 'number')),
    ];
  });
  return { header, rows };
}
