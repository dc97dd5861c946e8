/**
 * The imposition sheet as a drawing: every up's die-line at its place on the sheet (turned as the
 * layout turns it), the sheet's edge, the gripper and usable area, the grain arrow and the ups'
 * numbers. The die-maker builds the die for the whole sheet from it. The writers draw it like a
 * single die-line (pdf.ts with no bleed, dxf.ts); CF2 calls the blank's SUB once per up.
 *
 * The engine lays the sheet out with y downwards from the gripper edge (svg.ts); here, as in every
 * file, y runs upwards, so the gripper is along the top edge.
 */
import type { DieLine, Imposition, Placement, Point } from '../../pricing/index.ts';
import type { Cf2Call } from './cf2.ts';
import { type Drawing, drawingOf, type RuleEntity } from './drawing.ts';

/** Where a point of the blank (drawing coordinates, y up) lands on the sheet (y up). */
export function placeOnSheet(placement: Placement, dieLine: DieLine, sheetHeight: number, q: Point): Point {
  const x = q.x;
  const y = dieLine.height - q.y; // back to the engine's y-down blank coordinates
  let sx: number;
  let sy: number;
  // The same transforms as renderImpositionSvg.
  if (placement.turned) {
    if (placement.rotated) {
      sx = placement.x + y;
      sy = placement.y + placement.height - x;
    } else {
      sx = placement.x + placement.width - x;
      sy = placement.y + placement.height - y;
    }
  } else if (placement.rotated) {
    sx = placement.x + placement.width - y;
    sy = placement.y + x;
  } else {
    sx = placement.x + x;
    sy = placement.y + y;
  }
  return { x: sx, y: sheetHeight - sy };
}

/** The CF2 call that puts the blank's SUB where `placement` puts it (offset and turn). */
export function cf2Call(placement: Placement, dieLine: DieLine, sheetHeight: number): Cf2Call {
  const origin = placeOnSheet(placement, dieLine, sheetHeight, { x: 0, y: 0 });
  const unit = placeOnSheet(placement, dieLine, sheetHeight, { x: 1, y: 0 });
  const angle =
    ((Math.round((Math.atan2(unit.y - origin.y, unit.x - origin.x) * 180) / Math.PI) % 360) + 360) % 360;
  return { x: origin.x, y: origin.y, angle };
}

export function impositionDrawing(imposition: Imposition, dieLine: DieLine): Drawing {
  const blank = drawingOf(dieLine, { bleedMm: 0, safeMm: 0 });
  const { sheet, usable, margins } = imposition;
  const H = sheet.height;
  const rules: RuleEntity[] = [];
  const panels: Drawing['panels'] = [];
  imposition.placements.forEach((placement, i) => {
    const at = (p: Point) => placeOnSheet(placement, dieLine, H, p);
    for (const e of blank.rules) {
      if (e.type === 'LINE') {
        const a = at({ x: e.x1, y: e.y1 });
        const b = at({ x: e.x2, y: e.y2 });
        rules.push({ ...e, x1: a.x, y1: a.y, x2: b.x, y2: b.y });
      } else {
        const c = at({ x: e.cx, y: e.cy });
        const call = cf2Call(placement, dieLine, H);
        rules.push({ ...e, cx: c.x, cy: c.y, start: e.start + call.angle, end: e.end + call.angle });
      }
    }
    panels.push({
      text: String(i + 1),
      x: placement.x + placement.width / 2,
      y: H - (placement.y + placement.height / 2),
      width: placement.width,
      height: placement.height,
    });
  });
  const rect = (x: number, yTop: number, w: number, h: number): Point[] => [
    { x, y: H - yTop - h },
    { x: x + w, y: H - yTop - h },
    { x: x + w, y: H - yTop },
    { x, y: H - yTop },
  ];
  const guides: NonNullable<Drawing['guides']> = [
    { label: 'sheet', points: rect(0, 0, sheet.width, sheet.height), closed: true },
    {
      label: 'gripper',
      points: [
        { x: 0, y: H - margins.gripperMm },
        { x: sheet.width, y: H - margins.gripperMm },
      ],
      closed: false,
    },
    { label: 'usable', points: rect(usable.x, usable.y, usable.width, usable.height), closed: true },
  ];
  const grain = imposition.grain.sheetGrain;
  if (grain) {
    // An arrow in the gripper margin's corner: along x for long grain, along y for short grain.
    const length = Math.min(sheet.width, sheet.height) * 0.15;
    const x0 = sheet.width * 0.05;
    const y0 = sheet.height * 0.05;
    const head = length * 0.15;
    const points =
      grain === 'LONG'
        ? [
            { x: x0, y: y0 },
            { x: x0 + length, y: y0 },
            { x: x0 + length - head, y: y0 + head / 2 },
            { x: x0 + length, y: y0 },
            { x: x0 + length - head, y: y0 - head / 2 },
          ]
        : [
            { x: x0, y: y0 },
            { x: x0, y: y0 + length },
            { x: x0 - head / 2, y: y0 + length - head },
            { x: x0, y: y0 + length },
            { x: x0 + head / 2, y: y0 + length - head },
          ];
    guides.push({ label: 'grain', points, closed: false });
  }
  return {
    width: sheet.width,
    height: sheet.height,
    rules,
    outline: guides[0]!.points,
    bleed: [],
    safe: [],
    panels,
    dimensions: [
      { label: 'sheet', axis: 'x', start: 0, end: sheet.width, offset: 0 },
      { label: 'sheet', axis: 'y', start: 0, end: sheet.height, offset: 0 },
    ],
    guides,
    cutLengthMm: dieLine.cutLengthMm * imposition.placements.length,
    creaseLengthMm: dieLine.creaseLengthMm * imposition.placements.length,
  };
}
