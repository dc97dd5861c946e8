/**
 * Conversions between the API's element payloads, the brief_elements rows and the engine input.
 */
import type { briefElements, briefPredictions, briefs } from '../../db/schema/briefs.ts';
import type {
  BriefElementInput,
  BriefInput,
  BriefPrediction,
  PredictionRequestComputed,
} from '../../pricing/index.ts';
import type { StandaloneElementBody } from './schemas.ts';

export type BriefRow = typeof briefs.$inferSelect;
export type ElementRow = typeof briefElements.$inferSelect;
export type ElementValues = Omit<
  typeof briefElements.$inferInsert,
  'id' | 'organisationId' | 'briefId' | 'createdById' | 'createdAt' | 'updatedAt' | 'deletedAt'
>;
export type PredictionRow = typeof briefPredictions.$inferSelect;

/** The stored form of a variant: the engine's, with the ids and timestamps of the spec. */
export type StoredVariant = PredictionRequestComputed & {
  id: string;
  predictionRequestId: string;
  createdAt: string;
  updatedAt: string;
};

/** The spec fields of an element payload as column values (every column, so a PUT replaces all). */
export function elementValues(input: StandaloneElementBody & { position?: number }): ElementValues {
  const decorations = input.decorationsCount ?? [];
  return {
    position: input.position ?? 0,
    productCategoryId: input.productCategoryId ?? null,
    productId: input.productId ?? null,
    lengthDimension: input.lengthDimension ?? null,
    widthDimension: input.widthDimension ?? null,
    heightDimension: input.heightDimension ?? null,
    matterId: input.matterId ?? null,
    materialTypeId: input.materialTypeId ?? null,
    materialReferenceId: input.materialReferenceId ?? null,
    grammage: input.grammage ?? null,
    corrugatedMaterialId: input.corrugatedMaterialId ?? null,
    decorationsCount: decorations.map((d) => ({
      decorationIndex: d.decorationIndex,
      quantity: d.quantity,
      ...(d.name?.trim() ? { name: d.name.trim() } : {}),
      ...(d.artworkReference?.trim() ? { artworkReference: d.artworkReference.trim() } : {}),
    })),
    quantity: decorations.reduce((sum, d) => sum + d.quantity, 0),
    wantDecoration: input.wantDecoration ?? false,
    sidePrinted: input.sidePrinted ?? null,
    rectoColorCount: input.rectoColorCount ?? null,
    versoColorCount: input.versoColorCount ?? null,
    inkCoverage: input.inkCoverage ?? null,
    printingProcess: input.printingProcess ?? null,
    wantLaminationRecto: input.wantLaminationRecto ?? false,
    wantVarnishRecto: input.wantVarnishRecto ?? false,
    wantStampingRecto: input.wantStampingRecto ?? false,
    hotStampings: input.hotStampings ?? [],
    wantEmbossingDebossingRecto: input.wantEmbossingDebossingRecto ?? false,
    embossings: input.embossings ?? [],
    wantWindow: input.wantWindow ?? false,
    windowWidth: input.windowWidth ?? null,
    windowHeight: input.windowHeight ?? null,
    layoutCounts: input.layoutCounts ?? [],
    commercialMargin: input.commercialMargin ?? null,
  };
}

