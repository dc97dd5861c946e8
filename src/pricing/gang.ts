/**
 * Gang runs: several decoration variants (artworks) of one element printed together on one
 * sheet, the sheet's ups split between them, instead of one printing run per variant.
 *
 * Separate runs print each variant on its own plates with its own make-ready; a gang run needs
 * one set of plates (each plate carries every artwork) and one make-ready, but the sheet count
 * is set by the variant that needs the most sheets for its share of ups, so the others get overs
 * (printed and die-cut, then thrown away). It pays when make-ready and plates outweigh the overs:
 * many variants, short runs, quantities close to proportional to a split of the ups.
 *
 * The split: every variant gets at least one up, then each further up goes to the variant that
 * needs the most sheets (q_i / u_i largest) - the apportionment that minimises max q_i / u_i.
 * Sheets = max q_i / u_i; every cutting-and-after step sees `effectiveUps` = Q / sheets good
 * units per sheet. The engine costs a gang route beside every printed route of an element with
 * at least two variants and at least as many ups as variants; routes are ranked by total as
 * always, so a gang run is chosen exactly when it is cheaper in total than separate runs.
 */
import type { DecorationCount } from './input.ts';
import type { RoutePlan } from './process-planning.ts';

export interface GangShare {
  decorationIndex: number;
  quantity: number;
  /** Ups of the sheet carrying this artwork. */
  ups: number;
  /** Units printed at the gang's sheet count (quantity + overs), at the ordered quantity. */
  printedUnits: number;
}

export interface GangRun {
  shares: GangShare[];
  /** Net sheets of the gang run at the ordered quantities: max quantity / ups over the shares. */
  netSheets: number;
  /** Good (ordered) units per sheet: total quantity / net sheets (<= the sheet's ups). */
  effectiveUps: number;
}

export interface GangPlan extends RoutePlan {
  gang: GangRun;
}

export function isGang(plan: RoutePlan): plan is GangPlan {
  return (plan as Partial<GangPlan>).gang !== undefined;
}

/** The min-max split of `ups` between the decoration variants, or null when it cannot be ganged. */
export function gangSplit(decorations: DecorationCount[], ups: number): GangRun | null {
  const n = decorations.length;
  if (n < 2 || ups < n) return null;
  const shares = decorations.map((d) => ({
    decorationIndex: d.decorationIndex,
    quantity: d.quantity,
    ups: 1,
  }));
  for (let left = ups - n; left > 0; left--) {
    let worst = shares[0]!;
    for (const share of shares) {
      if (share.quantity / share.ups > worst.quantity / worst.ups) worst = share;
    }
    worst.ups += 1;
  }
  const netSheets = Math.max(...shares.map((s) => s.quantity / s.ups));
  const total = shares.reduce((sum, s) => sum + s.quantity, 0);
  return {
    shares: shares.map((s) => ({ ...s, printedUnits: Math.floor(s.ups * Math.ceil(netSheets - 1e-9)) })),
    netSheets,
    effectiveUps: total / netSheets,
  };
}

/** The gang version of a printed route, or null (unprinted, one variant, fewer ups than variants). */
export function gangPlan(plan: RoutePlan, decorations: DecorationCount[]): GangPlan | null {
  if (!plan.steps.some((s) => s.scope === 'VARIANT')) return null;
  const gang = gangSplit(decorations, plan.imposition.ups);
  if (!gang) return null;
  return { ...plan, key: `${plan.key}:GANG`, gang };
}

/** In words, for labels: "decorations 0 (3 ups), 1 (2 ups) on one sheet". */
export function gangLabel(gang: GangRun): string {
  return `gang run of decorations ${gang.shares.map((s) => `${s.decorationIndex} (${s.ups} up${s.ups > 1 ? 's' : ''})`).join(', ')} on one sheet`;
}
