/**
 * The 3D snapshot of the PDFs (issue 29): the folded box of the engine's die-line projected in 3/4
 * view, faces back to front (foldSnapshot), drawn by pdfkit (the quote PDF's die-line cells) and by
 * pdf-lib (the proof PDF, beside the artwork). The PDFs are rendered with pdftoppm and their pixels
 * read: the snapshot's area is drawn in the board's shaded colours; a flat item has none.
 * The PNGs stay in test-results/snapshot/ to be looked at.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawingOf } from '../../src/modules/dielines/drawing.ts';
import { proofPdf } from '../../src/modules/proofs/proof-pdf.ts';
import {
  bytesOf,
  createDocument,
  drawDieLine,
  drawFoldedBox,
} from '../../src/modules/quotes/pdf-document.ts';
import { foldSnapshot } from '../../src/pricing/geometry/fold-snapshot.ts';
import { dieLineOf, products } from '../dielines/fixtures.ts';

const OUT = 'test-results/snapshot';
const dieLineFor = (style: string) => dieLineOf(products.find((p) => p.style === style)!);

/** The PDF's first page at 60 dpi: its raw RGB pixels. */
async function render(pdf: Buffer, name: string) {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}/${name}.pdf`, pdf);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '60',
    '-f',
    '1',
    '-l',
    '1',
    '-singlefile',
    `${OUT}/${name}.pdf`,
    `${OUT}/${name}`,
  ]);
  const { data, info } = await sharp(readFileSync(`${OUT}/${name}.png`))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Pixels in a region (fractions of the page) that are not white, and the distinct grey-ish shades. */
function inRegion(
  image: { data: Buffer; width: number; height: number },
  region: { x0: number; x1: number; y0: number; y1: number },
) {
  let drawn = 0;
  const shades = new Set<number>();
  for (let y = Math.floor(region.y0 * image.height); y < Math.floor(region.y1 * image.height); y++) {
    for (let x = Math.floor(region.x0 * image.width); x < Math.floor(region.x1 * image.width); x++) {
      const i = (y * image.width + x) * 3;
      const [r, g, b] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
      if (r < 245 || g < 245 || b < 245) {
        drawn++;
        shades.add(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3));
      }
    }
  }
  return { drawn, shades: shades.size };
}

describe('foldSnapshot', () => {
  it('folds every folding style of the default catalogue into shaded faces; a flat item into nothing', () => {
    for (const style of ['RTE', 'STE', 'CLB', 'TRAY', 'FEFCO_0201', 'FEFCO_0427']) {
      const dieLine = dieLineFor(style);
      const snapshot = foldSnapshot(dieLine);
      expect(snapshot, style).not.toBeNull();
      expect(snapshot!.polygons.length, style).toBeGreaterThanOrEqual(5);
      // The closed box is smaller than the flat blank it folds from.
      expect(snapshot!.width, style).toBeLessThan(Math.hypot(dieLine.width, dieLine.height));
      for (const polygon of snapshot!.polygons) {
        expect(polygon.light).toBeGreaterThanOrEqual(0.6);
        expect(polygon.light).toBeLessThanOrEqual(1);
        for (const p of polygon.points) {
          expect(p.x).toBeGreaterThanOrEqual(-1e-6);
          expect(p.y).toBeGreaterThanOrEqual(-1e-6);
        }
      }
      // Shaded per face: the faces do not all catch the same light.
      expect(new Set(snapshot!.polygons.map((p) => p.light.toFixed(2))).size, style).toBeGreaterThan(1);
    }
    if (products.some((p) => p.style === 'FLAT')) expect(foldSnapshot(dieLineFor('FLAT'))).toBeNull();
  });

  it('is the flat blank seen from the front at fold 0 and a smaller closed box at 1', () => {
    const dieLine = dieLineFor('RTE');
    const flat = foldSnapshot(dieLine, 0)!;
    const closed = foldSnapshot(dieLine, 1)!;
    expect(closed.width * closed.height).toBeLessThan(flat.width * flat.height);
  });
});

describe('the snapshot in the PDFs', () => {
  it('the quote PDF cell (pdfkit): the die-line on the left, the shaded folded box on the right', async () => {
    for (const style of ['STE', 'TRAY']) {
      const doc = await createDocument();
      const dieLine = dieLineFor(style);
      const pageW = doc.page.width;
      const area = { x: 40, y: 60, width: pageW - 80, height: 260 };
      const snapshotWidth = Math.round(area.width * 0.36);
      const drawn = drawFoldedBox(doc, dieLine, {
        x: area.x + area.width - snapshotWidth,
        y: area.y,
        width: snapshotWidth,
        height: area.height,
      });
      expect(drawn).toBe(true);
      drawDieLine(doc, dieLine, { ...area, width: area.width - snapshotWidth - 8 });
      doc.end();
      const image = await render(await bytesOf(doc), `quote-cell-${style}`);
      const right = inRegion(image, { x0: 0.62, x1: 0.93, y0: 0.07, y1: 0.38 });
      // A box of several shades fills a good part of its column.
      expect(right.drawn, style).toBeGreaterThan(400);
      expect(right.shades, style).toBeGreaterThan(3);
      // Nothing drawn below the cell.
      expect(inRegion(image, { x0: 0, x1: 1, y0: 0.5, y1: 0.9 }).drawn).toBe(0);
    }
    // A flat item: nothing to fold, nothing drawn.
    if (products.some((p) => p.style === 'FLAT')) {
      const doc = await createDocument();
      expect(drawFoldedBox(doc, dieLineFor('FLAT'), { x: 0, y: 0, width: 100, height: 100 })).toBe(false);
      doc.end();
    }
  });

  it('the proof PDF (pdf-lib): the folded box beside the artwork and its die-line', async () => {
    for (const style of ['RTE', 'TRAY']) {
      const dieLine = dieLineFor(style);
      const drawing = drawingOf(dieLine);
      const artwork = await sharp({
        create: { width: 400, height: 300, channels: 3, background: { r: 30, g: 120, b: 200 } },
      })
        .png()
        .toBuffer();
      const pdf = await proofPdf({
        artwork,
        kind: 'png',
        widthMm: drawing.width + 6,
        heightMm: drawing.height + 6,
        drawing,
        dieLine,
        bleedMm: 3,
        header: ['Q-1 - Line - proof version 1', 'Preflight: no findings'],
        title: 'Proof',
        date: new Date('2026-01-01T00:00:00Z'),
      });
      const image = await render(pdf, `proof-${style}`);
      // The snapshot's column, right of the artwork (blue): shaded board colours, no artwork blue.
      const column = { x0: 0.8, x1: 0.98, y0: 0.15, y1: 0.95 };
      const right = inRegion(image, column);
      expect(right.drawn, style).toBeGreaterThan(300);
      expect(right.shades, style).toBeGreaterThan(3);
      const without = await proofPdf({
        artwork,
        kind: 'png',
        widthMm: drawing.width + 6,
        heightMm: drawing.height + 6,
        drawing,
        dieLine: null,
        bleedMm: 3,
        header: ['Q-1 - Line - proof version 1'],
        title: 'Proof',
        date: new Date('2026-01-01T00:00:00Z'),
      });
      // Without a die-line to fold the page is narrower: no column for the snapshot.
      const widthOf = (buffer: Buffer) =>
        Number(/\/MediaBox \[\s*0 0 ([\d.]+)/.exec(buffer.toString('latin1'))?.[1]);
      expect(widthOf(pdf)).toBeGreaterThan(widthOf(without));
    }
  });
});
