import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { AppError } from '../../platform/errors.ts';
import type { CustomFieldDefinition } from '../custom-fields/validate.ts';
import { DELIMITERS } from './import-types.ts';
import type { ImportType, InputRow } from './types.ts';

/** Longest accepted record, in characters (a runaway quote stops here instead of eating memory). */
const MAX_RECORD_SIZE = 1_000_000;

/**
 * The records of a CSV byte stream, parsed as they arrive (the source is read as the consumer
 * asks, never in whole). UTF-8 with or without BOM, quoted fields. Blank lines come out as
 * records of empty cells (see isBlank), so that counting records counts the rows of the file.
 */
export function csvRecords(source: AsyncIterable<Buffer>, delimiter: string): AsyncIterable<string[]> {
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_SIZE,
  });
  // The pipeline ends the parser when the source ends and destroys both when either fails or the
  // consumer stops early; errors reach the consumer through the parser's iterator.
  pipeline(Readable.from(source), parser).catch(() => {});
  return parser as AsyncIterable<string[]>;
}

/** A blank line, or a line of empty cells (`,,,`): counted as a row, otherwise ignored. */
export const isBlank = (record: string[]) => record.every((cell) => cell.trim() === '');

export const isCsvError = (error: unknown): error is CsvError => error instanceof CsvError;

/** A header cell: a known column (canonical name) or a custom field (`cf.<key>`). */
export type HeaderCell = { kind: 'column'; name: string } | { kind: 'custom'; key: string };

export type Header = {
  cells: HeaderCell[];
  /** Known columns present (canonical names). */
  columns: Set<string>;
};

const CUSTOM_PREFIX = /^cf\./i;

/**
 * Reads the header row against the type's columns and the organisation's custom fields.
 * Returns the header, or why the file is refused (missing required columns, unknown or repeated
 * columns), with a hint when the header looks split by another delimiter.
 */
export function readHeader(
  record: string[],
  type: ImportType,
  definitions: ReadonlyMap<string, CustomFieldDefinition>,
  delimiter: string,
): { header: Header } | { reason: string } {
  const known = new Map(type.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const problems: string[] = [];
  const cells: HeaderCell[] = [];
  const columns = new Set<string>();
  const seen = new Set<string>();
  const unknown: string[] = [];
  record.forEach((raw, index) => {
    const text = raw.trim();
    if (text === '') {
      problems.push(`column ${index + 1} of the header has no name`);
      cells.push({ kind: 'column', name: '' });
      return;
    }
    let cell: HeaderCell | undefined;
    if (CUSTOM_PREFIX.test(text)) {
      const key = text.slice(3).trim();
      if (definitions.has(key)) cell = { kind: 'custom', key };
    } else {
      const name = known.get(text.toLowerCase());
      if (name) cell = { kind: 'column', name };
    }
    if (!cell) {
      unknown.push(text);
      cells.push({ kind: 'column', name: '' });
      return;
    }
    const id = cell.kind === 'custom' ? `cf.${cell.key}` : cell.name;
    if (seen.has(id)) problems.push(`the column ${id} appears twice`);
    seen.add(id);
    if (cell.kind === 'column') columns.add(cell.name);
    cells.push(cell);
  });
  if (unknown.length) {
    problems.push(
      `unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.map((u) => `"${u.slice(0, 100)}"`).join(', ')}` +
        ` (expected: ${type.columns.map((c) => c.name).join(', ')}, or cf.<key> for a custom field)`,
    );
  }
  const missing = type.required.filter((name) => !columns.has(name));
  if (missing.length)
    problems.push(`required column${missing.length > 1 ? 's' : ''} missing: ${missing.join(', ')}`);
  const rule = type.checkHeader?.(columns);
  if (rule) problems.push(rule);
  if (problems.length === 0) return { header: { cells, columns } };

  let reason = `The header row is not valid: ${problems.join('; ')}.`;
  if (record.length === 1) {
    const other = DELIMITERS.find((d) => d.value !== delimiter && record[0]!.includes(d.value));
    const used = DELIMITERS.find((d) => d.value === delimiter);
    if (other) {
      reason += ` The header is a single column: the file seems to be delimited by ${other.name} (${JSON.stringify(other.value)}), not ${used?.name ?? JSON.stringify(delimiter)}.`;
    }
  }
  return { reason };
}

/** An exported cell escaped against formula injection: quotes, then `= + - @`, tab or CR. */
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;

/**
 * A cell as it was before the export escaped it (src/modules/exports/writers.ts `spreadsheetSafe`):
 * one leading `'` dropped before `'*[=+-@\t\r]`, so an exported file imports back as it was
 * (`'=x` is `=x`, `''=x` is `'=x`). Any other cell is left as it is.
 */
export const unescapeCell = (cell: string) => (ESCAPED_FORMULA.test(cell) ? cell.slice(1) : cell);

/** A data record as a row of the header's columns, or why its shape is wrong. */
export function toInputRow(
  header: Header,
  record: string[],
  line: number,
): { row: InputRow; shapeError?: string } {
  const values: Record<string, string> = {};
  const customFields: Record<string, string> = {};
  const count = Math.min(record.length, header.cells.length);
  for (let i = 0; i < count; i++) {
    const cell = header.cells[i]!;
    const value = unescapeCell(record[i]!);
    if (cell.kind === 'custom') customFields[cell.key] = value;
    else if (cell.name) values[cell.name] = value;
  }
  const row = { row: line, values, customFields };
  if (record.length !== header.cells.length) {
    return {
      row,
      shapeError: `has ${record.length} value${record.length === 1 ? '' : 's'} but the header has ${header.cells.length} columns`,
    };
  }
  return { row };
}

export const notCsv = (why: string) => new AppError('not_csv', `The file is not CSV text: ${why}`);

/**
 * Checks, piece by piece while it is received, that a file is text: no NUL byte (binary files
 * and UTF-16 text have them) and valid UTF-8.
 */
export function textInspector() {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  return {
    push(chunk: Buffer) {
      if (first && chunk.length >= 2) {
        first = false;
        if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
          throw notCsv('it is UTF-16 text; save it as UTF-8');
        }
      }
      if (chunk.indexOf(0) !== -1) throw notCsv('it contains NUL bytes (a binary file)');
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        throw notCsv('it is not UTF-8 text');
      }
    },
    end() {
      try {
        decoder.decode();
      } catch {
        throw notCsv('it is not UTF-8 text (it ends inside a character)');
      }
    },
  };
}
