/**
 * Die-line formulas per product style, from inside dimensions L x W x H (mm).
 *
 * Caliper allowance: every panel between two folds is the inside dimension plus one board
 * caliper (half a caliper per 90-degree fold, measured on the neutral axis), so
 * pL = L + c, pW = W + c, pH = H + c. Flap allowances (glue flap, tuck, dust flap ratio, slot
 * width) come from the product record, so a converter can tune them without code changes.
 */
import type { Product, StyleCode } from '../catalogue.ts';
import { type DieLine, DieLineDraft } from './die-line.ts';

export interface StyleInput {
  length: number;
  width: number;
  height: number;
  caliperMm: number;
  product: Pick<Product, 'glueFlapMm' | 'tuckFlapMm' | 'dustFlapRatio' | 'slotWidthMm'>;
  /** Window opening centred in the front panel, mm. */
  window?: { width: number; height: number };
}

/** The panel a window is cut in, in die-line coordinates before normalisation. */
export interface WindowPanel {
  width: number;
  height: number;
}

type TopOrBottomFlap =
  | { kind: 'NONE' }
  | { kind: 'DUST'; depth: number; taper: number }
  | { kind: 'LID'; lid: number; tuck: number; chamfer: number }
  | { kind: 'LOCK_LONG'; depth: number; taper: number }
  | { kind: 'LOCK_SHORT'; depth: number };

interface TubeSpec {
  style: StyleCode;
  top: TopOrBottomFlap[];
  bottom: TopOrBottomFlap[];
  glueLengthMm: number;
  knockedDownHeight: number;
  knockedDownLayers: number;
}

function panels(input: StyleInput) {
  const c = input.caliperMm;
  return { pL: input.length + c, pW: input.width + c, pH: input.height + c, c };
}

/**
 * Tube-style cartons (tuck ends, crash-lock, sleeve): glue flap, then panels L, W, L, W from
 * left to right; closures hang above and below each panel. The front panel is the third (L).
 */
