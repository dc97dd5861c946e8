/**
 * Value analysis: explains where an element's cost goes and proposes savings, each priced by the
 * same engine on a changed copy of the brief (docs/pricing.md section 6 lists all seven):
 *
 * - INCREASE_QUANTITY: the unit-price curve and the next price break (the smallest quantity
 *   whose unit price is at least `priceBreakSaving` lower).
 * - CHANGE_MATERIAL: a board of the same matter, comparable grammage and caliper, cheaper per m2.
 * - SIMPLIFY_FINISHING: drop a finish (or swap lamination for varnish).
 * - ADJUST_DIMENSIONS: the smallest reduction of one dimension that fits more ups on the sheet.
 * - BUNDLE_PACKING, CHEAPER_TOTAL_ROUTE, and GANG_RUN (gang-lever.ts: the saving of printing the
 *   decoration variants together on one sheet, already selected by the engine when it pays).
 *
 * Because every route's product cost is linear in the quantity scale (fixed + variable * k, see
 * costing.ts), the price break is found exactly: route r reaches the target unit price t at
 * k = fixed / (t (1 - m) Q - variable), and the element at the smallest such k over its routes.
 */
import { type Catalogue, type MaterialReference, normaliseFormat } from './catalogue.ts';
import type { RouteCosting } from './costing.ts';
import { type BriefComputation, computeBrief, type ElementComputation, variantMoney } from './engine.ts';
import { PricingError } from './errors.ts';
import { isGang } from './gang.ts';
import { gangRunProposal } from './gang-lever.ts';
import { buildDieLine } from './geometry/styles.ts';
import type { BriefElementInput, BriefInput, DecorationCount } from './input.ts';
import { fromCents, round1, round4 } from './money.ts';
import type { CostSummaryGroup, OptimisationType } from './output.ts';
import type { ResolvedElement } from './resolve.ts';
import { createSession, impositionFor, type PricingSession } from './session.ts';

export interface InputChange {
  pointer: string;
  field: string;
  from: unknown;
  to: unknown;
}

export interface PricedChange {
  description: string;
  changes: InputChange[];
  quantity: number;
  unitPrice: number;
  /** Element total after the change (product price + tooling + its delivery share). */
  totalPrice: number;
  briefTotalPrice: number;
  unitPriceSaving: number;
  totalSaving: number;
  /** Saving on the unit price (INCREASE_QUANTITY) or on the element total (others), percent. */
  savingPercent: number;
}

export interface OptimisationProposal extends Partial<PricedChange> {
  type: OptimisationType;
  applies: boolean;
  /**
   * The saving is already in the price: the engine selected it without a change to the brief
   * (GANG_RUN: the gang run is the cheapest total). `changes` is empty; not counted in bestSaving.
   */
  alreadyApplied?: boolean;
  description: string;
  changes: InputChange[];
  /** Other changes of the same kind that were priced, best first. */
  alternatives: PricedChange[];
}

export interface QuantityPoint {
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  printingProcess: string;
  variantKey: string;
  layoutCount: number;
}

export interface ElementValueAnalysis {
  position: number;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
  /** Where the element's money goes (stage groups of its cost summary). */
  costShares: CostSummaryGroup[];
  optimisations: OptimisationProposal[];
  quantityCurve: QuantityPoint[];
  nextPriceBreak: {
    quantity: number;
    unitPrice: number;
    unitSavingPercent: number;
    decorationsCount: DecorationCount[];
  } | null;
  optimisationQuantity: number;
  optimiseProductQuantityPerDecoration: DecorationCount[];
}

export interface ValueAnalysis {
  currency: string;
  totalPrice: number;
  elements: ElementValueAnalysis[];
  /** The single change that saves the most on the brief total. */
  bestSaving: { position: number; type: OptimisationType; totalSaving: number } | null;
}

export interface OptimisationHints {
  optimisations: OptimisationType[];
  optimisationQuantity: number;
  optimiseProductQuantityPerDecoration: DecorationCount[];
}

// ---------------------------------------------------------------------------------------------
// Candidate changes (shared by the quick hints in priceBrief and the full analysis).

/**
 * Price break on the linear cost model of every route; null when none within a sane factor of
 * the ordered quantity. The unit price compared is all-in (product price + amortised tooling per
 * unit), the quantity routes are ranked by.
 */
