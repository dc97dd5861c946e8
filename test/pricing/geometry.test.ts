/** Die-line formulas per style and the imposition search, checked against hand calculations. */
import { describe, expect, it } from 'vitest';
import { cutToSizeSheets, grainLayout, impose } from '../../src/pricing/imposition.ts';
import { buildDieLine, type DieLine, type StyleCode } from '../../src/pricing/index.ts';

const product = { glueFlapMm: 15, tuckFlapMm: 15, dustFlapRatio: 0.45, slotWidthMm: 8 };
const box = (style: StyleCode, length: number, width: number, height: number, caliperMm = 0.5, extra = {}) =>
  buildDieLine(style, { length, width, height, caliperMm, product, ...extra });

function perimeter(points: { x: number; y: number }[]): number {
  return points.reduce((sum, p, i) => {
    const q = points[(i + 1) % points.length]!;
    return sum + Math.hypot(q.x - p.x, q.y - p.y);
  }, 0);
}

function expectWellFormed(d: DieLine) {
  expect(d.outline.length).toBeGreaterThanOrEqual(4);
  for (const s of d.segments) {
    for (const [x, y] of [
      [s.x1, s.y1],
      [s.x2, s.y2],
    ] as const) {
      expect(x).toBeGreaterThanOrEqual(-1e-9);
      expect(y).toBeGreaterThanOrEqual(-1e-9);
      expect(x).toBeLessThanOrEqual(d.width + 1e-9);
      expect(y).toBeLessThanOrEqual(d.height + 1e-9);
    }
  }
  const cuts = d.segments.filter((s) => s.kind === 'CUT');
  expect(cuts).toHaveLength(d.outline.length + d.holes.reduce((n, h) => n + h.length, 0));
  expect(d.cutLengthMm).toBeCloseTo(perimeter(d.outline) + d.holes.reduce((n, h) => n + perimeter(h), 0), 6);
  expect(d.areaMm2).toBeGreaterThan(0);
  expect(d.areaMm2).toBeLessThanOrEqual(d.width * d.height);
}