const opt = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** What the engine prices for one element (optional fields left out when unset). */
export function engineElement(values: ElementValues, position: number): BriefElementInput {
  const element: BriefElementInput = {
    position,
    productId: values.productId ?? '',
    productCategoryId: opt(values.productCategoryId),
    lengthDimension: values.lengthDimension ?? 0,
    widthDimension: values.widthDimension ?? 0,
    heightDimension: values.heightDimension ?? 0,
    matterId: opt(values.matterId),
    materialTypeId: opt(values.materialTypeId),
    materialReferenceId: values.materialReferenceId ?? '',
    grammage: opt(values.grammage),
    corrugatedMaterialId: opt(values.corrugatedMaterialId),
    // The engine prices quantities per variant; names and artwork references are the brief's.
    decorationsCount: (values.decorationsCount ?? []).map((d) => ({
      decorationIndex: d.decorationIndex,
      quantity: d.quantity,
    })),
    wantDecoration: values.wantDecoration ?? false,
    sidePrinted: opt(values.sidePrinted),
    rectoColorCount: opt(values.rectoColorCount),
    versoColorCount: opt(values.versoColorCount),
    inkCoverage: opt(values.inkCoverage),
    printingProcess: opt(values.printingProcess),
    wantLaminationRecto: values.wantLaminationRecto ?? false,
    wantVarnishRecto: values.wantVarnishRecto ?? false,
    wantStampingRecto: values.wantStampingRecto ?? false,
    hotStampings: values.hotStampings?.length ? values.hotStampings : undefined,
    wantEmbossingDebossingRecto: values.wantEmbossingDebossingRecto ?? false,
    embossings: values.embossings?.length ? values.embossings : undefined,
    wantWindow: values.wantWindow ?? false,
    windowWidth: opt(values.windowWidth),
    windowHeight: opt(values.windowHeight),
    layoutCounts: values.layoutCounts?.length ? values.layoutCounts : undefined,
    commercialMargin: opt(values.commercialMargin),
  };
  for (const key of Object.keys(element) as (keyof BriefElementInput)[]) {
    if (element[key] === undefined) delete element[key];
  }
  return element;
}

/** Whether a standalone element has what pricing needs (else it is stored unpriced). */
export function isPriceable(values: ElementValues): boolean {
  return Boolean(
    values.productId &&
      values.materialReferenceId &&
      values.lengthDimension &&
      values.widthDimension &&
      values.decorationsCount?.length,
  );
}

/** The engine input of a brief: its pricing fields and its elements by position. */
export function engineBrief(
  brief: Pick<BriefRow, 'name' | 'packingType' | 'palletType' | 'deliveryZoneId' | 'commercialMargin'>,
  elements: ElementValues[],
): BriefInput {
  const input: BriefInput = {
    name: brief.name,
    packingType: brief.packingType,
    palletType: brief.palletType,
    briefElements: [...elements]
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((e) => engineElement(e, e.position ?? 0)),
  };
  if (brief.deliveryZoneId) input.deliveryZoneId = brief.deliveryZoneId;
  if (brief.commercialMargin !== null && brief.commercialMargin !== undefined) {
    input.commercialMargin = brief.commercialMargin;
  }
  return input;
}

/** The summary columns of a prediction row, from the engine output. */
export function predictionTotals(output: BriefPrediction) {
  const price = output.briefPrice;
  return {
    currency: output.currency,
    totalPrice: price.totalPrice,
    productCost: price.productCost,
    productPrice: price.productPrice,
    marginAmount: price.marginAmount,
    toolingCost: price.toolingCost,
    deliveryCost: price.deliveryCost,
    productionTime: price.productionTime,
    processCount: price.processCount,
    commercialMargin: price.commercialMargin,
    commercialMarginInitial: price.commercialMarginInitial,
    quantity: output.briefElementPrices.reduce((sum, e) => sum + e.quantity, 0),
  };
}

/** Gives every variant the spec's identity: its own id and the prediction (BriefPrice) id. */
export function withVariantIds(output: BriefPrediction, predictionId: string, at: Date, newId: () => string) {
  const stamp = at.toISOString();
  for (const variant of output.briefPrice.predictionRequestsComputed as StoredVariant[]) {
    variant.id = newId();
    variant.predictionRequestId = predictionId;
    variant.createdAt = stamp;
    variant.updatedAt = stamp;
  }
  return output;
}

export const CODE_PREFIX = 'B-';
export const briefCode = (n: number) => `${CODE_PREFIX}${String(n).padStart(6, '0')}`;