function tube(
  input: StyleInput,
  spec: Omit<TubeSpec, 'glueLengthMm' | 'knockedDownHeight' | 'knockedDownLayers'> & Partial<TubeSpec>,
): DieLine {
  const { pL, pW, pH, c } = panels(input);
  const g = input.product.glueFlapMm;
  const glueTaper = Math.min(g, pH / 4);
  const widths = [pL, pW, pL, pW];
  const starts = [g, g + pL, g + pL + pW, g + 2 * pL + pW];
  const yTop = 0;
  const yBot = pH;
  const draft = new DieLineDraft();

  // Top edge, left to right (flaps extend upwards, y < 0).
  for (let i = 0; i < 4; i++) {
    const xa = starts[i]!;
    const xb = xa + widths[i]!;
    const flap = spec.top[i]!;
    draft.point(xa, yTop);
    if (flap.kind === 'DUST') {
      draft.point(xa + flap.taper, yTop - flap.depth).point(xb - flap.taper, yTop - flap.depth);
      draft.crease(xa, yTop, xb, yTop);
    } else if (flap.kind === 'LID') {
      const end = yTop - flap.lid - flap.tuck;
      draft
        .point(xa, end + flap.chamfer)
        .point(xa + flap.chamfer, end)
        .point(xb - flap.chamfer, end);
      draft.point(xb, end + flap.chamfer);
      draft.crease(xa, yTop, xb, yTop).crease(xa, yTop - flap.lid, xb, yTop - flap.lid);
    }
    draft.point(xb, yTop);
  }
  // Bottom edge, right to left (flaps extend downwards, y > pH).
  for (let i = 3; i >= 0; i--) {
    const xa = starts[i]!;
    const xb = xa + widths[i]!;
    const flap = spec.bottom[i]!;
    draft.point(xb, yBot);
    if (flap.kind === 'DUST' || flap.kind === 'LOCK_LONG') {
      draft.point(xb - flap.taper, yBot + flap.depth).point(xa + flap.taper, yBot + flap.depth);
      draft.crease(xa, yBot, xb, yBot);
    } else if (flap.kind === 'LID') {
      const end = yBot + flap.lid + flap.tuck;
      draft
        .point(xb, end - flap.chamfer)
        .point(xb - flap.chamfer, end)
        .point(xa + flap.chamfer, end);
      draft.point(xa, end - flap.chamfer);
      draft.crease(xa, yBot, xb, yBot).crease(xa, yBot + flap.lid, xb, yBot + flap.lid);
    } else if (flap.kind === 'LOCK_SHORT') {
      // Glued crash-lock flap: square on the left, 45-degree on the right, folded along a diagonal.
      draft.point(xb - flap.depth, yBot + flap.depth).point(xa, yBot + flap.depth);
      draft.crease(xa, yBot, xb, yBot).crease(xa, yBot, xa + flap.depth, yBot + flap.depth);
    }
    draft.point(xa, yBot);
  }
  // Panel names: the lids hinge on the back panel (index 0), the front is the third panel.
  const names = ['back', 'side', 'front', 'side'];
  draft.panel('glue flap', 0, yTop, g, pH);
  for (let i = 0; i < 4; i++) {
    const xa = starts[i]!;
    const w = widths[i]!;
    draft.panel(names[i]!, xa, yTop, w, pH);
    for (const [flap, where] of [
      [spec.top[i]!, 'top'],
      [spec.bottom[i]!, 'bottom'],
    ] as const) {
      const depth = flapDepth(flap);
      const y = where === 'top' ? yTop - depth : yBot;
      const label =
        flap.kind === 'LID'
          ? `${where} lid`
          : flap.kind === 'DUST'
            ? `${where} dust flap`
            : flap.kind === 'NONE'
              ? ''
              : `${where} lock flap`;
      if (label) draft.panel(label, xa, y, w, depth);
    }
  }
  // Glue flap on the left, tapered at 45 degrees so it clears the closures.
  draft.point(0, yBot - glueTaper).point(0, yTop + glueTaper);
  for (const x of starts) draft.crease(x, yTop, x, yBot);

  if (input.window) {
    const frontX = starts[2]!;
    draft.hole(
      frontX + (pL - input.window.width) / 2,
      (pH - input.window.height) / 2,
      input.window.width,
      input.window.height,
    );
  }

  const topDepth = Math.max(0, ...spec.top.map(flapDepth));
  const bottomDepth = Math.max(0, ...spec.bottom.map(flapDepth));
  draft.mark('blank width', 'x', 0, g + 2 * pL + 2 * pW);
  draft.mark('L', 'x', starts[0]!, starts[0]! + pL).mark('W', 'x', starts[1]!, starts[1]! + pW);
  draft.mark('blank height', 'y', yTop - topDepth, yBot + bottomDepth).mark('H', 'y', yTop, yBot);
  return draft.finish(spec.style, {
    caliperMm: c,
    glueLengthMm: spec.glueLengthMm ?? pH,
    knockedDown: {
      length: pL + pW,
      width: spec.knockedDownHeight ?? topDepth + pH + bottomDepth,
      thickness: (spec.knockedDownLayers ?? 2) * c,
    },
  });
}

function flapDepth(flap: TopOrBottomFlap): number {
  switch (flap.kind) {
    case 'NONE':
      return 0;
    case 'DUST':
    case 'LOCK_LONG':
    case 'LOCK_SHORT':
      return flap.depth;
    case 'LID':
      return flap.lid + flap.tuck;
  }
}

function tuckEndFlaps(input: StyleInput) {
  const { pW } = panels(input);
  const tuck = input.product.tuckFlapMm;
  const lid: TopOrBottomFlap = { kind: 'LID', lid: pW, tuck, chamfer: tuck / 3 };
  const dustDepth = input.product.dustFlapRatio * input.width;
  const dust: TopOrBottomFlap = { kind: 'DUST', depth: dustDepth, taper: Math.min(dustDepth / 2, pW / 4) };
  const none: TopOrBottomFlap = { kind: 'NONE' };
  return { lid, dust, none };
}

/** Straight tuck end: both lids hinge on the back panel (panel 1). */
export function straightTuckEnd(input: StyleInput): DieLine {
  const { lid, dust, none } = tuckEndFlaps(input);
  return tube(input, { style: 'STE', top: [lid, dust, none, dust], bottom: [lid, dust, none, dust] });
}

