/**
 * The folded box from the engine's own die-line (issue 29, docs/dielines.md "3D preview"): the
 * named panels are the faces (a panel that a crease crosses from side to side is split there, the
 * tuck flap off its lid), clipped to the cut contour; two faces are hinged where they share an edge
 * that a crease runs along. From a root face (the front, else the base, else the largest), every
 * other face turns about its hinge by 90 degrees times the fold fraction, away from the printed
 * side, so 0 is the flat blank and 1 the closed box. Pure: no three.js, the renderer applies the
 * matrices. Coordinates: mm, x right, y up (the die-line's y is downwards), the printed side +z.
 */

export type Pt = { x: number; y: number };
type Rect = { x: number; y: number; width: number; height: number };

/** What the fold needs of a die-line (the engine's `DieLine`). */
export interface FoldInput {
  style: string;
  width: number;
  height: number;
  caliperMm: number;
  outline: Pt[];
  segments: { kind: string; x1: number; y1: number; x2: number; y2: number }[];
  panels?: { name: string; x: number; y: number; width: number; height: number }[];
}

export interface Face {
  name: string;
  /** The face's polygon in flat coordinates (y up). */
  polygon: Pt[];
  /** The parent face's index (-1: the root). */
  parent: number;
  /** The hinge: a line in flat coordinates, and the sign of the turn about it. */
  hinge: { axis: 'x' | 'y'; at: number; sign: 1 | -1 } | null;
  /** Hinges from the root (the root 0): the thickness offset of stacked flaps. */
  depth: number;
}

const EPS = 0.5;

/** Sutherland–Hodgman: the polygon clipped to a rectangle (convex window). */
export function clipToRect(polygon: Pt[], r: Rect): Pt[] {
  const edges: [(p: Pt) => boolean, (a: Pt, b: Pt) => Pt][] = [
    [(p) => p.x >= r.x - 1e-6, (a, b) => at(a, b, 'x', r.x)],
    [(p) => p.x <= r.x + r.width + 1e-6, (a, b) => at(a, b, 'x', r.x + r.width)],
    [(p) => p.y >= r.y - 1e-6, (a, b) => at(a, b, 'y', r.y)],
    [(p) => p.y <= r.y + r.height + 1e-6, (a, b) => at(a, b, 'y', r.y + r.height)],
  ];
  let out = polygon;
  for (const [inside, cross] of edges) {
    const input = out;
    out = [];
    input.forEach((current, i) => {
      const previous = input[(i + input.length - 1) % input.length]!;
      if (inside(current)) {
        if (!inside(previous)) out.push(cross(previous, current));
        out.push(current);
      } else if (inside(previous)) out.push(cross(previous, current));
    });
    if (!out.length) return out;
  }
  return out;
}

/**
 * The polygon without repeated points and without points on a straight run or at the tip of a
 * zero-width spike (clipping a non-convex contour leaves both along the window's edges; a spike
 * would fold out as a sliver of board that is not there).
 */
export function simplify(polygon: Pt[]): Pt[] {
  const points = [...polygon];
  const same = (a: Pt, b: Pt) => Math.abs(a.x - b.x) < 1e-6 && Math.abs(a.y - b.y) < 1e-6;
  // One point at a time, its neighbours read from the current list.
  for (let i = 0; points.length >= 3 && i < points.length; ) {
    const prev = points[(i + points.length - 1) % points.length]!;
    const p = points[i]!;
    const next = points[(i + 1) % points.length]!;
    const cross = (p.x - prev.x) * (next.y - p.y) - (p.y - prev.y) * (next.x - p.x);
    if (same(p, prev) || Math.abs(cross) < 1e-6) {
      points.splice(i, 1);
      i = Math.max(0, i - 1);
    } else i++;
  }
  return points.length >= 3 ? points : [];
}

function at(a: Pt, b: Pt, axis: 'x' | 'y', value: number): Pt {
  const other = axis === 'x' ? 'y' : 'x';
  const t = (value - a[axis]) / (b[axis] - a[axis]);
  return { [axis]: value, [other]: a[other] + t * (b[other] - a[other]) } as Pt;
}

type Line = { axis: 'x' | 'y'; at: number; from: number; to: number };

/** Axis-aligned creases in y-up coordinates: vertical ones (axis 'x': x = at) and horizontal. */
function creaseLines(input: FoldInput): Line[] {
  const lines: Line[] = [];
  for (const s of input.segments) {
    if (s.kind !== 'CREASE') continue;
    const y1 = input.height - s.y1;
    const y2 = input.height - s.y2;
    if (Math.abs(s.x1 - s.x2) < 1e-6)
      lines.push({ axis: 'x', at: s.x1, from: Math.min(y1, y2), to: Math.max(y1, y2) });
    else if (Math.abs(y1 - y2) < 1e-6)
      lines.push({ axis: 'y', at: y1, from: Math.min(s.x1, s.x2), to: Math.max(s.x1, s.x2) });
  }
  return lines;
}

