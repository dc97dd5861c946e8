/**
 * Response shapes of the briefs module, built from rows and stored predictions.
 */
import type { BriefPrediction, ValueAnalysis } from '../../pricing/index.ts';
import type { LeadTimeBreakdown } from '../../pricing/lead-time.ts';
import { type BriefRow, type ElementRow, presentElement, type StoredVariant } from './mapping.ts';
import type { PredictionSummaryRow } from './repository.ts';

export type Refs = {
  project: { id: string; name: string; companyId: string } | null;
  company?: { id: string; name: string } | null;
  status?: { id: string; internalLabel: string; externalLabel: string } | null;
};

export function presentListItem(row: BriefRow, refs: Refs) {
  return {
    id: row.id,
    organisationId: row.organisationId,
    code: row.code,
    name: row.name,
    projectId: row.projectId,
    companyId: row.companyId,
    project: refs.project?.id ? refs.project : null,
    company: refs.company?.id ? refs.company : null,
    statusId: row.statusId,
    status: refs.status?.id ? refs.status : null,
    predictionStatus: row.predictionStatus,
    hasPrice: row.hasPrice,
    failureReason: row.failureReason,
    packingType: row.packingType,
    palletType: row.palletType,
    deliveryZoneId: row.deliveryZoneId,
    commercialMargin: row.commercialMargin,
    currentVersion: row.currentVersion,
    totalPrice: row.totalPrice,
    currency: row.currency,
    pricedAt: row.pricedAt,
    elementsCount: row.elementsCount,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function presentSummary(row: PredictionSummaryRow) {
  return {
    id: row.id,
    version: row.version,
    currency: row.currency,
    totalPrice: row.totalPrice,
    productCost: row.productCost,
    productPrice: row.productPrice,
    marginAmount: row.marginAmount,
    toolingCost: row.toolingCost,
    deliveryCost: row.deliveryCost,
    productionTime: row.productionTime,
    processCount: row.processCount,
    commercialMargin: row.commercialMargin,
    commercialMarginInitial: row.commercialMarginInitial,
    quantity: row.quantity,
    createdAt: row.createdAt,
  };
}

export function presentBrief(
  row: BriefRow,
  refs: Refs,
  elements: ElementRow[],
  prediction: PredictionSummaryRow | null | undefined,
) {
  const current = elements.filter((e) => e.predictionId && e.predictionId === row.currentPredictionId);
  return {
    ...presentListItem(row, refs),
    briefElements: elements.map((e) => presentElement(e, row.currency)),
    prediction: prediction ? presentSummary(prediction) : null,
    briefElementPrices: current.map((e) => ({
      position: e.position,
      unitPrice: e.unitPrice!,
      quantity: e.quantity,
      totalPrice: e.totalPrice!,
    })),
  };
}

export type PresentedBrief = ReturnType<typeof presentBrief>;

/** The variants of one element in a stored prediction, cheapest first. */
export function variantsOf(output: BriefPrediction, position: number): StoredVariant[] {
  return (output.briefPrice.predictionRequestsComputed as StoredVariant[])
    .filter((v) => v.position === position)
    .sort((a, b) => a.rank - b.rank);
}

function withSequence(variant: StoredVariant) {
  const sequence = [...variant.operations].sort((a, b) => a.position - b.position);
  const parts = new Map<number, typeof sequence>();
  for (const operation of sequence) {
    const list = parts.get(operation.partNumber) ?? [];
    list.push(operation);
    parts.set(operation.partNumber, list);
  }
  return {
    ...variant,
    operations: sequence,
    predictionOperationSequence: sequence,
    operationsByPart: [...parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([partNumber, operations]) => ({ partNumber, operations })),
  };
}

/** GET /briefs/:id/process/:elementIndex: the selected variant with its sequence, and the others. */
export function presentProcess(briefId: string, version: number, variants: StoredVariant[]) {
  const selected = variants.find((v) => v.selected) ?? variants[0]!;
  return {
    ...withSequence(selected),
    briefId,
    version,
    otherVariants: variants.filter((v) => v !== selected).map(withSequence),
  };
}

/** Hours of one working day (one shift) used to turn machine hours into a lead time. */
export const HOURS_PER_WORKING_DAY = 8;

/**
 * The lead time shown: the engine's breakdown (issue 30: board, tooling, queue, operations,
 * transport) when the prediction has one; machine hours in working days for predictions stored
 * before it existed.
 */
const leadTime = (hours: number, breakdown: LeadTimeBreakdown | undefined) =>
  breakdown
    ? {
        productionHours: hours,
        workingDays: breakdown.workingDays,
        hoursPerWorkingDay: breakdown.hoursPerWorkingDay,
        steps: breakdown,
      }
    : {
        productionHours: hours,
        workingDays: Math.max(1, Math.ceil(hours / HOURS_PER_WORKING_DAY - 1e-9)),
        hoursPerWorkingDay: HOURS_PER_WORKING_DAY,
        steps: null,
      };

/**
 * Whether the prices include delivery (issue 30): without a zone the brief is priced ex works and
 * `deliveryCost` 0 means "not included", not "free". Read from the zone, so predictions stored
 * before the engine said it (`briefComputed.delivery.included`) answer the same.
 */
export function deliveryOf(output: BriefPrediction) {
  const zone = output.briefComputed.delivery.zone;
  return {
    included: zone !== null,
    reason: zone === null ? ('NO_DELIVERY_ZONE' as const) : null,
    zone,
    pallets: output.briefComputed.delivery.pallets,
  };
}

const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};

/** GET /briefs/:id/prediction-panel: what a buyer's screen shows. */
export function presentPanel(
  brief: Pick<BriefRow, 'id' | 'code' | 'name'>,
  prediction: { id: string; version: number; createdAt: Date; output: BriefPrediction },
  analysis: ValueAnalysis,
) {
  const { output } = prediction;
  const price = output.briefPrice;
  const quantity = output.briefElementPrices.reduce((sum, e) => sum + e.quantity, 0);
  const unitPrice = quantity ? round(price.productPrice / quantity, 4) : 0;
  const elements = output.briefComputed.briefElements.map((computed) => {
    const elementPrice = output.briefElementPrices.find((p) => p.position === computed.position)!;
    const variants = variantsOf(output, computed.position);
    const selected = variants.find((v) => v.selected) ?? variants[0]!;
    const analysed = analysis.elements.find((e) => e.position === computed.position);
    return {
      position: computed.position,
      productId: computed.productId,
      productCode: computed.productCode,
      quantity: elementPrice.quantity,
      unitPrice: elementPrice.unitPrice,
      pricePerThousand: round(elementPrice.unitPrice * 1000, 2),
      totalPrice: elementPrice.totalPrice,
      toolingCost: selected.toolingCost,
      deliveryCost: selected.deliveryCost,
      printingProcess: computed.production.printingProcess,
      variantKey: computed.production.selectedVariantKey,
      variants: variants.length,
      sheet: { width: computed.production.sheetSizeWidth, height: computed.production.sheetSizeHeight },
      layoutCount: computed.production.layoutCount,
      sheetUtilisation: computed.production.sheetUtilisation,
      leadTime: leadTime(computed.production.productionTime, selected.leadTime),
      quantityCurve: (analysed?.quantityCurve ?? []).map((point) => ({
        factor: elementPrice.quantity ? round(point.quantity / elementPrice.quantity, 2) : 0,
        quantity: point.quantity,
        unitPrice: point.unitPrice,
        totalPrice: point.totalPrice,
      })),
      nextPriceBreak: analysed?.nextPriceBreak ?? null,
    };
  });
  // The brief at each factor: the elements' points of the same rank added up.
  const points = Math.min(...elements.map((e) => e.quantityCurve.length));
  const quantityCurve = Number.isFinite(points)
    ? Array.from({ length: points }, (_, k) => {
        const q = elements.reduce((sum, e) => sum + e.quantityCurve[k]!.quantity, 0);
        const total = round(
          elements.reduce((sum, e) => sum + e.quantityCurve[k]!.totalPrice, 0),
          2,
        );
        return {
          factor: elements[0]!.quantityCurve[k]!.factor,
          quantity: q,
          unitPrice: q ? round(total / q, 4) : 0,
          totalPrice: total,
        };
      })
    : [];
  const optimisations = analysis.elements
    .flatMap((element) =>
      element.optimisations
        .filter((o) => o.applies && (o.totalSaving ?? 0) > 0)
        .map((o) => ({
          position: element.position,
          type: o.type,
          description: o.description,
          totalSaving: o.totalSaving ?? 0,
          savingPercent: o.savingPercent ?? 0,
        })),
    )
    .sort((a, b) => b.totalSaving - a.totalSaving);
  return {
    briefId: brief.id,
    code: brief.code,
    name: brief.name,
    version: prediction.version,
    predictionId: prediction.id,
    pricedAt: prediction.createdAt,
    currency: output.currency,
    totals: {
      totalPrice: price.totalPrice,
      productPrice: price.productPrice,
      productCost: price.productCost,
      marginAmount: price.marginAmount,
      marginPercentage: price.costBreakdown.marginPercentage,
      toolingCost: price.toolingCost,
      deliveryCost: price.deliveryCost,
    },
    delivery: deliveryOf(output),
    quantity,
    unitPrice,
    allInUnitPrice: quantity ? round(price.totalPrice / quantity, 4) : 0,
    pricePerThousand: round(unitPrice * 1000, 2),
    leadTime: leadTime(price.productionTime, price.leadTime),
    breakdown: {
      chart: 'doughnut',
      total: price.totalPrice,
      segments: price.costSummary.groups,
      natures: price.costSummary.natures,
    },
    quantityCurve,
    elements,
    optimisations,
  };
}