/** Reverse tuck end: top lid on the back panel, bottom lid on the front panel. */
export function reverseTuckEnd(input: StyleInput): DieLine {
  const { lid, dust, none } = tuckEndFlaps(input);
  return tube(input, { style: 'RTE', top: [lid, dust, none, dust], bottom: [none, dust, lid, dust] });
}

/** Crash-lock (auto) bottom with a tuck top; the bottom is pre-glued and folds flat inside. */
export function crashLockBottom(input: StyleInput): DieLine {
  const { pL, pW, pH } = panels(input);
  const { lid, dust, none } = tuckEndFlaps(input);
  const longDepth = 0.75 * input.width;
  const shortDepth = 0.5 * input.width;
  const lockLong: TopOrBottomFlap = {
    kind: 'LOCK_LONG',
    depth: longDepth,
    taper: Math.min(longDepth / 2, pL / 6),
  };
  const lockShort: TopOrBottomFlap = { kind: 'LOCK_SHORT', depth: shortDepth };
  return tube(input, {
    style: 'CLB',
    top: [lid, dust, none, dust],
    bottom: [lockLong, lockShort, lockLong, lockShort],
    // Side seam plus a glue line along each glued crash-lock flap.
    glueLengthMm: pH + 2 * shortDepth,
    knockedDownHeight: pW + input.product.tuckFlapMm + pH,
    knockedDownLayers: 4,
  });
}

/** Open tube, glued side seam, no closures. */
export function sleeve(input: StyleInput): DieLine {
  const none: TopOrBottomFlap = { kind: 'NONE' };
  return tube(input, { style: 'SLEEVE', top: [none, none, none, none], bottom: [none, none, none, none] });
}

/**
 * Tray with folded corner flaps, shipped flat and erected by the packer: base L x W, walls H on
 * four sides, a corner flap at each end of the long walls (tapered 45 degrees at the base side).
 */
export function tray(input: StyleInput): DieLine {
  const { pL, pW, pH, c } = panels(input);
  const cw = Math.min(pH, input.product.dustFlapRatio * input.width);
  const draft = new DieLineDraft();
  const left = pH;
  const right = pH + pL;
  const top = pH;
  const bottom = pH + pW;
  draft
    .point(left - cw, 0)
    .point(right + cw, 0)
    .point(right + cw, top - cw)
    .point(right, top)
    .point(right + pH, top)
    .point(right + pH, bottom)
    .point(right, bottom)
    .point(right + cw, bottom + cw)
    .point(right + cw, bottom + pH)
    .point(left - cw, bottom + pH)
    .point(left - cw, bottom + cw)
    .point(left, bottom)
    .point(0, bottom)
    .point(0, top)
    .point(left, top)
    .point(left - cw, top - cw);
  draft
    .panel('base', left, top, pL, pW)
    .panel('wall', left, 0, pL, pH)
    .panel('wall', left, bottom, pL, pH)
    .panel('end wall', 0, top, pH, pW)
    .panel('end wall', right, top, pH, pW);
  // Base edges.
  draft.crease(left, top, right, top).crease(left, bottom, right, bottom);
  draft.crease(left, top, left, bottom).crease(right, top, right, bottom);
  // Corner flaps hinge on the ends of the long walls.
  draft.crease(left, 0, left, top).crease(right, 0, right, top);
  draft.crease(left, bottom, left, bottom + pH).crease(right, bottom, right, bottom + pH);
  draft.mark('blank width', 'x', 0, pL + 2 * pH).mark('L', 'x', left, right);
  draft
    .mark('blank height', 'y', 0, pW + 2 * pH)
    .mark('W', 'y', top, bottom)
    .mark('H', 'y', 0, top);
  return draft.finish('TRAY', {
    caliperMm: c,
    glueLengthMm: 0,
    knockedDown: { length: pL + 2 * pH, width: pW + 2 * pH, thickness: c },
  });
}

/**
 * FEFCO 0201 regular slotted container: glue flap + L + W + L + W; flaps W/2 top and bottom
 * separated by slots centred on the panel creases. Blank length 2pL + 2pW + glue flap, blank
 * height pH + pW.
 */
