/**
 * Which die-line file a request asks for: `?format=` first, else the `Accept` header (RFC 9110
 * 12.5.1, quality values honoured), else the PDF template. 406 when Accept names none we write.
 */
import { AppError } from '../../platform/errors.ts';

export const DIELINE_FORMATS = {
  pdf: { mediaType: 'application/pdf', extension: 'pdf' },
  dxf: { mediaType: 'image/vnd.dxf', extension: 'dxf' },
  cf2: { mediaType: 'application/x-cf2', extension: 'cf2' },
} as const;

export type DieLineFormat = keyof typeof DIELINE_FORMATS;
export const FORMAT_NAMES = Object.keys(DIELINE_FORMATS) as DieLineFormat[];

interface Range {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

function parseAccept(header: string): Range[] {
  return header
    .split(',')
    .map((part, order) => {
      const [range = '', ...params] = part.trim().split(';');
      const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
      const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type, subtype, q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((r) => r.type && r.subtype);
}

/** How specifically a range matches a media type (-1: not at all). */
function specificity(range: Range, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  if (range.type === '*' && range.subtype === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  return range.subtype === subtype ? 2 : -1;
}

export function negotiateFormat(
  format: DieLineFormat | undefined,
  accept: string | undefined,
): DieLineFormat {
  if (format) return format;
  if (!accept?.trim()) return 'pdf';
  const ranges = parseAccept(accept);
  let best: { format: DieLineFormat; q: number; order: number } | undefined;
  for (const name of FORMAT_NAMES) {
    // The most specific range that matches decides the type's quality (RFC 9110 12.5.1).
    const matching = ranges
      .map((r) => ({ r, s: specificity(r, DIELINE_FORMATS[name].mediaType) }))
      .filter((m) => m.s >= 0)
      .sort((a, b) => b.s - a.s || a.r.order - b.r.order)[0];
    if (!matching || matching.r.q <= 0) continue;
    const candidate = { format: name, q: matching.r.q, order: matching.s === 0 ? 1000 : matching.r.order };
    if (!best || candidate.q > best.q || (candidate.q === best.q && candidate.order < best.order))
      best = candidate;
  }
  if (!best)
    throw new AppError(
      'not_acceptable',
      `The die-line is available as ${FORMAT_NAMES.map((n) => DIELINE_FORMATS[n].mediaType).join(', ')}; ask for one in Accept or with ?format=${FORMAT_NAMES.join('|')}`,
    );
  return best.format;
}

/** The whole-brief template is a PDF only: 406 unless Accept takes application/pdf (or is absent). */
export function negotiatePdf(accept: string | undefined): 'pdf' {
  if (!accept?.trim()) return 'pdf';
  const takesPdf = parseAccept(accept).some(
    (r) => r.q > 0 && specificity(r, DIELINE_FORMATS.pdf.mediaType) >= 0,
  );
  if (!takesPdf)
    throw new AppError(
      'not_acceptable',
      'The whole-brief die-line file is a PDF only: accept application/pdf',
    );
  return 'pdf';
}
