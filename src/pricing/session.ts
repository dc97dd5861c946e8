/**
 * Per-call memo of the quantity-independent parts of the chain. Geometry depends only on the
 * style, dimensions, caliper and window; an imposition only on sheet, blank and margins. Value
 * analysis prices the same element dozens of times at other quantities, materials or finishes,
 * so these are computed once per call and reused. Nothing that depends on the catalogue is cached
 * across calls, so an edited catalogue is always priced as given (nesting.ts keeps a bounded memo
 * of row patterns by contour and gutter: pure geometry).
 */
import { type Catalogue, type CatalogueIndex, type Format, indexCatalogue } from './catalogue.ts';
import type { DieLine } from './geometry/die-line.ts';
import { buildDieLine } from './geometry/styles.ts';
import { FREE_LAYOUT, type GrainLayout, type Imposition, impose, type SheetMargins } from './imposition.ts';
import { type NestPattern, nestPatterns } from './nesting.ts';
import type { ResolvedElement } from './resolve.ts';

export interface PricingSession {
  index: CatalogueIndex;
  dieLines: Map<string, DieLine>;
  impositions: Map<string, Imposition>;
  /** Nested row patterns per die-line, gutter and orientation (independent of the sheet). */
  nestPatterns: Map<string, NestPattern[]>;
  /** Element results keyed by the element input and the brief-level settings it depends on. */
  elements: Map<string, unknown>;
}

export function createSession(catalogue: Catalogue): PricingSession {
  return {
    index: indexCatalogue(catalogue),
    dieLines: new Map(),
    impositions: new Map(),
    nestPatterns: new Map(),
    elements: new Map(),
  };
}

export function dieLineFor(session: PricingSession, element: ResolvedElement): DieLine {
  const { product } = element;
  const key = [
    product.style,
    element.length,
    element.width,
    element.height,
    element.caliperMm,
    product.glueFlapMm,
    product.tuckFlapMm,
    product.dustFlapRatio,
    product.slotWidthMm,
    element.window ? `${element.window.width}x${element.window.height}` : '',
  ].join('|');
  let dieLine = session.dieLines.get(key);
  if (!dieLine) {
    dieLine = buildDieLine(product.style, {
      length: element.length,
      width: element.width,
      height: element.height,
      caliperMm: element.caliperMm,
      product,
      ...(element.window ? { window: element.window } : {}),
    });
    session.dieLines.set(key, dieLine);
  }
  return dieLine;
}

export function impositionFor(
  session: PricingSession,
  sheet: Format,
  dieLine: DieLine,
  margins: SheetMargins,
  upsCap: number,
  rule: GrainLayout = FREE_LAYOUT,
): Imposition {
  const key = [
    rule.orientation,
    rule.mixed,
    rule.sheetGrain,
    rule.required,
    sheet.width,
    sheet.height,
    // The contour matters to nested layouts: STE and RTE of one size share box and area.
    dieLine.style,
    dieLine.width,
    dieLine.height,
    dieLine.areaMm2,
    dieLine.cutLengthMm,
    margins.gripperMm,
    margins.sideMarginMm,
    margins.tailMarginMm,
    margins.gutterMm,
    upsCap,
  ].join('|');
  let imposition = session.impositions.get(key) ?? IMPOSITIONS.get(key);
  if (imposition) session.impositions.set(key, imposition);
  else {
    imposition = impose(
      sheet,
      { width: dieLine.width, height: dieLine.height, areaMm2: dieLine.areaMm2 },
      margins,
      upsCap,
      rule,
      upsCap > 1 ? nestPatternsFor(session, dieLine, margins.gutterMm, rule) : [],
    );
    session.impositions.set(key, imposition);
    if (IMPOSITIONS.size >= IMPOSITION_LIMIT) IMPOSITIONS.delete(IMPOSITIONS.keys().next().value!);
    IMPOSITIONS.set(key, imposition);
  }
  return imposition;
}

/**
 * Impositions shared by calls: an imposition depends only on the sheet, the blank's box, area and
 * contour (style and cut length in the key, as for the session's memo), the margins, the cap and
 * the grain rule - pure geometry, never mutated - so a bounded memo returns what a fresh
 * computation would. The margins come from the catalogue's machines and are part of the key, so an
 * edited catalogue still lays its sheets as given.
 */
const IMPOSITIONS = new Map<string, Imposition>();
const IMPOSITION_LIMIT = 5000;

/**
 * Styles whose die-cut contour can interlock (flaps standing out of the body). Flat items are
 * guillotined (a grid of rectangles); a sleeve and a slotted case are rectangles anyway.
 */
const NESTABLE = new Set<DieLine['style']>(['STE', 'RTE', 'CLB', 'TRAY', 'FEFCO_0427']);

function nestPatternsFor(
  session: PricingSession,
  dieLine: DieLine,
  gutterMm: number,
  rule: GrainLayout,
): NestPattern[] {
  if (!NESTABLE.has(dieLine.style)) return [];
  const out: NestPattern[] = [];
  const orientations =
    rule.orientation === 'BOTH' ? [false, true] : rule.orientation === 'UPRIGHT' ? [false] : [true];
  for (const rotated of orientations) {
    const key = `${dieLine.style}|${dieLine.width}|${dieLine.height}|${dieLine.areaMm2}|${dieLine.cutLengthMm}|${gutterMm}|${rotated}`;
    let patterns = session.nestPatterns.get(key);
    if (!patterns) {
      patterns = nestPatterns(dieLine.outline, dieLine, rotated, gutterMm);
      session.nestPatterns.set(key, patterns);
    }
    out.push(...patterns);
  }
  return out;
}
