/** A die-maker's CAD import, simulated: a DXF read by dxf-parser, measured per layer. */

import type { IArcEntity, IDxf, ILineEntity } from 'dxf-parser';
import * as dxfParser from 'dxf-parser';

// dxf-parser ships CommonJS whose class arrives as `DxfParser` or `default` depending on the loader.
const DxfParser = (dxfParser.DxfParser ?? dxfParser.default) as typeof dxfParser.DxfParser;

export interface Measured {
  dxf: IDxf;
  layers: string[];
  units: unknown;
  counts: Record<string, number>;
  lengths: Record<string, number>;
  /** Closed loops formed by the CUT layer's lines and arcs (null: the cut rules do not close). */
  cutLoops: { x: number; y: number }[][] | null;
}

const key = (x: number, y: number) => `${Math.round(x * 100)}:${Math.round(y * 100)}`;

export function readDxf(text: string, cutLayer = 'CUT'): Measured {
  const dxf = new DxfParser().parseSync(text);
  if (!dxf) throw new Error('dxf-parser returned nothing');
  const counts: Record<string, number> = {};
  const lengths: Record<string, number> = {};
  const cutEdges: [{ x: number; y: number }, { x: number; y: number }][] = [];
  for (const entity of dxf.entities) {
    const layer = entity.layer;
    counts[layer] = (counts[layer] ?? 0) + 1;
    let length = 0;
    if (entity.type === 'LINE') {
      const [a, b] = (entity as ILineEntity).vertices;
      length = Math.hypot(b!.x - a!.x, b!.y - a!.y);
      if (layer === cutLayer) cutEdges.push([a!, b!]);
    } else if (entity.type === 'ARC') {
      const arc = entity as IArcEntity;
      length = arc.radius * arc.angleLength;
      if (layer === cutLayer) {
        const at = (angle: number) => ({
          x: arc.center.x + arc.radius * Math.cos(angle),
          y: arc.center.y + arc.radius * Math.sin(angle),
        });
        cutEdges.push([at(arc.startAngle), at(arc.endAngle)]);
      }
    }
    lengths[layer] = (lengths[layer] ?? 0) + length;
  }
  return {
    dxf,
    layers: Object.keys(dxf.tables.layer.layers),
    units: dxf.header.$INSUNITS,
    counts,
    lengths,
    cutLoops: loops(cutEdges),
  };
}

/** Chains edges into closed loops; null if any point is not shared by exactly two edges. */
function loops(edges: [{ x: number; y: number }, { x: number; y: number }][]) {
  const at = new Map<string, number[]>();
  edges.forEach(([a, b], i) => {
    for (const p of [a, b]) {
      const k = key(p.x, p.y);
      at.set(k, [...(at.get(k) ?? []), i]);
    }
  });
  for (const list of at.values()) if (list.length !== 2) return null;
  const used = new Set<number>();
  const result: { x: number; y: number }[][] = [];
  for (let start = 0; start < edges.length; start++) {
    if (used.has(start)) continue;
    const loop: { x: number; y: number }[] = [];
    let edge = start;
    let from = edges[start]![0];
    while (!used.has(edge)) {
      used.add(edge);
      const [a, b] = edges[edge]!;
      const to = key(a.x, a.y) === key(from.x, from.y) ? b : a;
      loop.push(from);
      from = to;
      edge = at.get(key(to.x, to.y))!.find((i) => i !== edge)!;
    }
    if (key(from.x, from.y) !== key(loop[0]!.x, loop[0]!.y)) return null;
    result.push(loop);
  }
  return result;
}