export function presentElement(row: ElementRow, currency: string | null) {
  return {
    id: row.id,
    briefId: row.briefId,
    position: row.position,
    productCategoryId: row.productCategoryId,
    productId: row.productId,
    lengthDimension: row.lengthDimension,
    widthDimension: row.widthDimension,
    heightDimension: row.heightDimension,
    matterId: row.matterId,
    materialTypeId: row.materialTypeId,
    materialReferenceId: row.materialReferenceId,
    grammage: row.grammage,
    corrugatedMaterialId: row.corrugatedMaterialId,
    decorationsCount: row.decorationsCount,
    quantity: row.quantity,
    wantDecoration: row.wantDecoration,
    sidePrinted: row.sidePrinted,
    rectoColorCount: row.rectoColorCount,
    versoColorCount: row.versoColorCount,
    inkCoverage: row.inkCoverage,
    printingProcess: row.printingProcess,
    wantLaminationRecto: row.wantLaminationRecto,
    wantVarnishRecto: row.wantVarnishRecto,
    wantStampingRecto: row.wantStampingRecto,
    hotStampings: row.hotStampings,
    wantEmbossingDebossingRecto: row.wantEmbossingDebossingRecto,
    embossings: row.embossings,
    wantWindow: row.wantWindow,
    windowWidth: row.windowWidth,
    windowHeight: row.windowHeight,
    layoutCounts: row.layoutCounts,
    commercialMargin: row.commercialMargin,
    externalId: row.externalId ?? null,
    briefElementPrice:
      row.unitPrice !== null && row.totalPrice !== null && row.predictionId && row.pricedAt
        ? {
            unitPrice: row.unitPrice,
            quantity: row.quantity,
            totalPrice: row.totalPrice,
            currency: currency ?? 'EUR',
            predictionId: row.predictionId,
            pricedAt: row.pricedAt,
          }
        : null,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type PresentedElement = ReturnType<typeof presentElement>;

/** The element fields compared to tell whether a PUT changed an element. */
export function sameSpec(row: ElementRow, values: ElementValues): boolean {
  for (const [key, value] of Object.entries(values)) {
    if (JSON.stringify(row[key as keyof ElementRow] ?? null) !== JSON.stringify(value ?? null)) return false;
  }
  return true;
}

export function changedSpecFields(row: ElementRow, values: ElementValues): string[] {
  return Object.entries(values)
    .filter(
      ([key, value]) =>
        JSON.stringify(row[key as keyof ElementRow] ?? null) !== JSON.stringify(value ?? null),
    )
    .map(([key]) => key);
}

/** The spec values of a stored element (to re-price unchanged elements). */
export function elementValuesOf(row: ElementRow): ElementValues {
  return elementValues({
    position: row.position,
    productCategoryId: row.productCategoryId ?? undefined,
    productId: row.productId ?? undefined,
    lengthDimension: row.lengthDimension ?? undefined,
    widthDimension: row.widthDimension ?? undefined,
    heightDimension: row.heightDimension ?? undefined,
    matterId: row.matterId ?? undefined,
    materialTypeId: row.materialTypeId ?? undefined,
    materialReferenceId: row.materialReferenceId ?? undefined,
    grammage: row.grammage ?? undefined,
    corrugatedMaterialId: row.corrugatedMaterialId ?? undefined,
    decorationsCount: row.decorationsCount,
    wantDecoration: row.wantDecoration,
    sidePrinted: row.sidePrinted ?? undefined,
    rectoColorCount: row.rectoColorCount ?? undefined,
    versoColorCount: row.versoColorCount ?? undefined,
    inkCoverage: row.inkCoverage ?? undefined,
    printingProcess: row.printingProcess ?? undefined,
    wantLaminationRecto: row.wantLaminationRecto,
    wantVarnishRecto: row.wantVarnishRecto,
    wantStampingRecto: row.wantStampingRecto,
    hotStampings: row.hotStampings,
    wantEmbossingDebossingRecto: row.wantEmbossingDebossingRecto,
    embossings: row.embossings,
    wantWindow: row.wantWindow,
    windowWidth: row.windowWidth ?? undefined,
    windowHeight: row.windowHeight ?? undefined,
    layoutCounts: row.layoutCounts,
    commercialMargin: row.commercialMargin ?? undefined,
  });
}
