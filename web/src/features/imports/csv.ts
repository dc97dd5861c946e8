/**
 * CSV text for the files the imports screen offers (templates, row errors): RFC 4180 quoting, so a
 * message with a comma, a quote or a line break stays one cell; a text cell starting with = + - @,
 * a tab or a carriage return is prefixed with an apostrophe so a spreadsheet does not run it as a
 * formula (OWASP CSV injection); numbers (a line number, -12.5) are written as numbers.
 */
export function toCsv(rows: (string | number | null | undefined)[][], delimiter = ','): string {
  const cell = (value: string | number | null | undefined) => {
    let text = value === null || value === undefined ? '' : String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /["\r\n]/.test(text) || text.includes(delimiter) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${rows.map((row) => row.map(cell).join(delimiter)).join('\r\n')}\r\n`;
}

/** Offers text as a file download (a Blob URL, revoked once the click has started the download). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export type ImportTypeInfo = {
  code: string;
  name: string;
  requiredColumns: string[];
  columns: { name: string }[];
};

/** A template: the header row with the type's columns, required ones first, as the API lists them. */
export function templateCsv(type: ImportTypeInfo): string {
  const names = type.columns.map((c) => c.name);
  const ordered = [...type.requiredColumns.filter((c) => names.includes(c)), ...names];
  return toCsv([[...new Set(ordered)]]);
}

export type RowError = { row: number | null; column: string | null; message: string };

export const errorsCsv = (errors: RowError[]) =>
  toCsv([['line', 'column', 'message'], ...errors.map((e) => [e.row, e.column, e.message])]);
