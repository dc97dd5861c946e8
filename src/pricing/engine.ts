/**
 * The chain for a whole brief, without output formatting: validate and resolve each element,
 * build its die-line, plan every route, cost each one, pick the cheapest per process, pack,
 * and quote delivery for the brief. Value analysis re-runs this with changed inputs; element
 * results are memoised in the session so unchanged elements are not recomputed.
 */
import { type Catalogue, machineRate, type RouteSelection, routeSelectionOf } from './catalogue.ts';
import { at, type CostCategoryKey, costRoute, type RouteCosting } from './costing.ts';
import type { PricingIssue } from './errors.ts';
import { addFewerUpsRoutes } from './fewer-ups.ts';
import { gangPlan, isGang } from './gang.ts';
import type { DieLine } from './geometry/die-line.ts';
import type { BriefElementInput, BriefInput, BriefPalletType, PackingType } from './input.ts';
import { type DeliveryQuote, isRefusal, type PackingPlan, planPacking, quoteDelivery } from './logistics.ts';
import { allocateCents, round4, sumCents, toCents } from './money.ts';
import { gridTwin } from './nesting-routes.ts';
import { planRoutes, type RoutePlanning, TOOL_OPERATIONS } from './process-planning.ts';
import { type ResolvedElement, resolveElement } from './resolve.ts';
import { createSession, dieLineFor, type PricingSession } from './session.ts';
import { checkBriefFields, checkElementFields, checkGeometry, routeIssues } from './validate.ts';

export interface ElementInspection {
  issues: PricingIssue[];
  element: ResolvedElement | null;
  dieLine: DieLine | null;
  planning: RoutePlanning | null;
}

export interface ElementComputation {
  element: ResolvedElement;
  dieLine: DieLine;
  packing: PackingPlan;
  /** Every feasible route, cheapest total first. */
  routes: RouteCosting[];
  /** The variants shown (see pickVariants), cheapest total first; the first is selected. */
  variants: RouteCosting[];
}

export interface ElementOutcome {
  issues: PricingIssue[];
  computation: ElementComputation | null;
}

export interface BriefComputation {
  brief: BriefInput;
  packingType: PackingType;
  palletType: BriefPalletType;
  /** By position. */
  elements: ElementComputation[];
  delivery: DeliveryQuote;
  /** Delivery cost in cents per element, in the order of `elements`. */
  deliveryCents: number[];
}

/** Validation and planning of one element, without costing. */
export function inspectElement(
  session: PricingSession,
  brief: BriefInput,
  input: BriefElementInput,
  arrayIndex: number,
): ElementInspection {
  const issues = checkElementFields(input, arrayIndex, session.index);
  if (issues.length > 0) return { issues, element: null, dieLine: null, planning: null };
  const element = resolveElement(input, arrayIndex, brief, session.index);
  if (element.processes.length === 0) {
    return {
      issues: [
        {
          pointer: `/briefElements/${arrayIndex}/wantDecoration`,
          message: 'no printing process is available in the catalogue',
        },
      ],
      element,
      dieLine: null,
      planning: null,
    };
  }
  const dieLine = dieLineFor(session, element);
  const geometryIssues = checkGeometry(element, dieLine, session.index);
  if (geometryIssues.length > 0) return { issues: geometryIssues, element, dieLine, planning: null };
  const planning = planRoutes(session, element, dieLine);
  const planningIssues = routeIssues(planning);
  if (planningIssues.length === 0) planningIssues.push(...unusedToolIssues(element, planning));
  return { issues: planningIssues, element, dieLine, planning };
}

/** An existing tool (LayoutCount) must sit on a machine that runs a tooled operation of the element. */
function unusedToolIssues(element: ResolvedElement, planning: RoutePlanning): PricingIssue[] {
  const issues: PricingIssue[] = [];
  (element.input.layoutCounts ?? []).forEach((layout, j) => {
    const used = planning.plans.some((plan) =>
      plan.steps.some(
        (step) => step.machine.id === layout.machineId && TOOL_OPERATIONS.has(step.operation.code),
      ),
    );
    if (!used) {
      issues.push({
        pointer: `/briefElements/${element.arrayIndex}/layoutCounts/${j}/machineId`,
        message: `machine ${layout.machineId} runs no tooled operation (die-cutting, foil, embossing, flexo) for this element`,
      });
    }
  });
  return issues;
}