export function priceBreak(
  computation: ElementComputation,
  catalogue: Catalogue,
): { scale: number; route: RouteCosting; decorations: DecorationCount[] } | null {
  const { element } = computation;
  const settings = catalogue.settings.valueAnalysis;
  const selected = computation.variants[0]!;
  const m = element.commercialMargin;
  const q = element.quantity;
  const target = ((1 - settings.priceBreakSaving) * selected.rankingTotal) / q;
  const maxScale = Math.min(
    Math.max(...settings.quantityCurveFactors),
    settings.maxQuantityFactor ?? DEFAULT_MAX_QUANTITY_FACTOR,
  );
  let best: { scale: number; route: RouteCosting } | null = null;
  for (const route of computation.routes) {
    const denominator = target * q - route.productCost.variable / (1 - m);
    if (denominator <= 0) continue;
    const scale = (route.productCost.fixed / (1 - m) + route.amortisedTooling) / denominator;
    if (scale > 1 && scale <= maxScale && (!best || scale < best.scale)) best = { scale, route };
  }
  if (!best) return null;
  // Round each variant up to whole sheets of that route: the extra blanks come at no extra board.
  const ups = best.route.plan.imposition.ups;
  const decorations = element.decorations.map((d) => ({
    decorationIndex: d.decorationIndex,
    quantity: Math.ceil((d.quantity * best.scale - 1e-9) / ups) * ups,
  }));
  return { ...best, decorations };
}

/** Suggest at most this multiple of the ordered quantity unless the settings say otherwise. */
export const DEFAULT_MAX_QUANTITY_FACTOR = 2;

function pricePerM2(reference: MaterialReference): number {
  return reference.pricePerSquareMetre ?? (reference.grammage / 1e6) * reference.pricePerTonne;
}

/**
 * Comparable boards: the same family (material type, e.g. GC1 stays GC1), grammage within the
 * band (`grammageTolerance`, e.g. +-10 %), caliper within `caliperTolerance`, cheaper per m2;
 * cheapest first. A lighter or lower grade board is a different specification, not a saving.
 */
export function comparableBoards(catalogue: Catalogue, element: ResolvedElement): MaterialReference[] {
  const t = catalogue.settings.valueAnalysis;
  return catalogue.materialReferences
    .filter(
      (r) =>
        r.id !== element.reference.id &&
        r.matterId === element.reference.matterId &&
        r.materialTypeId === element.reference.materialTypeId &&
        element.product.allowedMatterIds.includes(r.matterId) &&
        Math.abs(r.grammage - element.grammage) <= t.grammageTolerance * element.grammage + 1e-9 &&
        Math.abs(r.caliperMm - element.caliperMm) <= t.caliperTolerance * element.caliperMm + 1e-9 &&
        pricePerM2(r) < element.boardPricePerM2 - 1e-9,
    )
    .sort((a, b) => pricePerM2(a) - pricePerM2(b) || (a.code < b.code ? -1 : 1));
}

interface Candidate {
  description: string;
  changes: InputChange[];
  apply: (input: BriefElementInput) => BriefElementInput;
  /** A change of the brief itself (packing type), applied after `apply`. */
  applyBrief?: (brief: BriefInput) => BriefInput;
  /**
   * What the change promises beyond a lower total, checked on the re-priced element: the proposal
   * is dropped when the re-priced brief does not get it (issue 30: "fit more ups" proposals that
   * re-priced with the same ups). Returns the description of what it really gets, or null.
   */
  promise?: (after: ElementComputation) => string | null;
}