describe('die-lines', () => {
  it('builds a well-formed die-line for every style', () => {
    for (const style of [
      'STE',
      'RTE',
      'CLB',
      'SLEEVE',
      'TRAY',
      'FEFCO_0201',
      'FEFCO_0427',
      'FLAT',
    ] as const) {
      expectWellFormed(box(style, 150, 80, 120, style.startsWith('FEFCO') ? 3 : 0.5));
    }
  });

  it('gives a reverse tuck end the same blank, area and rules as a straight tuck end', () => {
    const ste = box('STE', 120, 40, 180);
    const rte = box('RTE', 120, 40, 180);
    expect([rte.width, rte.height, rte.areaMm2, rte.creaseLengthMm]).toEqual([
      ste.width,
      ste.height,
      ste.areaMm2,
      ste.creaseLengthMm,
    ]);
    expect(rte.cutLengthMm).toBeCloseTo(ste.cutLengthMm, 9);
    // but the bottom lid hangs under the front panel, not the back one
    expect(rte.outline).not.toEqual(ste.outline);
  });

  it('computes a sleeve by hand', () => {
    // pL 120.5, pW 40.5, pH 180.5; glue flap 15 tapered 15: 322 x 180.5 + 15 x 165.5
    const d = box('SLEEVE', 120, 40, 180);
    expect([d.width, d.height]).toEqual([337, 180.5]);
    expect(d.areaMm2).toBeCloseTo(60603.5, 6);
    expect(d.creaseLengthMm).toBe(722);
    // 2 x 322 + 180.5 + 150.5 + 2 x 15 sqrt2
    expect(d.cutLengthMm).toBeCloseTo(644 + 180.5 + 150.5 + 30 * Math.SQRT2, 6);
  });

  it('computes a crash-lock bottom by hand', () => {
    // Top as a tuck end; bottom: long flaps 0.75 W = 30 deep tapered min(15, 120.5/6) = 15,
    // short flaps 0.5 W = 20 deep with a 45-degree side, folded on a 20 sqrt2 diagonal.
    const d = box('CLB', 120, 40, 180);
    expect([d.width, d.height]).toEqual([337, 180.5 + 55.5 + 30]);
    const body = 322 * 180.5;
    const glue = 15 * 165.5;
    const top = 40.5 * 120.5 + (15 * 120.5 - 25) + 2 * 18 * 31.5;
    const long = 2 * 30 * (120.5 - 15);
    const short = 2 * (20 * 40.5 - 200);
    expect(d.areaMm2).toBeCloseTo(body + glue + top + long + short, 6);
    expect(d.creaseLengthMm).toBeCloseTo(
      4 * 180.5 + 2 * 120.5 + 2 * 40.5 + 2 * 120.5 + 2 * 40.5 + 2 * 20 * Math.SQRT2,
      6,
    );
    expect(d.glueLengthMm).toBe(180.5 + 40);
  });

  it('computes a tray by hand', () => {
    // pL 200.5, pW 150.5, pH 40.5; corner flaps min(40.5, 0.45 x 150) = 40.5 wide, 45-degree taper
    const d = box('TRAY', 200, 150, 40);
    expect([d.width, d.height]).toEqual([281.5, 231.5]);
    expect(d.areaMm2).toBeCloseTo(
      200.5 * 150.5 + 2 * 200.5 * 40.5 + 2 * 150.5 * 40.5 + 4 * (40.5 * 40.5 - (40.5 * 40.5) / 2),
      6,
    );
    expect(d.creaseLengthMm).toBeCloseTo(2 * 200.5 + 2 * 150.5 + 4 * 40.5, 6);
    expect(d.glueLengthMm).toBe(0);
  });

  it('computes a FEFCO 0427 mailer by hand', () => {
    // c 1.6: pL 301.6, pW 201.6, pH 81.6; width 4 pH + pL, height H + 2 pW + 3 pH
    const d = box('FEFCO_0427', 300, 200, 80, 1.6);
    expect(d.width).toBeCloseTo(628, 9);
    expect(d.height).toBeCloseTo(728, 9);
    expect(d.creaseLengthMm).toBeCloseTo(5 * 301.6 + 6 * 201.6 + 2 * 81.6, 6);
  });

  it('cuts a window out of the front panel', () => {
    const plain = box('STE', 120, 40, 180);
    const windowed = box('STE', 120, 40, 180, 0.5, { window: { width: 40, height: 60 } });
    expect(windowed.areaMm2).toBeCloseTo(plain.areaMm2 - 2400, 6);
    expect(windowed.cutLengthMm).toBeCloseTo(plain.cutLengthMm + 200, 6);
    expect(windowed.holes).toHaveLength(1);
    // centred in the front panel (x from 15 + 120.5 + 40.5 = 176 to 296.5)
    expect(windowed.holes[0]![0]).toEqual({ x: 176 + (120.5 - 40) / 2, y: 55.5 + (180.5 - 60) / 2 });
  });

  it('grows the blank with the board caliper', () => {
    const thin = box('FEFCO_0201', 300, 200, 200, 3);
    const thick = box('FEFCO_0201', 300, 200, 200, 6.5);
    expect(thick.width - thin.width).toBeCloseTo(4 * 3.5, 9);
    expect(thick.height - thin.height).toBeCloseTo(2 * 3.5, 9);
  });
});