/**
 * Routes are ranked by total: product price plus the tooling charged to this order (tooling /
 * toolingRepeats). Delivery is the same for every route of an element. Ties: less tooling, then
 * less time, then the key (deterministic).
 */
export function compareRoutes(a: RouteCosting, b: RouteCosting): number {
  const total = a.rankingTotal - b.rankingTotal;
  if (Math.abs(total) > 1e-9) return total;
  const tooling = a.toolingCost - b.toolingCost;
  if (Math.abs(tooling) > 1e-9) return tooling;
  const hours = at(a.productionHours) - at(b.productionHours);
  if (Math.abs(hours) > 1e-12) return hours;
  return a.plan.key < b.plan.key ? -1 : a.plan.key > b.plan.key ? 1 : 0;
}

/**
 * The variants the user sees: the best route (selected), the best route of every other process
 * (and of separate and gang runs of the decoration variants), and every other route whose total is within `variantMargin` of the best, cheapest first, at
 * most `maxVariants` (the best of each process always kept).
 */
export function pickVariants(routes: RouteCosting[], selection: RouteSelection): RouteCosting[] {
  if (routes.length === 0) return [];
  const best = routes[0]!;
  const limit = best.rankingTotal * (1 + selection.variantMargin) + 1e-9;
  const processBest = new Set<RouteCosting>();
  const seen = new Set<string>();
  for (const route of routes) {
    // The best of each process, and of each way of printing the variants (separate or gang).
    const kind = `${route.plan.process}${isGang(route.plan) ? ':GANG' : ''}`;
    if (!seen.has(kind)) {
      seen.add(kind);
      processBest.add(route);
    }
  }
  const within = routes.filter((r) => !processBest.has(r) && r.rankingTotal <= limit);
  const room = Math.max(0, selection.maxVariants - processBest.size);
  const chosen = new Set<RouteCosting>([...processBest, ...within.slice(0, room)]);
  return routes.filter((r) => chosen.has(r));
}

export function computeElement(
  session: PricingSession,
  brief: BriefInput,
  input: BriefElementInput,
  arrayIndex: number,
): ElementOutcome {
  const key = JSON.stringify([
    arrayIndex,
    brief.commercialMargin,
    brief.packingType,
    brief.palletType,
    // The case is chosen by landed cost, delivery to the zone included (logistics.ts).
    brief.deliveryZoneId,
    input,
  ]);
  const cached = session.elements.get(key) as ElementOutcome | undefined;
  if (cached) return cached;
  const inspection = inspectElement(session, brief, input, arrayIndex);
  let outcome: ElementOutcome;
  if (inspection.issues.length > 0 || !inspection.element || !inspection.dieLine || !inspection.planning) {
    outcome = { issues: inspection.issues, computation: null };
  } else {
    const { element, dieLine, planning } = inspection;
    const packing = planPacking(
      session.index.catalogue,
      dieLine,
      element.grammage,
      element.quantity,
      brief.packingType ?? 'SHIPPING_CASE',
      brief.palletType ?? 'EURO',
      element.category.kind === 'CORRUGATED_CASE',
      {
        zone:
          brief.deliveryZoneId !== undefined
            ? session.index.deliveryZones.get(brief.deliveryZoneId)
            : undefined,
        commercialMargin: element.commercialMargin,
        ...packerRateOf(session),
      },
    );
    if (isRefusal(packing)) {
      outcome = { issues: [{ pointer: '/palletType', message: packing.refused }], computation: null };
      session.elements.set(key, outcome);
      return outcome;
    }
    // A nested layout has more ups than the grid on its sheet, hence a dearer die: the grid is
    // kept as its own route (`:GRID`) so a short run can still take it. Every printed route is
    // also costed as a gang run of the decoration variants (gang.ts), when possible.
    const plans = planning.plans
      .flatMap((plan) => {
        const grid = gridTwin(plan, dieLine);
        return grid ? [plan, grid] : [plan];
      })
      .flatMap((plan) => {
        const gang = gangPlan(plan, element.decorations);
        return gang ? [plan, gang] : [plan];
      });
    const cost = (plan: (typeof plans)[number]) => costRoute(session, plan, element, dieLine, packing);
    // Fewer ups where tooling is made per up (fewer-ups.ts): the cheapest total wins.
    const routes = addFewerUpsRoutes(
      session,
      plans.map(cost).sort(compareRoutes),
      element,
      dieLine,
      cost,
      compareRoutes,
    );
    const variants = pickVariants(routes, routeSelectionOf(session.index.catalogue.settings));
    outcome = { issues: [], computation: { element, dieLine, packing, routes, variants } };
  }
  session.elements.set(key, outcome);
  return outcome;
}

