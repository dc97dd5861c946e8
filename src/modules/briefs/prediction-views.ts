import type { Db } from '../../db/client.ts';
import type { PredictionStatus } from '../../db/schema/briefs.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import {
  analyseValue,
  type BriefPrice,
  PricingError,
  renderDieLineSvg,
  renderImpositionSvg,
  type ValueAnalysis,
} from '../../pricing/index.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import type { BriefRow, PredictionRow } from './mapping.ts';
import { storeValueAnalysis } from './prediction-repository.ts';
import { presentPanel, presentProcess, presentSummary, variantsOf } from './presenters.ts';
import { findBriefPrediction, predictionVersions } from './repository.ts';

export const predictionNotAvailable = (status: PredictionStatus) =>
  new AppError(
    'prediction_not_available',
    status === 'FAILED'
      ? 'The brief could not be priced (see failureReason); change it to price it again'
      : `The prediction is not available yet (predictionStatus ${status}); poll GET /briefs/:id until it is COMPLETED`,
  );

/**
 * What an element's die-line files are drawn from (modules/dielines): the owner's code (a brief's,
 * or an article's for a standalone element), the version and its date, the priced element
 * (die-line, material) and its request, and the selected variant's imposition. 404 when the
 * prediction has no element at `position`.
 */
export function dieLineSourceOf(
  row: PredictionRow,
  position: number,
  owner: { id: string; code: string; name: string | null },
) {
  const computed = row.output.briefComputed.briefElements.find((e) => e.position === position);
  const input = row.input.briefElements.find((e) => e.position === position);
  if (!computed || !input) throw notFound('Brief element');
  const variants = variantsOf(row.output, position);
  const variant = variants.find((v) => v.selected) ?? variants[0];
  return {
    brief: owner,
    version: row.version,
    pricedAt: row.createdAt,
    organisationId: row.organisationId,
    position,
    input,
    computed,
    imposition: variant?.imposition ?? null,
  };
}

export type DieLineSource = ReturnType<typeof dieLineSourceOf>;

/**
 * The views of a brief's predictions (a version, else the current one): details, versions,
 * process variants, value analysis, panel, die line and imposition drawings.
 */
export function createPredictionViews<
  Found extends { brief: BriefRow },
  Detail extends { prediction: { id: string } | null; briefElementPrices: unknown },