function materialCandidate(
  element: ResolvedElement,
  reference: MaterialReference,
  grammageTolerance: number,
): Candidate {
  const base = `/briefElements/${element.arrayIndex}`;
  const input = element.input;
  const changes: InputChange[] = [
    {
      pointer: `${base}/materialReferenceId`,
      field: 'materialReferenceId',
      from: input.materialReferenceId,
      to: reference.id,
    },
  ];
  if (input.materialTypeId !== undefined && input.materialTypeId !== reference.materialTypeId) {
    changes.push({
      pointer: `${base}/materialTypeId`,
      field: 'materialTypeId',
      from: input.materialTypeId,
      to: reference.materialTypeId,
    });
  }
  if (input.grammage !== undefined && input.grammage !== reference.grammage) {
    changes.push({
      pointer: `${base}/grammage`,
      field: 'grammage',
      from: input.grammage,
      to: reference.grammage,
    });
  }
  if (input.corrugatedMaterialId !== undefined) {
    changes.push({
      pointer: `${base}/corrugatedMaterialId`,
      field: 'corrugatedMaterialId',
      from: input.corrugatedMaterialId,
      to: null,
    });
  }
  const band = Math.round(grammageTolerance * 100);
  return {
    description: `use ${reference.name} (${reference.code}) instead of ${element.reference.name} (${element.reference.code}): same family, ${reference.grammage} g/m2 within +-${band} % of ${element.grammage} g/m2`,
    changes,
    apply: (current) => {
      const next: BriefElementInput = { ...current, materialReferenceId: reference.id };
      if (next.materialTypeId !== undefined) next.materialTypeId = reference.materialTypeId;
      if (next.grammage !== undefined) next.grammage = reference.grammage;
      delete next.corrugatedMaterialId;
      return next;
    },
  };
}

export function finishingCandidates(element: ResolvedElement): Candidate[] {
  const base = `/briefElements/${element.arrayIndex}`;
  const change = (field: string, from: unknown, to: unknown): InputChange => ({
    pointer: `${base}/${field}`,
    field,
    from,
    to,
  });
  const out: Candidate[] = [];
  if (element.lamination) {
    out.push({
      description: 'drop the lamination',
      changes: [change('wantLaminationRecto', true, false)],
      apply: (e) => ({ ...e, wantLaminationRecto: false }),
    });
    if (!element.varnish) {
      out.push({
        description: 'replace the lamination with a varnish',
        changes: [change('wantLaminationRecto', true, false), change('wantVarnishRecto', false, true)],
        apply: (e) => ({ ...e, wantLaminationRecto: false, wantVarnishRecto: true }),
      });
    }
  }
  if (element.varnish) {
    out.push({
      description: 'drop the varnish',
      changes: [change('wantVarnishRecto', true, false)],
      apply: (e) => ({ ...e, wantVarnishRecto: false }),
    });
  }
  if (element.stampings.length > 0) {
    out.push({
      description: 'drop the hot-foil stamping',
      changes: [change('wantStampingRecto', true, false), change('hotStampings', element.stampings, [])],
      apply: (e) => ({ ...e, wantStampingRecto: false, hotStampings: [] }),
    });
  }
  if (element.embossings.length > 0) {
    out.push({
      description: 'drop the embossing',
      changes: [
        change('wantEmbossingDebossingRecto', true, false),
        change('embossings', element.embossings, []),
      ],
      apply: (e) => ({ ...e, wantEmbossingDebossingRecto: false, embossings: [] }),
    });
  }
  if (element.window) {
    out.push({
      description: 'drop the window',
      changes: [change('wantWindow', true, false)],
      apply: (e) => {
        const next = { ...e, wantWindow: false };
        delete next.windowWidth;
        delete next.windowHeight;
        return next;
      },
    });
  }
  return out;
}

const DIMENSIONS = [
  ['lengthDimension', 'length'],
  ['widthDimension', 'width'],
  ['heightDimension', 'height'],
] as const;

/**
 * Ups of the selected route's sheet when one dimension is reduced by `reduction` mm, or null
 * when that is not allowed (below the product minimum, or the layout is fixed).
 */
function upsAfterReduction(
  session: PricingSession,
  computation: ElementComputation,
  key: 'length' | 'width' | 'height',
  reduction: number,
): number | null {
  const { element } = computation;
  const route = computation.variants[0]!;
  const value = element[key] - reduction;
  if (value < element.product.minDimensions[key] || value <= 0) return null;
  const dieLine = buildDieLine(element.product.style, {
    length: key === 'length' ? value : element.length,
    width: key === 'width' ? value : element.width,
    height: key === 'height' ? value : element.height,
    caliperMm: element.caliperMm,
    product: element.product,
    ...(element.window ? { window: element.window } : {}),
  });
  const cap = Math.min(...route.plan.steps.map((s) => s.machine.maxUps ?? Number.POSITIVE_INFINITY));
  // Same sheet, margins and grain rule: a dimension change never buys ups by breaking the grain.
  return impositionFor(
    session,
    route.plan.sheet,
    dieLine,
    route.plan.imposition.margins,
    cap,
    route.plan.imposition.grain,
  ).ups;
}

