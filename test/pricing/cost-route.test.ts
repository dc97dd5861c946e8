/**
 * The named steps of costRoute (src/pricing/costing.ts), each on its own: hand-worked cases, and
 * each step against the routes the engine costed for real briefs of the default catalogue.
 */
import { describe, expect, it } from 'vitest';
import { routeSelectionOf, type ToolingRule } from '../../src/pricing/catalogue.ts';
import type { corrugatorYield } from '../../src/pricing/corrugated.ts';
import {
  at,
  backwardRuns,
  boardLine,
  corrugatorNote,
  costRoute,
  cuttingDiePrice,
  lin,
  machineLine,
  packingLines,
  printRunsOf,
  quantifySteps,
  type RawCostLine,
  type RouteCosting,
  routeTotals,
  sheetMeasures,
  stepSuffix,
} from '../../src/pricing/costing.ts';
import { defaultCatalogue } from '../../src/pricing/default-catalogue.ts';
import { computeBrief } from '../../src/pricing/engine.ts';
import { isGang } from '../../src/pricing/gang.ts';
import type { BriefElementInput, BriefInput } from '../../src/pricing/index.ts';
import type { PackingPlan } from '../../src/pricing/logistics.ts';
import type { RoutePlan } from '../../src/pricing/process-planning.ts';
import type { ResolvedElement } from '../../src/pricing/resolve.ts';
import { createSession } from '../../src/pricing/session.ts';

const catalogue = defaultCatalogue();

const carton: BriefElementInput = {
  position: 0,
  productId: 'STE',
  lengthDimension: 120,
  widthDimension: 40,
  heightDimension: 180,
  materialReferenceId: 'GC1-350',
  decorationsCount: [
    { decorationIndex: 0, quantity: 3000 },
    { decorationIndex: 1, quantity: 2000 },
  ],
  wantDecoration: true,
  sidePrinted: 'RECTO',
  rectoColorCount: 4,
  versoColorCount: 0,
  wantVarnishRecto: true,
  wantStampingRecto: true,
  hotStampings: [{ color: 'gold', coverage: 0.4, width: 60, height: 25 }],
};

/** Every costed route of the brief's first element, with what it was costed from. */
function costed(element: BriefElementInput) {
  const brief: BriefInput = { packingType: 'SHIPPING_CASE', palletType: 'EURO', briefElements: [element] };
  const session = createSession(catalogue);
  const { computation } = computeBrief(session, brief);
  const e = computation!.elements[0]!;
  return { session, ...e };
}

const printed = costed(carton);

