/**
 * A still picture of the folded box for the PDFs (issue 29: the 3D snapshot of the quote and proof
 * PDFs; no WebGL on the server): the faces of the web's 3D preview (`foldModel`, closed at fold
 * fraction 1) projected orthographically from the front, right and above (a 3/4 view), sorted back
 * to front (painter's algorithm) and shaded by how their normal faces the light. Pure: the PDF
 * writers (pdfkit, pdf-lib) fill and outline the polygons it answers.
 */
import { apply, type FoldInput, faceMatrices, foldModel } from './fold.ts';

export type SnapshotPolygon = {
  /** Screen points (y down), the picture's top-left at 0,0, in the die-line's mm. */
  points: { x: number; y: number }[];
  /** 0..1: the light the face catches (1 facing the light). */
  light: number;
  /** Whether the outside (printed side) of the board faces the viewer. */
  outside: boolean;
};

export type Snapshot = { width: number; height: number; polygons: SnapshotPolygon[] };

type Vec = { x: number; y: number; z: number };
const norm = (v: Vec): Vec => {
  const l = Math.hypot(v.x, v.y, v.z) || 1;
  return { x: v.x / l, y: v.y / l, z: v.z / l };
};
const dot = (a: Vec, b: Vec) => a.x * b.x + a.y * b.y + a.z * b.z;
const cross = (a: Vec, b: Vec): Vec => ({
  x: a.y * b.z - a.z * b.y,
  y: a.z * b.x - a.x * b.z,
  z: a.x * b.y - a.y * b.x,
});

/** From the box towards the viewer: front (+z), right (+x) and above (+y). */
const VIEW = norm({ x: 0.75, y: 0.65, z: 1 });
const RIGHT = norm(cross({ x: 0, y: 1, z: 0 }, VIEW));
const UP = cross(VIEW, RIGHT);
/** The light: from the viewer's upper left. */
const LIGHT = norm({ x: -0.35, y: 0.8, z: 0.6 });

/**
 * The closed box seen in 3/4, or null when the die-line folds into nothing (a flat item: one face,
 * or no face with a hinge).
 */
export function foldSnapshot(input: FoldInput, fold = 1): Snapshot | null {
  const faces = foldModel(input);
  if (faces.length < 2 || !faces.some((f) => f.hinge)) return null;
  const matrices = faceMatrices(faces, fold);
  // A tray (hinged on its base) stands on its base, walls up: turned a quarter about x, as the
  // web's preview does (y' = -z, z' = y).
  const standing = faces.find((f) => f.parent === -1)?.name === 'base';
  const place = (p: Vec): Vec => (standing ? { x: p.x, y: -p.z, z: p.y } : p);
  const projected: (SnapshotPolygon & { depth: number })[] = [];
  faces.forEach((face, i) => {
    if (face.polygon.length < 3) return;
    const m = matrices[i]!;
    const world = face.polygon.map((p) => place(apply(m, p)));
    const origin = place(apply(m, { x: 0, y: 0, z: 0 }));
    const tip = place(apply(m, { x: 0, y: 0, z: 1 }));
    const normal = norm({ x: tip.x - origin.x, y: tip.y - origin.y, z: tip.z - origin.z });
    const facing = dot(normal, VIEW);
    const seen = facing >= 0 ? normal : { x: -normal.x, y: -normal.y, z: -normal.z };
    projected.push({
      points: world.map((p) => ({ x: dot(p, RIGHT), y: -dot(p, UP) })),
      light: 0.6 + 0.4 * Math.max(0, dot(seen, LIGHT)),
      outside: facing >= 0,
      depth: world.reduce((sum, p) => sum + dot(p, VIEW), 0) / world.length,
    });
  });
  if (projected.length === 0) return null;
  // Painter's algorithm: the farthest face first (smaller depth along the view is farther).
  projected.sort((a, b) => a.depth - b.depth);
  const all = projected.flatMap((p) => p.points);
  const minX = Math.min(...all.map((p) => p.x));
  const minY = Math.min(...all.map((p) => p.y));
  const maxX = Math.max(...all.map((p) => p.x));
  const maxY = Math.max(...all.map((p) => p.y));
  return {
    width: maxX - minX,
    height: maxY - minY,
    polygons: projected.map(({ points, light, outside }) => ({
      points: points.map((p) => ({ x: p.x - minX, y: p.y - minY })),
      light,
      outside,
    })),
  };
}

/** The board's colours (as the web's 3D preview: kraft for corrugated FEFCO codes). */
export function boardColours(kraft: boolean) {
  return kraft
    ? { outside: [0xc4, 0x9a, 0x6c], inside: [0xb4, 0x8a, 0x5c], edge: '#7a5a3a' }
    : { outside: [0xfb, 0xfb, 0xf8], inside: [0xb9, 0xbc, 0xc2], edge: '#5f6670' };
}

/** A face's fill: the board colour darkened by the light it misses. */
export function shade(rgb: number[], light: number): string {
  const hex = rgb
    .map((c) =>
      Math.round(c * light)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');
  return `#${hex}`;
}
