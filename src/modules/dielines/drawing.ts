/**
 * The die-line as the exchange files draw it: the engine's die-line (y downwards, SVG
 * convention) turned into CAD coordinates (millimetres, y upwards, origin at the lower-left corner
 * of the blank), one entry per line type, plus the bleed and safe-zone guides an artwork template
 * needs. Every writer (PDF, DXF, CF2) draws from this one model, so the three files cannot
 * disagree with each other or with the engine's rule lengths.
 */
import type { DieLine, Point } from '../../pricing/index.ts';

/** The line types of a die (CF2 pointage types in brackets): cut (1), crease (2), perforation, partial cut. */
export type RuleType = 'CUT' | 'CREASE' | 'PERFORATION' | 'PARTIAL_CUT';
export const RULE_TYPES: readonly RuleType[] = ['CUT', 'CREASE', 'PERFORATION', 'PARTIAL_CUT'];

export interface LineEntity {
  type: 'LINE';
  rule: RuleType;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** An arc, counter-clockwise from `start` to `end` (degrees from the x axis, y upwards). */
export interface ArcEntity {
  type: 'ARC';
  rule: RuleType;
  cx: number;
  cy: number;
  radius: number;
  start: number;
  end: number;
}

export type RuleEntity = LineEntity | ArcEntity;

export interface Label {
  text: string;
  x: number;
  y: number;
  /** Room for the text, mm (the panel's size), so a writer can fit it. */
  width: number;
  height: number;
}

export interface DimensionLine {
  label: string;
  axis: 'x' | 'y';
  start: number;
  end: number;
  /** Offset from the blank, mm: negative below (x) or left of (y) the blank. */
  offset: number;
}

export interface Drawing {
  /** Blank size, mm. */
  width: number;
  height: number;
  rules: RuleEntity[];
  /** Outer contour, closed, counter-clockwise (y upwards). */
  outline: Point[];
  /** The outline pushed out by the bleed, closed. */
  bleed: Point[];
  /** Safe zones: panels inset by the safe margin (or the outline pulled in when panels are unknown). */
  safe: Point[][];
  panels: Label[];
  dimensions: DimensionLine[];
  /** Extra non-printing guides (a sheet's edge, gripper, grain arrow), polylines. */
  guides?: { label: string; points: Point[]; closed: boolean }[];
  /** The engine's own totals, for checks. */
  cutLengthMm: number;
  creaseLengthMm: number;
}

export const BLEED_MM = 3;
export const SAFE_MM = 3;

/** Rounded to a micrometre so files are stable across platforms and free of 1e-15 noise. */
export const um = (value: number) => {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? 0 : rounded;
};

function signedArea(points: Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return twice / 2;
}

/**
 * A closed polygon moved `distance` outwards (negative: inwards), each edge parallel to its own
 * and the corners mitred (die-lines are straight runs with square or 45-degree corners, where a
 * mitre is exactly what a designer draws). Sharp spikes are capped at 4 x distance.
 */
export function offsetPolygon(points: Point[], distance: number): Point[] {
  const ccw = signedArea(points) > 0;
  const n = points.length;
  const out: Point[] = [];
  for (let i = 0; i < n; i++) {
    const prev = points[(i - 1 + n) % n]!;
    const cur = points[i]!;
    const next = points[(i + 1) % n]!;
    // Outward normals of the two edges meeting at `cur` (right-hand side for a CCW polygon).
    const normal = (a: Point, b: Point) => {
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const nx = (b.y - a.y) / len;
      const ny = -(b.x - a.x) / len;
      return ccw ? { x: nx, y: ny } : { x: -nx, y: -ny };
    };
    const n1 = normal(prev, cur);
    const n2 = normal(cur, next);
    const dot = 1 + n1.x * n2.x + n1.y * n2.y;
    // Mitre: (n1 + n2) / (1 + n1.n2) moves both edges by exactly `distance`; a spike (edges
    // folding back on each other) is capped at 4 x distance.
    let mx = dot > 1e-9 ? ((n1.x + n2.x) / dot) * distance : n1.x * distance;
    let my = dot > 1e-9 ? ((n1.y + n2.y) / dot) * distance : n1.y * distance;
    const length = Math.hypot(mx, my);
    const cap = 4 * Math.abs(distance);
    if (length > cap) {
      mx = (mx / length) * cap;
      my = (my / length) * cap;
    }
    out.push({ x: cur.x + mx, y: cur.y + my });
  }
  return out;
}

/**
 * Sutherland-Hodgman: the part of a polygon inside an axis-aligned rectangle (the clip region
 * must be convex, which a rectangle is; the polygon may be concave).
 */
export function clipToRectangle(points: Point[], x0: number, y0: number, x1: number, y1: number): Point[] {
  const edges: [(p: Point) => boolean, (a: Point, b: Point) => Point][] = [
    [(p) => p.x >= x0, (a, b) => ({ x: x0, y: a.y + ((b.y - a.y) * (x0 - a.x)) / (b.x - a.x) })],
    [(p) => p.x <= x1, (a, b) => ({ x: x1, y: a.y + ((b.y - a.y) * (x1 - a.x)) / (b.x - a.x) })],
    [(p) => p.y >= y0, (a, b) => ({ x: a.x + ((b.x - a.x) * (y0 - a.y)) / (b.y - a.y), y: y0 })],
    [(p) => p.y <= y1, (a, b) => ({ x: a.x + ((b.x - a.x) * (y1 - a.y)) / (b.y - a.y), y: y1 })],
  ];
  let result = points;
  for (const [inside, cross] of edges) {
    const input = result;
    result = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i]!;
      const prev = input[(i - 1 + input.length) % input.length]!;
      if (inside(cur)) {
        if (!inside(prev)) result.push(cross(prev, cur));
        result.push(cur);
      } else if (inside(prev)) result.push(cross(prev, cur));
    }
    if (!result.length) return [];
  }
  return result;
}

