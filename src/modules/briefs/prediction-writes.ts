/**
 * The briefs module's use of the engine: request-level checks the schema cannot express, pricing
 * with the engine's issues turned into 422 pointers of the request, and the writes of a prediction.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.ts';
import { AppError, badRequest, type ProblemIssue } from '../../platform/errors.ts';
import type { EventRecorder } from '../../platform/events.ts';
import {
  type BriefInput,
  type BriefPrediction,
  type Catalogue,
  PricingError,
  type PricingIssue,
  priceBrief,
  validateBrief,
} from '../../pricing/index.ts';
import {
  type BriefRow,
  type ElementRow,
  type PredictionRow,
  predictionTotals,
  withVariantIds,
} from './mapping.ts';
import { insertPredictionSummary } from './prediction-repository.ts';
import { BRIEF_ENTITY, BRIEF_PREDICTION_ENTITY, updateBrief, updateElement } from './repository.ts';

type ElementShape = { position: number; id?: string; decorationsCount?: { decorationIndex: number }[] };

/**
 * Checks across elements that the schema cannot express (400 with pointers): unique positions
 * forming 0..n-1, unique decoration indexes within an element, unique element ids (PUT).
 */
export function checkElementStructure(
  elements: ElementShape[],
  at: (index: number) => string = (index) => `/briefElements/${index}`,
) {
  const issues: ProblemIssue[] = [];
  const byPosition = new Map<number, number>();
  const byId = new Map<string, number>();
  elements.forEach((element, i) => {
    const first = byPosition.get(element.position);
    if (first !== undefined) {
      issues.push({
        pointer: `${at(i)}/position`,
        message: `duplicates the position of element ${first} (positions must be unique)`,
        in: 'body',
      });
    } else byPosition.set(element.position, i);
    if (element.id) {
      const same = byId.get(element.id);
      if (same !== undefined) {
        issues.push({ pointer: `${at(i)}/id`, message: `duplicates the id of element ${same}`, in: 'body' });
      } else byId.set(element.id, i);
    }
    const indexes = new Map<number, number>();
    (element.decorationsCount ?? []).forEach((decoration, j) => {
      const seen = indexes.get(decoration.decorationIndex);
      if (seen !== undefined) {
        issues.push({
          pointer: `${at(i)}/decorationsCount/${j}/decorationIndex`,
          message: `duplicates decoration variant ${decoration.decorationIndex} (entry ${seen})`,
          in: 'body',
        });
      } else indexes.set(decoration.decorationIndex, j);
    });
  });
  if (!issues.some((issue) => issue.pointer.endsWith('/position'))) {
    elements.forEach((element, i) => {
      if (element.position >= elements.length) {
        issues.push({
          pointer: `${at(i)}/position`,
          message: `positions must be 0..${elements.length - 1} (one per element, in any order)`,
          in: 'body',
        });
      }
    });
  }
  if (issues.length) throw badRequest('The brief elements are not valid', issues);
}

/**
 * Maps an engine pointer (array index of the engine input, whose elements are sorted by position)
 * to the request: `order[k]` is the request index of the engine's element k.
 */
export function requestPointer(pointer: string, order: number[], base = '/briefElements'): string {
  const match = /^\/briefElements\/(\d+)(\/.*)?$/.exec(pointer);
  if (!match) return pointer;
  const index = order[Number(match[1])] ?? Number(match[1]);
  return base === '/briefElements' ? `${base}/${index}${match[2] ?? ''}` : `${base}${match[2] ?? ''}`;
}

function invalidBrief(issues: PricingIssue[], order: number[], base: string) {
  return new AppError(
    'invalid_brief',
    `The brief cannot be priced: ${issues.length} issue${issues.length > 1 ? 's' : ''} (see errors)`,
    {
      issues: issues.map((issue) => ({
        pointer: requestPointer(issue.pointer, order, base),
        message: issue.message,
        in: 'body',
      })),
    },
  );
}

/** Request indexes sorted by position: the engine order. */
export const engineOrder = (elements: { position: number }[]) =>
  elements.map((_, i) => i).sort((a, b) => elements[a]!.position - elements[b]!.position);

