/**
 * Nested (interlocking) layouts of die-cut blanks.
 *
 * A tuck-end carton's blank is far from rectangular: lids and tuck flaps stand out on some panels,
 * dust flaps are shorter, the front panel often has nothing above it. Laid as bounding boxes, the
 * gaps between flaps are wasted; an estimator lays the rows head to tail instead, every other row
 * turned 180 degrees and shifted sideways so the lids of one row drop into the gaps of the next.
 * Turning 180 degrees keeps the grain direction, so a nested layout keeps the grain rule.
 *
 * The rule, computed from the die-line's cut contour (no style-specific tables):
 * - each blank is described by its column profile: for every x, the topmost and bottommost board
 *   of the blank (the "column hull"; the real blank lies inside it, so whatever keeps hulls
 *   apart keeps blanks apart);
 * - rows are laid at the column pitch (blank width + gutter) and alternate A (as drawn) and B
 *   (turned 180 degrees, or not turned), B shifted by dx; the row pitch A->B is the smallest
 *   vertical step that keeps every B blank at least one gutter (vertically and horizontally)
 *   away from the A blanks above it (the one straight above and its two neighbours), likewise
 *   B->A, and two rows apart never closer than the same-row stacking pitch;
 * - dx is tried at every alignment of a profile corner of one row with one of the other (and 0);
 *   the layout with the most blanks on the usable area wins.
 *
 * Complexity: the profiles have a few dozen corners, so a few hundred shifts of a few hundred
 * comparisons each: well under a millisecond, done once per die-line, gutter and orientation
 * (memoised per pricing call).
 */
import type { Point } from './geometry/die-line.ts';

export interface NestPattern {
  /** Blanks turned 90 degrees (the grain rule's orientation); nesting itself turns by 180. */
  rotated: boolean;
  /** Every other row turned 180 degrees (head to tail). */
  turned: boolean;
  /** Sideways shift of the B rows against the A rows, mm. */
  shiftMm: number;
  /** Vertical steps A->B and B->A, mm (bounding-box tops). */
  pitchAB: number;
  pitchBA: number;
  /** Placed bounding box (after the 90-degree turn). */
  width: number;
  height: number;
}

export interface NestedPlacement {
  x: number;
  y: number;
  width: number;
  height: number;
  rotated: boolean;
  /** Turned 180 degrees (head to tail). */
  turned: boolean;
}

interface Profile {
  /** Sorted x of the contour's corners. */
  xs: number[];
  /** Topmost / bottommost board at each corner x (closed: vertical edges count whole). */
  top: number[];
  bottom: number[];
  width: number;
  height: number;
}

/** The outline as placed: turned 90 degrees clockwise (SVG convention) and/or 180 degrees. */
export function placeOutline(
  outline: Point[],
  blank: { width: number; height: number },
  rotated: boolean,
  turned: boolean,
): Point[] {
  return outline.map((p) => {
    let x = p.x;
    let y = p.y;
    let w = blank.width;
    let h = blank.height;
    if (rotated) {
      [x, y] = [blank.height - p.y, p.x];
      [w, h] = [h, w];
    }
    if (turned) [x, y] = [w - x, h - y];
    return { x, y };
  });
}

function profileOf(points: Point[], width: number, height: number): Profile {
  const xs = [...new Set(points.map((p) => Math.round(p.x * 1e6) / 1e6))].sort((a, b) => a - b);
  const top = xs.map(() => Number.POSITIVE_INFINITY);
  const bottom = xs.map(() => Number.NEGATIVE_INFINITY);
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % n]!;
    const lo = Math.min(a.x, b.x) - 1e-6;
    const hi = Math.max(a.x, b.x) + 1e-6;
    xs.forEach((x, j) => {
      if (x < lo || x > hi) return;
      let ys: number[];
      if (Math.abs(b.x - a.x) < 1e-9) ys = [a.y, b.y];
      else ys = [a.y + ((x - a.x) / (b.x - a.x)) * (b.y - a.y)];
      for (const y of ys) {
        if (y < top[j]!) top[j] = y;
        if (y > bottom[j]!) bottom[j] = y;
      }
    });
  }
  return { xs, top, bottom, width, height };
}

