/**
 * Imposition: how many blanks ("ups") fit on a sheet, and where.
 *
 * The sheet's long edge (width) is the gripper edge. Usable area = sheet minus gripper margin
 * (leading edge), tail margin and side margins. Blanks are placed as bounding boxes separated
 * by the cutting machine's gutter, in one grid or in two grids (a main grid plus a rotated grid
 * in the leftover strip), trying both orientations. Because placed bounding boxes never overlap
 * and stay inside the usable area, ups <= floor(usable area / blank bounding-box area) always.
 */
import { type CutToSize, type Format, formatFits, normaliseFormat } from './catalogue.ts';
import { bestNested, type NestPattern, nestedPlacements } from './nesting.ts';

export interface SheetMargins {
  gripperMm: number;
  sideMarginMm: number;
  tailMarginMm: number;
  gutterMm: number;
}

export interface Placement {
  /** Top-left of the placed blank's bounding box on the sheet, mm. */
  x: number;
  y: number;
  /** Placed size (swapped when rotated). */
  width: number;
  height: number;
  /** Blank turned 90 degrees clockwise. */
  rotated: boolean;
  /** Nested layouts: blank turned 180 degrees (head to tail), after any 90-degree turn. */
  turned?: boolean;
}

export interface LayoutBlock {
  cols: number;
  rows: number;
  rotated: boolean;
}

/**
 * Which orientations blanks may take on the sheet: `UPRIGHT` (blank width along the sheet's long
 * edge), `ROTATED`, or `BOTH`; `mixed` allows both orientations on one sheet.
 */
export interface GrainLayout {
  /** Sheet grain (null: unknown). */
  sheetGrain: 'LONG' | 'SHORT' | null;
  required: 'BLANK_WIDTH' | 'BLANK_HEIGHT' | 'ANY';
  orientation: 'UPRIGHT' | 'ROTATED' | 'BOTH';
  mixed: boolean;
}

export const FREE_LAYOUT: GrainLayout = {
  sheetGrain: null,
  required: 'ANY',
  orientation: 'BOTH',
  mixed: true,
};

/** Orientation rule from the sheet's grain and the style's needs. */
export function grainLayout(
  sheetGrain: 'LONG' | 'SHORT' | null,
  required: 'BLANK_WIDTH' | 'BLANK_HEIGHT' | 'ANY',
  mixedAllowed: boolean,
): GrainLayout {
  if (sheetGrain === null || required === 'ANY') {
    return { sheetGrain, required, orientation: 'BOTH', mixed: mixedAllowed };
  }
  // Upright, the blank's width runs along the sheet's long edge.
  const upright = (required === 'BLANK_WIDTH') === (sheetGrain === 'LONG');
  return { sheetGrain, required, orientation: upright ? 'UPRIGHT' : 'ROTATED', mixed: false };
}

export interface Imposition {
  sheet: Format;
  /** The grain rule the layout keeps. */
  grain: GrainLayout;
  margins: SheetMargins;
  usable: { x: number; y: number; width: number; height: number };
  blank: { width: number; height: number; areaMm2: number };
  ups: number;
  placements: Placement[];
  blocks: LayoutBlock[];
  /** Share of the sheet covered by board of the blanks (ups x blank area / sheet area). */
  utilisation: number;
  /** floor(usable area / blank area): the bound ups can never exceed. */
  areaBoundUps: number;
  /** Guillotine cuts to free every blank from one sheet (flat items). */
  cutsPerSheet: number;
  /**
   * `GRID`: bounding boxes in one or two grids; `NESTED`: rows head to tail, interlocking flaps
   * (nesting.ts), chosen only when it fits strictly more blanks than the best grid.
   */
  layout: 'GRID' | 'NESTED';
  /** Ups of the best grid on this sheet (what the nested layout is compared with). */
  gridUps: number;
  /** The nested row pattern when `layout` is `NESTED`. */
  nesting: NestPattern | null;
}

function fitCount(length: number, size: number, gutter: number): number {
  if (size <= 0 || size > length) return 0;
  return Math.floor((length + gutter) / (size + gutter) + 1e-9);
}

function span(count: number, size: number, gutter: number): number {
  return count > 0 ? count * size + (count - 1) * gutter : 0;
}

interface Candidate {
  blocks: { cols: number; rows: number; rotated: boolean; dx: number; dy: number }[];
  ups: number;
}

/**
 * Most w x h rectangles in a uw x uh area, both orientations and a main grid with the leftover
 * strip in the other orientation (pallet layer patterns, trailer floors).
 */