/** The drawing of a die-line: y flipped upwards, rules typed, guides computed. */
export function drawingOf(dieLine: DieLine, options: { bleedMm?: number; safeMm?: number } = {}): Drawing {
  const bleedMm = options.bleedMm ?? BLEED_MM;
  const safeMm = options.safeMm ?? SAFE_MM;
  const h = dieLine.height;
  const flip = (p: Point): Point => ({ x: p.x, y: h - p.y });
  const rules: RuleEntity[] = dieLine.segments.map((s) => ({
    type: 'LINE',
    rule: s.kind === 'CUT' ? 'CUT' : 'CREASE',
    x1: s.x1,
    y1: h - s.y1,
    x2: s.x2,
    y2: h - s.y2,
  }));
  let outline = dieLine.outline.map(flip);
  if (signedArea(outline) < 0) outline = [...outline].reverse();
  const panels = (dieLine.panels ?? []).map((p) => ({
    text: p.name,
    x: p.x + p.width / 2,
    y: h - (p.y + p.height / 2),
    width: p.width,
    height: p.height,
  }));
  // Each panel inset by the safe margin, clipped to the outline pulled in by the same margin
  // (tapered flaps and chamfered lids are not rectangles).
  const inner = offsetPolygon(outline, -safeMm);
  const safe = dieLine.panels?.length
    ? dieLine.panels
        .filter((p) => p.width > 2 * safeMm && p.height > 2 * safeMm)
        .map((p) => {
          const x0 = p.x + safeMm;
          const x1 = p.x + p.width - safeMm;
          const y0 = h - (p.y + p.height) + safeMm;
          const y1 = h - p.y - safeMm;
          return clipToRectangle(inner, x0, y0, x1, y1);
        })
        .filter((zone) => zone.length >= 3)
    : [inner];
  const xMarks = dieLine.dimensions.filter((d) => d.axis === 'x');
  const yMarks = dieLine.dimensions.filter((d) => d.axis === 'y');
  const step = 8;
  const dimensions: DimensionLine[] = [
    ...xMarks.map((d, i) => ({
      label: d.label,
      axis: 'x' as const,
      start: d.start,
      end: d.end,
      offset: -(bleedMm + step * (i + 1)),
    })),
    // y marks run downwards in the engine; flip them so start < end upwards.
    ...yMarks.map((d, i) => ({
      label: d.label,
      axis: 'y' as const,
      start: h - d.end,
      end: h - d.start,
      offset: -(bleedMm + step * (i + 1)),
    })),
  ];
  return {
    width: dieLine.width,
    height: dieLine.height,
    rules,
    outline,
    bleed: offsetPolygon(outline, bleedMm),
    safe,
    panels,
    dimensions,
    cutLengthMm: dieLine.cutLengthMm,
    creaseLengthMm: dieLine.creaseLengthMm,
  };
}

/** Length of a rule entity, mm. */
export function entityLength(entity: RuleEntity): number {
  if (entity.type === 'LINE') return Math.hypot(entity.x2 - entity.x1, entity.y2 - entity.y1);
  const sweep = (((entity.end - entity.start) % 360) + 360) % 360 || 360;
  return (entity.radius * sweep * Math.PI) / 180;
}

/** Start and end points of a rule entity. */
export function endpoints(entity: RuleEntity): [Point, Point] {
  if (entity.type === 'LINE')
    return [
      { x: entity.x1, y: entity.y1 },
      { x: entity.x2, y: entity.y2 },
    ];
  const at = (deg: number) => ({
    x: entity.cx + entity.radius * Math.cos((deg * Math.PI) / 180),
    y: entity.cy + entity.radius * Math.sin((deg * Math.PI) / 180),
  });
  return [at(entity.start), at(entity.end)];
}