export function fefco0201(input: StyleInput): DieLine {
  const { pL, pW, pH, c } = panels(input);
  const gf = input.product.glueFlapMm;
  const s = input.product.slotWidthMm;
  const fd = pW / 2;
  const x = [gf, gf + pL, gf + pL + pW, gf + 2 * pL + pW, gf + 2 * pL + 2 * pW];
  const total = pH + 2 * fd;
  const draft = new DieLineDraft();
  draft.point(x[0]!, 0);
  for (const xs of [x[1]!, x[2]!, x[3]!]) {
    draft
      .point(xs - s / 2, 0)
      .point(xs - s / 2, fd)
      .point(xs + s / 2, fd)
      .point(xs + s / 2, 0);
  }
  draft.point(x[4]!, 0).point(x[4]!, total);
  for (const xs of [x[3]!, x[2]!, x[1]!]) {
    draft
      .point(xs + s / 2, total)
      .point(xs + s / 2, total - fd)
      .point(xs - s / 2, total - fd)
      .point(xs - s / 2, total);
  }
  draft
    .point(x[0]!, total)
    .point(x[0]!, fd + pH)
    .point(0, fd + pH)
    .point(0, fd)
    .point(x[0]!, fd);
  for (const xs of [x[0]!, x[1]!, x[2]!, x[3]!]) draft.crease(xs, fd, xs, fd + pH);
  draft.panel('glue flap', 0, fd, gf, pH);
  ['front', 'side', 'back', 'side'].forEach((name, i) => {
    const xa = x[i]!;
    const w = x[i + 1]! - xa;
    draft
      .panel(name, xa, fd, w, pH)
      .panel('top flap', xa, 0, w, fd)
      .panel('bottom flap', xa, fd + pH, w, fd);
  });
  // Flap creases run under each flap; the slots interrupt them.
  const flapSpans: [number, number][] = [
    [x[0]!, x[1]! - s / 2],
    [x[1]! + s / 2, x[2]! - s / 2],
    [x[2]! + s / 2, x[3]! - s / 2],
    [x[3]! + s / 2, x[4]!],
  ];
  for (const [a, b] of flapSpans) draft.crease(a, fd, b, fd).crease(a, fd + pH, b, fd + pH);
  draft.mark('blank length', 'x', 0, x[4]!).mark('L', 'x', x[0]!, x[1]!).mark('W', 'x', x[1]!, x[2]!);
  draft.mark('blank height', 'y', 0, total).mark('H', 'y', fd, fd + pH);
  return draft.finish('FEFCO_0201', {
    caliperMm: c,
    glueLengthMm: pH,
    knockedDown: { length: pL + pW, width: total, thickness: 2 * c },
  });
}

/**
 * FEFCO 0427 roll-end tuck-front mailer, die-cut in one piece: tuck, lid, back wall, base and a
 * double front wall stacked vertically; double side walls left and right of the base; ears on
 * the back wall and dust flaps on the lid fold into the side walls.
 */