/** The panels in y-up coordinates, each split where a crease crosses it from side to side. */
function facesOf(input: FoldInput, creases: Line[]): { name: string; rect: Rect }[] {
  const panels = (
    input.panels?.length
      ? input.panels
      : [{ name: 'blank', x: 0, y: 0, width: input.width, height: input.height }]
  ).map((p) => ({
    name: p.name,
    rect: { x: p.x, y: input.height - p.y - p.height, width: p.width, height: p.height },
  }));
  panels.push(...unnamedFlaps(input, panels, creases));
  const result: { name: string; rect: Rect }[] = [];
  for (const panel of panels) {
    let parts = [panel];
    for (const c of creases) {
      parts = parts.flatMap((part) => {
        const r = part.rect;
        if (c.axis === 'y' && c.at > r.y + EPS && c.at < r.y + r.height - EPS) {
          if (c.from > r.x + EPS || c.to < r.x + r.width - EPS) return [part];
          return [
            { name: part.name, rect: { ...r, height: c.at - r.y } },
            { name: part.name, rect: { ...r, y: c.at, height: r.y + r.height - c.at } },
          ];
        }
        if (c.axis === 'x' && c.at > r.x + EPS && c.at < r.x + r.width - EPS) {
          if (c.from > r.y + EPS || c.to < r.y + r.height - EPS) return [part];
          return [
            { name: part.name, rect: { ...r, width: c.at - r.x } },
            { name: part.name, rect: { ...r, x: c.at, width: r.x + r.width - c.at } },
          ];
        }
        return [part];
      });
    }
    result.push(...parts);
  }
  return result;
}

/**
 * Board the panels do not name, hinged on a panel's edge by a crease: a tray's corner (glue) flaps
 * hang on its walls' ends. Each is the strip beyond the crease, as long as the crease, reaching to
 * the next panel or the blank's edge; what of the cut contour lies in it is the flap.
 */
function unnamedFlaps(input: FoldInput, panels: { name: string; rect: Rect }[], creases: Line[]) {
  const inside = (x: number, y: number) =>
    panels.some(
      (p) => x > p.rect.x && x < p.rect.x + p.rect.width && y > p.rect.y && y < p.rect.y + p.rect.height,
    );
  const flaps: { name: string; rect: Rect }[] = [];
  for (const c of creases) {
    const mid = (c.from + c.to) / 2;
    const span = c.to - c.from;
    if (span < 2 * EPS) continue;
    for (const side of [-1, 1] as const) {
      const [x, y] = c.axis === 'x' ? [c.at + side * EPS, mid] : [mid, c.at + side * EPS];
      const [ox, oy] = c.axis === 'x' ? [c.at - side * EPS, mid] : [mid, c.at - side * EPS];
      // A panel on one side of the crease, nothing on the other.
      if (inside(x, y) || !inside(ox, oy)) continue;
      // How far the strip reaches: the nearest panel across its span, else the blank's edge.
      const across = panels
        .map((p) => p.rect)
        .filter((r) =>
          c.axis === 'x'
            ? r.y < c.to - EPS && r.y + r.height > c.from + EPS
            : r.x < c.to - EPS && r.x + r.width > c.from + EPS,
        );
      let rect: Rect;
      if (c.axis === 'x') {
        const edge =
          side < 0
            ? Math.max(
                0,
                ...across.map((r) => r.x + r.width).filter((e) => e <= c.at + EPS && e < c.at - EPS),
              )
            : Math.min(input.width, ...across.map((r) => r.x).filter((e) => e > c.at + EPS));
        rect =
          side < 0
            ? { x: edge, y: c.from, width: c.at - edge, height: span }
            : { x: c.at, y: c.from, width: edge - c.at, height: span };
      } else {
        const edge =
          side < 0
            ? Math.max(0, ...across.map((r) => r.y + r.height).filter((e) => e < c.at - EPS))
            : Math.min(input.height, ...across.map((r) => r.y).filter((e) => e > c.at + EPS));
        rect =
          side < 0
            ? { x: c.from, y: edge, width: span, height: c.at - edge }
            : { x: c.from, y: c.at, width: span, height: edge - c.at };
      }
      if (rect.width > EPS && rect.height > EPS) flaps.push({ name: 'corner flap', rect });
    }
  }
  return flaps;
}

