/**
 * Preflight rules (docs/proofs.md), pure: what was read of the artwork against the line's
 * die-line. Each finding has a stable code, a severity and the figures its sentence is made of
 * (the web words it in the user's language: web/src/i18n/*.ts, `proofs.findings.<code>`).
 */
import type { ArtworkInfo, PreflightFinding } from '../../db/schema/proofs.ts';
import type { ArtworkReading } from './artwork.ts';

/** The resolution wanted at print size, and the one under which the artwork is refused. */
export const TARGET_PPI = 300;
export const MINIMUM_PPI = 150;
/** How far the artwork's size may be from the template's, mm. */
export const SIZE_TOLERANCE_MM = 1;

export const FINDING_CODES = [
  'low_resolution',
  'rgb_colour_space',
  'no_output_intent',
  'no_bleed',
  'wrong_size',
  'no_template',
  'unreadable',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

const finding = (
  code: FindingCode,
  severity: PreflightFinding['severity'],
  params: PreflightFinding['params'] = {},
): PreflightFinding => ({ code, severity, params });

const mm = (value: number) => Math.round(value * 10) / 10;

export function preflight(reading: ArtworkReading, blank: ArtworkInfo['blank']): PreflightFinding[] {
  const findings: PreflightFinding[] = [];
  if (blank) {
    const wantW = blank.widthMm + 2 * blank.bleedMm;
    const wantH = blank.heightMm + 2 * blank.bleedMm;
    const near = (a: number, b: number) => Math.abs(a - b) <= SIZE_TOLERANCE_MM;
    const { widthMm: w, heightMm: h } = reading;
    if (!(near(w, wantW) && near(h, wantH))) {
      const coversBlank = w >= blank.widthMm - SIZE_TOLERANCE_MM && h >= blank.heightMm - SIZE_TOLERANCE_MM;
      const withinTemplate = w <= wantW + SIZE_TOLERANCE_MM && h <= wantH + SIZE_TOLERANCE_MM;
      if (coversBlank && withinTemplate) {
        // The die-line is covered, the bleed around it is not.
        findings.push(
          finding('no_bleed', 'error', {
            widthMm: mm(w),
            heightMm: mm(h),
            requiredWidthMm: mm(wantW),
            requiredHeightMm: mm(wantH),
            bleedMm: blank.bleedMm,
          }),
        );
      } else {
        findings.push(
          finding('wrong_size', 'error', {
            widthMm: mm(w),
            heightMm: mm(h),
            expectedWidthMm: mm(wantW),
            expectedHeightMm: mm(wantH),
          }),
        );
      }
    }
  } else {
    findings.push(finding('no_template', 'warning'));
  }
  if (reading.minPpi !== null && reading.minPpi < TARGET_PPI) {
    findings.push(
      finding('low_resolution', reading.minPpi < MINIMUM_PPI ? 'error' : 'warning', {
        ppi: reading.minPpi,
        requiredPpi: TARGET_PPI,
      }),
    );
  }
  if (reading.colourSpaces.includes('RGB')) {
    findings.push(finding('rgb_colour_space', 'warning', { colourSpace: 'RGB' }));
  }
  if (reading.kind === 'pdf' && !reading.outputIntent) {
    findings.push(finding('no_output_intent', 'warning'));
  }
  return findings;
}

/** The one finding of an artwork its reader could not open. */
export const unreadable = (kind: string): PreflightFinding => finding('unreadable', 'error', { kind });
