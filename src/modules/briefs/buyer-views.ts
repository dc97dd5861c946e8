/**
 * The buyer's view of a brief (every role without `costs:read`: contacts, guests, external sales):
 * prices, unit prices, tooling, delivery, lead time, the specification and the drawings; never the
 * seller's costs, margins, cost shares, operations' times and costs, or the losing variants'
 * ranking. Each view is built from an allowlist of the seller's view (platform/audience.ts).
 */

import { pick } from '../../platform/audience.ts';
import type {
  BriefComputed,
  BriefElementComputed,
  BriefPrice,
  PredictionOperation,
  PredictionRequestComputed,
  ValueAnalysis,
} from '../../pricing/index.ts';

type Obj = Record<string, unknown>;

/** Brief (and list item) fields a buyer sees: all but the commercial margin. */
const BRIEF_FIELDS = [
  'id',
  'organisationId',
  'code',
  'name',
  'projectId',
  'companyId',
  'project',
  'company',
  'statusId',
  'status',
  'predictionStatus',
  'hasPrice',
  'failureReason',
  'packingType',
  'palletType',
  'deliveryZoneId',
  'currentVersion',
  'totalPrice',
  'currency',
  'pricedAt',
  'elementsCount',
  'createdById',
  'createdAt',
  'updatedAt',
] as const;

/** Element fields a buyer sees: its specification and price, not its margin. */
const ELEMENT_FIELDS = [
  'id',
  'briefId',
  'position',
  'productCategoryId',
  'productId',
  'lengthDimension',
  'widthDimension',
  'heightDimension',
  'matterId',
  'materialTypeId',
  'materialReferenceId',
  'grammage',
  'corrugatedMaterialId',
  'externalId',
  'decorationsCount',
  'quantity',
  'wantDecoration',
  'sidePrinted',
  'rectoColorCount',
  'versoColorCount',
  'inkCoverage',
  'printingProcess',
  'wantLaminationRecto',
  'wantVarnishRecto',
  'wantStampingRecto',
  'hotStampings',
  'wantEmbossingDebossingRecto',
  'embossings',
  'wantWindow',
  'windowWidth',
  'windowHeight',
  'layoutCounts',
  'briefElementPrice',
  'createdById',
  'createdAt',
  'updatedAt',
] as const;

/** Prediction totals a buyer sees: what they pay, not what it costs. */
const SUMMARY_FIELDS = [
  'id',
  'version',
  'currency',
  'totalPrice',
  'productPrice',
  'toolingCost',
  'deliveryCost',
  'productionTime',
  'processCount',
  'quantity',
  'createdAt',
] as const;

const PRICE_FIELDS = [
  'currency',
  'totalPrice',
  'productPrice',
  'toolingCost',
  'deliveryCost',
  'productionTime',
  'processCount',
  // Issue 30: days and hours, no money.
  'leadTime',
] as const;

/** What a step of the process shows a buyer: what is done, on what, in what quantity; no times or costs. */
const OPERATION_FIELDS = [
  'position',
  'partNumber',
  'operation',
  'machine',
  'decorationIndex',
  'side',
  'pass',
  'inline',
  'sheetQuantity',
  'sheetWidth',
  'sheetHeight',
  'packages',
  'unitsPerPackage',
  'packagingKind',
  'pallets',
  'packagesPerPallet',
  'trucks',
  'palletsPerTruck',
  'layout',
  'ups',
  'gridUps',
  'lifts',
  'cutsPerLift',
  'cuts',
] as const satisfies readonly (keyof PredictionOperation)[];

/** A process variant as a buyer sees it: its route, sheet, layout and price, not its cost or ranking. */
const VARIANT_FIELDS = [
  'id',
  'predictionRequestId',
  'position',
  'variantKey',
  'rank',
  'selected',
  'printingProcess',
  'unitPrice',
  'toolingCost',
  'deliveryCost',
  'productPrice',
  'totalPrice',
  'quantity',
  'productionTime',
  'partsCount',
  'parts',
  'productIds',
  'sheetSizeWidth',
  'sheetSizeHeight',
  'layoutCount',
  'sheetUtilisation',
  'netSheets',
  'gang',
  'decorations',
  'predictedThousandPrice',
  'imposition',
  // Issue 30: the lead time as a breakdown holds days and hours, no money: a buyer sees it.
  'leadTime',
] as const;

const ELEMENT_COMPUTED_FIELDS = [
  'position',
  'productId',
  'productCode',
  'cadKey',
  'flatPackSurface',
  'cad',
  'dieLine',
  'decorationSummary',
  'finishing',
  'packing',
] as const satisfies readonly (keyof BriefElementComputed)[];

const MATERIAL_FIELDS = [
  'matterId',
  'materialTypeId',
  'materialReferenceId',
  'corrugatedMaterialId',
  'grammage',
  'caliperMm',
] as const;

const PRODUCTION_FIELDS = [
  'selectedVariantKey',
  'printingProcess',
  'sheetSizeWidth',
  'sheetSizeHeight',
  'layoutCount',
  'productionTime',
] as const;

export const buyerListItem = (item: Obj) => pick(item, BRIEF_FIELDS as readonly string[]);
export const buyerElement = (element: Obj) => pick(element, ELEMENT_FIELDS as readonly string[]);
export const buyerSummary = (summary: Obj | null) =>
  summary ? pick(summary, SUMMARY_FIELDS as readonly string[]) : null;

