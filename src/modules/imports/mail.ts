import { IMPORT_STATUS } from '../../db/schema/imports.ts';
import { importTypeOf } from './import-types.ts';
import type { ImportRow } from './repository.ts';

/** Errors listed in the e-mail (the record keeps up to 100). */
const MAILED_ERRORS = 20;

/** The result e-mail of an import: what happened, the counts, the first errors, where to read more. */
export function resultMail(row: ImportRow, publicBaseUrl: string): { subject: string; text: string } {
  const type = importTypeOf(row.type);
  const what = `Import #${row.code} (${type?.name ?? `type ${row.type}`})${row.dryRun ? ', dry run' : ''}`;
  const s = row.stats;
  const counts =
    `${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.failed} failed` +
    ` (${s.rowsRead} of ${s.rowsTotal ?? '?'} rows read)`;
  let subject: string;
  const lines: string[] = [];
  if (row.status === IMPORT_STATUS.FAILED || (row.status === IMPORT_STATUS.CRASH && s.refused)) {
    subject = `${what}: the file was refused`;
    lines.push('The file was refused and nothing was imported.', '', `Reason: ${s.reason ?? 'unknown'}`);
  } else if (row.status === IMPORT_STATUS.CRASH) {
    subject = `${what}: processing failed`;
    lines.push(
      'Processing failed. The rows of the batches written before the failure were kept.',
      '',
      `Reason: ${s.reason ?? 'unknown'}`,
      '',
      counts,
    );
  } else {
    subject = `${what} done: ${s.created} created, ${s.updated} updated, ${s.deleted} deleted, ${s.failed} failed`;
    if (row.dryRun) lines.push('This was a dry run: nothing was written. What the import would do:', '');
    lines.push(counts);
  }
  if (s.errors.length) {
    const listed = Math.min(MAILED_ERRORS, s.errors.length);
    lines.push(
      '',
      listed < s.errors.length || s.failed > s.errors.length ? `First ${listed} errors:` : 'Errors:',
    );
    for (const error of s.errors.slice(0, MAILED_ERRORS)) {
      const where = [error.row ? `row ${error.row}` : null, error.column ? `column ${error.column}` : null]
        .filter(Boolean)
        .join(', ');
      lines.push(`- ${where ? `${where}: ` : ''}${error.message}`);
    }
  }
  if (s.durationMs !== null) lines.push('', `Duration: ${(s.durationMs / 1000).toFixed(1)} s`);
  lines.push('', `Details: ${publicBaseUrl}/api/imports/${row.id}`);
  return { subject, text: `${lines.join('\n')}\n` };
}
