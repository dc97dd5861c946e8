/**
 * The die-line as DXF for the die-maker's CAD (ArtiosCAD, EngView, Impact, AutoCAD...):
 * millimetres ($INSUNITS 4), one layer per line type with the usual colours, LINE and ARC
 * entities only (no splines, no polylines: every CAD imports them), written with
 * @tarikjabiri/dxf. The file holds no date or random handle, so the same die-line always gives
 * the same bytes.
 */
import { DxfWriter, point3d, Units } from '@tarikjabiri/dxf';
import type { Point } from '../../pricing/index.ts';
import { type Drawing, type RuleType, um } from './drawing.ts';

/** DXF layer of each line type, with its AutoCAD Color Index and line type. */
export const DXF_LAYERS = {
  CUT: { name: 'CUT', color: 1, lineType: 'Continuous' }, // red
  CREASE: { name: 'CREASE', color: 5, lineType: 'DASHED' }, // blue
  PERFORATION: { name: 'PERFORATION', color: 3, lineType: 'DOT' }, // green
  PARTIAL_CUT: { name: 'PARTIAL_CUT', color: 6, lineType: 'DASHDOT' }, // magenta
  BLEED: { name: 'BLEED', color: 4, lineType: 'Continuous' }, // cyan
  DIMENSIONS: { name: 'DIMENSIONS', color: 8, lineType: 'Continuous' }, // grey
  SHEET: { name: 'SHEET', color: 30, lineType: 'Continuous' }, // orange: sheet edge, gripper, grain
} as const;

export type DxfLayerKey = keyof typeof DXF_LAYERS;

const p3 = (x: number, y: number) => point3d(um(x), um(y), 0);

/** A writer with units, line types and every layer declared (empty layers included). */
export function createDxf(): DxfWriter {
  const dxf = new DxfWriter();
  dxf.setUnits(Units.Millimeters);
  dxf.addLType('DASHED', '__ __ __', [6, -3]);
  dxf.addLType('DOT', '. . .', [0.5, -1.5]);
  dxf.addLType('DASHDOT', '__ . __ .', [6, -2, 0.5, -2]);
  for (const layer of Object.values(DXF_LAYERS)) dxf.addLayer(layer.name, layer.color, layer.lineType);
  return dxf;
}

/** Transform for placing a drawing on a sheet: rotate by `quarterTurns` x 90 degrees, then translate. */
export interface Placement {
  dx: number;
  dy: number;
  quarterTurns: 0 | 1 | 2 | 3;
  /** Size of the drawing before the turn (needed to keep it in the positive quadrant). */
  width: number;
  height: number;
}

export function placePoint(p: Point, at?: Placement): Point {
  if (!at) return p;
  let q: Point;
  switch (at.quarterTurns) {
    case 0:
      q = p;
      break;
    case 1: // 90 degrees counter-clockwise, shifted back to x >= 0.
      q = { x: at.height - p.y, y: p.x };
      break;
    case 2:
      q = { x: at.width - p.x, y: at.height - p.y };
      break;
    case 3:
      q = { x: p.y, y: at.width - p.x };
      break;
  }
  return { x: q.x + at.dx, y: q.y + at.dy };
}

function polyline(dxf: DxfWriter, points: Point[], layerName: string, at?: Placement) {
  for (let i = 0; i < points.length; i++) {
    const a = placePoint(points[i]!, at);
    const b = placePoint(points[(i + 1) % points.length]!, at);
    dxf.addLine(p3(a.x, a.y), p3(b.x, b.y), { layerName });
  }
}

/** Draws a die-line's rules (and optionally its bleed and dimensions) into a writer. */
export function drawRules(
  dxf: DxfWriter,
  drawing: Drawing,
  options: { at?: Placement; bleed?: boolean; dimensions?: boolean } = {},
) {
  const { at } = options;
  for (const entity of drawing.rules) {
    const layerName = DXF_LAYERS[entity.rule satisfies RuleType].name;
    if (entity.type === 'LINE') {
      const a = placePoint({ x: entity.x1, y: entity.y1 }, at);
      const b = placePoint({ x: entity.x2, y: entity.y2 }, at);
      dxf.addLine(p3(a.x, a.y), p3(b.x, b.y), { layerName });
    } else {
      const c = placePoint({ x: entity.cx, y: entity.cy }, at);
      const turn = (at?.quarterTurns ?? 0) * 90;
      dxf.addArc(p3(c.x, c.y), um(entity.radius), um(entity.start + turn), um(entity.end + turn), {
        layerName,
      });
    }
  }
  if (options.bleed && drawing.bleed.length) polyline(dxf, drawing.bleed, DXF_LAYERS.BLEED.name, at);
  for (const guide of drawing.guides ?? []) {
    const points = guide.points.map((p) => placePoint(p, at));
    const count = guide.closed ? points.length : points.length - 1;
    for (let i = 0; i < count; i++) {
      const a = points[i]!;
      const b = points[(i + 1) % points.length]!;
      dxf.addLine(p3(a.x, a.y), p3(b.x, b.y), { layerName: DXF_LAYERS.SHEET.name });
    }
  }
  if (options.dimensions) {
    const layerName = DXF_LAYERS.DIMENSIONS.name;
    for (const d of drawing.dimensions) {
      const [a, b] =
        d.axis === 'x'
          ? [
              { x: d.start, y: d.offset },
              { x: d.end, y: d.offset },
            ]
          : [
              { x: d.offset, y: d.start },
              { x: d.offset, y: d.end },
            ];
      const pa = placePoint(a, at);
      const pb = placePoint(b, at);
      dxf.addLine(p3(pa.x, pa.y), p3(pb.x, pb.y), { layerName });
      const mid = placePoint({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, at);
      dxf.addText(p3(mid.x, mid.y + 1), 3, `${d.label} ${um(d.end - d.start)}`, { layerName });
    }
  }
}

/** A die-line as a DXF file (text, CRLF-free, ASCII). */
export function dieLineDxf(drawing: Drawing): string {
  const dxf = createDxf();
  drawRules(dxf, drawing, { bleed: true, dimensions: true });
  return dxf.stringify();
}
