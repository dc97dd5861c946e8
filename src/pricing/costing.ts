/**
 * Quantities, operation times and costs of one route.
 *
 * Quantities run backwards from the last operation: each operation must receive its good output
 * plus running waste (a fraction of that output) plus its make-ready spoilage. Shared operations
 * (finishing, cutting, gluing, packing) are made ready once; printing is made ready once per
 * decoration variant (own plates) and receives that variant's share of the shared flow.
 *
 * Every quantity and cost is kept as a linear form `fixed + variable * k`, k being a scale on all
 * ordered quantities (k = 1 is the brief as asked). Fixed parts are set-ups, make-ready and
 * plates; variable parts are running sheets, time and consumption. Costs are charged on the
 * exact (fractional) sheet, case and pallet counts, which is what keeps the unit price from ever
 * rising with quantity; the physical counts reported are those numbers rounded up.
 */
import {
  findConsumable,
  findToolingRule,
  type OperationCategory,
  routeSelectionOf,
  type ToolingRule,
  wasteRateFor,
} from './catalogue.ts';
import { corrugatorYield } from './corrugated.ts';
import { gangLabel, isGang } from './gang.ts';
import type { DieLine } from './geometry/die-line.ts';
import type { PackingPlan } from './logistics.ts';
import { round1 } from './money.ts';
import { liftsFor, type RoutePlan, type StepTemplate } from './process-planning.ts';
import type { ResolvedElement } from './resolve.ts';
import type { PricingSession } from './session.ts';

/** A quantity as a function of the quantity scale k: fixed + variable * k. */
export interface Lin {
  fixed: number;
  variable: number;
}

export const lin = (fixed: number, variable: number): Lin => ({ fixed, variable });
export const at = (x: Lin, k = 1): number => x.fixed + x.variable * k;
const times = (x: Lin, c: number): Lin => ({ fixed: x.fixed * c, variable: x.variable * c });
const plus = (x: Lin, y: Lin): Lin => ({ fixed: x.fixed + y.fixed, variable: x.variable + y.variable });
const ZERO: Lin = { fixed: 0, variable: 0 };

export type CostCategoryKey = 'materials' | 'printing' | 'finishing' | 'converting' | 'packing' | 'tooling';
export type CostNature = 'MATERIAL' | 'CONSUMABLE' | 'MACHINE' | 'PACKAGING' | 'TOOLING';

export interface RawCostLine {
  category: CostCategoryKey;
  code: string;
  label: string;
  nature: CostNature;
  quantity: Lin;
  unit: string;
  rate: number;
  amount: Lin;
  /** Index into RouteCosting.steps of the operation the line belongs to. */
  stepIndex: number | null;
  decorationIndex: number | null;
  existingTool: boolean;
}

export interface StepRun {
  template: StepTemplate;
  decorationIndex: number | null;
  /** Sheets (or units) the operation must receive, with make-ready and running waste. */
  input: Lin;
  /** Good sheets (or units) it hands on. */
  output: Lin;
  makeReady: number;
  setupHours: number;
  rollingHours: Lin;
  machineCost: Lin;
  /** Packing by the package: units per hour of the line whose delivery fills the packages. */
  lineSpeedPerHour?: number | null;
  /** Guillotine: whole lifts cut (each decoration variant's pile apart) and cuts per lift. */
  lifts?: number;
  cutsPerLift?: number;
}

export interface RouteCosting {
  plan: RoutePlan;
  steps: StepRun[];
  lines: RawCostLine[];
  /** Manufacturing cost before margin (all categories but tooling). */
  productCost: Lin;
  toolingCost: number;
  /** Sheets bought (entering the first operation). */
  boardSheets: Lin;
  sheetAreaM2: number;
  sheetKg: number;
  productionHours: Lin;
  /**
   * What routes are ranked by: product price (cost / (1 - m)) + tooling / toolingRepeats,
   * unrounded. Delivery is the same for every route of an element, so it is left out.
   */
  rankingTotal: number;
  /** Tooling charged to this order in the ranking (tooling / toolingRepeats). */
  amortisedTooling: number;
}