/** GET /briefs/:id, and the answers of create and update. */
export function buyerBrief(brief: Obj & { briefElements: Obj[]; prediction: Obj | null }) {
  return {
    ...buyerListItem(brief),
    briefElements: brief.briefElements.map(buyerElement),
    prediction: buyerSummary(brief.prediction),
    briefElementPrices: brief.briefElementPrices,
  };
}

export const buyerOperation = (operation: Obj) => pick(operation, OPERATION_FIELDS as readonly string[]);

function buyerVariant(variant: PredictionRequestComputed | Obj) {
  const v = variant as Obj & { operations?: Obj[] };
  return {
    ...pick(v, VARIANT_FIELDS as readonly string[]),
    operations: (v.operations ?? []).map(buyerOperation),
  };
}

function buyerElementComputed(element: BriefElementComputed) {
  return {
    ...pick(element, ELEMENT_COMPUTED_FIELDS),
    material: pick(element.material, MATERIAL_FIELDS),
    production: pick(element.production, PRODUCTION_FIELDS),
    // What delivery is charged is in the prices (briefPrice.deliveryCost, the panel's elements).
    delivery: pick(element.delivery, ['pallets']),
  };
}

export const buyerComputed = (computed: BriefComputed | null) =>
  computed
    ? {
        briefElements: computed.briefElements.map(buyerElementComputed),
        packing: computed.packing,
        delivery: pick(computed.delivery, ['zone', 'pallets', 'minimumApplied']),
      }
    : null;

export const buyerPrice = (price: BriefPrice | null) => (price ? pick(price, PRICE_FIELDS) : null);

/** GET /briefs/:id/details. */
export function buyerDetails(
  details: Obj & {
    briefElements: Obj[];
    prediction: Obj | null;
    briefComputed: BriefComputed | null;
    briefPrice: BriefPrice | null;
  },
) {
  return {
    ...buyerBrief(details),
    briefComputed: buyerComputed(details.briefComputed),
    briefPrice: buyerPrice(details.briefPrice),
    briefElementPrices: details.briefElementPrices,
  };
}

/** GET /briefs/:id/process/:i: the selected route and its steps; the other variants by price. */
export function buyerProcess(process: Obj & { otherVariants: Obj[]; operations: Obj[] }) {
  const operations = process.operations.map(buyerOperation);
  const parts = new Map<number, Obj[]>();
  for (const operation of operations) {
    const part = operation.partNumber as number;
    parts.set(part, [...(parts.get(part) ?? []), operation]);
  }
  return {
    ...buyerVariant(process),
    briefId: process.briefId,
    version: process.version,
    operations,
    predictionOperationSequence: operations,
    operationsByPart: [...parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([partNumber, ops]) => ({ partNumber, operations: ops })),
    otherVariants: process.otherVariants.map(buyerVariant),
  };
}

const PRICED_CHANGE_FIELDS = [
  'description',
  'changes',
  'quantity',
  'unitPrice',
  'totalPrice',
  'briefTotalPrice',
  'unitPriceSaving',
  'totalSaving',
  'savingPercent',
] as const;

/** GET /briefs/:id/value-analysis: the savings, each priced, and the price curve; not the cost shares. */
export function buyerValueAnalysis(
  analysis: ValueAnalysis & { briefId: string; version: number; predictionId: string },
) {
  return {
    briefId: analysis.briefId,
    version: analysis.version,
    predictionId: analysis.predictionId,
    currency: analysis.currency,
    totalPrice: analysis.totalPrice,
    bestSaving: analysis.bestSaving,
    elements: analysis.elements.map((element) => ({
      ...pick(element, [
        'position',
        'quantity',
        'unitPrice',
        'totalPrice',
        'quantityCurve',
        'nextPriceBreak',
        'optimisationQuantity',
        'optimiseProductQuantityPerDecoration',
      ]),
      optimisations: element.optimisations.map((o) => ({
        ...pick(o, ['type', 'applies', 'alreadyApplied', ...PRICED_CHANGE_FIELDS]),
        alternatives: o.alternatives.map((a) => pick(a, PRICED_CHANGE_FIELDS)),
      })),
    })),
  };
}

/** GET /briefs/:id/prediction-panel and the estimate: totals without cost or margin, no breakdown. */
export function buyerPanel<P extends { totals: Obj; breakdown?: unknown }>(panel: P) {
  const { breakdown: _breakdown, totals, ...rest } = panel;
  return {
    ...rest,
    totals: pick(totals, ['totalPrice', 'productPrice', 'toolingCost', 'deliveryCost']),
  };
}

/** POST /briefs/estimate. */
export function buyerEstimate<
  E extends {
    totals: Obj;
    breakdown?: unknown;
    elements: (Obj & { operations: Obj[]; costShares?: unknown })[];
  },
>(estimate: E) {
  const panel = buyerPanel(estimate);
  return {
    ...panel,
    elements: estimate.elements.map(({ costShares: _shares, operations, ...element }) => ({
      ...element,
      operations: operations.map(buyerOperation),
    })),
  };
}

/** The request a version priced, without the margin lever (brief and elements). */
function buyerInput(input: Obj) {
  const { commercialMargin: _m, briefElements, ...rest } = input as Obj & { briefElements?: Obj[] };
  return {
    ...rest,
    briefElements: (briefElements ?? []).map(({ commercialMargin: _em, ...element }) => element),
  };
}

/** GET /briefs/:id/predictions. */
export function buyerVersions(versions: { briefId: string; currentVersion: number | null; data: Obj[] }) {
  return {
    ...versions,
    data: versions.data.map((version) => ({
      ...buyerSummary(version),
      createdBy: version.createdBy,
      input: buyerInput(version.input as Obj),
    })),
  };
}
