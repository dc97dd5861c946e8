/**
 * The grid twin of a nested route. A nested layout (nesting.ts) is chosen on a sheet when it fits
 * more ups than the best grid, but more ups also means a longer cutting die (priced per metre of
 * rule x ups) and dearer per-up tools: on a short run the grid's fewer ups can be cheaper in total.
 * Both are therefore costed and ranked by total like any two routes; the grid keeps the plan's
 * machines and margins, its key ends in `:GRID`.
 */
import type { DieLine } from './geometry/die-line.ts';
import { impose } from './imposition.ts';
import type { RoutePlan } from './process-planning.ts';

export function gridTwin(plan: RoutePlan, dieLine: DieLine): RoutePlan | null {
  const nested = plan.imposition;
  if (nested.layout !== 'NESTED' || nested.gridUps < 1) return null;
  const imposition = impose(
    plan.sheet,
    { width: dieLine.width, height: dieLine.height, areaMm2: dieLine.areaMm2 },
    nested.margins,
    nested.gridUps,
    nested.grain,
  );
  return { ...plan, key: `${plan.key}:GRID`, imposition };
}