/** Profile value at x (linear between corners; the closed extreme at a corner). */
function valueAt(profile: Profile, values: number[], x: number): number | null {
  const { xs } = profile;
  if (x < xs[0]! - 1e-9 || x > xs[xs.length - 1]! + 1e-9) return null;
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= x) lo = mid;
    else hi = mid;
  }
  if (Math.abs(xs[lo]! - x) < 1e-9) return values[lo]!;
  if (Math.abs(xs[hi]! - x) < 1e-9) return values[hi]!;
  const t = (x - xs[lo]!) / (xs[hi]! - xs[lo]!);
  return values[lo]! + t * (values[hi]! - values[lo]!);
}

/**
 * A's bottom profile dilated by the gutter sideways: D(x) = max of bottom over [x - g, x + g],
 * known exactly at the corners and the corners +- g. Between two of those points the window holds
 * the same corners and its ends slide along fixed edges, so D is convex there and the chord (the
 * linear interpolation used below) is never below it: pitches computed with it are never too small.
 */
interface Dilated {
  xs: number[];
  values: number[];
}

function dilate(profile: Profile, gutter: number): Dilated {
  if (gutter <= 0) return { xs: profile.xs, values: profile.bottom };
  const points = new Set<number>();
  for (const x of profile.xs) {
    points.add(x);
    points.add(x - gutter);
    points.add(x + gutter);
  }
  const xs = [...points].sort((a, b) => a - b);
  const first = profile.xs[0]!;
  const last = profile.xs[profile.xs.length - 1]!;
  const values = xs.map((x) => {
    let best = Number.NEGATIVE_INFINITY;
    const lo = Math.max(first, x - gutter);
    const hi = Math.min(last, x + gutter);
    for (const end of [lo, hi]) {
      const v = valueAt(profile, profile.bottom, end);
      if (v !== null && v > best) best = v;
    }
    profile.xs.forEach((cx, i) => {
      if (cx >= lo - 1e-9 && cx <= hi + 1e-9 && profile.bottom[i]! > best) best = profile.bottom[i]!;
    });
    return best;
  });
  return { xs, values };
}

/** Linear interpolation on sorted breakpoints, moving forward only (pointer kept by the caller). */
function lerp(xs: number[], values: number[], x: number, at: { i: number }): number | null {
  if (x < xs[0]! - 1e-9 || x > xs[xs.length - 1]! + 1e-9) return null;
  while (at.i < xs.length - 2 && xs[at.i + 1]! < x) at.i++;
  const x0 = xs[at.i]!;
  const x1 = xs[Math.min(at.i + 1, xs.length - 1)]!;
  if (x1 - x0 < 1e-12) return values[at.i]!;
  const t = Math.min(1, Math.max(0, (x - x0) / (x1 - x0)));
  const v0 = values[at.i]!;
  const v1 = values[at.i + 1]!;
  return v0 + t * (v1 - v0);
}

/**
 * Smallest vertical step from blank A (above, bottom profile dilated by the gutter) to blank B
 * (below, shifted by dx) that keeps them a gutter apart; -Infinity when they share no column.
 * The difference of two piecewise-linear (A: convex between its points) functions peaks at a
 * breakpoint of one of them: both sorted lists are merged in one pass.
 */
function pairPitch(a: Dilated, b: Profile, dx: number, gutter: number): number {
  const ax = a.xs;
  const bx = b.xs;
  if (bx[0]! + dx > ax[ax.length - 1]! || bx[bx.length - 1]! + dx < ax[0]!) return Number.NEGATIVE_INFINITY;
  let worst = Number.NEGATIVE_INFINITY;
  const pa = { i: 0 };
  const pb = { i: 0 };
  let i = 0;
  let j = 0;
  while (i < ax.length || j < bx.length) {
    const xaNext = i < ax.length ? ax[i]! : Number.POSITIVE_INFINITY;
    const xbNext = j < bx.length ? bx[j]! + dx : Number.POSITIVE_INFINITY;
    const x = Math.min(xaNext, xbNext);
    if (xaNext <= x + 1e-12) i++;
    if (xbNext <= x + 1e-12) j++;
    const bottom = lerp(ax, a.values, x, pa);
    const top = lerp(bx, b.top, x - dx, pb);
    if (bottom === null || top === null) continue;
    const step = bottom - top + gutter;
    if (step > worst) worst = step;
  }
  return worst;
}

/** Row pitch against the blank straight above and its neighbours in the row (column pitch p). */
function rowPitch(a: Dilated, b: Profile, dx: number, gutter: number, columnPitch: number): number {
  return Math.max(
    pairPitch(a, b, dx, gutter),
    pairPitch(a, b, dx - columnPitch, gutter),
    pairPitch(a, b, dx + columnPitch, gutter),
  );
}

