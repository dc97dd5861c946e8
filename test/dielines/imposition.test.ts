/**
 * The imposition sheet as DXF, CF2 and PDF: every up at the place and turn the engine chose
 * (checked against the engine's own placeOutline), rule lengths = ups x the die-line's, the
 * sheet's guides on their own layer, read back by dxf-parser, our CF2 reader and pdf.js.
 */
import { describe, expect, it } from 'vitest';
import { cf2File } from '../../src/modules/dielines/cf2.ts';
import { cf2Length, readCf2 } from '../../src/modules/dielines/cf2-reader.ts';
import { drawingOf } from '../../src/modules/dielines/drawing.ts';
import { dieLineDxf } from '../../src/modules/dielines/dxf.ts';
import { cf2Call, impositionDrawing, placeOnSheet } from '../../src/modules/dielines/imposition.ts';
import { dieLineTemplatePdf } from '../../src/modules/dielines/pdf.ts';
import { grainLayout, impose } from '../../src/pricing/imposition.ts';
import type { DieLine, Imposition } from '../../src/pricing/index.ts';
import { nestPatterns, placeOutline } from '../../src/pricing/nesting.ts';
import { readDxf } from './dxf-read.ts';
import { dieLineOf, products } from './fixtures.ts';
import { readTemplate } from './pdf-read.ts';

const margins = { gripperMm: 12, sideMarginMm: 5, tailMarginMm: 5, gutterMm: 3 };
const rte = dieLineOf(products.find((p) => p.style === 'RTE')!, { length: 60, width: 30, height: 90 });
const blank = (d: DieLine) => ({ width: d.width, height: d.height, areaMm2: d.areaMm2 });

const layouts: [string, DieLine, Imposition][] = [
  ['grid, free orientation', rte, impose({ width: 1020, height: 720 }, blank(rte), margins)],
  [
    'grid, turned for the grain',
    rte,
    impose(
      { width: 1020, height: 720, grain: 'LONG' },
      blank(rte),
      margins,
      Infinity,
      grainLayout('LONG', 'BLANK_HEIGHT', false),
    ),
  ],
  [
    'nested head to tail',
    rte,
    impose({ width: 1020, height: 720 }, blank(rte), margins, Infinity, undefined, [
      ...nestPatterns(rte.outline, rte, false, margins.gutterMm),
      ...nestPatterns(rte.outline, rte, true, margins.gutterMm),
    ]),
  ],
];
// Head-to-tail turns (nested rows turn every other row 180 degrees; this small carton nests
// without them, so the turns are set on the grid layouts to check the transform).
const turned = (imposition: Imposition): Imposition => ({
  ...imposition,
  placements: imposition.placements.map((p) => ({ ...p, turned: true })),
});
layouts.push(
  ['grid turned 180', rte, turned(layouts[0]![2])],
  ['grid turned 90 + 180', rte, turned(layouts[1]![2])],
);

describe('imposition sheets', () => {
  it('covers rotated and nested layouts (the cases below are not all upright)', () => {
    expect(layouts[1]![2].placements.every((p) => p.rotated)).toBe(true);
    expect(layouts[2]![2].layout).toBe('NESTED');
    expect(layouts[3]![2].placements.every((p) => p.turned)).toBe(true);
    expect(layouts[4]![2].placements.every((p) => p.turned && p.rotated)).toBe(true);
  });

  it.each(layouts)('%s: every up lands where the engine placed it', (_, dieLine, imposition) => {
    for (const placement of imposition.placements) {
      // The engine's placed outline (y down from the gripper edge) ...
      const expected = placeOutline(
        dieLine.outline,
        dieLine,
        placement.rotated,
        placement.turned ?? false,
      ).map((p) => ({ x: placement.x + p.x, y: imposition.sheet.height - (placement.y + p.y) }));
      // ... and ours, from the drawing's y-up coordinates.
      const ours = drawingOf(dieLine).outline.map((q) =>
        placeOnSheet(placement, dieLine, imposition.sheet.height, q),
      );
      const key = (p: { x: number; y: number }) => `${p.x.toFixed(3)},${p.y.toFixed(3)}`;
      expect(new Set(ours.map(key))).toEqual(new Set(expected.map(key)));
    }
  });

  it.each(layouts)('%s: DXF and CF2 read back with ups x the rule lengths', (_, dieLine, imposition) => {
    const ups = imposition.placements.length;
    expect(ups).toBeGreaterThan(1);
    const drawing = impositionDrawing(imposition, dieLine);
    const dxf = readDxf(dieLineDxf(drawing));
    const cuts = dieLine.segments.filter((s) => s.kind === 'CUT').length;
    expect(dxf.counts.CUT).toBe(ups * cuts);
    expect(Math.abs(dxf.lengths.CUT! - ups * dieLine.cutLengthMm)).toBeLessThan(0.01 * ups);
    expect(Math.abs(dxf.lengths.CREASE! - ups * dieLine.creaseLengthMm)).toBeLessThan(0.01 * ups);
    expect(dxf.cutLoops).toHaveLength(ups);
    // Sheet edge (4), gripper (1), usable area (4), grain arrow when the sheet has a grain (4).
    expect(dxf.counts.SHEET).toBe(9 + (imposition.grain.sheetGrain ? 4 : 0));

    const cf2 = readCf2(
      cf2File({
        name: 'sheet',
        comments: [],
        width: imposition.sheet.width,
        height: imposition.sheet.height,
        sub: { name: 'blank', drawing: drawingOf(dieLine) },
        calls: imposition.placements.map((p) => cf2Call(p, dieLine, imposition.sheet.height)),
      }),
    );
    expect(cf2.main.calls).toHaveLength(ups);
    const cut = cf2.flattened.filter((e) => e.type === 1).reduce((s, e) => s + cf2Length(e), 0);
    expect(Math.abs(cut - ups * dieLine.cutLengthMm)).toBeLessThan(0.01 * ups);
    // The CF2's expanded calls and the DXF's lines are the same segments.
    const segment = (a: { x: number; y: number }, b: { x: number; y: number }) =>
      [a, b]
        .map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`)
        .sort()
        .join('|');
    const fromCf2 = cf2.flattened
      .map((e) => (e.kind === 'L' ? segment({ x: e.x1, y: e.y1 }, { x: e.x2, y: e.y2 }) : ''))
      .sort();
    const fromDxf = drawing.rules
      .map((e) => (e.type === 'LINE' ? segment({ x: e.x1, y: e.y1 }, { x: e.x2, y: e.y2 }) : ''))
      .sort();
    expect(fromCf2).toEqual(fromDxf);
  });

  it('writes the sheet as a PDF page the size of the sheet, ups numbered, no bleed layer', async () => {
    const [, dieLine, imposition] = layouts[1]!;
    const bytes = await dieLineTemplatePdf(
      [{ drawing: impositionDrawing(imposition, dieLine), titleBlock: [['Sheet', '1020 x 720 mm']] }],
      { title: 'Sheet', date: new Date('2026-11-25T00:00:00Z'), bleedMm: 0 },
    );
    const read = await readTemplate(bytes);
    expect(read.pages[0]!.widthMm).toBeCloseTo(1020, 1);
    expect(read.pages[0]!.heightMm).toBeCloseTo(720, 1);
    expect(read.layers.map((l) => l.name)).toEqual([
      'Cutting',
      'Creasing',
      'Dimensions',
      'Panels and title block',
    ]);
    expect(read.pages[0]!.text).toEqual(expect.arrayContaining(['1', String(imposition.placements.length)]));
  });
});
