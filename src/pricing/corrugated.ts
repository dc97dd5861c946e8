/**
 * Corrugated sheets: flute direction and the corrugator's usual web (deckle) widths.
 *
 * Flutes run across the corrugator's web, so a sheet made to size has its flutes along the side
 * that lies across the web (its deckle side). A box needs its flutes one way: a FEFCO 0201 case
 * stacks on its walls, so the flutes run up the walls, i.e. along the blank's height (across the
 * blank's length, parallel to the panel creases) - `Product.requiredFlute`, default
 * `BLANK_HEIGHT` for 0201 and `ANY` for other styles. That fixes which way the blank lies on the
 * sheet: the sheet carries its flute direction in `Format.grain` (`LONG`: flutes along the long
 * edge, `SHORT`), and the imposition keeps the blank's required side along the flutes (the same
 * rule as board grain, `grainLayout`).
 *
 * Corrugators run standard web widths (`CutToSize.webWidthsMm`, the usual sizes: the default
 * catalogue lists 1,400 to 2,500 mm); a sheet's deckle side is laid `outs` times across a
 * standard web, and whatever is left beside the sheets (the edge trim at least) is bought as
 * waste. Each candidate sheet is charged for the web that wastes least (`corrugatorYield`), so
 * the route ranking prefers sheets that fill a usual width; without a list, the sheets share the
 * edge trim of the widest web (the corrugator's limit), as before.
 */
import {
  type CutToSize,
  type Format,
  formatFits,
  normaliseFormat,
  type Product,
  type RequiredGrain,
} from './catalogue.ts';
import type { SheetMargins } from './imposition.ts';

/** The flute direction a style needs relative to its blank. */
export function fluteRuleOf(product: Product): RequiredGrain {
  return product.requiredFlute ?? (product.style === 'FEFCO_0201' ? 'BLANK_HEIGHT' : 'ANY');
}

const span = (count: number, size: number, gutter: number) =>
  count > 0 ? count * size + (count - 1) * gutter : 0;

/**
 * Sheets ordered to size: one candidate per small grid of blanks (1..3 x 1..3, both
 * orientations), blank-tight plus the machine margins, within the corrugator's and the machine's
 * limits. With a required flute direction each sheet says which way its flutes run (`grain`), and
 * its deckle side (across the web) must fit the widest web.
 */
export function corrugatedSheets(
  blank: { width: number; height: number },
  margins: SheetMargins,
  limits: CutToSize,
  machineMin: Format,
  machineMax: Format,
  maxUps: number,
  requiredFlute: RequiredGrain,
): Format[] {
  const seen = new Set<string>();
  const sheets: Format[] = [];
  const widestWeb = Math.max(limits.max.width, limits.max.height, ...(limits.webWidthsMm ?? []));
  for (const rotated of [false, true]) {
    const bw = rotated ? blank.height : blank.width;
    const bh = rotated ? blank.width : blank.height;
    for (let across = 1; across <= 3; across++) {
      for (let down = 1; down <= 3; down++) {
        if (across * down > maxUps) continue;
        const x = span(across, bw, margins.gutterMm) + 2 * margins.sideMarginMm;
        const y = span(down, bh, margins.gutterMm) + margins.gripperMm + margins.tailMarginMm;
        const sheet = normaliseFormat({ width: x, height: y });
        if (requiredFlute !== 'ANY') {
          // The blank side that needs the flutes: its height, or its width; on the sheet that is
          // the x side when the blank is turned for BLANK_HEIGHT (or upright for BLANK_WIDTH).
          const alongX = (requiredFlute === 'BLANK_HEIGHT') === rotated;
          const fluteSide = alongX ? x : y;
          sheet.grain = fluteSide === Math.max(x, y) ? 'LONG' : 'SHORT';
          if (fluteSide > widestWeb) continue;
        }
        const key = `${sheet.width}x${sheet.height}:${sheet.grain ?? ''}`;
        if (seen.has(key)) continue;
        if (!formatFits(sheet, limits.min, limits.max) || !formatFits(sheet, machineMin, machineMax))
          continue;
        seen.add(key);
        sheets.push(sheet);
      }
    }
  }
  return sheets;
}

export interface CorrugatorYield {
  /** Web width used, mm. */
  webWidthMm: number;
  /** Sheets side by side across the web. */
  outs: number;
  /** Sheet side across the web (along the flutes), mm. */
  deckleMm: number;
  /** Board bought per board used: web / (outs x deckle), before corrugating waste. */
  factor: number;
}

/**
 * How a sheet is cut from the corrugator web: its deckle side (along the flutes; the short side
 * when the flute direction is free) `outs` times across the standard web that wastes least.
 */
export function corrugatorYield(sheet: Format, limits: CutToSize): CorrugatorYield {
  const trim = limits.trimMm ?? 0;
  const deckle = sheet.grain === 'LONG' ? sheet.width : sheet.height;
  const largest = Math.max(limits.max.width, limits.max.height);
  const webs = limits.webWidthsMm && limits.webWidthsMm.length > 0 ? limits.webWidthsMm : null;
  if (!webs) {
    // No standard widths: the sheets share the widest web's edge trim (bought: the trim only).
    const outs = Math.max(1, Math.floor((largest - trim) / deckle + 1e-9));
    return {
      webWidthMm: outs * deckle + trim,
      outs,
      deckleMm: deckle,
      factor: (outs * deckle + trim) / (outs * deckle),
    };
  }
  let best: CorrugatorYield | null = null;
  for (const web of webs) {
    const outs = Math.floor((web - trim) / deckle + 1e-9);
    if (outs < 1) continue;
    const factor = web / (outs * deckle);
    if (!best || factor < best.factor - 1e-12) best = { webWidthMm: web, outs, deckleMm: deckle, factor };
  }
  // A sheet wider than every standard web is made on the widest web the corrugator runs.
  return best ?? { webWidthMm: deckle + trim, outs: 1, deckleMm: deckle, factor: (deckle + trim) / deckle };
}