function fitsAcross(length: number, size: number, gutter: number): number {
  if (size <= 0 || size > length + 1e-9) return 0;
  return Math.floor((length + gutter) / (size + gutter) + 1e-9);
}

interface Evaluated {
  pattern: NestPattern;
  ups: number;
}

/** Blanks a pattern fits in a uw x uh usable area. */
function countPattern(pattern: NestPattern, uw: number, uh: number, gutter: number): number {
  const offA = Math.max(0, -pattern.shiftMm);
  const offB = Math.max(0, pattern.shiftMm);
  const colsA = fitsAcross(uw - offA, pattern.width, gutter);
  const colsB = fitsAcross(uw - offB, pattern.width, gutter);
  let ups = 0;
  let y = 0;
  for (let row = 0; y + pattern.height <= uh + 1e-9; row++) {
    ups += row % 2 === 0 ? colsA : colsB;
    y += row % 2 === 0 ? pattern.pitchAB : pattern.pitchBA;
    if (row > 10000) break;
  }
  return ups;
}

/**
 * Candidate row patterns of a die-line in one orientation (90-degree turn or not), independent of
 * the sheet: memoise per die-line, gutter and orientation.
 */
export function nestPatterns(
  outline: Point[],
  blank: { width: number; height: number },
  rotated: boolean,
  gutter: number,
): NestPattern[] {
  // Patterns depend only on the contour, the gutter and the turn: a bounded memo shared by calls
  // returns exactly what a fresh computation would (no catalogue figure is involved).
  const key = `${rotated}|${gutter}|${blank.width}|${blank.height}|${outline.map((p) => `${p.x},${p.y}`).join(';')}`;
  const cached = MEMO.get(key);
  if (cached) return cached;
  const patterns = computePatterns(outline, blank, rotated, gutter);
  if (MEMO.size >= MEMO_LIMIT) MEMO.delete(MEMO.keys().next().value!);
  MEMO.set(key, patterns);
  return patterns;
}

const MEMO = new Map<string, NestPattern[]>();
const MEMO_LIMIT = 2000;

function computePatterns(
  outline: Point[],
  blank: { width: number; height: number },
  rotated: boolean,
  gutter: number,
): NestPattern[] {
  const width = rotated ? blank.height : blank.width;
  const height = rotated ? blank.width : blank.height;
  const a = profileOf(placeOutline(outline, blank, rotated, false), width, height);
  const columnPitch = width + gutter;
  const patterns: NestPattern[] = [];
  // Stacking the same way up with no shift: the floor every two-row pitch must respect.
  const aDilated = dilate(a, gutter);
  const stackA = Math.max(rowPitch(aDilated, a, 0, gutter, columnPitch), 0);
  for (const turned of [true, false]) {
    const b = turned ? profileOf(placeOutline(outline, blank, rotated, true), width, height) : a;
    const bDilated = turned ? dilate(b, gutter) : aDilated;
    const stackB = turned ? Math.max(rowPitch(bDilated, b, 0, gutter, columnPitch), 0) : stackA;
    const shifts = new Set<number>([0]);
    for (const xa of a.xs) {
      for (const xb of b.xs) {
        const dx = Math.round(xa - xb);
        if (Math.abs(dx) <= columnPitch / 2) shifts.add(dx);
      }
    }
    // Half a column pitch, either way, to the whole millimetre below and above: where rows of
    // symmetric blanks (trays) interlock. Rounding each corner alignment and cutting at half a
    // pitch lost it for a tray whose pitch was 251.62 mm (125.8 -> 126 > 125.81), while the tray
    // 2 mm taller kept it: the larger box nested 6 ups, the smaller 4, and cost less (issue 30,
    // PRICING_SEED=27 and 29). rowPitch checks the neighbours on either side, so any shift is safe.
    for (const half of [Math.floor(columnPitch / 2), Math.ceil(columnPitch / 2)]) {
      shifts.add(half);
      shifts.add(-half);
    }
    let best: NestPattern | null = null;
    const candidates: NestPattern[] = [];
    for (const dx of shifts) {
      const ab = rowPitch(aDilated, b, dx, gutter, columnPitch);
      const ba = rowPitch(bDilated, a, -dx, gutter, columnPitch);
      if (!Number.isFinite(ab) || !Number.isFinite(ba)) continue;
      let pitchAB = Math.max(ab, 0);
      let pitchBA = Math.max(ba, 0);
      // Rows two apart (same orientation) must not come closer than stacking them directly.
      const floor = Math.max(stackA, stackB);
      if (pitchAB + pitchBA < floor) {
        const extra = floor - pitchAB - pitchBA;
        pitchAB += extra / 2;
        pitchBA += extra / 2;
      }
      const pattern: NestPattern = { rotated, turned, shiftMm: dx, pitchAB, pitchBA, width, height };
      candidates.push(pattern);
      // Denser first (smaller average pitch), then the smaller shift (less sheet width).
      if (
        !best ||
        pitchAB + pitchBA < best.pitchAB + best.pitchBA - 1e-9 ||
        (Math.abs(pitchAB + pitchBA - best.pitchAB - best.pitchBA) <= 1e-9 &&
          Math.abs(dx) < Math.abs(best.shiftMm))
      ) {
        best = pattern;
      }
    }
    if (!best) continue;
    patterns.push(best);
    // The densest pattern is not always the one that fits most on a given sheet: its shift costs
    // the A rows (shift < 0) or the B rows (shift > 0) a column's width, and a sheet holding two
    // rows reads pitchAB alone. Every pattern that no other beats on all four of what countPattern
    // reads (both rows' offsets, both pitches) is kept after it (bestNested keeps the first of
    // equal counts): a tray 2 mm wider nested 11 ups where the smaller one, its shift the other
    // way, nested 10 (issue 30, a larger box cheaper).
    for (const p of paretoFront(candidates)) if (p !== best) patterns.push(p);
  }
  return patterns;
}