export function bestCount(uw: number, uh: number, w: number, h: number, gap = 0): number {
  return bestLayout(uw, uh, w, h, gap).ups;
}

/**
 * Guillotine cuts of a layout's blocks, the first `upsCap` blanks kept (whole rows, then part of a
 * row): strips first, then each strip across; a gutter needs two cuts, a shared edge one.
 */
function blockCuts(blocks: { cols: number; rows: number }[], gutter: number, upsCap: number): number {
  let cuts = 0;
  let left = upsCap;
  for (const block of blocks) {
    const kept = Math.min(left, block.cols * block.rows);
    left -= kept;
    if (kept <= 0) continue;
    const cols = Math.min(block.cols, kept);
    const rows = Math.ceil(kept / block.cols);
    cuts += (gutter > 0 ? 2 * cols : cols + 1) + cols * (gutter > 0 ? 2 * rows : rows + 1);
  }
  return cuts;
}

/** Best one- or two-block layout of a w x h blank in a usable area of uw x uh. */
function bestLayout(
  uw: number,
  uh: number,
  w: number,
  h: number,
  gutter: number,
  rule: GrainLayout = FREE_LAYOUT,
  upsCap = Number.POSITIVE_INFINITY,
): Candidate {
  let best: Candidate = { blocks: [], ups: 0 };
  const consider = (candidate: Candidate) => {
    // Strictly more ups (up to the cap: ups beyond it are dropped anyway) wins; on a tie, fewer
    // blocks (a simpler die, fewer guillotine cuts) wins; else first found.
    const ups = Math.min(candidate.ups, upsCap);
    const bestUps = Math.min(best.ups, upsCap);
    if (
      ups > bestUps ||
      (ups === bestUps &&
        ups > 0 &&
        (candidate.blocks.length < best.blocks.length ||
          // Then fewer guillotine cuts (flat items are cut block by block).
          (candidate.blocks.length === best.blocks.length &&
            blockCuts(candidate.blocks, gutter, upsCap) < blockCuts(best.blocks, gutter, upsCap))))
    ) {
      best = candidate;
    }
  };
  const orientations =
    rule.orientation === 'BOTH' ? [false, true] : rule.orientation === 'UPRIGHT' ? [false] : [true];
  for (const rotated of orientations) {
    const bw = rotated ? h : w;
    const bh = rotated ? w : h;
    const ow = rotated ? w : h;
    const oh = rotated ? h : w;
    const cols = fitCount(uw, bw, gutter);
    const rows = fitCount(uh, bh, gutter);
    consider({ blocks: [{ cols, rows, rotated, dx: 0, dy: 0 }], ups: cols * rows });
    // Mixed layouts turn part of the blanks: against the grain unless mixing is allowed.
    if (!rule.mixed) continue;
    // Main grid with c columns, the leftover vertical strip filled with the other orientation.
    for (let c = 0; c < cols; c++) {
      const used = span(c, bw, gutter) + (c > 0 ? gutter : 0);
      const cols2 = fitCount(uw - used, ow, gutter);
      const rows2 = fitCount(uh, oh, gutter);
      if (cols2 * rows2 === 0) continue;
      consider({
        blocks: [
          { cols: c, rows, rotated, dx: 0, dy: 0 },
          { cols: cols2, rows: rows2, rotated: !rotated, dx: used, dy: 0 },
        ].filter((b) => b.cols * b.rows > 0),
        ups: c * rows + cols2 * rows2,
      });
    }
    // Main grid with r rows, the leftover horizontal strip filled with the other orientation.
    for (let r = 0; r < rows; r++) {
      const used = span(r, bh, gutter) + (r > 0 ? gutter : 0);
      const cols2 = fitCount(uw, ow, gutter);
      const rows2 = fitCount(uh - used, oh, gutter);
      if (cols2 * rows2 === 0) continue;
      consider({
        blocks: [
          { cols, rows: r, rotated, dx: 0, dy: 0 },
          { cols: cols2, rows: rows2, rotated: !rotated, dx: 0, dy: used },
        ].filter((b) => b.cols * b.rows > 0),
        ups: cols * r + cols2 * rows2,
      });
    }
  }
  return best;
}

/**
 * Lays blanks out on one sheet. `upsCap` limits the count (a machine that runs one blank at a
 * time, or an existing tool with a fixed number of ups); extra positions are dropped.
 */