/** The hinge between two faces: their shared edge, if a crease runs along most of it. */
function hingeBetween(a: Rect, b: Rect, creases: Line[]): { axis: 'x' | 'y'; at: number } | null {
  const candidates: { axis: 'x' | 'y'; at: number; from: number; to: number }[] = [];
  const overlap = (a0: number, a1: number, b0: number, b1: number) =>
    [Math.max(a0, b0), Math.min(a1, b1)] as const;
  for (const [edgeA, edgeB] of [
    [a.x + a.width, b.x],
    [a.x, b.x + b.width],
  ] as const) {
    if (Math.abs(edgeA - edgeB) > EPS) continue;
    const [from, to] = overlap(a.y, a.y + a.height, b.y, b.y + b.height);
    if (to - from > EPS) candidates.push({ axis: 'x', at: edgeA, from, to });
  }
  for (const [edgeA, edgeB] of [
    [a.y + a.height, b.y],
    [a.y, b.y + b.height],
  ] as const) {
    if (Math.abs(edgeA - edgeB) > EPS) continue;
    const [from, to] = overlap(a.x, a.x + a.width, b.x, b.x + b.width);
    if (to - from > EPS) candidates.push({ axis: 'y', at: edgeA, from, to });
  }
  for (const edge of candidates) {
    const covered = creases
      .filter((c) => c.axis === edge.axis && Math.abs(c.at - edge.at) < EPS)
      .reduce((sum, c) => sum + Math.max(0, Math.min(c.to, edge.to) - Math.max(c.from, edge.from)), 0);
    if (covered >= 0.5 * (edge.to - edge.from)) return { axis: edge.axis, at: edge.at };
  }
  return null;
}

const ROOTS = ['front', 'base', 'bottom'];

/** The faces of the box and how each hangs on its parent (a tree from the root face). */
export function foldModel(input: FoldInput): Face[] {
  const creases = creaseLines(input);
  const outline = input.outline.map((p) => ({ x: p.x, y: input.height - p.y }));
  const raw = facesOf(input, creases);
  const area = (r: Rect) => r.width * r.height;
  let root = raw.findIndex((f) => ROOTS.includes(f.name));
  if (root < 0) root = raw.reduce((best, f, i) => (area(f.rect) > area(raw[best]!.rect) ? i : best), 0);
  // A split panel: its root part is the larger one.
  const rootName = raw[root]!.name;
  const sameName = raw.map((f, i) => [f, i] as const).filter(([f]) => f.name === rootName);
  if (rootName !== 'blank' && sameName.length > 1)
    root = sameName.reduce((best, [f, i]) => (area(f.rect) > area(raw[best]!.rect) ? i : best), root);

  const faces: Face[] = raw.map((f) => ({
    name: f.name,
    polygon: simplify(clipToRect(outline, f.rect)),
    parent: -1,
    hinge: null,
    depth: 0,
  }));
  const seen = new Set([root]);
  const queue = [root];
  while (queue.length) {
    const current = queue.shift()!;
    const r = raw[current]!.rect;
    raw.forEach((other, i) => {
      if (seen.has(i)) return;
      const hinge = hingeBetween(r, other.rect, creases);
      if (!hinge) return;
      // The child on the far side of the hinge turns away from the printed side (-z).
      const childAfter = hinge.axis === 'x' ? other.rect.x >= hinge.at - EPS : other.rect.y >= hinge.at - EPS;
      const sign: 1 | -1 = hinge.axis === 'x' ? (childAfter ? 1 : -1) : childAfter ? -1 : 1;
      faces[i] = {
        ...faces[i]!,
        parent: current,
        hinge: { ...hinge, sign },
        depth: faces[current]!.depth + 1,
      };
      seen.add(i);
      queue.push(i);
    });
  }
  // Faces no crease joins stay flat on the root's plane; an empty polygon is drawn as nothing.
  return faces;
}

/** 4x4 column-major matrices (three.js Matrix4.elements order). */
export type Mat4 = number[];
const identity = (): Mat4 => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function multiply(a: Mat4, b: Mat4): Mat4 {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return out;
}

/** The turn about a hinge line (in the z = 0 plane) by `angle` radians. */
function hingeMatrix(hinge: NonNullable<Face['hinge']>, angle: number): Mat4 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  if (hinge.axis === 'x') {
    // About the line x = at, direction +y: x' = at + (x - at)c + z s, z' = -(x - at)s + z c.
    const h = hinge.at;
    return [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, h - h * c, 0, h * s, 1];
  }
  // About the line y = at, direction +x: y' = at + (y - at)c - z s, z' = (y - at)s + z c.
  const h = hinge.at;
  return [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, h - h * c, -h * s, 1];
}

/** Each face's world matrix at fold fraction `t` (0 flat, 1 folded). */
export function faceMatrices(faces: Face[], t: number): Mat4[] {
  const result: (Mat4 | undefined)[] = new Array(faces.length);
  const of = (i: number): Mat4 => {
    const cached = result[i];
    if (cached) return cached;
    const face = faces[i]!;
    const parent = face.parent;
    const own = face.hinge ? hingeMatrix(face.hinge, face.hinge.sign * t * (Math.PI / 2)) : identity();
    const matrix = parent >= 0 ? multiply(of(parent), own) : own;
    result[i] = matrix;
    return matrix;
  };
  return faces.map((_, i) => of(i));
}

/** A point through a matrix. */
export function apply(m: Mat4, p: { x: number; y: number; z?: number }) {
  const z = p.z ?? 0;
  return {
    x: m[0]! * p.x + m[4]! * p.y + m[8]! * z + m[12]!,
    y: m[1]! * p.x + m[5]! * p.y + m[9]! * z + m[13]!,
    z: m[2]! * p.x + m[6]! * p.y + m[10]! * z + m[14]!,
  };
}
