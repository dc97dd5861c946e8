/**
 * Nested (head-to-tail) layouts of die-cut blanks: more ups than the bounding-box grid where the
 * flaps interlock, never fewer, and the placed contours never overlap (kept a gutter apart).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import type { Point } from '../../src/pricing/geometry/die-line.ts';
import { grainLayout, type Imposition, impose } from '../../src/pricing/imposition.ts';
import { buildDieLine, priceBrief, type StyleCode } from '../../src/pricing/index.ts';
import { nestPatterns, placeOutline } from '../../src/pricing/nesting.ts';

const RUNS = { numRuns: Number(process.env.PRICING_RUNS ?? 60) };
const product = { glueFlapMm: 15, tuckFlapMm: 15, dustFlapRatio: 0.45, slotWidthMm: 8 };
const margins = (gutterMm: number) => ({ gripperMm: 12, sideMarginMm: 5, tailMarginMm: 5, gutterMm });

function placedContours(imposition: Imposition, outline: Point[]): Point[][] {
  return imposition.placements.map((p) =>
    placeOutline(outline, imposition.blank, p.rotated, p.turned === true).map((q) => ({
      x: q.x + p.x,
      y: q.y + p.y,
    })),
  );
}

function segmentDistance(a: Point, b: Point, c: Point, d: Point): number {
  const cross = (o: Point, p: Point, q: Point) => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
  const pointSeg = (p: Point, s: Point, e: Point) => {
    const lx = e.x - s.x;
    const ly = e.y - s.y;
    const len = lx * lx + ly * ly;
    const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - s.x) * lx + (p.y - s.y) * ly) / len));
    return Math.hypot(p.x - (s.x + t * lx), p.y - (s.y + t * ly));
  };
  return Math.min(pointSeg(a, c, d), pointSeg(b, c, d), pointSeg(c, a, b), pointSeg(d, a, b));
}

function inside(p: Point, polygon: Point[]): boolean {
  let result = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) result = !result;
  }
  return result;
}

/** Smallest distance between two placed contours (0 when they touch, cross or one holds the other). */
function contourDistance(a: Point[], b: Point[]): number {
  if (inside(a[0]!, b) || inside(b[0]!, a)) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      best = Math.min(best, segmentDistance(a[i]!, a[(i + 1) % a.length]!, b[j]!, b[(j + 1) % b.length]!));
    }
  }
  return best;
}

function expectApart(imposition: Imposition, outline: Point[]): void {
  const contours = placedContours(imposition, outline);
  const g = imposition.margins.gutterMm;
  const { usable } = imposition;
  contours.forEach((contour, i) => {
    for (const q of contour) {
      expect(q.x).toBeGreaterThanOrEqual(usable.x - 1e-6);
      expect(q.y).toBeGreaterThanOrEqual(usable.y - 1e-6);
      expect(q.x).toBeLessThanOrEqual(usable.x + usable.width + 1e-6);
      expect(q.y).toBeLessThanOrEqual(usable.y + usable.height + 1e-6);
    }
    for (let j = i + 1; j < contours.length; j++) {
      const pi = imposition.placements[i]!;
      const pj = imposition.placements[j]!;
      // Only neighbours can come close; far bounding boxes cannot touch.
      if (
        pi.x > pj.x + pj.width + g ||
        pj.x > pi.x + pi.width + g ||
        pi.y > pj.y + pj.height + g ||
        pj.y > pi.y + pi.height + g
      )
        continue;
      // Hulls are kept a gutter apart vertically and sideways: at least g / sqrt 2 on a slope.
      expect(contourDistance(contour, contours[j]!)).toBeGreaterThanOrEqual(g / Math.SQRT2 - 1e-6);
    }
  });
}

function layouts(
  style: StyleCode,
  l: number,
  w: number,
  h: number,
  sheet: { width: number; height: number },
  gutter: number,
  grain: 'LONG' | 'SHORT' | null,
) {
  const dieLine = buildDieLine(style, { length: l, width: w, height: h, caliperMm: 0.5, product });
  const required = ['STE', 'RTE', 'CLB'].includes(style) ? 'BLANK_WIDTH' : 'ANY';
  const rule = grainLayout(grain, required, false);
  const blank = { width: dieLine.width, height: dieLine.height, areaMm2: dieLine.areaMm2 };
  const orientations = rule.orientation === 'BOTH' ? [false, true] : [rule.orientation === 'ROTATED'];
  const patterns = orientations.flatMap((rotated) => nestPatterns(dieLine.outline, blank, rotated, gutter));
  return {
    dieLine,
    grid: impose(sheet, blank, margins(gutter), Number.POSITIVE_INFINITY, rule),
    best: impose(sheet, blank, margins(gutter), Number.POSITIVE_INFINITY, rule, patterns),
  };
}

