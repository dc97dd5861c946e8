/**
 * A die-line: the cut contour and crease lines of a flat blank. Area, rule lengths and the SVG
 * drawing are all derived from the same segments, so they cannot disagree.
 *
 * Coordinates are mm, x to the right, y downwards (SVG convention), bounding box at the origin.
 */
import type { StyleCode } from '../catalogue.ts';

export interface Point {
  x: number;
  y: number;
}

export type SegmentKind = 'CUT' | 'CREASE';

export interface Segment {
  kind: SegmentKind;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A dimension to annotate: a span along one axis of the blank. */
export interface DimensionMark {
  label: string;
  axis: 'x' | 'y';
  start: number;
  end: number;
}

/**
 * A named region of the blank (front, back, side, flap...), for the artwork template's labels.
 * x, y, width, height in die-line coordinates.
 */
export interface PanelLabel {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface KnockedDown {
  /** Folded-flat footprint and thickness, mm. */
  length: number;
  width: number;
  thickness: number;
}

export interface DieLine {
  style: StyleCode;
  width: number;
  height: number;
  /** Outer cut contour, closed (last point joins the first). */
  outline: Point[];
  /** Openings cut inside the blank (windows). */
  holes: Point[][];
  segments: Segment[];
  /** Board area of the blank (outline minus holes), mm2. */
  areaMm2: number;
  cutLengthMm: number;
  creaseLengthMm: number;
  glueLengthMm: number;
  knockedDown: KnockedDown;
  caliperMm: number;
  dimensions: DimensionMark[];
  /** Named panels and flaps; absent on die-lines priced before panels were recorded. */
  panels?: PanelLabel[];
}

export function segmentLength(segment: Segment): number {
  return Math.hypot(segment.x2 - segment.x1, segment.y2 - segment.y1);
}

/** Shoelace formula; absolute value so the winding direction does not matter. */
export function polygonArea(points: Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return Math.abs(twice) / 2;
}

const EPSILON = 1e-9;

/** Drop repeated points and points lying on a straight run, so each cut edge is one segment. */
export function simplifyContour(points: Point[]): Point[] {
  const deduped: Point[] = [];
  for (const point of points) {
    const last = deduped[deduped.length - 1];
    if (!last || Math.abs(last.x - point.x) > EPSILON || Math.abs(last.y - point.y) > EPSILON)
      deduped.push(point);
  }
  while (deduped.length > 1) {
    const first = deduped[0]!;
    const last = deduped[deduped.length - 1]!;
    if (Math.abs(first.x - last.x) > EPSILON || Math.abs(first.y - last.y) > EPSILON) break;
    deduped.pop();
  }
  let changed = true;
  let result = deduped;
  while (changed && result.length > 3) {
    changed = false;
    const next: Point[] = [];
    for (let i = 0; i < result.length; i++) {
      const prev = result[(i - 1 + result.length) % result.length]!;
      const cur = result[i]!;
      const after = result[(i + 1) % result.length]!;
      const cross = (cur.x - prev.x) * (after.y - cur.y) - (cur.y - prev.y) * (after.x - cur.x);
      const dot = (cur.x - prev.x) * (after.x - cur.x) + (cur.y - prev.y) * (after.y - cur.y);
      if (Math.abs(cross) < EPSILON && dot > 0) {
        changed = true;
        continue;
      }
      next.push(cur);
    }
    result = next;
  }
  return result;
}

function contourSegments(points: Point[]): Segment[] {
  const segments: Segment[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    segments.push({ kind: 'CUT', x1: a.x, y1: a.y, x2: b.x, y2: b.y });
  }
  return segments;
}

/** Collects a style's contour, creases and marks, then measures and normalises them. */
export class DieLineDraft {
  private readonly outlinePoints: Point[] = [];
  private readonly holeContours: Point[][] = [];
  private readonly creases: Segment[] = [];
  private readonly marks: DimensionMark[] = [];
  private readonly panelLabels: PanelLabel[] = [];

  point(x: number, y: number): this {
    this.outlinePoints.push({ x, y });
    return this;
  }

  crease(x1: number, y1: number, x2: number, y2: number): this {
    if (Math.hypot(x2 - x1, y2 - y1) > EPSILON) this.creases.push({ kind: 'CREASE', x1, y1, x2, y2 });
    return this;
  }

  /** A rectangular opening (window). */
  hole(x: number, y: number, width: number, height: number): this {
    this.holeContours.push([
      { x, y },
      { x: x + width, y },
      { x: x + width, y: y + height },
      { x, y: y + height },
    ]);
    return this;
  }

  mark(label: string, axis: 'x' | 'y', start: number, end: number): this {
    this.marks.push({ label, axis, start, end });
    return this;
  }

  /** A named panel or flap (a rectangle; its label goes at the centre). */
  panel(name: string, x: number, y: number, width: number, height: number): this {
    if (width > EPSILON && height > EPSILON) this.panelLabels.push({ name, x, y, width, height });
    return this;
  }

  finish(
    style: StyleCode,
    details: { caliperMm: number; glueLengthMm: number; knockedDown: KnockedDown },
  ): DieLine {
    const outline = simplifyContour(this.outlinePoints);
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const p of outline) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    }
    const shift = (p: Point): Point => ({ x: p.x - minX, y: p.y - minY });
    const shiftedOutline = outline.map(shift);
    const holes = this.holeContours.map((hole) => hole.map(shift));
    const creases = this.creases.map((s) => ({
      ...s,
      x1: s.x1 - minX,
      y1: s.y1 - minY,
      x2: s.x2 - minX,
      y2: s.y2 - minY,
    }));
    const segments = [...contourSegments(shiftedOutline), ...holes.flatMap(contourSegments), ...creases];
    let cutLengthMm = 0;
    let creaseLengthMm = 0;
    for (const segment of segments) {
      if (segment.kind === 'CUT') cutLengthMm += segmentLength(segment);
      else creaseLengthMm += segmentLength(segment);
    }
    const holeArea = holes.reduce((sum, hole) => sum + polygonArea(hole), 0);
    const offset = (axis: 'x' | 'y') => (axis === 'x' ? minX : minY);
    return {
      style,
      width: maxX - minX,
      height: maxY - minY,
      outline: shiftedOutline,
      holes,
      segments,
      areaMm2: polygonArea(shiftedOutline) - holeArea,
      cutLengthMm,
      creaseLengthMm,
      glueLengthMm: details.glueLengthMm,
      knockedDown: details.knockedDown,
      caliperMm: details.caliperMm,
      dimensions: this.marks.map((m) => ({
        ...m,
        start: m.start - offset(m.axis),
        end: m.end - offset(m.axis),
      })),
      panels: this.panelLabels.map((p) => ({ ...p, x: p.x - minX, y: p.y - minY })),
    };
  }
}