/** Patterns no other one dominates (offset of the A rows, of the B rows, both pitches: none larger). */
function paretoFront(candidates: NestPattern[]): NestPattern[] {
  const keys = candidates.map((p) => [Math.max(0, -p.shiftMm), Math.max(0, p.shiftMm), p.pitchAB, p.pitchBA]);
  const front: NestPattern[] = [];
  const seen = new Set<string>();
  candidates.forEach((p, i) => {
    const k = keys[i]!;
    const dominated = keys.some(
      (q, j) => j !== i && q.every((v, n) => v <= k[n]! + 1e-9) && q.some((v, n) => v < k[n]! - 1e-9),
    );
    const id = k.map((v) => v.toFixed(6)).join('|');
    if (!dominated && !seen.has(id)) {
      seen.add(id);
      front.push(p);
    }
  });
  return front;
}

/** The best nested layout among the patterns for a usable area, or null when none fits a blank. */
export function bestNested(
  patterns: NestPattern[],
  uw: number,
  uh: number,
  gutter: number,
): Evaluated | null {
  let best: Evaluated | null = null;
  for (const pattern of patterns) {
    const ups = countPattern(pattern, uw, uh, gutter);
    if (ups > 0 && (!best || ups > best.ups)) best = { pattern, ups };
  }
  return best;
}

/** Placements of a nested pattern inside the usable area at (ux, uy), centred across. */
export function nestedPlacements(
  pattern: NestPattern,
  usable: { x: number; y: number; width: number; height: number },
  gutter: number,
): NestedPlacement[] {
  const offA = Math.max(0, -pattern.shiftMm);
  const offB = Math.max(0, pattern.shiftMm);
  const colsA = fitsAcross(usable.width - offA, pattern.width, gutter);
  const colsB = fitsAcross(usable.width - offB, pattern.width, gutter);
  const span = (cols: number) => (cols > 0 ? cols * pattern.width + (cols - 1) * gutter : 0);
  const layoutWidth = Math.max(offA + span(colsA), offB + span(colsB));
  const x0 = usable.x + Math.max(0, (usable.width - layoutWidth) / 2);
  const out: NestedPlacement[] = [];
  let y = 0;
  for (let row = 0; y + pattern.height <= usable.height + 1e-9; row++) {
    const isA = row % 2 === 0;
    const cols = isA ? colsA : colsB;
    for (let col = 0; col < cols; col++) {
      out.push({
        x: x0 + (isA ? offA : offB) + col * (pattern.width + gutter),
        y: usable.y + y,
        width: pattern.width,
        height: pattern.height,
        rotated: pattern.rotated,
        turned: !isA && pattern.turned,
      });
    }
    y += isA ? pattern.pitchAB : pattern.pitchBA;
    if (row > 10000) break;
  }
  return out;
}
