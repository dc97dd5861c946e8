/**
 * The die-line as CF2 (CFF2, "Common File Format, revision 2"), the plain-text exchange format
 * die-makers' CAM and laser systems read. No maintained library writes it, so this is a small
 * writer following the published description (see docs/dielines.md):
 *
 *     $BOF                       begin of file
 *     V2                         version
 *     ORDER ... END              header: free comment lines (brief, style, blank size)
 *     MAIN,<name>                the main section: what the die holds
 *     UM                         units: millimetres
 *     LL,x,y / UR,x,y            lower-left and upper-right corners of the drawing
 *     SCALE,1,1
 *     C,<sub>,x,y,angle,sx,sy    a call: sub-design placed at x,y, turned `angle` degrees
 *     END
 *     SUB,<name> ... END         a sub-design (one blank), the same records as MAIN
 *     L,pt,type,aux,x1,y1,x2,y2,nbridges,bridgewidth
 *     A,pt,type,aux,xs,ys,xe,ye,xc,yc,dir,nbridges,bridgewidth   (dir 1 counter-clockwise, -1 clockwise)
 *     $EOF
 *
 * Rule types follow the common convention (1 cut, 2 crease, 3 perforation, 4 partial cut);
 * pointage (rule thickness) is 2 pt. Bridges (nicks) are the die-maker's decision: none are
 * written. Numbers have at most three decimals and no date is written, so the file is stable.
 */
import type { Point } from '../../pricing/index.ts';
import { type Drawing, type RuleType, um } from './drawing.ts';

export const CF2_TYPES: Record<RuleType, number> = { CUT: 1, CREASE: 2, PERFORATION: 3, PARTIAL_CUT: 4 };
export const CF2_POINTAGE = 2;

const num = (value: number) => String(um(value));

/** A name CF2 readers accept: letters, digits, '-' and '_' only (commas would split the record). */
export const cf2Name = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'DESIGN';

/** The records of one blank (L and A lines), in the drawing's coordinates. */
export function cf2Records(drawing: Drawing): string[] {
  return drawing.rules.map((e) => {
    const head = `${CF2_POINTAGE},${CF2_TYPES[e.rule]},0`;
    if (e.type === 'LINE') return `L,${head},${num(e.x1)},${num(e.y1)},${num(e.x2)},${num(e.y2)},0,0`;
    const at = (deg: number): Point => ({
      x: e.cx + e.radius * Math.cos((deg * Math.PI) / 180),
      y: e.cy + e.radius * Math.sin((deg * Math.PI) / 180),
    });
    const s = at(e.start);
    const t = at(e.end);
    return `A,${head},${num(s.x)},${num(s.y)},${num(t.x)},${num(t.y)},${num(e.cx)},${num(e.cy)},1,0,0`;
  });
}

export interface Cf2Call {
  x: number;
  y: number;
  /** Degrees counter-clockwise: 0, 90, 180 or 270. */
  angle: number;
}

export interface Cf2Design {
  name: string;
  /** Header comment lines (ORDER section). */
  comments: string[];
  /** Size of the MAIN drawing (the blank, or the sheet). */
  width: number;
  height: number;
  sub: { name: string; drawing: Drawing };
  /** Where MAIN places the sub-design; one call at the origin for a single blank. */
  calls?: Cf2Call[];
}

/** A CF2 file: header, MAIN calling the blank's SUB (once, or once per up on a sheet), the SUB. */
export function cf2File(design: Cf2Design): string {
  const sub = cf2Name(design.sub.name);
  const calls = design.calls ?? [{ x: 0, y: 0, angle: 0 }];
  const lines = [
    '$BOF',
    'V2',
    'ORDER',
    // A comment must not start a record; CF2 readers take ORDER lines verbatim.
    ...design.comments.map((c) => c.replace(/[\r\n]+/g, ' ')),
    'END',
    `MAIN,${cf2Name(design.name)}`,
    'UM',
    'LL,0,0',
    `UR,${num(design.width)},${num(design.height)}`,
    'SCALE,1,1',
    ...calls.map((c) => `C,${sub},${num(c.x)},${num(c.y)},${num(c.angle)},1,1`),
    'END',
    `SUB,${sub}`,
    ...cf2Records(design.sub.drawing),
    'END',
    '$EOF',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export function dieLineCf2(drawing: Drawing, name: string, comments: string[]): string {
  return cf2File({ name, comments, width: drawing.width, height: drawing.height, sub: { name, drawing } });
}
