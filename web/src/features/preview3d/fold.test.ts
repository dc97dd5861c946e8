import { describe, expect, it } from 'vitest';
import { dieLineOf, products } from '../../../../test/dielines/fixtures.ts';
import { apply, faceMatrices, foldModel } from './fold.ts';

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
});