/**
 * Standard flat sizes (mm, either way round): ISO A3-A7, B5, B6, DL, square formats and business
 * cards. A flat item is only proposed a size from this list: a leaflet cut 2 mm short of A5 is not
 * a saving a buyer can use.
 */
export const STANDARD_FLAT_SIZES: [number, number][] = [
  [420, 297],
  [297, 210],
  [210, 148],
  [148, 105],
  [105, 74],
  [250, 176],
  [176, 125],
  [210, 99],
  [210, 210],
  [148, 148],
  [120, 120],
  [85, 55],
  [90, 55],
  [90, 50],
];

function isStandardFlat(length: number, width: number): boolean {
  const [a, b] = length >= width ? [length, width] : [width, length];
  return STANDARD_FLAT_SIZES.some(([x, y]) => x === a && y === b);
}

function dimensionKeys(element: ResolvedElement) {
  return DIMENSIONS.filter(([, key]) => !(key === 'height' && element.product.style === 'FLAT'));
}

/** Smallest whole-mm reduction per dimension that adds ups on the selected sheet. */
export function dimensionCandidates(
  session: PricingSession,
  computation: ElementComputation,
  exhaustive: boolean,
): Candidate[] {
  const { element } = computation;
  if (element.existingTools.size > 0) return [];
  const currentUps = computation.variants[0]!.plan.imposition.ups;
  const maxReduction = session.index.catalogue.settings.valueAnalysis.maxDimensionReductionMm;
  const out: Candidate[] = [];
  const flat = element.product.style === 'FLAT';
  for (const [field, key] of dimensionKeys(element)) {
    // Ups never fall as the blank shrinks, so if the largest reduction gains nothing, none does.
    const atMax = upsAfterReduction(session, computation, key, maxReduction);
    if (atMax === null || atMax <= currentUps) continue;
    // Flat items: only a standard size; cartons: the smallest reduction (the sheet stays a stock one).
    const allowed = (r: number) => {
      if (!flat) return true;
      const length = key === 'length' ? element.length - r : element.length;
      const width = key === 'width' ? element.width - r : element.width;
      return isStandardFlat(length, width);
    };
    let reduction: number | null = flat ? null : maxReduction;
    if (exhaustive || flat) {
      for (let r = 1; r <= maxReduction; r++) {
        if (!allowed(r)) continue;
        const ups = upsAfterReduction(session, computation, key, r);
        if (ups !== null && ups > currentUps) {
          reduction = r;
          break;
        }
      }
    }
    if (reduction === null) continue;
    const from = element.input[field];
    const to = from - reduction;
    const sheet = computation.variants[0]!.plan.sheet;
    out.push({
      description: `reduce the ${key} from ${from} to ${to} mm to fit ${upsAfterReduction(session, computation, key, reduction)} ups instead of ${currentUps} (same sheet, same grain${flat ? ', a standard size' : ''})`,
      changes: [{ pointer: `/briefElements/${element.arrayIndex}/${field}`, field, from, to }],
      apply: (e) => ({ ...e, [field]: to }),
      // The saving must come from the ups: the re-priced element's selected route must carry
      // more of them, on the same sheet, else the proposal is not shown.
      promise: (after) => {
        const plan = after.variants[0]!.plan;
        const ups = plan.imposition.ups;
        if (ups <= currentUps || plan.sheet.width !== sheet.width || plan.sheet.height !== sheet.height) {
          return null;
        }
        return `reduce the ${key} from ${from} to ${to} mm to fit ${ups} ups instead of ${currentUps} (same sheet, same grain${flat ? ', a standard size' : ''})`;
      },
    });
  }
  return out;
}

/** Bundles instead of shipping cases, when the element ships in cases and bundles exist. */
export function bundleCandidate(
  catalogue: Catalogue,
  brief: BriefInput,
  computation: ElementComputation,
): Candidate | null {
  if (computation.packing.package.kind !== 'SHIPPING_CASE') return null;
  if (!catalogue.packingCases.some((c) => c.kind === 'BUNDLE')) return null;
  return {
    description: 'ship in strapped bundles instead of shipping cases (the whole brief)',
    changes: [
      {
        pointer: '/packingType',
        field: 'packingType',
        from: brief.packingType ?? 'SHIPPING_CASE',
        to: 'BUNDLE',
      },
    ],
    apply: (e) => e,
    applyBrief: (b) => ({ ...b, packingType: 'BUNDLE' }),
  };
}