describe('nested layouts', () => {
  it('lays a small reverse tuck end head to tail: 6 instead of 3 on a 720 x 520 sheet', () => {
    const { dieLine, grid, best } = layouts('RTE', 50, 50, 120, { width: 720, height: 520 }, 3, 'LONG');
    expect(grid.layout).toBe('GRID');
    expect(grid.ups).toBe(3);
    expect(best.layout).toBe('NESTED');
    expect(best.gridUps).toBe(3);
    expect(best.ups).toBe(6);
    // Every other row is turned 180 degrees; the grain orientation is kept (no 90-degree turn).
    expect(best.placements.filter((p) => p.turned)).toHaveLength(3);
    expect(best.placements.every((p) => !p.rotated)).toBe(true);
    expect(best.nesting).toMatchObject({ turned: true, rotated: false });
    // Rows interlock: the row pitch is less than the blank height.
    expect(best.nesting!.pitchAB).toBeLessThan(dieLine.height);
    expect(best.ups).toBeLessThanOrEqual(best.areaBoundUps);
    expectApart(best, dieLine.outline);
  });

  it('keeps the grid when nesting gains nothing (a tray, a rectangle-like blank)', () => {
    const { grid, best } = layouts('TRAY', 200, 150, 40, { width: 720, height: 520 }, 3, null);
    expect(best.layout).toBe('GRID');
    expect(best.ups).toBe(grid.ups);
    expect(best.nesting).toBeNull();
  });

  it('property: nested ups >= grid ups, and placed blanks never overlap', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<StyleCode>('STE', 'RTE', 'CLB', 'TRAY', 'FEFCO_0427'),
        fc.integer({ min: 30, max: 200 }),
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 30, max: 250 }),
        fc.constantFrom(
          { width: 720, height: 520 },
          { width: 1020, height: 720 },
          { width: 920, height: 650 },
        ),
        fc.constantFrom(0, 2, 3, 5),
        fc.constantFrom<'LONG' | 'SHORT' | null>('LONG', 'SHORT', null),
        (style, l, w, h, sheet, gutter, grain) => {
          const { dieLine, grid, best } = layouts(style, l, w, h, sheet, gutter, grain);
          expect(best.ups).toBeGreaterThanOrEqual(grid.ups);
          expect(best.gridUps).toBe(grid.ups);
          expect(best.ups).toBeLessThanOrEqual(best.areaBoundUps);
          if (best.layout === 'NESTED') {
            expect(best.ups).toBeGreaterThan(grid.ups);
            // One grain orientation: all blanks share the 90-degree turn (or none).
            expect(new Set(best.placements.map((p) => p.rotated)).size).toBe(1);
          }
          expectApart(best, dieLine.outline);
        },
      ),
      RUNS,
    );
  });
});

describe('nested and grid routes', () => {
  const ste = (quantity: number) =>
    priceBrief(
      {
        briefElements: [
          {
            position: 0,
            productId: 'STE',
            lengthDimension: 60,
            widthDimension: 40,
            heightDimension: 150,
            materialReferenceId: 'GC1-350',
            wantDecoration: true,
            sidePrinted: 'RECTO',
            rectoColorCount: 4,
            versoColorCount: 0,
            printingProcess: 'offset',
            decorationsCount: [{ decorationIndex: 0, quantity }],
          },
        ],
      },
      defaultCatalogue(),
    ).briefPrice.predictionRequestsComputed;

  it('nests a long run (more ups, fewer sheets) and shows the layout in the process', () => {
    const [selected] = ste(100_000);
    expect(selected!.imposition.layout).toBe('NESTED');
    const cutting = selected!.operations.find((o) => o.operation.code === 'DIE_CUTTING')!;
    expect(cutting).toMatchObject({ layout: 'NESTED', ups: selected!.layoutCount });
    expect(cutting.gridUps).toBeLessThan(selected!.layoutCount);
  });

  it('keeps the grid of the same sheet as a route: a short run can take its cheaper die', () => {
    const variants = ste(500);
    const nested = variants.find((v) => v.imposition.layout === 'NESTED');
    const grid = variants.find((v) => v.variantKey === `${nested?.variantKey}:GRID`);
    expect(variants[0]!.imposition.layout).toBe('GRID');
    if (nested && grid) expect(grid.toolingCost).toBeLessThan(nested.toolingCost);
  });
});