>({
  db,
  visible,
  read,
}: {
  db: Db;
  /** The brief the actor may see (404 otherwise). */
  visible: (actor: Actor, id: string) => Promise<Found>;
  /** The brief as GET /briefs/:id answers it. */
  read: (actor: Actor, id: string) => Promise<Detail>;
}) {
  /** A prediction of a visible brief: `version`, else the current one; 409 while there is none. */
  async function prediction(actor: Actor, id: string, version?: number) {
    const found = await visible(actor, id);
    const row = await findBriefPrediction(db, found.brief, version);
    if (!row) {
      if (version !== undefined) throw notFound('Prediction version');
      throw predictionNotAvailable(found.brief.predictionStatus);
    }
    return { found, prediction: row };
  }

  /** The value analysis of a prediction version: computed once, then kept with the version. */
  async function analysisOf(row: PredictionRow): Promise<ValueAnalysis> {
    if (row.valueAnalysis) return row.valueAnalysis;
    const catalogue = await loadCatalogue(db, row.organisationId);
    let analysis: ValueAnalysis;
    try {
      analysis = analyseValue(row.input, catalogue);
    } catch (error) {
      if (error instanceof PricingError) {
        throw new AppError(
          'catalogue_changed',
          `The catalogue changed since this version was priced and it cannot be analysed any more: ${error.message}`,
        );
      }
      throw error;
    }
    await storeValueAnalysis(db, row.id, analysis);
    return analysis;
  }

  const priceWith = (price: BriefPrice, withAlternatives: boolean): BriefPrice =>
    withAlternatives
      ? price
      : { ...price, predictionRequestsComputed: price.predictionRequestsComputed.filter((v) => v.selected) };

  return {
    /**
     * The brief with its prediction. The price lists the selected variant of each element (one
     * per element, as BriefPrice is described); every variant with `withAlternatives` (they are
     * four fifths of the answer: 139 of 173 KB for three elements).
     */
    async details(actor: Actor, id: string, version?: number, withAlternatives = false) {
      const brief = await read(actor, id);
      const found = await findBriefPrediction(
        db,
        { id, currentPredictionId: brief.prediction?.id ?? null },
        version,
      );
      if (version !== undefined && !found) throw notFound('Prediction version');
      return {
        ...brief,
        prediction: found ? presentSummary(found) : brief.prediction,
        briefComputed: found?.output.briefComputed ?? null,
        briefPrice: found ? priceWith(found.output.briefPrice, withAlternatives) : null,
        briefElementPrices: found?.output.briefElementPrices ?? brief.briefElementPrices,
      };
    },

    async versions(actor: Actor, id: string) {
      const found = await visible(actor, id);
      const rows = await predictionVersions(db, id);
      return {
        briefId: id,
        currentVersion: found.brief.currentVersion,
        data: rows.map((row) => ({
          ...presentSummary(row),
          createdBy: row.createdById ? { id: row.createdById, name: row.createdByName } : null,
          // Loosely typed in the schema (the engine input is documented by its fields).
          input: row.input as unknown as Record<string, unknown>,
        })),
      };
    },

    async process(actor: Actor, id: string, position: number, version?: number) {
      const { prediction: row } = await prediction(actor, id, version);
      const variants = variantsOf(row.output, position);
      if (!variants.length) throw notFound('Brief element');
      return presentProcess(id, row.version, variants);
    },

    async valueAnalysis(actor: Actor, id: string, version?: number) {
      const { prediction: row } = await prediction(actor, id, version);
      const analysis = await analysisOf(row);
      return { briefId: id, version: row.version, predictionId: row.id, ...analysis };
    },

    async panel(actor: Actor, id: string, version?: number) {
      const { found, prediction: row } = await prediction(actor, id, version);
      return presentPanel(found.brief, row, await analysisOf(row));
    },

    async dieLineSvg(actor: Actor, id: string, position: number, version?: number) {
      const { prediction: row } = await prediction(actor, id, version);
      const computed = row.output.briefComputed.briefElements.find((e) => e.position === position);
      if (!computed) throw notFound('Brief element');
      return renderDieLineSvg(computed.dieLine);
    },

    /**
     * What an element's die-line files are drawn from (modules/dielines): the brief's code, the
     * version and its date, the priced element (die-line, material) and its request, and the
     * selected variant's imposition. Visibility as GET /briefs/:id (404 for another company's).
     */
    async dieLineSource(actor: Actor, id: string, position: number, version?: number) {
      const { found, prediction: row } = await prediction(actor, id, version);
      return dieLineSourceOf(row, position, { id, code: found.brief.code, name: found.brief.name });
    },

    /** The die-line sources of every element of a version (the whole-brief template), by position. */
    async dieLineSources(actor: Actor, id: string, version?: number) {
      const { found, prediction: row } = await prediction(actor, id, version);
      const owner = { id, code: found.brief.code, name: found.brief.name };
      return row.output.briefComputed.briefElements
        .map((e) => e.position)
        .sort((a, b) => a - b)
        .map((position) => dieLineSourceOf(row, position, owner));
    },

    async impositionSvg(
      actor: Actor,
      id: string,
      position: number,
      query: { version?: number; variant?: string },
    ) {
      const { prediction: row } = await prediction(actor, id, query.version);
      const computed = row.output.briefComputed.briefElements.find((e) => e.position === position);
      const variants = variantsOf(row.output, position);
      if (!computed || !variants.length) throw notFound('Brief element');
      const variant = query.variant
        ? variants.find((v) => v.variantKey === query.variant)
        : (variants.find((v) => v.selected) ?? variants[0]);
      if (!variant) throw notFound('Process variant');
      return renderImpositionSvg(variant.imposition, computed.dieLine);
    },
  };
}