/** Other printing processes when the brief forces one: the engine picks the cheapest total itself otherwise. */
export function routeCandidates(element: ResolvedElement): Candidate[] {
  const forced = element.input.printingProcess;
  if (!forced || !element.print.wanted || element.category.kind === 'CORRUGATED_CASE') return [];
  return (['offset', 'digital'] as const)
    .filter((p) => p !== forced)
    .map((process) => ({
      description: `print ${process} instead of ${forced} (the cheaper total route)`,
      changes: [
        {
          pointer: `/briefElements/${element.arrayIndex}/printingProcess`,
          field: 'printingProcess',
          from: forced,
          to: process,
        },
      ],
      apply: (e: BriefElementInput) => ({ ...e, printingProcess: process }),
    }));
}

/** The quick version priceBrief reports: which levers have a candidate change, and the break. */
export function optimisationHints(
  session: PricingSession,
  computation: ElementComputation,
): OptimisationHints {
  const catalogue = session.index.catalogue;
  const { element } = computation;
  const optimisations: OptimisationType[] = [];
  const found = priceBreak(computation, catalogue);
  if (found) optimisations.push('INCREASE_QUANTITY');
  const sheet = computation.variants[0]!.plan.sheet;
  const boards = comparableBoards(catalogue, element).filter(
    (r) =>
      r.cutToSize !== undefined ||
      r.sheetFormats.some((f) => {
        const n = normaliseFormat(f);
        return n.width === sheet.width && n.height === sheet.height;
      }),
  );
  if (boards.length > 0) optimisations.push('CHANGE_MATERIAL');
  if (finishingCandidates(element).length > 0) optimisations.push('SIMPLIFY_FINISHING');
  if (dimensionCandidates(session, computation, false).length > 0) optimisations.push('ADJUST_DIMENSIONS');
  if (
    computation.packing.package.kind === 'SHIPPING_CASE' &&
    catalogue.packingCases.some((c) => c.kind === 'BUNDLE')
  )
    optimisations.push('BUNDLE_PACKING');
  if (routeCandidates(element).length > 0) optimisations.push('CHEAPER_TOTAL_ROUTE');
  if (isGang(computation.variants[0]!.plan)) optimisations.push('GANG_RUN');
  const decorations = found?.decorations ?? element.decorations.map((d) => ({ ...d }));
  return {
    optimisations,
    optimisationQuantity: decorations.reduce((sum, d) => sum + d.quantity, 0),
    optimiseProductQuantityPerDecoration: decorations,
  };
}

// ---------------------------------------------------------------------------------------------
// Full analysis.

interface Baseline {
  computation: BriefComputation;
  totalCents: number;
}

function briefTotalCents(computation: BriefComputation): number {
  return computation.elements.reduce(
    (sum, e, i) => sum + variantMoney(e.variants[0]!, e.element, computation.deliveryCents[i]!).totalCents,
    0,
  );
}

function elementPriceIn(computation: BriefComputation, position: number) {
  const i = computation.elements.findIndex((e) => e.element.position === position);
  const element = computation.elements[i]!;
  const money = variantMoney(element.variants[0]!, element.element, computation.deliveryCents[i]!);
  return { element, money };
}

function repriceWith(
  session: PricingSession,
  brief: BriefInput,
  arrayIndex: number,
  change: (input: BriefElementInput) => BriefElementInput,
  changeBrief?: (brief: BriefInput) => BriefInput,
): BriefComputation | null {
  const changed: BriefInput = {
    ...brief,
    briefElements: brief.briefElements.map((e, i) => (i === arrayIndex ? change(e) : e)),
  };
  return computeBrief(session, changeBrief ? changeBrief(changed) : changed).computation;
}

function priceCandidate(
  session: PricingSession,
  brief: BriefInput,
  baseline: Baseline,
  element: ResolvedElement,
  candidate: Candidate,
  savingOn: 'unit' | 'total',
): PricedChange | null {
  const changed = repriceWith(session, brief, element.arrayIndex, candidate.apply, candidate.applyBrief);
  if (!changed) return null;
  const before = elementPriceIn(baseline.computation, element.position);
  const after = elementPriceIn(changed, element.position);
  const promised = candidate.promise ? candidate.promise(after.element) : candidate.description;
  if (promised === null) return null;
  const totalSaving = fromCents(before.money.totalCents - after.money.totalCents);
  const unitPriceSaving = round4(before.money.unitPrice - after.money.unitPrice);
  const savingPercent =
    savingOn === 'unit'
      ? round1((unitPriceSaving / before.money.unitPrice) * 100)
      : round1(((before.money.totalCents - after.money.totalCents) / before.money.totalCents) * 100);
  return {
    description: promised,
    changes: candidate.changes,
    quantity: after.element.element.quantity,
    unitPrice: after.money.unitPrice,
    totalPrice: fromCents(after.money.totalCents),
    briefTotalPrice: fromCents(briefTotalCents(changed)),
    unitPriceSaving,
    totalSaving,
    savingPercent,
  };
}