const CATEGORY_OF: Record<OperationCategory, CostCategoryKey> = {
  PRINTING: 'printing',
  FINISHING: 'finishing',
  CONVERTING: 'converting',
  PACKING: 'packing',
};

function toolPrice(rule: ToolingRule, areaCm2: number, depthMm = 0): number {
  const areaPrice = rule.pricePerSquareCentimetre * areaCm2 * (1 + rule.depthSurchargePerMm * depthMm);
  return Math.max(rule.minimumPrice, rule.basePrice + areaPrice);
}

/** Backward pass: input of one step from the output it must deliver. */
function stepInput(template: StepTemplate, output: Lin, ups: number): { input: Lin; makeReady: number } {
  const rate = template.rate;
  const outputInInputUnits =
    template.input === 'SHEET' && template.output === 'UNIT' ? times(output, 1 / ups) : output;
  const makeReady = rate.makeReady + rate.makeReadyPerColour * template.colours;
  // The spoilage table is read at the run length asked (k = 1); kept constant in k.
  const waste = wasteRateFor(rate, at(outputInInputUnits));
  const running = template.inline ? outputInInputUnits : times(outputInInputUnits, 1 + waste);
  return { input: plus(running, lin(makeReady, 0)), makeReady };
}

export function costRoute(
  session: PricingSession,
  plan: RoutePlan,
  element: ResolvedElement,
  dieLine: DieLine,
  packing: PackingPlan,
): RouteCosting {
  const catalogue = session.index.catalogue;
  const settings = catalogue.settings;
  const ups = plan.imposition.ups;
  // A gang run prints every variant on one sheet: its sheets carry fewer good units than ups
  // (the overs of the variants that need fewer sheets than the largest).
  const gang = isGang(plan) ? plan.gang : null;
  const flowUps = gang ? gang.effectiveUps : ups;
  const quantity = element.quantity;
  const sheetAreaM2 = (plan.sheet.width * plan.sheet.height) / 1e6;
  const sheetKg = (sheetAreaM2 * element.grammage) / 1000;

  // 1. Quantities, backwards: shared (JOB) steps from the packed units to the first shared step.
  const jobTemplates = plan.steps.filter((s) => s.scope === 'JOB');
  const variantTemplates = plan.steps.filter((s) => s.scope === 'VARIANT');
  const jobRuns: StepRun[] = [];
  let flow: Lin = lin(0, quantity);
  for (let i = jobTemplates.length - 1; i >= 0; i--) {
    const template = jobTemplates[i]!;
    const { input, makeReady } = stepInput(template, flow, flowUps);
    jobRuns.unshift(run(template, null, input, flow, makeReady, element, plan));
    flow = input;
  }
  // Printing, per decoration variant, on that variant's share of the shared flow.
  const variantRuns: StepRun[] = [];
  let boardSheets: Lin = variantTemplates.length === 0 ? flow : ZERO;
  // Separate runs: one printing run per variant on its share of the flow; a gang run: one run.
  const printRuns = gang
    ? [{ decorationIndex: null, quantity }]
    : element.decorations.map((d) => ({
        decorationIndex: d.decorationIndex as number | null,
        quantity: d.quantity,
      }));
  for (const decoration of printRuns) {
    let variantFlow = times(flow, decoration.quantity / quantity);
    const runs: StepRun[] = [];
    for (let i = variantTemplates.length - 1; i >= 0; i--) {
      const template = variantTemplates[i]!;
      const { input, makeReady } = stepInput(template, variantFlow, flowUps);
      runs.unshift(run(template, decoration.decorationIndex, input, variantFlow, makeReady, element, plan));
      variantFlow = input;
    }
    if (variantTemplates.length > 0) boardSheets = plus(boardSheets, variantFlow);
    variantRuns.push(...runs);
  }
  const steps = [...variantRuns, ...jobRuns];
  packByThePackage(steps, plan, packing, quantity);

  // 2. Costs.
  const lines: RawCostLine[] = [];
  // No object spread here: it is the hottest allocation of the engine (every line of every route).
  const add = (line: Omit<RawCostLine, 'existingTool'> & { existingTool?: boolean }) => {
    if (line.existingTool === undefined) line.existingTool = false;
    lines.push(line as RawCostLine);
  };
  const board = element.boardPricing;
  // Sheets made to size on a corrugator: the web's edge trim and the corrugating waste are bought.
  const cut = element.reference.cutToSize;
  const trimMm = cut?.trimMm ?? 0;
  const corrugatorWaste = cut?.wasteRate ?? 0;
  // The web carries `outs` sheets across (their deckle side along the flutes); the rest of the
  // web, edge trim included, is bought with them (corrugated.ts).
  const web = cut ? corrugatorYield(plan.sheet, cut) : null;
  const outs = web?.outs ?? 1;
  const boughtFactor = web ? web.factor * (1 + corrugatorWaste) : 1;
  const boardQuantity = times(
    board.basis === 'TONNE' ? times(boardSheets, sheetKg) : times(boardSheets, sheetAreaM2),
    boughtFactor,
  );
  const boardRate = board.basis === 'TONNE' ? board.pricePerTonne / 1000 : board.pricePerM2;
  const trimNote =
    cut && (trimMm > 0 || corrugatorWaste > 0)
      ? cut.webWidthsMm && cut.webWidthsMm.length > 0
        ? ` (${outs} out across a ${web!.webWidthMm} mm corrugator web, deckle ${round1(web!.deckleMm)} mm, ${round1((web!.factor - 1) * 100)} % trim, ${round1(corrugatorWaste * 100)} % corrugating waste)`
        : ` (${outs} out on the corrugator, ${trimMm} mm edge trim shared, ${round1(corrugatorWaste * 100)} % corrugating waste)`
      : '';
  add({
    category: 'materials',
    code: 'BOARD',
    label: `${element.reference.name}, ${plan.sheet.width} x ${plan.sheet.height} mm sheets${trimNote}`,
    nature: 'MATERIAL',
    quantity: boardQuantity,
    unit: board.basis === 'TONNE' ? 'kg' : 'm2',
    rate: boardRate,
    amount: times(boardQuantity, boardRate),
    stepIndex: null,
    decorationIndex: null,
  });

  const coverage = element.print.coverage;
  // The step whose lines are being added (one context per route: no closures per step).
  const ctx = {
    category: 'materials' as CostCategoryKey,
    stepIndex: 0,
    decorationIndex: null as number | null,
    machineId: '',
    machineCode: '',
  };
  function consumable(
    code: string,
    label: string,
    kind: Parameters<typeof findConsumable>[1],
    quantityOf: (usage: number) => Lin,
    unit: string,
    colour?: string,
  ): void {
    const item = findConsumable(catalogue, kind, colour);
    if (!item) return;
    const q = quantityOf(item.consumptionRate ?? 0);
    add({
      category: ctx.category,
      code,
      label: `${label}: ${item.name}`,
      nature: 'CONSUMABLE',
      quantity: q,
      unit,
      rate: item.price,
      amount: times(q, item.price),
      stepIndex: ctx.stepIndex,
      decorationIndex: ctx.decorationIndex,
    });
  }
  function tooling(code: string, label: string, count: number, unitPrice: number): void {
    const existing = element.existingTools.has(ctx.machineId);
    add({
      category: 'tooling',
      code,
      label: existing ? `${label} (existing tool on ${ctx.machineCode})` : label,
      nature: 'TOOLING',
      quantity: lin(count, 0),
      unit: 'tool',
      rate: existing ? 0 : unitPrice,
      amount: lin(existing ? 0 : count * unitPrice, 0),
      stepIndex: ctx.stepIndex,
      decorationIndex: ctx.decorationIndex,
      existingTool: existing,
    });
  }
  steps.forEach((step, stepIndex) => {
    const t = step.template;
    const category = CATEGORY_OF[t.operation.category];
    const decorationIndex = step.decorationIndex;
    const suffix = [
      decorationIndex !== null ? `decoration ${decorationIndex}` : '',
      gang && t.scope === 'VARIANT' ? gangLabel(gang) : '',
      t.side ? `${t.side.toLowerCase()}${t.pass > 1 ? ` pass ${t.pass}` : ''}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const hours = plus(lin(step.setupHours, 0), step.rollingHours);
    add({
      category,
      code: `MACHINE_${t.operation.code}`,
      label: `${t.operation.name} on ${t.machine.name}${suffix ? ` (${suffix})` : ''}`,
      nature: 'MACHINE',
      quantity: hours,
      unit: 'h',
      rate: t.machine.hourlyRate,
      amount: step.machineCost,
      stepIndex,
      decorationIndex,
    });
    ctx.category = category;
    ctx.stepIndex = stepIndex;
    ctx.decorationIndex = decorationIndex;
    ctx.machineId = t.machine.id;
    ctx.machineCode = t.machine.code;
    switch (t.operation.code) {
      case 'PRINT_OFFSET':
        consumable('OFFSET_PLATES', 'Offset plates', 'OFFSET_PLATE', () => lin(t.colours, 0), 'plate');
        consumable(
          'OFFSET_INK',
          'Ink',
          'OFFSET_INK',
          (gsm) => times(step.input, (sheetAreaM2 * coverage * t.colours * gsm) / 1000),
          'kg',
        );
        break;
      case 'PRINT_DIGITAL':
        consumable(
          'DIGITAL_CLICKS',
          'Clicks (per colour impression)',
          'DIGITAL_CLICK',
          () => times(step.input, t.colours),
          'impression',
        );
        break;
      case 'PRINT_FLEXO': {
        consumable(
          'FLEXO_INK',
          'Ink',
          'FLEXO_INK',
          (gsm) => times(step.input, (sheetAreaM2 * coverage * t.colours * gsm) / 1000),
          'kg',
        );
        const rule = findToolingRule(catalogue, 'FLEXO_PLATE');
        if (rule) {
          const areaCm2 = (dieLine.areaMm2 * ups * coverage) / 100;
          tooling(
            'FLEXO_PLATES',
            `Flexo plates, ${round1(areaCm2)} cm2 each${suffix ? ` (${suffix})` : ''}`,
            t.colours,
            toolPrice(rule, areaCm2),
          );
        }
        break;
      }
      case 'LAMINATION':
        consumable(
          'LAMINATE_FILM',
          'Laminate film',
          'LAMINATE_FILM',
          () => times(step.input, sheetAreaM2),
          'm2',
        );
        break;
      case 'VARNISH':
        consumable(
          'VARNISH',
          'Varnish',
          'VARNISH',
          (gsm) => times(step.input, (sheetAreaM2 * gsm) / 1000),
          'kg',
        );
        consumable('VARNISH_PLATE', 'Varnish plate', 'VARNISH_PLATE', () => lin(1, 0), 'plate');
        break;
      case 'AQUEOUS_COATING':
        // Flood coat from the press's coating unit: no plate.
        consumable(
          'AQUEOUS_COATING',
          'Aqueous coating',
          'AQUEOUS_COATING',
          (gsm) => times(step.input, (sheetAreaM2 * gsm) / 1000),
          'kg',
        );
        break;
      case 'HOT_FOIL_STAMPING': {
        const a = settings.foilAllowanceMm;
        const rule = findToolingRule(catalogue, 'STAMPING_DIE');
        element.stampings.forEach((stamp, i) => {
          const foilM2 = ((stamp.width + 2 * a) * (stamp.height + 2 * a)) / 1e6;
          consumable(
            `FOIL`,
            `Foil ${stamp.color} (stamp ${i + 1})`,
            'FOIL',
            () => times(step.input, ups * foilM2),
            'm2',
            stamp.color,
          );
          if (rule) {
            const engravedCm2 = (stamp.width * stamp.height * stamp.coverage) / 100;
            tooling(
              'STAMPING_DIE',
              `Stamping die ${stamp.width} x ${stamp.height} mm (stamp ${i + 1}) x ${ups} ups`,
              ups,
              toolPrice(rule, engravedCm2),
            );
          }
        });
        break;
      }
      case 'EMBOSSING':
        element.embossings.forEach((emboss, i) => {
          const rule = findToolingRule(
            catalogue,
            emboss.type === 'BRAILLE' ? 'BRAILLE_DIE' : 'EMBOSSING_DIE',
          );
          if (!rule) return;
          const areaCm2 = (emboss.width * emboss.height) / 100;
          tooling(
            emboss.type === 'BRAILLE' ? 'BRAILLE_DIE' : 'EMBOSSING_DIE',
            `${emboss.type.toLowerCase()} die ${emboss.width} x ${emboss.height} mm, ${emboss.depth} mm deep (${i + 1}) x ${ups} ups`,
            ups,
            toolPrice(rule, areaCm2, emboss.depth),
          );
        });
        break;
      case 'DIE_CUTTING':
      case 'ROTARY_DIE_CUTTING': {
        const rule = findToolingRule(
          catalogue,
          t.operation.code === 'DIE_CUTTING' ? 'CUTTING_DIE' : 'ROTARY_DIE',
        );
        if (rule) {
          const metres = ((dieLine.cutLengthMm + dieLine.creaseLengthMm) * ups) / 1000;
          const price = Math.max(rule.minimumPrice, rule.basePrice + rule.pricePerMetre * metres);
          tooling(rule.kind, `${rule.name}: ${round1(metres)} m of rule for ${ups} ups`, 1, price);
        }
        break;
      }
      case 'SLOT_FOLD_GLUE':
      case 'FOLDING_GLUING': {
        const units = t.output === 'UNIT' && t.input === 'SHEET' ? step.output : step.input;
        consumable(
          'FOLDING_GLUE',
          'Glue',
          'FOLDING_GLUE',
          (gPerM) => times(units, (dieLine.glueLengthMm / 1000) * (gPerM / 1000)),
          'kg',
        );
        break;
      }
      case 'WINDOW_PATCHING': {
        const o = settings.windowFilmOverlapMm;
        const w = (element.window?.width ?? 0) + 2 * o;
        const h = (element.window?.height ?? 0) + 2 * o;
        consumable('WINDOW_FILM', 'Window film', 'WINDOW_FILM', () => times(step.input, (w * h) / 1e6), 'm2');
        consumable(
          'WINDOW_GLUE',
          'Window glue',
          'WINDOW_GLUE',
          (gPerM) => times(step.input, ((2 * (w + h)) / 1000) * (gPerM / 1000)),
          'kg',
        );
        break;
      }
      case 'PACKING': {
        const packages = lin(0, quantity / packing.unitsPerPackage);
        add({
          category: 'packing',
          code: packing.package.kind === 'BUNDLE' ? 'BUNDLES' : 'SHIPPING_CASES',
          label: `${packing.package.name}, ${packing.unitsPerPackage} units each`,
          nature: 'PACKAGING',
          quantity: packages,
          unit: packing.package.kind === 'BUNDLE' ? 'bundle' : 'case',
          rate: packing.packagePrice,
          amount: times(packages, packing.packagePrice),
          stepIndex,
          decorationIndex: null,
        });
        const pallets = lin(0, quantity / (packing.unitsPerPackage * packing.packagesPerPallet));
        add({
          category: 'packing',
          code: 'PALLETS',
          label: `${packing.pallet.name}, ${packing.packagesPerPallet} packages each`,
          nature: 'PACKAGING',
          quantity: pallets,
          unit: 'pallet',
          rate: packing.palletPrice,
          amount: times(pallets, packing.palletPrice),
          stepIndex,
          decorationIndex: null,
        });
        break;
      }
      default:
        break;
    }
  });

  let productCost = ZERO;
  let toolingCost = 0;
  for (const line of lines) {
    if (line.category === 'tooling') toolingCost += at(line.amount);
    else productCost = plus(productCost, line.amount);
  }
  const productionHours = steps.reduce(
    (sum, s) => plus(sum, plus(lin(s.setupHours, 0), s.rollingHours)),
    ZERO,
  );
  const repeats = routeSelectionOf(settings).toolingRepeats;
  const amortisedTooling = toolingCost / repeats;
  const rankingTotal = at(productCost) / (1 - element.commercialMargin) + amortisedTooling;
  return {
    plan,
    steps,
    lines,
    productCost,
    toolingCost,
    boardSheets,
    sheetAreaM2,
    sheetKg,
    productionHours,
    rankingTotal,
    amortisedTooling,
  };
}

/**
 * Packing by the package (rate.speedBasis PACKAGE): packages are filled at the delivery of the
 * last operation, at its line speed, and each needs its handling (make up, close, label,
 * palletise) at the package's packagesPerHour: the packer is busy for the longer of the two.
 */
function packByThePackage(steps: StepRun[], plan: RoutePlan, packing: PackingPlan, quantity: number): void {
  const index = steps.findIndex((s) => s.template.operation.code === 'PACKING');
  if (index < 0) return;
  const step = steps[index]!;
  const rate = step.template.rate;
  if (rate.speedBasis !== 'PACKAGE') return;
  const packagesPerHour = packing.packagesPerHour ?? rate.speedPerHour;
  const packagesPerK = quantity / packing.unitsPerPackage;
  // The line: the last operation before packing (back to the first step of an inline group).
  let last = index - 1;
  while (last > 0 && steps[last]!.template.inline) last--;
  const line = last >= 0 ? steps[last]!.template : null;
  let lineSpeed: number | null = null;
  if (line && line.operation.code !== 'GUILLOTINE_CUTTING' && line.operation.code !== 'PACKING') {
    lineSpeed = line.input === 'SHEET' ? line.rate.speedPerHour * goodUps(plan) : line.rate.speedPerHour;
  }
  const handlingHours = packagesPerK / packagesPerHour;
  const lineHours = lineSpeed ? quantity / lineSpeed : 0;
  step.rollingHours = lin(0, Math.max(handlingHours, lineHours));
  step.machineCost = times(
    plus(lin(step.setupHours, 0), step.rollingHours),
    step.template.machine.hourlyRate,
  );
  step.lineSpeedPerHour = lineSpeed;
}

function run(
  template: StepTemplate,
  decorationIndex: number | null,
  input: Lin,
  output: Lin,
  makeReady: number,
  element: ResolvedElement,
  plan: RoutePlan,
): StepRun {
  const rate = template.rate;
  const setupHours =
    rate.setupHours + rate.setupHoursPerColour * template.colours + rate.setupHoursPerTool * template.tools;
  let rollingHours: Lin;
  if (template.inline) rollingHours = ZERO;
  else if (template.operation.code === 'GUILLOTINE_CUTTING') {
    // Whole lifts, each decoration variant's pile cut apart; every lift takes every cut. Kept as
    // a variable term so that it is exact at k = 1 (value analysis re-prices any other quantity).
    const total = at(input);
    // Separate runs are separate piles; a gang run is one pile.
    const piles = isGang(plan) ? [{ quantity: element.quantity }] : element.decorations;
    const lifts = piles.reduce(
      (sum, d) =>
        sum + liftsFor((total * d.quantity) / element.quantity, element.caliperMm, template.machine),
      0,
    );
    const cutsPerLift = plan.imposition.cutsPerSheet;
    rollingHours = lin(0, (lifts * cutsPerLift) / rate.speedPerHour);
    const machineCost = times(plus(lin(setupHours, 0), rollingHours), template.machine.hourlyRate);
    return {
      template,
      decorationIndex,
      input,
      output,
      makeReady,
      setupHours,
      rollingHours,
      machineCost,
      lifts,
      cutsPerLift,
    };
  } else rollingHours = times(input, 1 / rate.speedPerHour);
  const machineCost = times(plus(lin(setupHours, 0), rollingHours), template.machine.hourlyRate);
  return { template, decorationIndex, input, output, makeReady, setupHours, rollingHours, machineCost };
}

/** Good units per sheet: the ups, or fewer on a gang run (overs). */
function goodUps(plan: RoutePlan): number {
  return isGang(plan) ? plan.gang.effectiveUps : plan.imposition.ups;
}
