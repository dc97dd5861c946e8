/**
 * PDF artwork templates read back by third-party readers: pdf.js (layer names and visibility,
 * page size, text) and pdf-lib (Separation colour names, overprint, ISO 19593-1 metadata), and
 * rendered by poppler's pdftoppm with and without the die-line layers.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLEED_MM, drawingOf } from '../../src/modules/dielines/drawing.ts';
import { dieLineTemplatePdf, type TemplatePage } from '../../src/modules/dielines/pdf.ts';
import type { DieLine } from '../../src/pricing/index.ts';
import { anyDieLine, dieLineOf, products } from './fixtures.ts';
import { readTemplate } from './pdf-read.ts';

const date = new Date('2026-11-25T10:00:00Z');
const page = (dieLine: DieLine): TemplatePage => ({
  drawing: drawingOf(dieLine),
  titleBlock: [
    ['Brief', 'BR-0042 v3'],
    ['Blank', `${dieLine.width.toFixed(1)} x ${dieLine.height.toFixed(1)} mm`],
    ['Date', '2026-11-25'],
  ],
});

async function expectTemplate(dieLine: DieLine) {
  const bytes = await dieLineTemplatePdf([page(dieLine)], { title: 'Template', date });
  const read = await readTemplate(bytes);
  expect(read.pages).toHaveLength(1);
  const [p] = read.pages;
  // The page is the blank plus the bleed on each side; the trim box is the blank.
  expect(Math.abs(p!.widthMm - (dieLine.width + 2 * BLEED_MM))).toBeLessThan(0.01);
  expect(Math.abs(p!.heightMm - (dieLine.height + 2 * BLEED_MM))).toBeLessThan(0.01);
  const trim = [BLEED_MM, BLEED_MM, dieLine.width, dieLine.height];
  p!.trimMm.forEach((value, i) => {
    expect(Math.abs(value - trim[i]!)).toBeLessThan(0.01);
  });
  const creases = dieLine.segments.some((s) => s.kind === 'CREASE');
  expect(read.layers.map((l) => l.name)).toEqual([
    'Cutting',
    ...(creases ? ['Creasing'] : []),
    'Bleed',
    'Safe zone',
    'Dimensions',
    'Panels and title block',
  ]);
  expect(read.metadata.Cutting).toEqual({ group: 'Structural', type: 'Cutting', prints: true });
  if (creases)
    expect(read.metadata.Creasing).toEqual({ group: 'Structural', type: 'Creasing', prints: true });
  expect(read.metadata.Dimensions!.prints).toBe(false);
  expect(read.metadata['Panels and title block']!.prints).toBe(false);
  expect(read.spotColours).toEqual(
    expect.arrayContaining(['CutContour', 'Crease', 'Bleed', 'Safe', 'Perforation']),
  );
  expect(read.overprint).toBe(true);
  return { bytes, read };
}

describe('PDF die-line templates', () => {
  it.each(products.map((p) => [p.code, p] as const))(
    '%s: layers, spot colours, page size',
    async (_, product) => {
      const dieLine = dieLineOf(product);
      const { read } = await expectTemplate(dieLine);
      const text = read.pages[0]!.text.join('|');
      for (const panel of dieLine.panels ?? []) expect(text).toContain(panel.name);
      expect(text).toContain('BR-0042 v3');
      expect(text).toContain('2026-11-25');
    },
  );

  it('puts one page per element, each its own size', async () => {
    const a = dieLineOf(products.find((p) => p.style === 'RTE')!);
    const b = dieLineOf(products.find((p) => p.style === 'FEFCO_0201')!);
    const read = await readTemplate(await dieLineTemplatePdf([page(a), page(b)], { title: 'Two', date }));
    expect(read.pages.map((p) => Math.round(p.widthMm))).toEqual([
      Math.round(a.width + 6),
      Math.round(b.width + 6),
    ]);
  });

  it('is deterministic: the same die-line and date give the same bytes', async () => {
    const dieLine = dieLineOf(products[0]!);
    const one = await dieLineTemplatePdf([page(dieLine)], { title: 'T', date });
    const two = await dieLineTemplatePdf([page(dieLine)], { title: 'T', date });
    expect(one.equals(two)).toBe(true);
  });

  it('shows the die-line in the viewer, and hides it with its layers off (pdftoppm)', async () => {
    const dieLine = dieLineOf(products.find((p) => p.style === 'RTE')!);
    const dir = mkdtempSync(join(tmpdir(), 'dielines-'));
    const on = await dieLineTemplatePdf([page(dieLine)], { title: 'On', date });
    const off = await dieLineTemplatePdf([page(dieLine)], {
      title: 'Off',
      date,
      layersOff: ['CUT', 'CREASE'],
    });
    const offRead = await readTemplate(off);
    expect(offRead.layers.filter((l) => !l.visible).map((l) => l.name)).toEqual(['Cutting', 'Creasing']);
    /** Pixels of the cut rule's magenta (CutContour's CMYK alternate 0/100/0/0) in a render. */
    const magenta = (bytes: Buffer, name: string) => {
      const pdf = join(dir, `${name}.pdf`);
      writeFileSync(pdf, bytes);
      const run = spawnSync('pdftoppm', ['-r', '72', '-singlefile', pdf, join(dir, name)]);
      expect(run.status).toBe(0);
      const ppm = readFileSync(join(dir, `${name}.ppm`));
      // P6 header: magic, width, height, maxval, each followed by whitespace.
      const header = ppm.toString('latin1', 0, 40).match(/^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
      let count = 0;
      for (let i = header[0].length; i + 2 < ppm.length; i += 3) {
        const [r, g, b] = [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!];
        if (r > 180 && g < 120 && b > 80 && r - g > 100) count++;
      }
      return count;
    };
    expect(magenta(on, 'on')).toBeGreaterThan(100);
    expect(magenta(off, 'off')).toBe(0);
  });

  it('reads back on random dimensions for every style (property)', async () => {
    await fc.assert(
      fc.asyncProperty(anyDieLine, async (dieLine) => {
        await expectTemplate(dieLine);
      }),
      { numRuns: 25 },
    );
  });
});