export function fefco0427(input: StyleInput): DieLine {
  const { pL, pW, pH, c } = panels(input);
  const tf = input.height;
  const k = Math.min(tf / 3, 10);
  const lw = 0.9 * pH;
  const e = Math.min(lw, pW / 4);
  const ew = Math.min(0.8 * pW, 2 * pH);
  const e2 = Math.min(ew, pH / 4);
  const x0 = 0;
  const x1 = pH;
  const x2 = 2 * pH;
  const x3 = 2 * pH + pL;
  const x4 = 3 * pH + pL;
  const x5 = 4 * pH + pL;
  const y1 = tf;
  const y2 = y1 + pW;
  const y3 = y2 + pH;
  const y4 = y3 + pW;
  const y5 = y4 + pH;
  const y6 = y5 + pH;
  const draft = new DieLineDraft();
  draft
    .point(x2 + k, 0)
    .point(x3 - k, 0)
    .point(x3, k)
    .point(x3, y1)
    .point(x3 + lw, y1 + e)
    .point(x3 + lw, y2 - e)
    .point(x3, y2)
    .point(x3 + ew, y2 + e2)
    .point(x3 + ew, y3 - e2)
    .point(x3, y3)
    .point(x5, y3)
    .point(x5, y4)
    .point(x3, y4)
    .point(x3, y6 - k)
    .point(x3 - k, y6)
    .point(x2 + k, y6)
    .point(x2, y6 - k)
    .point(x2, y4)
    .point(x0, y4)
    .point(x0, y3)
    .point(x2, y3)
    .point(x2 - ew, y3 - e2)
    .point(x2 - ew, y2 + e2)
    .point(x2, y2)
    .point(x2 - lw, y2 - e)
    .point(x2 - lw, y1 + e)
    .point(x2, y1)
    .point(x2, k);
  draft
    .panel('tuck', x2, 0, pL, y1)
    .panel('lid', x2, y1, pL, pW)
    .panel('back', x2, y2, pL, pH)
    .panel('base', x2, y3, pL, pW)
    .panel('front', x2, y4, pL, pH)
    .panel('front lining', x2, y5, pL, pH)
    .panel('side', x1, y3, pH, pW)
    .panel('side lining', x0, y3, pH, pW)
    .panel('side', x3, y3, pH, pW)
    .panel('side lining', x4, y3, pH, pW);
  for (const y of [y1, y2, y3, y4, y5]) draft.crease(x2, y, x3, y);
  for (const x of [x1, x2, x3, x4]) draft.crease(x, y3, x, y4);
  draft.crease(x2, y1, x2, y2).crease(x3, y1, x3, y2);
  draft.crease(x2, y2, x2, y3).crease(x3, y2, x3, y3);
  draft.mark('blank width', 'x', x0, x5).mark('L', 'x', x2, x3).mark('H', 'x', x1, x2);
  draft.mark('blank height', 'y', 0, y6).mark('W', 'y', y3, y4).mark('H', 'y', y4, y5);
  return draft.finish('FEFCO_0427', {
    caliperMm: c,
    glueLengthMm: 0,
    knockedDown: { length: x5, width: y6, thickness: c },
  });
}

/** Flat item (card, leaflet, label): a rectangle L x W, guillotined. */
export function flat(input: StyleInput): DieLine {
  const draft = new DieLineDraft();
  draft.point(0, 0).point(input.length, 0).point(input.length, input.width).point(0, input.width);
  draft.mark('L', 'x', 0, input.length).mark('W', 'y', 0, input.width);
  draft.panel('front', 0, 0, input.length, input.width);
  return draft.finish('FLAT', {
    caliperMm: input.caliperMm,
    glueLengthMm: 0,
    knockedDown: { length: input.length, width: input.width, thickness: input.caliperMm },
  });
}

const BUILDERS: Record<StyleCode, (input: StyleInput) => DieLine> = {
  STE: straightTuckEnd,
  RTE: reverseTuckEnd,
  CLB: crashLockBottom,
  SLEEVE: sleeve,
  TRAY: tray,
  FEFCO_0201: fefco0201,
  FEFCO_0427: fefco0427,
  FLAT: flat,
};

/**
 * A die-line depends only on the style, the dimensions, the caliper, the four product figures of
 * StyleInput and the window: pure geometry, no price. A bounded memo shared by calls returns the
 * same (never mutated) die-line a fresh build would; the value analysis and every priceBrief of a
 * configurator session rebuild the same few geometries.
 */
export function buildDieLine(style: StyleCode, input: StyleInput): DieLine {
  const p = input.product;
  const key = `${style}|${input.length}|${input.width}|${input.height}|${input.caliperMm}|${p.glueFlapMm}|${p.tuckFlapMm}|${p.dustFlapRatio}|${p.slotWidthMm}|${input.window ? `${input.window.width}x${input.window.height}` : ''}`;
  const cached = DIE_LINES.get(key);
  if (cached) return cached;
  const dieLine = BUILDERS[style](input);
  if (DIE_LINES.size >= DIE_LINE_LIMIT) DIE_LINES.delete(DIE_LINES.keys().next().value!);
  DIE_LINES.set(key, dieLine);
  return dieLine;
}

const DIE_LINES = new Map<string, DieLine>();
const DIE_LINE_LIMIT = 1000;

/** Styles whose third panel is a front panel a window can be cut in. */
export const WINDOW_STYLES: ReadonlySet<StyleCode> = new Set<StyleCode>(['STE', 'RTE', 'CLB', 'SLEEVE']);

/** The front panel (where a window goes) of a window style, mm. */
export function frontPanel(input: StyleInput): WindowPanel {
  const { pL, pH } = panels(input);
  return { width: pL, height: pH };
}