export function impose(
  sheetFormat: Format,
  blank: { width: number; height: number; areaMm2: number },
  margins: SheetMargins,
  upsCap = Number.POSITIVE_INFINITY,
  rule: GrainLayout = FREE_LAYOUT,
  nestPatterns: NestPattern[] = [],
): Imposition {
  const sheet = normaliseFormat(sheetFormat);
  const usable = {
    x: margins.sideMarginMm,
    y: margins.gripperMm,
    width: Math.max(0, sheet.width - 2 * margins.sideMarginMm),
    height: Math.max(0, sheet.height - margins.gripperMm - margins.tailMarginMm),
  };
  const g = margins.gutterMm;
  const layout = bestLayout(usable.width, usable.height, blank.width, blank.height, g, rule, upsCap);
  const placements: Placement[] = [];
  // Centre the whole layout across the sheet so the die sits on the sheet's centre line.
  let layoutWidth = 0;
  for (const block of layout.blocks) {
    const bw = block.rotated ? blank.height : blank.width;
    layoutWidth = Math.max(layoutWidth, block.dx + span(block.cols, bw, g));
  }
  const offsetX = usable.x + Math.max(0, (usable.width - layoutWidth) / 2);
  // Blanks beyond the cap are dropped in placement order (row by row, block by block), so a
  // capped layout is its first blocks' full rows and one partial row: only those are cut.
  const cutsPerSheet = blockCuts(layout.blocks, g, upsCap);
  for (const block of layout.blocks) {
    const bw = block.rotated ? blank.height : blank.width;
    const bh = block.rotated ? blank.width : blank.height;
    for (let row = 0; row < block.rows; row++) {
      for (let col = 0; col < block.cols; col++) {
        placements.push({
          x: offsetX + block.dx + col * (bw + g),
          y: usable.y + block.dy + row * (bh + g),
          width: bw,
          height: bh,
          rotated: block.rotated,
        });
      }
    }
  }
  const gridUps = Math.min(placements.length, upsCap);
  // A nested layout keeps one grain orientation (180-degree turns only); it replaces the grid
  // only when it fits strictly more blanks (after the machine's or tool's cap).
  const allowed = nestPatterns.filter((p) =>
    rule.orientation === 'BOTH' ? true : p.rotated === (rule.orientation === 'ROTATED'),
  );
  const nested = bestNested(allowed, usable.width, usable.height, g);
  const useNested = nested !== null && Math.min(nested.ups, upsCap) > gridUps;
  const finalPlacements: Placement[] = useNested
    ? nestedPlacements(nested.pattern, usable, g).map((p) => ({ ...p }))
    : placements;
  const ups = Math.min(finalPlacements.length, upsCap);
  finalPlacements.length = ups;
  const bboxArea = blank.width * blank.height;
  return {
    sheet,
    grain: rule,
    margins,
    usable,
    blank,
    ups,
    placements: finalPlacements,
    blocks: useNested ? [] : layout.blocks.map(({ cols, rows, rotated }) => ({ cols, rows, rotated })),
    utilisation: (ups * blank.areaMm2) / (sheet.width * sheet.height),
    areaBoundUps: bboxArea > 0 ? Math.floor((usable.width * usable.height) / blank.areaMm2) : 0,
    cutsPerSheet: ups > 0 && !useNested ? cutsPerSheet : 0,
    layout: useNested ? 'NESTED' : 'GRID',
    gridUps,
    nesting: useNested ? nested.pattern : null,
  };
}

/**
 * Sheets ordered to size (corrugated): one candidate per small grid of blanks (1..3 x 1..3,
 * both orientations), sized blank-tight plus the machine margins, kept when within the
 * corrugator's limits and the machine's format.
 */
export function cutToSizeSheets(
  blank: { width: number; height: number },
  margins: SheetMargins,
  limits: CutToSize,
  machineMin: Format,
  machineMax: Format,
  maxUps: number,
): Format[] {
  const seen = new Set<string>();
  const sheets: Format[] = [];
  for (const rotated of [false, true]) {
    const bw = rotated ? blank.height : blank.width;
    const bh = rotated ? blank.width : blank.height;
    for (let across = 1; across <= 3; across++) {
      for (let down = 1; down <= 3; down++) {
        if (across * down > maxUps) continue;
        const sheet = normaliseFormat({
          width: span(across, bw, margins.gutterMm) + 2 * margins.sideMarginMm,
          height: span(down, bh, margins.gutterMm) + margins.gripperMm + margins.tailMarginMm,
        });
        const key = `${sheet.width}x${sheet.height}`;
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