/** The packing station's hourly rate when it charges by the package (landed cost of a case). */
function packerRateOf(session: PricingSession): { packerHourlyRate?: number } {
  const rates = session.index.catalogue.machines
    .filter((m) => machineRate(session.index, m, 'PACKING')?.speedBasis === 'PACKAGE')
    .map((m) => m.hourlyRate);
  return rates.length > 0 ? { packerHourlyRate: Math.min(...rates) } : {};
}

export function computeBrief(
  session: PricingSession,
  brief: BriefInput,
): { issues: PricingIssue[]; computation: BriefComputation | null } {
  const issues = checkBriefFields(brief, session.index);
  const elements: ElementComputation[] = [];
  if (Array.isArray(brief?.briefElements)) {
    brief.briefElements.forEach((input, i) => {
      const outcome = computeElement(session, brief, input, i);
      issues.push(...outcome.issues);
      if (outcome.computation) elements.push(outcome.computation);
    });
  }
  if (issues.length > 0) return { issues, computation: null };
  elements.sort((a, b) => a.element.position - b.element.position);
  const pallets = elements.map((e) => e.packing.pallets);
  const delivery = quoteDelivery(
    brief.deliveryZoneId !== undefined ? session.index.deliveryZones.get(brief.deliveryZoneId) : undefined,
    pallets.reduce((a, b) => a + b, 0),
  );
  // The brief ships together; each element carries its share of the delivery by pallets.
  const deliveryCents = allocateCents(toCents(delivery.cost), pallets);
  return {
    issues: [],
    computation: {
      brief,
      packingType: brief.packingType ?? 'SHIPPING_CASE',
      palletType: brief.palletType ?? 'EURO',
      elements,
      delivery,
      deliveryCents,
    },
  };
}

/** Validation only: the same checks priceBrief makes, without costing. */
export function validateBriefInput(brief: BriefInput, catalogue: Catalogue): PricingIssue[] {
  const session = createSession(catalogue);
  const issues = checkBriefFields(brief, session.index);
  if (Array.isArray(brief?.briefElements)) {
    brief.briefElements.forEach((input, i) => {
      issues.push(...inspectElement(session, brief, input, i).issues);
    });
  }
  return issues;
}

export const PRODUCT_CATEGORIES: Exclude<CostCategoryKey, 'tooling'>[] = [
  'materials',
  'printing',
  'finishing',
  'converting',
  'packing',
];

/** Rounded money of one variant: every line to cents, totals as sums of cents. */
export interface VariantMoney {
  lineCents: number[];
  categoryCents: Record<CostCategoryKey, number>;
  productCostCents: number;
  marginCents: number;
  productPriceCents: number;
  toolingCents: number;
  deliveryCents: number;
  totalCents: number;
  /** Product price / quantity, 4 decimals (from the unrounded price, so it never rises with quantity). */
  unitPrice: number;
  unitPriceExact: number;
  margin: number;
}

export function variantMoney(
  costing: RouteCosting,
  element: ResolvedElement,
  deliveryCents: number,
  k = 1,
): VariantMoney {
  const lineCents = costing.lines.map((line) => toCents(at(line.amount, k)));
  const categoryCents: Record<CostCategoryKey, number> = {
    materials: 0,
    printing: 0,
    finishing: 0,
    converting: 0,
    packing: 0,
    tooling: 0,
  };
  costing.lines.forEach((line, i) => {
    categoryCents[line.category] += lineCents[i]!;
  });
  const productCostCents = sumCents(PRODUCT_CATEGORIES.map((c) => categoryCents[c]));
  const margin = element.commercialMargin;
  const productPriceCents = Math.round(productCostCents / (1 - margin));
  const unitPriceExact = at(costing.productCost, k) / (1 - margin) / (element.quantity * k);
  return {
    lineCents,
    categoryCents,
    productCostCents,
    marginCents: productPriceCents - productCostCents,
    productPriceCents,
    toolingCents: categoryCents.tooling,
    deliveryCents,
    totalCents: productPriceCents + categoryCents.tooling + deliveryCents,
    unitPrice: round4(unitPriceExact),
    unitPriceExact,
    margin,
  };
}
