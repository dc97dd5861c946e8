/**
 * DXF die-lines read back by a third-party reader (dxf-parser), as a die-maker's CAD would:
 * units, layers, entity counts, and cut and crease lengths equal to the engine's own totals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawingOf } from '../../src/modules/dielines/drawing.ts';
import { DXF_LAYERS, dieLineDxf } from '../../src/modules/dielines/dxf.ts';
import { buildDieLine, type DieLine } from '../../src/pricing/index.ts';
import { readDxf } from './dxf-read.ts';
import { anyDieLine, dieLineOf, products } from './fixtures.ts';

function expectMatchesEngine(dieLine: DieLine) {
  const text = dieLineDxf(drawingOf(dieLine));
  const read = readDxf(text);
  expect(read.units).toBe(4);
  expect(read.layers).toEqual(expect.arrayContaining(Object.values(DXF_LAYERS).map((l) => l.name)));
  const cuts = dieLine.segments.filter((s) => s.kind === 'CUT').length;
  const creases = dieLine.segments.filter((s) => s.kind === 'CREASE').length;
  expect(read.counts.CUT).toBe(cuts);
  expect(read.counts.CREASE ?? 0).toBe(creases);
  // The bleed is a closed polygon with one line per outline corner.
  expect(read.counts.BLEED).toBe(dieLine.outline.length);
  expect(Math.abs(read.lengths.CUT! - dieLine.cutLengthMm)).toBeLessThan(0.01);
  expect(Math.abs((read.lengths.CREASE ?? 0) - dieLine.creaseLengthMm)).toBeLessThan(0.01);
  // Outer contour and every window close; the outer one spans the whole blank.
  expect(read.cutLoops).not.toBeNull();
  expect(read.cutLoops).toHaveLength(1 + dieLine.holes.length);
  const outer = read.cutLoops!.reduce((a, b) => (b.length > a.length ? b : a));
  const xs = outer.map((p) => p.x);
  const ys = outer.map((p) => p.y);
  expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(dieLine.width, 2);
  expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(dieLine.height, 2);
  // Everything on the rule layers is a line or an arc: no splines, no polylines.
  for (const entity of read.dxf.entities) expect(['LINE', 'ARC', 'TEXT']).toContain(entity.type);
  return read;
}

describe('DXF die-lines', () => {
  it.each(products.map((p) => [p.code, p] as const))(
    '%s: reads back with the engine’s geometry',
    (_, product) => {
      const read = expectMatchesEngine(dieLineOf(product));
      expect(read.counts.DIMENSIONS).toBeGreaterThan(0);
    },
  );

  it('draws a windowed tuck end with the window as a second closed cut loop', () => {
    const rte = products.find((p) => p.style === 'RTE')!;
    const dieLine = buildDieLine('RTE', {
      length: 120,
      width: 50,
      height: 160,
      caliperMm: 0.5,
      product: rte,
      window: { width: 60, height: 80 },
    });
    expect(dieLine.holes).toHaveLength(1);
    const read = expectMatchesEngine(dieLine);
    expect(read.cutLoops!.map((loop) => loop.length).sort((a, b) => a - b)[0]).toBe(4);
  });

  it('writes arcs as ARC entities whose length counts in the layer total', () => {
    const base = drawingOf(dieLineOf(products.find((p) => p.style === 'FLAT')!));
    // A flat item with its top-right corner rounded (radius 10): three lines, an arc, two lines.
    const w = base.width;
    const h = base.height;
    const drawing = {
      ...base,
      rules: [
        { type: 'LINE' as const, rule: 'CUT' as const, x1: 0, y1: 0, x2: w, y2: 0 },
        { type: 'LINE' as const, rule: 'CUT' as const, x1: w, y1: 0, x2: w, y2: h - 10 },
        { type: 'ARC' as const, rule: 'CUT' as const, cx: w - 10, cy: h - 10, radius: 10, start: 0, end: 90 },
        { type: 'LINE' as const, rule: 'CUT' as const, x1: w - 10, y1: h, x2: 0, y2: h },
        { type: 'LINE' as const, rule: 'CUT' as const, x1: 0, y1: h, x2: 0, y2: 0 },
      ],
    };
    const read = readDxf(dieLineDxf(drawing));
    expect(read.dxf.entities.filter((e) => e.type === 'ARC')).toHaveLength(1);
    expect(read.lengths.CUT).toBeCloseTo(2 * w + 2 * h - 20 + (Math.PI * 10) / 2, 6);
    expect(read.cutLoops).toHaveLength(1);
  });

  it('keeps y upwards: the glue flap of a tuck end is at x = 0 and the blank is in the positive quadrant', () => {
    const ste = products.find((p) => p.style === 'STE')!;
    const read = readDxf(dieLineDxf(drawingOf(dieLineOf(ste))));
    const points = read.cutLoops!.flat();
    expect(Math.min(...points.map((p) => p.x))).toBeCloseTo(0, 6);
    expect(Math.min(...points.map((p) => p.y))).toBeCloseTo(0, 6);
  });

  it('is deterministic: the same die-line gives the same bytes', () => {
    const dieLine = dieLineOf(products[0]!);
    expect(dieLineDxf(drawingOf(dieLine))).toBe(dieLineDxf(drawingOf(dieLine)));
  });

  it('matches the engine on random dimensions for every style (property)', () => {
    fc.assert(
      fc.property(anyDieLine, (dieLine) => {
        expectMatchesEngine(dieLine);
      }),
      { numRuns: 150 },
    );
  });
});
