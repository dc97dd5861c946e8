/**
 * Fewer ups than the sheet holds. Tooling made per up - a stamping or embossing die per up, the
 * cutting die's rule (x ups), flexo plates (their area x ups) - grows with the ups, while the
 * board and running time fall with them. On a short run with foil, 12 ups means 12 stamping dies:
 * 3 ups on the same sheet (four times the sheets, a quarter of the dies) can cost less in total.
 * The engine therefore costs, beside each route, the same sheet and machines with fewer ups (down
 * to 1) and keeps the cheapest total.
 *
 * Search: routes are visited cheapest first and each one's ups are lowered one at a time. The
 * product cost (everything but tooling) only grows as the ups fall (more sheets through the same
 * machines), so once it alone reaches the best total found, no smaller count of that route can
 * win and the descent stops; a route whose product cost already reaches the best total is not
 * descended at all. What is left is mostly the short runs where tooling matters.
 */
import type { RouteCosting } from './costing.ts';
import { type GangPlan, gangSplit, isGang } from './gang.ts';
import type { DieLine } from './geometry/die-line.ts';
import { impose } from './imposition.ts';
import type { RoutePlan } from './process-planning.ts';
import type { ResolvedElement } from './resolve.ts';
import { impositionFor, type PricingSession } from './session.ts';

/** Operations whose tooling is made per up (or whose rule length grows with the ups). */
const PER_UP_TOOLING = new Set([
  'DIE_CUTTING',
  'ROTARY_DIE_CUTTING',
  'HOT_FOIL_STAMPING',
  'EMBOSSING',
  'PRINT_FLEXO',
]);

/**
 * How lowering the ups of this route can save: `TOOLING` (tools made per up), `CUTS` (a
 * guillotine cuts every blank of every lift: a short run of small items on a sheet holding
 * hundreds pays for cuts it does not need), or null.
 */
export function upsSaving(plan: RoutePlan, element: ResolvedElement): 'TOOLING' | 'CUTS' | null {
  // An existing tool fixes the ups (layoutCounts); corrugated sheets made to size are already
  // offered at every small count of ups (1-3 x 1-3), each on its own sheet.
  if (element.existingTools.size > 0 || element.reference.cutToSize) return null;
  if (plan.steps.some((s) => s.operation.code === 'GUILLOTINE_CUTTING')) return 'CUTS';
  return plan.steps.some((s) => PER_UP_TOOLING.has(s.operation.code)) ? 'TOOLING' : null;
}

/** The same route with `ups` blanks on the sheet (the first `ups` positions of the best layout). */
export function withFewerUps(
  session: PricingSession,
  plan: RoutePlan,
  dieLine: DieLine,
  element: ResolvedElement,
  ups: number,
): RoutePlan | null {
  const current = plan.imposition;
  // At or below the grid's ups a nested layout cannot win (it must fit strictly more): lay the
  // grid without searching the nested patterns again (the costly part of an imposition).
  const imposition =
    ups <= current.gridUps
      ? impose(
          plan.sheet,
          { width: dieLine.width, height: dieLine.height, areaMm2: dieLine.areaMm2 },
          current.margins,
          ups,
          current.grain,
        )
      : impositionFor(session, plan.sheet, dieLine, current.margins, ups, current.grain);
  if (imposition.ups !== ups) return null;
  const reducedFromUps = plan.reducedFromUps ?? current.ups;
  const base = { ...plan, imposition, reducedFromUps, key: `${plan.key}:UPS-${ups}` };
  if (!isGang(plan)) return base;
  const gang = gangSplit(element.decorations, ups);
  return gang ? ({ ...base, gang } as GangPlan) : null;
}

/**
 * Adds to `routes` (sorted cheapest total first, as compareRoutes sorts) the cheapest fewer-ups
 * twin of each route that beats the route itself. Returns the routes, re-sorted.
 */
export function addFewerUpsRoutes(
  session: PricingSession,
  routes: RouteCosting[],
  element: ResolvedElement,
  dieLine: DieLine,
  cost: (plan: RoutePlan) => RouteCosting,
  compare: (a: RouteCosting, b: RouteCosting) => number,
): RouteCosting[] {
  if (routes.length === 0) return routes;
  let best = routes[0]!.rankingTotal;
  const productPart = (r: RouteCosting) => r.rankingTotal - r.amortisedTooling;
  const added: RouteCosting[] = [];
  // Keys of grid twins: a nested route descends only to just above its grid's ups.
  const keys = new Set(routes.map((r) => r.plan.key));
  for (const route of routes) {
    const plan = route.plan;
    const ups = plan.imposition.ups;
    const saving = ups > 1 ? upsSaving(plan, element) : null;
    if (saving === null) continue;
    const twinAt = (n: number): RouteCosting | null => {
      const twinPlan = withFewerUps(session, plan, dieLine, element, n);
      if (!twinPlan) return null;
      const twin = cost(twinPlan);
      if (twin.rankingTotal < best) best = twin.rankingTotal;
      return twin;
    };
    let bestTwin: RouteCosting | null = null;
    const consider = (twin: RouteCosting | null) => {
      if (twin && compare(twin, bestTwin ?? route) < 0) bestTwin = twin;
    };
    if (saving === 'TOOLING') {
      if (route.toolingCost <= 0 || productPart(route) >= best - 1e-9) continue;
      const gridKey = isGang(plan) ? `${plan.key.replace(/:GANG$/, '')}:GRID:GANG` : `${plan.key}:GRID`;
      const floor =
        plan.imposition.layout === 'NESTED' && keys.has(gridKey) ? plan.imposition.gridUps + 1 : 1;
      for (let n = ups - 1; n >= floor; n--) {
        const twin = twinAt(n);
        if (!twin) break;
        consider(twin);
        // Fewer ups never lower the product cost: nothing below n can beat the best total.
        if (productPart(twin) >= best - 1e-9) break;
      }
    } else {
      // Guillotine: cuts fall with the ups, sheets rise; the total is roughly unimodal in the ups
      // (board / n + cuts x n) with steps at whole lifts. A ladder of counts (x 0.75 each) finds
      // the region, then every count between the ladder's neighbours of the best is costed.
      const ladder: number[] = [];
      for (let n = ups - 1; n >= 1; n = Math.min(n - 1, Math.floor(n * 0.75))) ladder.push(n);
      const costs = new Map<number, RouteCosting | null>();
      const at = (n: number) => {
        if (!costs.has(n)) costs.set(n, twinAt(n));
        return costs.get(n)!;
      };
      let bestIndex = -1;
      ladder.forEach((n, i) => {
        const twin = at(n);
        if (twin && (bestIndex < 0 || compare(twin, at(ladder[bestIndex]!)!) < 0)) bestIndex = i;
      });
      if (bestIndex >= 0) {
        const high = bestIndex > 0 ? ladder[bestIndex - 1]! : ups;
        const low = bestIndex < ladder.length - 1 ? ladder[bestIndex + 1]! : 1;
        // At most 24 counts around the best: beyond that, every other count.
        const stride = Math.max(1, Math.ceil((high - low) / 24));
        for (let n = high - 1; n > low; n -= stride) at(n);
      }
      for (const twin of costs.values()) consider(twin);
    }
    if (bestTwin) added.push(bestTwin);
  }
  return added.length === 0 ? routes : [...routes, ...added].sort(compare);
}
