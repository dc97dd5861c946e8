import { describe, expect, it } from 'vitest';
import { dieLineOf, products } from '../../../../test/dielines/fixtures.ts';
import { apply, faceMatrices, foldModel } from './fold.ts';

/** Shoelace area of a polygon. */
const area = (polygon: { x: number; y: number }[]) =>
  polygon.reduce((sum, p, i) => {
    const q = polygon[(i + 1) % polygon.length]!;
    return sum + (p.x * q.y - q.x * p.y) / 2;
  }, 0);

/** The bounding box of every face's corners at fold fraction t. */
function extent(style: string, t: number) {
  const product = products.find((p) => p.style === style)!;
  const dieLine = dieLineOf(product);
  const faces = foldModel(dieLine);
  const matrices = faceMatrices(faces, t);
  const points = faces.flatMap((f, i) => f.polygon.map((p) => apply(matrices[i]!, p)));
  const span = (k: 'x' | 'y' | 'z') =>
    Math.max(...points.map((p) => p[k])) - Math.min(...points.map((p) => p[k]));
  return { faces, dieLine, x: span('x'), y: span('y'), z: span('z') };
}

describe('folding the engine’s die-line', () => {
  it('is the flat blank at 0', () => {
    for (const style of ['RTE', 'CLB', 'TRAY', 'FEFCO_0201']) {
      const e = extent(style, 0);
      expect(e.z).toBeCloseTo(0, 6);
      expect(e.x).toBeCloseTo(e.dieLine.width, 0);
    }
  });

  it('closes a FEFCO 0201 into its panels’ box, every face hinged on the front', () => {
    const e = extent('FEFCO_0201', 1);
    const front = e.dieLine.panels!.find((p) => p.name === 'front')!;
    const side = e.dieLine.panels!.find((p) => p.name === 'side')!;
    expect(e.x).toBeCloseTo(front.width, 0);
    expect(e.y).toBeCloseTo(front.height, 0);
    expect(e.z).toBeCloseTo(side.width, 0);
    expect(e.faces.filter((f) => f.parent === -1)).toHaveLength(1);
  });

  it('closes a reverse tuck end and a crash-lock into a tube with lids; a tray into its walls', () => {
    for (const style of ['RTE', 'CLB']) {
      const e = extent(style, 1);
      const front = e.dieLine.panels!.find((p) => p.name === 'front')!;
      const side = e.dieLine.panels!.find((p) => p.name === 'side')!;
      expect(e.x).toBeCloseTo(front.width, 0);
      expect(e.y).toBeCloseTo(front.height, 0);
      expect(e.z).toBeCloseTo(side.width, 0);
      // The tuck flap is a face of its own (split off the lid by its crease).
      expect(e.faces.filter((f) => f.name === 'top lid').length).toBe(2);
    }
    const tray = extent('TRAY', 1);
    const base = tray.dieLine.panels!.find((p) => p.name === 'base')!;
    const wall = tray.dieLine.panels!.find((p) => p.name === 'wall')!;
    expect(tray.x).toBeCloseTo(base.width, 0);
    expect(tray.y).toBeCloseTo(base.height, 0);
    expect(tray.z).toBeCloseTo(wall.height, 0);
  });

  it('folds a tray’s corner flaps (board no panel names) inside its walls', () => {
    const tray = extent('TRAY', 1);
    const flaps = tray.faces.filter((f) => f.name === 'corner flap');
    expect(flaps).toHaveLength(4);
    for (const flap of flaps) {
      expect(flap.polygon.length).toBeGreaterThanOrEqual(3);
      expect(tray.faces[flap.parent]?.name).toBe('wall');
    }
    // Every corner of the contour is on some face: the flaps are drawn.
    const drawn = tray.faces.reduce((sum, f) => sum + Math.abs(area(f.polygon)), 0);
    expect(drawn).toBeCloseTo(Math.abs(area(tray.dieLine.outline)), 0);
    // Folded, the flaps stand inside the tray: the extent is still the base by the wall height.
    const base = tray.dieLine.panels!.find((p) => p.name === 'base')!;
    const half = extent('TRAY', 0.5);
    expect(half.faces.filter((f) => f.name === 'corner flap')).toHaveLength(4);
    expect(tray.x).toBeCloseTo(base.width, 0);
  });

  it('draws every face without slivers: no repeated or straight-run points', () => {
    for (const style of ['RTE', 'CLB', 'TRAY', 'FEFCO_0201']) {
      const { faces, dieLine } = extent(style, 1);
      for (const f of faces) {
        const n = f.polygon.length;
        for (let i = 0; i < n; i++) {
          const [a, b, c] = [f.polygon[(i + n - 1) % n]!, f.polygon[i]!, f.polygon[(i + 1) % n]!];
          expect(
            Math.abs((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)),
            `${style} ${f.name}`,
          ).toBeGreaterThan(1e-6);
        }
      }
      const drawn = faces.reduce((sum, f) => sum + Math.abs(area(f.polygon)), 0);
      expect(drawn, style).toBeCloseTo(Math.abs(area(dieLine.outline)), -1);
    }
  });
});