/** Prices the input, or answers 422 `invalid_brief` with the request's pointers. */
export function priceOrRefuse(
  input: BriefInput,
  catalogue: Catalogue,
  order: number[],
  base = '/briefElements',
) {
  try {
    return priceBrief(input, catalogue);
  } catch (error) {
    if (error instanceof PricingError) throw invalidBrief(error.issues, order, base);
    throw error;
  }
}

/** The engine's checks without pricing (the async variant prices later). */
export function validateOrRefuse(input: BriefInput, catalogue: Catalogue, order: number[]) {
  const issues = validateBrief(input, catalogue);
  if (issues.length) throw invalidBrief(issues, order, '/briefElements');
}

/** A failure reason for FAILED: the engine's issues, one per line. */
export function failureReasonOf(error: unknown): string {
  if (error instanceof PricingError) {
    return error.issues
      .map((issue) => `${issue.pointer}: ${issue.message}`)
      .join('\n')
      .slice(0, 4000);
  }
  return 'internal error while pricing';
}

export type StoredPrediction = Omit<PredictionRow, 'input' | 'output' | 'valueAnalysis'>;

/** The row of a new prediction version (its variants given their ids). */
export function predictionRow(
  owner: { briefId: string | null; briefElementId: string | null },
  organisationId: string,
  version: number,
  revision: number,
  input: BriefInput,
  output: BriefPrediction,
  createdById: string | null,
  at: Date,
) {
  const id = uuidv7();
  withVariantIds(output, id, at, uuidv7);
  return {
    id,
    organisationId,
    briefId: owner.briefId,
    briefElementId: owner.briefElementId,
    version,
    revision,
    ...predictionTotals(output),
    input,
    output,
    createdById,
    createdAt: at,
  };
}

/** Price columns of an element from a prediction. */
export function elementPrice(output: BriefPrediction, position: number, predictionId: string, at: Date) {
  const price = output.briefElementPrices.find((p) => p.position === position);
  return {
    unitPrice: price?.unitPrice ?? null,
    totalPrice: price?.totalPrice ?? null,
    predictionId: price ? predictionId : null,
    pricedAt: price ? at : null,
  };
}

/** Brief columns of a completed prediction. */
export function completedColumns(prediction: ReturnType<typeof predictionRow>, at: Date) {
  return {
    predictionStatus: 'COMPLETED' as const,
    hasPrice: true,
    failureReason: null,
    currentPredictionId: prediction.id,
    currentVersion: prediction.version,
    totalPrice: prediction.totalPrice,
    currency: prediction.currency,
    pricedAt: at,
  };
}

/**
 * Writes a new prediction version of an existing brief: the prediction row, the elements' prices
 * and the brief's current prediction, with their events (`process: PREDICTION`). The brief row
 * must be locked by the caller; `elements` are its live elements after the change.
 */
export async function applyBriefPrediction(
  tx: Tx,
  record: EventRecorder,
  brief: BriefRow,
  elements: ElementRow[],
  input: BriefInput,
  output: BriefPrediction,
  options: {
    version: number;
    createdById: string | null;
    extra?: Partial<BriefRow>;
    updatedColumns?: string[];
  },
) {
  const at = new Date();
  const prediction = predictionRow(
    { briefId: brief.id, briefElementId: null },
    brief.organisationId,
    options.version,
    options.extra?.revision ?? brief.revision,
    input,
    output,
    options.createdById,
    at,
  );
  const stored = await insertPredictionSummary(tx, prediction);
  const pricedElements: ElementRow[] = [];
  for (const element of elements) {
    pricedElements.push(
      await updateElement(tx, element.id, elementPrice(output, element.position, prediction.id, at)),
    );
  }
  const updated = await updateBrief(tx, brief.id, {
    ...options.extra,
    ...completedColumns(prediction, at),
    updatedAt: at,
  });
  await record({
    on: BRIEF_PREDICTION_ENTITY,
    type: 'CREATE',
    entityId: prediction.id,
    snapshot: stored,
    relation: BRIEF_ENTITY,
    relationId: brief.id,
    process: 'PREDICTION',
  });
  return { brief: updated, elements: pricedElements, prediction: stored };
}
