/**
 * The drawing primitives of the PDFs the service renders (A4, pdfkit): the document with its
 * embedded fonts, the page geometry and palette, the bytes of a finished document, and a
 * die-line drawn as vector paths.
 *
 * Text is set in DejaVu Sans (embedded, subset), so any name in any Latin, Greek or Cyrillic
 * script prints as typed.
 */
import { readFileSync } from 'node:fs';
import type PDFKitDocument from 'pdfkit';
import { boardColours, foldSnapshot, shade } from '../../pricing/geometry/fold-snapshot.ts';
import type { DieLine } from '../../pricing/index.ts';

export type RenderOptions = { compress?: boolean };

export const FONT = 'Body';
export const BOLD = 'Bold';

/**
 * pdfkit (with fontkit, its Unicode tables and a brotli decoder: about 10 MB of resident memory
 * once loaded) is imported on the first render rather than at start, since most processes never
 * render a PDF.
 */
let pdfkit: Promise<typeof PDFKitDocument> | undefined;
export function loadPdfkit() {
  pdfkit ??= import('pdfkit').then((module) => module.default);
  return pdfkit;
}

let fonts: { regular: Buffer; bold: Buffer } | undefined;
export function loadFonts() {
  fonts ??= {
    regular: readFileSync(new URL('./assets/DejaVuSans.ttf', import.meta.url)),
    bold: readFileSync(new URL('./assets/DejaVuSans-Bold.ttf', import.meta.url)),
  };
  return fonts;
}

export const INK = '#1d2430';
export const MUTED = '#5f6b7a';
export const RULE = '#c9d1db';
export const SHADE = '#eef2f6';
export const ACCENT = '#1f4e79';

export const MARGIN = 42;
/** Room kept above the bottom margin for the footer (the seller's identity line, the footer text). */
const FOOTER = 40;

export type Doc = PDFKit.PDFDocument;

/** A new document with the fonts registered, writing into `chunks`. */
export async function createDocument(options: RenderOptions & { title?: string; author?: string } = {}) {
  const PDFDocument = await loadPdfkit();
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // No default font: pdfkit would parse Helvetica's metrics for every document, unused here.
    font: null as unknown as string,
    bufferPages: true,
    compress: options.compress ?? true,
    info: {
      Title: options.title ?? 'Quote',
      Author: options.author ?? '',
      Creator: 'packaging-quote-service',
    },
  });
  doc.registerFont(FONT, regular);
  doc.registerFont(BOLD, bold);
  doc.font(FONT);
  return doc;
}

/** Collects the document's bytes once `end()` is called. */
export function bytesOf(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

export const contentWidth = (doc: Doc) => doc.page.width - MARGIN * 2;
export const bottomLimit = (doc: Doc) => doc.page.height - MARGIN - FOOTER;

/**
 * The folded box in 3/4 view scaled into the box (the 3D snapshot, `foldSnapshot`): the faces back
 * to front, filled with the board's colour shaded per face, their edges outlined. Answers whether
 * anything was drawn (a flat item folds into nothing).
 */
export function drawFoldedBox(
  doc: Doc,
  dieLine: DieLine,
  box: { x: number; y: number; width: number; height: number },
  kraft = false,
) {
  const snapshot = foldSnapshot(dieLine);
  if (!snapshot || snapshot.width <= 0 || snapshot.height <= 0) return false;
  const scale = Math.min(box.width / snapshot.width, box.height / snapshot.height);
  const offsetX = box.x + (box.width - snapshot.width * scale) / 2;
  const offsetY = box.y + (box.height - snapshot.height * scale) / 2;
  const colours = boardColours(kraft);
  doc.save();
  doc.lineJoin('round').lineWidth(0.4);
  for (const polygon of snapshot.polygons) {
    const points = polygon.points.map((p): [number, number] => [
      offsetX + p.x * scale,
      offsetY + p.y * scale,
    ]);
    const fill = shade(polygon.outside ? colours.outside : colours.inside, polygon.light);
    doc.polygon(...points).fillAndStroke(fill, colours.edge);
  }
  doc.restore();
  return true;
}

/** Draws a die-line scaled into the box: board, holes, cut (solid) and crease (dashed) lines. */
export function drawDieLine(
  doc: Doc,
  dieLine: DieLine,
  box: { x: number; y: number; width: number; height: number },
) {
  const scale = Math.min(box.width / dieLine.width, box.height / dieLine.height);
  const offsetX = box.x + (box.width - dieLine.width * scale) / 2;
  const offsetY = box.y + (box.height - dieLine.height * scale) / 2;
  const point = (x: number, y: number): [number, number] => [offsetX + x * scale, offsetY + y * scale];
  doc.save();
  if (dieLine.outline.length > 2) {
    doc.polygon(...dieLine.outline.map((p) => point(p.x, p.y))).fill('#f4ecdc');
  }
  for (const hole of dieLine.holes) {
    if (hole.length > 2) doc.polygon(...hole.map((p) => point(p.x, p.y))).fill('#ffffff');
  }
  doc.lineCap('round');
  const cuts = dieLine.segments.filter((s) => s.kind === 'CUT');
  const creases = dieLine.segments.filter((s) => s.kind === 'CREASE');
  for (const s of cuts) {
    doc.moveTo(...point(s.x1, s.y1)).lineTo(...point(s.x2, s.y2));
  }
  if (cuts.length) doc.lineWidth(0.7).strokeColor('#000000').stroke();
  for (const s of creases) {
    doc.moveTo(...point(s.x1, s.y1)).lineTo(...point(s.x2, s.y2));
  }
  if (creases.length) {
    doc.lineWidth(0.6).strokeColor('#c0392b').dash(3, { space: 2 }).stroke();
    doc.undash();
  }
  doc.restore();
  return { width: dieLine.width * scale, height: dieLine.height * scale, x: offsetX, y: offsetY };
}
