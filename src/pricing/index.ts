/**
 * The estimating engine: a pure, deterministic library (no I/O, no clock, no randomness).
 *
 *   priceBrief(brief, catalogue)    -> BriefPrediction (throws PricingError when the brief is invalid)
 *   validateBrief(brief, catalogue) -> the same checks, as a list of { pointer, message }
 *   analyseValue(brief, catalogue)  -> ValueAnalysis (four optimisations + unit-price curve)
 *   renderDieLineSvg / renderImpositionSvg -> SVG drawings of the computed geometry
 *
 * The catalogue is always passed in (an organisation's reference data); see docs/pricing.md.
 */
import type { Catalogue } from './catalogue.ts';
import { computeBrief, validateBriefInput } from './engine.ts';
import { PricingError, type PricingIssue } from './errors.ts';
import type { BriefInput } from './input.ts';
import type { BriefPrediction } from './output.ts';
import { assemblePrediction } from './price.ts';
import { createSession } from './session.ts';
import { analyseBriefValue, type ValueAnalysis } from './value-analysis.ts';

export type * from './catalogue.ts';
export type {
  DieLine,
  DimensionMark,
  KnockedDown,
  PanelLabel,
  Point,
  Segment,
  SegmentKind,
} from './geometry/die-line.ts';
export { buildDieLine } from './geometry/styles.ts';
export type { Imposition, LayoutBlock, Placement, SheetMargins } from './imposition.ts';
export type * from './input.ts';
export type { LeadTimeBreakdown, LeadTimeOperation } from './lead-time.ts';
export type * from './output.ts';
export type { RouteProcess } from './resolve.ts';
export { renderDieLineSvg, renderImpositionSvg } from './svg.ts';
export type {
  ElementValueAnalysis,
  InputChange,
  OptimisationProposal,
  PricedChange,
  QuantityPoint,
  ValueAnalysis,
} from './value-analysis.ts';
export { PricingError, type PricingIssue };

/** Prices every element of a brief; throws PricingError (code INVALID_BRIEF) with located issues. */
export function priceBrief(brief: BriefInput, catalogue: Catalogue): BriefPrediction {
  const session = createSession(catalogue);
  const { issues, computation } = computeBrief(session, brief);
  if (!computation) throw new PricingError('INVALID_BRIEF', issues);
  return assemblePrediction(session, computation);
}

/** The checks priceBrief makes, without costing; an empty list means the brief can be priced. */
export function validateBrief(brief: BriefInput, catalogue: Catalogue): PricingIssue[] {
  return validateBriefInput(brief, catalogue);
}

/** Cost explanation and the four optimisations, each priced by the engine. */
export function analyseValue(brief: BriefInput, catalogue: Catalogue): ValueAnalysis {
  return analyseBriefValue(brief, catalogue);
}