describe('costRoute, step by step', () => {
  it('sheetMeasures: area in m2 and weight from the grammage', () => {
    const plan = { sheet: { width: 1000, height: 700 } } as RoutePlan;
    const { sheetAreaM2, sheetKg } = sheetMeasures(plan, { grammage: 350 } as ResolvedElement);
    expect(sheetAreaM2).toBe(0.7);
    expect(sheetKg).toBeCloseTo(0.245, 12);
  });

  it('printRunsOf: a run per decoration variant, or one gang run of the whole quantity', () => {
    const element = {
      quantity: 5000,
      decorations: [
        { decorationIndex: 0, quantity: 3000 },
        { decorationIndex: 1, quantity: 2000 },
      ],
    } as ResolvedElement;
    expect(printRunsOf(element, false)).toEqual([
      { decorationIndex: 0, quantity: 3000 },
      { decorationIndex: 1, quantity: 2000 },
    ]);
    expect(printRunsOf(element, true)).toEqual([{ decorationIndex: null, quantity: 5000 }]);
  });

  it('backwardRuns: no step hands on its output unchanged; an empty chain passes the output through', () => {
    const route = printed.routes[0]!;
    const job = route.plan.steps.filter((s) => s.scope === 'JOB');
    const { runs, input } = backwardRuns(
      job,
      lin(0, 5000),
      null,
      route.plan.imposition.ups,
      printed.element,
      route.plan,
    );
    expect(runs.map((r) => r.template)).toEqual(job);
    // Each step receives what the next hands on plus its waste; the first one's input is returned.
    for (let i = 0; i < runs.length - 1; i++) expect(runs[i]!.output).toEqual(runs[i + 1]!.input);
    expect(runs.at(-1)!.output).toEqual(lin(0, 5000));
    expect(input).toEqual(runs[0]!.input);
    for (const r of runs) expect(r.input.fixed).toBeGreaterThanOrEqual(r.makeReady);
    expect(backwardRuns([], lin(3, 7), 0, 4, printed.element, route.plan)).toEqual({
      runs: [],
      input: lin(3, 7),
    });
  });

  it('quantifySteps: the steps and board sheets the engine costed (separate and gang runs)', () => {
    expect(printed.routes.some((r) => isGang(r.plan))).toBe(true);
    expect(printed.routes.some((r) => !isGang(r.plan))).toBe(true);
    for (const route of printed.routes) {
      const { steps, boardSheets } = quantifySteps(route.plan, printed.element);
      expect(boardSheets).toEqual(route.boardSheets);
      expect(steps.map((s) => [s.template, s.decorationIndex, s.input, s.output])).toEqual(
        route.steps.map((s) => [s.template, s.decorationIndex, s.input, s.output]),
      );
      // Separate runs: a printing run per variant, the shares of the flow in proportion.
      const printing = steps.filter((s) => s.template.scope === 'VARIANT');
      const variants = new Set(printing.map((s) => s.decorationIndex));
      expect([...variants]).toEqual(isGang(route.plan) ? [null] : [0, 1]);
    }
  });

  it('boardLine: the first line of every route, bought by weight or area', () => {
    for (const route of printed.routes) {
      const line = boardLine(
        printed.element,
        route.plan,
        route.boardSheets,
        route.sheetAreaM2,
        route.sheetKg,
      );
      expect({ ...line, existingTool: false }).toEqual(route.lines[0]);
      expect(at(line.amount)).toBeCloseTo(at(line.quantity) * line.rate, 9);
    }
  });

  it('corrugatorNote: nothing for a sheet not cut to size or without trim and waste', () => {
    expect(corrugatorNote(undefined, null)).toBe('');
    expect(corrugatorNote({ trimMm: 0, wasteRate: 0 } as never, null)).toBe('');
    expect(corrugatorNote({ trimMm: 20, wasteRate: 0.03 } as never, null)).toBe(
      ' (1 out on the corrugator, 20 mm edge trim shared, 3 % corrugating waste)',
    );
    const cut = { trimMm: 20, wasteRate: 0.03, webWidthsMm: [2500] } as never;
    const web = { outs: 2, webWidthMm: 2500, deckleMm: 1000, factor: 1.25 } as ReturnType<
      typeof corrugatorYield
    >;
    expect(corrugatorNote(cut, web)).toBe(
      ' (2 out across a 2500 mm corrugator web, deckle 1000 mm, 25 % trim, 3 % corrugating waste)',
    );
  });

  it('stepSuffix and machineLine: the machine line of every step, labelled by variant and side', () => {
    for (const route of printed.routes) {
      const gang = isGang(route.plan) ? route.plan.gang : null;
      route.steps.forEach((step, stepIndex) => {
        const line = route.lines.find((l) => l.stepIndex === stepIndex && l.nature === 'MACHINE')!;
        const made = machineLine(step, stepIndex, line.category, stepSuffix(step, gang));
        expect({ ...made, existingTool: false }).toEqual(line);
      });
    }
    const separate = printed.routes.find((r) => !isGang(r.plan))!;
    const press = separate.steps.find((s) => s.decorationIndex === 1 && s.template.side)!;
    expect(stepSuffix(press, null)).toMatch(/^decoration 1, recto/);
    const shared = separate.steps.find((s) => s.template.scope === 'JOB' && !s.template.side)!;
    expect(stepSuffix(shared, null)).toBe('');
  });

  it('cuttingDiePrice: base plus metres of rule, never under the minimum', () => {
    const rule = { basePrice: 100, pricePerMetre: 20, minimumPrice: 150 } as ToolingRule;
    expect(cuttingDiePrice(rule, 1)).toBe(150);
    expect(cuttingDiePrice(rule, 10)).toBe(300);
  });

  it('packingLines: packages and pallets on their fractional counts, as a variable term', () => {
    const packing = {
      unitsPerPackage: 300,
      packagesPerPallet: 40,
      packagePrice: 0.9,
      palletPrice: 12,
      package: { kind: 'CASE', name: 'Case 400' },
      pallet: { name: 'EURO' },
    } as unknown as PackingPlan;
    const [cases, pallets] = packingLines(packing, 5000, 7);
    expect(cases).toMatchObject({
      code: 'SHIPPING_CASES',
      unit: 'case',
      quantity: lin(0, 5000 / 300),
      stepIndex: 7,
    });
    expect(at(cases!.amount)).toBeCloseTo((5000 / 300) * 0.9, 9);
    expect(pallets).toMatchObject({ code: 'PALLETS', unit: 'pallet', quantity: lin(0, 5000 / 12000) });
    const bundles = packingLines(
      { ...packing, package: { kind: 'BUNDLE', name: 'Bundle' } } as PackingPlan,
      600,
      0,
    );
    expect(bundles[0]).toMatchObject({ code: 'BUNDLES', unit: 'bundle', quantity: lin(0, 2) });
    // The engine's packing lines are these.
    const route = printed.routes[0]!;
    const index = route.steps.findIndex((s) => s.template.operation.code === 'PACKING');
    expect(
      packingLines(printed.packing, printed.element.quantity, index).map((l) => ({
        ...l,
        existingTool: false,
      })),
    ).toEqual(route.lines.filter((l) => l.nature === 'PACKAGING'));
  });

  it('routeTotals: tooling apart, amortised over the repeats; the margin on the product cost', () => {
    const line = (category: RawCostLine['category'], fixed: number, variable: number) =>
      ({ category, amount: lin(fixed, variable) }) as RawCostLine;
    const steps = [
      { setupHours: 1, rollingHours: lin(0, 2) },
      { setupHours: 0.5, rollingHours: lin(0.25, 1) },
    ] as RouteCosting['steps'];
    const totals = routeTotals(
      [
        line('materials', 10, 100),
        line('tooling', 300, 0),
        line('printing', 50, 20),
        line('tooling', 100, 0),
      ],
      steps,
      4,
      { commercialMargin: 0.2 },
    );
    expect(totals).toEqual({
      productCost: lin(60, 120),
      toolingCost: 400,
      productionHours: lin(1.75, 3),
      amortisedTooling: 100,
      rankingTotal: 180 / 0.8 + 100,
    });
    for (const route of printed.routes) {
      const repeats = routeSelectionOf(catalogue.settings).toolingRepeats;
      expect(routeTotals(route.lines, route.steps, repeats, printed.element)).toEqual({
        productCost: route.productCost,
        toolingCost: route.toolingCost,
        productionHours: route.productionHours,
        rankingTotal: route.rankingTotal,
        amortisedTooling: route.amortisedTooling,
      });
    }
  });

  it('costRoute: the steps together give the route the engine costed, an existing tool free', () => {
    const route = printed.routes[0]!;
    expect(costRoute(printed.session, route.plan, printed.element, printed.dieLine, printed.packing)).toEqual(
      route,
    );
    const tools = route.lines.filter((l) => l.category === 'tooling');
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((l) => !l.existingTool && at(l.amount) > 0)).toBe(true);
  });
});