describe('imposition', () => {
  const noMargins = { gripperMm: 0, sideMarginMm: 0, tailMarginMm: 0, gutterMm: 0 };

  it('fills a sheet with a simple grid', () => {
    const layout = impose(
      { width: 1000, height: 700 },
      { width: 100, height: 100, areaMm2: 10000 },
      noMargins,
    );
    expect(layout.ups).toBe(70);
    expect(layout.utilisation).toBe(1);
    expect(layout.areaBoundUps).toBe(70);
  });

  it('combines orientations when that fits more', () => {
    // 300 x 200 on 1000 x 700: upright 3 x 3 = 9, turned 5 x 2 = 10; two upright rows (400 mm)
    // leave 300 mm for a row of five turned blanks: 6 + 5 = 11 = floor(700,000 / 60,000).
    const layout = impose(
      { width: 1000, height: 700 },
      { width: 300, height: 200, areaMm2: 60000 },
      noMargins,
    );
    expect(layout.ups).toBe(11);
    expect(layout.blocks).toEqual([
      { cols: 3, rows: 2, rotated: false },
      { cols: 5, rows: 1, rotated: true },
    ]);
    expect(layout.placements.filter((p) => p.rotated)).toHaveLength(5);
    expect(layout.areaBoundUps).toBe(11);
  });

  it('keeps the gripper, margins and gutters clear', () => {
    const margins = { gripperMm: 12, sideMarginMm: 5, tailMarginMm: 5, gutterMm: 3 };
    const layout = impose({ width: 700, height: 1000 }, { width: 200, height: 150, areaMm2: 30000 }, margins);
    expect(layout.sheet).toEqual({ width: 1000, height: 700 });
    expect(layout.usable).toEqual({ x: 5, y: 12, width: 990, height: 683 });
    const sorted = [...layout.placements].sort((a, b) => a.y - b.y || a.x - b.x);
    for (const p of layout.placements) {
      expect(p.y).toBeGreaterThanOrEqual(12);
      expect(p.y + p.height).toBeLessThanOrEqual(695 + 1e-9);
    }
    // neighbours in a row are one gutter apart
    expect(sorted[1]!.x - (sorted[0]!.x + sorted[0]!.width)).toBeCloseTo(3, 9);
  });

  it('caps the ups for an existing tool or a one-up machine', () => {
    const layout = impose(
      { width: 1000, height: 700 },
      { width: 100, height: 100, areaMm2: 10000 },
      noMargins,
      4,
    );
    expect(layout.ups).toBe(4);
    expect(layout.placements).toHaveLength(4);
  });

  it('finds no ups for a blank larger than the sheet', () => {
    const layout = impose(
      { width: 1000, height: 700 },
      { width: 1200, height: 100, areaMm2: 120000 },
      noMargins,
    );
    expect(layout.ups).toBe(0);
    expect(layout.cutsPerSheet).toBe(0);
  });

  it('sizes corrugated sheets to the blank', () => {
    const sheets = cutToSizeSheets(
      { width: 1047, height: 406 },
      noMargins,
      { min: { width: 300, height: 200 }, max: { width: 2500, height: 1500 } },
      { width: 400, height: 200 },
      { width: 2800, height: 1600 },
      1,
    );
    expect(sheets).toEqual([{ width: 1047, height: 406 }]);
    const multi = cutToSizeSheets(
      { width: 400, height: 300 },
      { gripperMm: 10, sideMarginMm: 10, tailMarginMm: 10, gutterMm: 6 },
      { min: { width: 300, height: 200 }, max: { width: 2500, height: 1500 } },
      { width: 500, height: 300 },
      { width: 2400, height: 1500 },
      9,
    );
    expect(multi).toContainEqual({ width: 826, height: 320 }); // 2 across: 2 x 400 + 6 + 20
    expect(multi.every((s) => s.width <= 2400 && s.height <= 1500 && s.width >= 500 && s.height >= 300)).toBe(
      true,
    );
  });
});

describe('grain', () => {
  const margins = { gripperMm: 12, sideMarginMm: 5, tailMarginMm: 5, gutterMm: 4 };
  const card = { width: 148, height: 105, areaMm2: 15540 };
  const sheet = { width: 1000, height: 700 };

  it('turns the blank to keep the grain the style needs', () => {
    expect(grainLayout('LONG', 'BLANK_WIDTH', false).orientation).toBe('UPRIGHT');
    expect(grainLayout('SHORT', 'BLANK_WIDTH', false).orientation).toBe('ROTATED');
    expect(grainLayout('LONG', 'BLANK_HEIGHT', true)).toMatchObject({ orientation: 'ROTATED', mixed: false });
    expect(grainLayout('SHORT', 'BLANK_HEIGHT', false).orientation).toBe('UPRIGHT');
    expect(grainLayout(null, 'BLANK_WIDTH', false)).toMatchObject({ orientation: 'BOTH', mixed: false });
    expect(grainLayout('LONG', 'ANY', true)).toMatchObject({ orientation: 'BOTH', mixed: true });
  });

  it('mixes orientations only where allowed', () => {
    const mixed = impose(sheet, card, margins, Number.POSITIVE_INFINITY, grainLayout('LONG', 'ANY', true));
    const single = impose(sheet, card, margins, Number.POSITIVE_INFINITY, grainLayout('LONG', 'ANY', false));
    const upright = impose(
      sheet,
      card,
      margins,
      Number.POSITIVE_INFINITY,
      grainLayout('LONG', 'BLANK_WIDTH', false),
    );
    const turned = impose(
      sheet,
      card,
      margins,
      Number.POSITIVE_INFINITY,
      grainLayout('SHORT', 'BLANK_WIDTH', false),
    );
    expect(mixed.ups).toBe(39); // 12 upright + 27 turned, see hand-worked (c)
    expect(single.ups).toBe(36);
    expect(new Set(single.placements.map((p) => p.rotated)).size).toBe(1);
    expect(upright.placements.every((p) => !p.rotated)).toBe(true);
    expect(turned.placements.every((p) => p.rotated)).toBe(true);
    expect(upright.grain).toMatchObject({ sheetGrain: 'LONG', required: 'BLANK_WIDTH', mixed: false });
  });
});
