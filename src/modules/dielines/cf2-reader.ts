/**
 * A strict CF2 reader: the structure ($BOF, V2, ORDER...END, MAIN and SUB sections each closed
 * by END, $EOF), every L and A record's field count and numbers, calls to known sub-designs; the
 * MAIN design flattened (calls expanded with their turn and offset). The tests read every CF2 the
 * service writes through it, as a die-maker's CAM would.
 */
export interface Cf2Line {
  kind: 'L';
  pointage: number;
  type: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}
export interface Cf2Arc {
  kind: 'A';
  pointage: number;
  type: number;
  xs: number;
  ys: number;
  xe: number;
  ye: number;
  xc: number;
  yc: number;
  direction: 1 | -1;
}
export type Cf2Entity = Cf2Line | Cf2Arc;

interface Section {
  name: string;
  units?: 'MM' | 'INCH';
  ll?: [number, number];
  ur?: [number, number];
  entities: Cf2Entity[];
  calls: { sub: string; x: number; y: number; angle: number; sx: number; sy: number }[];
}

export interface Cf2Document {
  comments: string[];
  main: Section;
  subs: Map<string, Section>;
  /** MAIN with every call expanded (the die as cut). */
  flattened: Cf2Entity[];
}

export class Cf2Error extends Error {}

function numbers(fields: string[], line: number): number[] {
  return fields.map((f) => {
    const value = Number(f.trim());
    if (f.trim() === '' || !Number.isFinite(value))
      throw new Cf2Error(`line ${line}: "${f}" is not a number`);
    return value;
  });
}

export function readCf2(text: string): Cf2Document {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  let i = 0;
  const next = () => lines[i++]?.trim();
  if (next() !== '$BOF') throw new Cf2Error('missing $BOF');
  if (next() !== 'V2') throw new Cf2Error('missing V2');
  const comments: string[] = [];
  if (next() !== 'ORDER') throw new Cf2Error('missing ORDER');
  for (let l = next(); l !== 'END'; l = next()) {
    if (l === undefined) throw new Cf2Error('ORDER not closed');
    comments.push(l);
  }
  let main: Section | undefined;
  const subs = new Map<string, Section>();
  for (let l = next(); l !== '$EOF'; l = next()) {
    if (l === undefined) throw new Cf2Error('missing $EOF');
    const [tag, name] = l.split(',');
    if ((tag !== 'MAIN' && tag !== 'SUB') || !name)
      throw new Cf2Error(`line ${i}: expected MAIN or SUB, got "${l}"`);
    const section: Section = { name, entities: [], calls: [] };
    for (let r = next(); r !== 'END'; r = next()) {
      if (r === undefined) throw new Cf2Error(`${tag} ${name} not closed`);
      const [record, ...fields] = r.split(',');
      switch (record) {
        case 'UM':
          section.units = 'MM';
          break;
        case 'UI':
          section.units = 'INCH';
          break;
        case 'LL':
        case 'UR': {
          const [x, y] = numbers(fields, i);
          if (fields.length !== 2) throw new Cf2Error(`line ${i}: ${record} needs 2 fields`);
          section[record === 'LL' ? 'll' : 'ur'] = [x!, y!];
          break;
        }
        case 'SCALE':
          numbers(fields, i);
          break;
        case 'L': {
          if (fields.length !== 9) throw new Cf2Error(`line ${i}: L needs 9 fields, has ${fields.length}`);
          const [pointage, type, , x1, y1, x2, y2] = numbers(fields, i);
          section.entities.push({
            kind: 'L',
            pointage: pointage!,
            type: type!,
            x1: x1!,
            y1: y1!,
            x2: x2!,
            y2: y2!,
          });
          break;
        }
        case 'A': {
          if (fields.length !== 12) throw new Cf2Error(`line ${i}: A needs 12 fields, has ${fields.length}`);
          const [pointage, type, , xs, ys, xe, ye, xc, yc, dir] = numbers(fields, i);
          if (dir !== 1 && dir !== -1) throw new Cf2Error(`line ${i}: arc direction must be 1 or -1`);
          section.entities.push({
            kind: 'A',
            pointage: pointage!,
            type: type!,
            xs: xs!,
            ys: ys!,
            xe: xe!,
            ye: ye!,
            xc: xc!,
            yc: yc!,
            direction: dir,
          });
          break;
        }
        case 'C': {
          if (fields.length !== 6) throw new Cf2Error(`line ${i}: C needs 6 fields`);
          const [x, y, angle, sx, sy] = numbers(fields.slice(1), i);
          section.calls.push({ sub: fields[0]!, x: x!, y: y!, angle: angle!, sx: sx!, sy: sy! });
          break;
        }
        default:
          throw new Cf2Error(`line ${i}: unknown record "${record}"`);
      }
    }
    if (tag === 'MAIN') {
      if (main) throw new Cf2Error('two MAIN sections');
      main = section;
    } else subs.set(name, section);
  }
  if (i < lines.length) throw new Cf2Error('content after $EOF');
  if (!main) throw new Cf2Error('no MAIN section');
  if (!main.units || !main.ll || !main.ur) throw new Cf2Error('MAIN needs units, LL and UR');
  return { comments, main, subs, flattened: flatten(main, subs, 0) };
}

function flatten(section: Section, subs: Map<string, Section>, depth: number): Cf2Entity[] {
  if (depth > 8) throw new Cf2Error('calls nested too deep');
  const out = [...section.entities];
  for (const call of section.calls) {
    const sub = subs.get(call.sub);
    if (!sub) throw new Cf2Error(`call to unknown SUB ${call.sub}`);
    const rad = (call.angle * Math.PI) / 180;
    const cos = Math.cos(rad);
    const sin = Math.sin(rad);
    const tx = (x: number, y: number) => [
      call.x + call.sx * x * cos - call.sy * y * sin,
      call.y + call.sx * x * sin + call.sy * y * cos,
    ];
    for (const e of flatten(sub, subs, depth + 1)) {
      if (e.kind === 'L') {
        const [x1, y1] = tx(e.x1, e.y1);
        const [x2, y2] = tx(e.x2, e.y2);
        out.push({ ...e, x1: x1!, y1: y1!, x2: x2!, y2: y2! });
      } else {
        const [xs, ys] = tx(e.xs, e.ys);
        const [xe, ye] = tx(e.xe, e.ye);
        const [xc, yc] = tx(e.xc, e.yc);
        out.push({ ...e, xs: xs!, ys: ys!, xe: xe!, ye: ye!, xc: xc!, yc: yc! });
      }
    }
  }
  return out;
}

/** Length of an entity, mm (arcs by their sweep in their direction). */
export function cf2Length(e: Cf2Entity): number {
  if (e.kind === 'L') return Math.hypot(e.x2 - e.x1, e.y2 - e.y1);
  const r = Math.hypot(e.xs - e.xc, e.ys - e.yc);
  const a0 = Math.atan2(e.ys - e.yc, e.xs - e.xc);
  const a1 = Math.atan2(e.ye - e.yc, e.xe - e.xc);
  let sweep = e.direction === 1 ? a1 - a0 : a0 - a1;
  while (sweep <= 0) sweep += 2 * Math.PI;
  return r * sweep;
}