function proposal(
  type: OptimisationType,
  priced: PricedChange[],
  savingOn: 'unit' | 'total',
  none: string,
): OptimisationProposal {
  const key = (p: PricedChange) => (savingOn === 'unit' ? p.unitPriceSaving : p.totalSaving);
  const sorted = [...priced].sort((a, b) => key(b) - key(a));
  const best = sorted[0];
  if (!best || key(best) <= 0) {
    return {
      type,
      applies: false,
      description: best ? `${none}; best tried: ${best.description}` : none,
      changes: [],
      alternatives: sorted,
    };
  }
  return { type, applies: true, ...best, alternatives: sorted.slice(1) };
}

function scaledDecorations(element: ResolvedElement, factor: number): DecorationCount[] {
  return element.decorations.map((d) => ({
    decorationIndex: d.decorationIndex,
    quantity: Math.max(1, Math.round(d.quantity * factor)),
  }));
}

function withDecorations(decorations: DecorationCount[]) {
  return (e: BriefElementInput): BriefElementInput => ({ ...e, decorationsCount: decorations });
}

function analyseElement(
  session: PricingSession,
  brief: BriefInput,
  baseline: Baseline,
  elementComputation: ElementComputation,
  deliveryCents: number,
): ElementValueAnalysis {
  const catalogue = session.index.catalogue;
  const { element } = elementComputation;
  const selected = elementComputation.variants[0]!;
  const money = variantMoney(selected, element, deliveryCents);
  const base = `/briefElements/${element.arrayIndex}`;

  // Cost shares by stage (same grouping as costSummary).
  const groups: [string, string, number][] = [
    ['materials', 'Board & materials', money.categoryCents.materials],
    ['printing', 'Printing', money.categoryCents.printing],
    ['finishing', 'Finishing', money.categoryCents.finishing],
    ['converting', 'Cutting & converting', money.categoryCents.converting],
    ['packing', 'Packing', money.categoryCents.packing],
    ['margin', 'Margin', money.marginCents],
    ['tooling', 'Tooling', money.toolingCents],
    ['delivery', 'Delivery', money.deliveryCents],
  ];
  const costShares = groups.map(([key, label, cents]) => ({
    key,
    label,
    amount: fromCents(cents),
    sharePercent: money.totalCents > 0 ? round1((cents / money.totalCents) * 100) : 0,
  }));

  // Unit-price curve.
  const quantityCurve: QuantityPoint[] = [];
  for (const factor of [...catalogue.settings.valueAnalysis.quantityCurveFactors].sort((a, b) => a - b)) {
    const decorations = scaledDecorations(element, factor);
    const changed =
      factor === 1
        ? baseline.computation
        : repriceWith(session, brief, element.arrayIndex, withDecorations(decorations));
    if (!changed) continue;
    const point = elementPriceIn(changed, element.position);
    const route = point.element.variants[0]!;
    quantityCurve.push({
      quantity: point.element.element.quantity,
      unitPrice: point.money.unitPrice,
      totalPrice: fromCents(point.money.totalCents),
      printingProcess: route.plan.process,
      variantKey: route.plan.key,
      layoutCount: route.plan.imposition.ups,
    });
  }

  // INCREASE_QUANTITY: the exact break, priced.
  const found = priceBreak(elementComputation, catalogue);
  const quantityPriced: PricedChange[] = [];
  if (found) {
    const priced = priceCandidate(
      session,
      brief,
      baseline,
      element,
      {
        description: `order ${found.decorations.reduce((s, d) => s + d.quantity, 0)} instead of ${element.quantity} (each variant rounded up to whole sheets)`,
        changes: [
          {
            pointer: `${base}/decorationsCount`,
            field: 'decorationsCount',
            from: element.decorations,
            to: found.decorations,
          },
        ],
        apply: withDecorations(found.decorations),
      },
      'unit',
    );
    if (priced) quantityPriced.push(priced);
  }
  const quantityProposal = proposal(
    'INCREASE_QUANTITY',
    quantityPriced,
    'unit',
    'no price break within the quantity curve',
  );
  const nextPriceBreak =
    found && quantityProposal.applies
      ? {
          quantity: quantityProposal.quantity!,
          unitPrice: quantityProposal.unitPrice!,
          unitSavingPercent: quantityProposal.savingPercent!,
          decorationsCount: found.decorations,
        }
      : null;

  const materials = comparableBoards(catalogue, element)
    .slice(0, 5)
    .map((r) =>
      priceCandidate(
        session,
        brief,
        baseline,
        element,
        materialCandidate(element, r, catalogue.settings.valueAnalysis.grammageTolerance),
        'total',
      ),
    )
    .filter((p): p is PricedChange => p !== null);
  const finishing = finishingCandidates(element)
    .map((c) => priceCandidate(session, brief, baseline, element, c, 'total'))
    .filter((p): p is PricedChange => p !== null);
  const dimensions = dimensionCandidates(session, elementComputation, true)
    .map((c) => priceCandidate(session, brief, baseline, element, c, 'total'))
    .filter((p): p is PricedChange => p !== null);

  const bundle = bundleCandidate(catalogue, brief, elementComputation);
  const bundling = bundle ? [priceCandidate(session, brief, baseline, element, bundle, 'total')] : [];
  const routes = routeCandidates(element)
    .map((c) => priceCandidate(session, brief, baseline, element, c, 'total'))
    .filter((p): p is PricedChange => p !== null);

  const decorations = nextPriceBreak?.decorationsCount ?? element.decorations.map((d) => ({ ...d }));
  return {
    position: element.position,
    quantity: element.quantity,
    unitPrice: money.unitPrice,
    totalPrice: fromCents(money.totalCents),
    costShares,
    optimisations: [
      quantityProposal,
      proposal('CHANGE_MATERIAL', materials, 'total', 'no cheaper comparable board in the catalogue'),
      proposal('SIMPLIFY_FINISHING', finishing, 'total', 'no finish to simplify'),
      proposal(
        'ADJUST_DIMENSIONS',
        dimensions,
        'total',
        'no small dimension change fits more ups on the sheet',
      ),
      proposal(
        'BUNDLE_PACKING',
        bundling.filter((p): p is PricedChange => p !== null),
        'total',
        bundle ? 'strapped bundles cost no less than shipping cases here' : 'already packed in bundles',
      ),
      proposal(
        'CHEAPER_TOTAL_ROUTE',
        routes,
        'total',
        element.input.printingProcess
          ? `no other process is cheaper in total than the ${element.input.printingProcess} the brief asks for`
          : `the selected route is already the cheapest total of the ${elementComputation.routes.length} routes costed`,
      ),
      gangRunProposal(elementComputation, deliveryCents, baseline.totalCents),
    ],
    quantityCurve,
    nextPriceBreak,
    optimisationQuantity: decorations.reduce((s, d) => s + d.quantity, 0),
    optimiseProductQuantityPerDecoration: decorations,
  };
}

export function analyseBriefValue(brief: BriefInput, catalogue: Catalogue): ValueAnalysis {
  const session = createSession(catalogue);
  const { issues, computation } = computeBrief(session, brief);
  if (!computation) throw new PricingError('INVALID_BRIEF', issues);
  const baseline: Baseline = { computation, totalCents: briefTotalCents(computation) };
  const elements = computation.elements.map((e, i) =>
    analyseElement(session, brief, baseline, e, computation.deliveryCents[i]!),
  );
  let bestSaving: ValueAnalysis['bestSaving'] = null;
  for (const element of elements) {
    for (const o of element.optimisations) {
      if (!o.applies || o.alreadyApplied || o.type === 'INCREASE_QUANTITY' || o.totalSaving === undefined)
        continue;
      if (!bestSaving || o.totalSaving > bestSaving.totalSaving) {
        bestSaving = { position: element.position, type: o.type, totalSaving: o.totalSaving };
      }
    }
  }
  return {
    currency: catalogue.settings.currency,
    totalPrice: fromCents(baseline.totalCents),
    elements,
    bestSaving,
  };
}
