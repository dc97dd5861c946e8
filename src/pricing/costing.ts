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
  type Catalogue,
  findConsumable,
  findToolingRule,
  type OperationCategory,
  routeSelectionOf,
  type ToolingRule,
  wasteRateFor,
} from './catalogue.ts';
import { corrugatorYield } from './corrugated.ts';
import { type GangRun, gangLabel, isGang } from './gang.ts';
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

/**
 * Costs one route: quantities backwards through its steps, then the cost lines of every step,
 * then the totals routes are ranked by. Each stage is a named function below.
 */
export function costRoute(
  session: PricingSession,
  plan: RoutePlan,
  element: ResolvedElement,
  dieLine: DieLine,
  packing: PackingPlan,
): RouteCosting {
  const catalogue = session.index.catalogue;
  const { sheetAreaM2, sheetKg } = sheetMeasures(plan, element);
  // 1. Quantities, backwards from the packed units (packing by the package needs them all).
  const { steps, boardSheets } = quantifySteps(plan, element);
  packByThePackage(steps, plan, packing, element.quantity);
  // 2. Costs: the board, then each step's machine time and what it consumes or needs made.
  const lines: RawCostLine[] = [];
  addLine(lines, boardLine(element, plan, boardSheets, sheetAreaM2, sheetKg));
  const route = routeLines(lines, catalogue, plan, element, dieLine, packing, sheetAreaM2);
  const gang = isGang(plan) ? plan.gang : null;
  steps.forEach((step, stepIndex) => {
    const category = CATEGORY_OF[step.template.operation.category];
    const suffix = stepSuffix(step, gang);
    addLine(lines, machineLine(step, stepIndex, category, suffix));
    addOperationLines(route, step, stepIndex, category, suffix);
  });
  // 3. Totals.
  const totals = routeTotals(lines, steps, routeSelectionOf(catalogue.settings).toolingRepeats, element);
  return {
    plan,
    steps,
    lines,
    productCost: totals.productCost,
    toolingCost: totals.toolingCost,
    boardSheets,
    sheetAreaM2,
    sheetKg,
    productionHours: totals.productionHours,
    rankingTotal: totals.rankingTotal,
    amortisedTooling: totals.amortisedTooling,
  };
}

/** The sheet's area and weight: board is bought by the square metre or by the tonne. */
export function sheetMeasures(
  plan: RoutePlan,
  element: ResolvedElement,
): { sheetAreaM2: number; sheetKg: number } {
  const sheetAreaM2 = (plan.sheet.width * plan.sheet.height) / 1e6;
  return { sheetAreaM2, sheetKg: (sheetAreaM2 * element.grammage) / 1000 };
}

/**
 * The printing runs: one per decoration variant (own plates, own make-ready, its share of the
 * flow) or, on a gang run that prints every variant on one sheet, a single run.
 */
export function printRunsOf(
  element: ResolvedElement,
  gang: boolean,
): { decorationIndex: number | null; quantity: number }[] {
  return gang
    ? [{ decorationIndex: null, quantity: element.quantity }]
    : element.decorations.map((d) => ({
        decorationIndex: d.decorationIndex as number | null,
        quantity: d.quantity,
      }));
}

/**
 * Backward pass over a chain of steps: from the good output the last must deliver, each step's
 * input (output, running waste, make-ready), which is what the step before it must deliver.
 * Returns the runs in route order and the input of the first.
 */
export function backwardRuns(
  templates: StepTemplate[],
  output: Lin,
  decorationIndex: number | null,
  flowUps: number,
  element: ResolvedElement,
  plan: RoutePlan,
): { runs: StepRun[]; input: Lin } {
  const runs: StepRun[] = [];
  let flow = output;
  for (let i = templates.length - 1; i >= 0; i--) {
    const template = templates[i]!;
    const { input, makeReady } = stepInput(template, flow, flowUps);
    runs.unshift(run(template, decorationIndex, input, flow, makeReady, element, plan));
    flow = input;
  }
  return { runs, input: flow };
}

/**
 * Quantities of every step: shared (JOB) steps from the packed units back to the first shared
 * step, then each printing run (VARIANT steps) on its share of that flow. The board bought is
 * what enters the first step: the sum of the printing runs' inputs, or the shared flow when
 * nothing is printed.
 */
export function quantifySteps(
  plan: RoutePlan,
  element: ResolvedElement,
): { steps: StepRun[]; boardSheets: Lin } {
  // A gang run prints every variant on one sheet: its sheets carry fewer good units than ups
  // (the overs of the variants that need fewer sheets than the largest).
  const gang = isGang(plan) ? plan.gang : null;
  const flowUps = gang ? gang.effectiveUps : plan.imposition.ups;
  const quantity = element.quantity;
  const jobTemplates = plan.steps.filter((s) => s.scope === 'JOB');
  const variantTemplates = plan.steps.filter((s) => s.scope === 'VARIANT');
  const job = backwardRuns(jobTemplates, lin(0, quantity), null, flowUps, element, plan);
  const flow = job.input;
  const variantRuns: StepRun[] = [];
  let boardSheets: Lin = variantTemplates.length === 0 ? flow : ZERO;
  for (const decoration of printRunsOf(element, gang !== null)) {
    const share = times(flow, decoration.quantity / quantity);
    const variant = backwardRuns(variantTemplates, share, decoration.decorationIndex, flowUps, element, plan);
    if (variantTemplates.length > 0) boardSheets = plus(boardSheets, variant.input);
    variantRuns.push(...variant.runs);
  }
  return { steps: [...variantRuns, ...job.runs], boardSheets };
}

/**
 * Adds a line, its existingTool defaulting to false. No object spread here: it is the hottest
 * allocation of the engine (every line of every route).
 */
function addLine(
  lines: RawCostLine[],
  line: Omit<RawCostLine, 'existingTool'> & { existingTool?: boolean },
): void {
  if (line.existingTool === undefined) line.existingTool = false;
  lines.push(line as RawCostLine);
}

/**
 * The board line. Sheets made to size on a corrugator: the web's edge trim and the corrugating
 * waste are bought too (the web carries `outs` sheets across, deckle side along the flutes; the
 * rest of the web, edge trim included, is bought with them: corrugated.ts).
 */
export function boardLine(
  element: ResolvedElement,
  plan: RoutePlan,
  boardSheets: Lin,
  sheetAreaM2: number,
  sheetKg: number,
): Omit<RawCostLine, 'existingTool'> {
  const board = element.boardPricing;
  const cut = element.reference.cutToSize;
  const corrugatorWaste = cut?.wasteRate ?? 0;
  const web = cut ? corrugatorYield(plan.sheet, cut) : null;
  const boughtFactor = web ? web.factor * (1 + corrugatorWaste) : 1;
  const boardQuantity = times(
    board.basis === 'TONNE' ? times(boardSheets, sheetKg) : times(boardSheets, sheetAreaM2),
    boughtFactor,
  );
  const boardRate = board.basis === 'TONNE' ? board.pricePerTonne / 1000 : board.pricePerM2;
  return {
    category: 'materials',
    code: 'BOARD',
    label: `${element.reference.name}, ${plan.sheet.width} x ${plan.sheet.height} mm sheets${corrugatorNote(cut, web)}`,
    nature: 'MATERIAL',
    quantity: boardQuantity,
    unit: board.basis === 'TONNE' ? 'kg' : 'm2',
    rate: boardRate,
    amount: times(boardQuantity, boardRate),
    stepIndex: null,
    decorationIndex: null,
  };
}

/** What the board label says of the corrugator (outs, web, trim, waste), so the buyer of board sees why more is bought. */
export function corrugatorNote(
  cut: ResolvedElement['reference']['cutToSize'],
  web: ReturnType<typeof corrugatorYield> | null,
): string {
  const trimMm = cut?.trimMm ?? 0;
  const corrugatorWaste = cut?.wasteRate ?? 0;
  const outs = web?.outs ?? 1;
  if (!cut || !(trimMm > 0 || corrugatorWaste > 0)) return '';
  return cut.webWidthsMm && cut.webWidthsMm.length > 0
    ? ` (${outs} out across a ${web!.webWidthMm} mm corrugator web, deckle ${round1(web!.deckleMm)} mm, ${round1((web!.factor - 1) * 100)} % trim, ${round1(corrugatorWaste * 100)} % corrugating waste)`
    : ` (${outs} out on the corrugator, ${trimMm} mm edge trim shared, ${round1(corrugatorWaste * 100)} % corrugating waste)`;
}

/** What tells a step's lines apart in their labels: the variant, the gang, the side and pass. */
export function stepSuffix(step: StepRun, gang: GangRun | null): string {
  const t = step.template;
  const decorationIndex = step.decorationIndex;
  return [
    decorationIndex !== null ? `decoration ${decorationIndex}` : '',
    gang && t.scope === 'VARIANT' ? gangLabel(gang) : '',
    t.side ? `${t.side.toLowerCase()}${t.pass > 1 ? ` pass ${t.pass}` : ''}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** A step's machine time (set-up and running hours) at its machine's hourly rate. */
export function machineLine(
  step: StepRun,
  stepIndex: number,
  category: CostCategoryKey,
  suffix: string,
): Omit<RawCostLine, 'existingTool'> {
  const t = step.template;
  return {
    category,
    code: `MACHINE_${t.operation.code}`,
    label: `${t.operation.name} on ${t.machine.name}${suffix ? ` (${suffix})` : ''}`,
    nature: 'MACHINE',
    quantity: plus(lin(step.setupHours, 0), step.rollingHours),
    unit: 'h',
    rate: t.machine.hourlyRate,
    amount: step.machineCost,
    stepIndex,
    decorationIndex: step.decorationIndex,
  };
}

/**
 * One route's lines being added, and what the operations' lines are drawn from. One object per
 * route, its step fields set before each step's lines: no closures per step.
 */
interface RouteLines {
  lines: RawCostLine[];
  catalogue: Catalogue;
  plan: RoutePlan;
  element: ResolvedElement;
  dieLine: DieLine;
  packing: PackingPlan;
  sheetAreaM2: number;
  ups: number;
  category: CostCategoryKey;
  stepIndex: number;
  decorationIndex: number | null;
  machineId: string;
  machineCode: string;
}

function routeLines(
  lines: RawCostLine[],
  catalogue: Catalogue,
  plan: RoutePlan,
  element: ResolvedElement,
  dieLine: DieLine,
  packing: PackingPlan,
  sheetAreaM2: number,
): RouteLines {
  return {
    lines,
    catalogue,
    plan,
    element,
    dieLine,
    packing,
    sheetAreaM2,
    ups: plan.imposition.ups,
    category: 'materials',
    stepIndex: 0,
    decorationIndex: null,
    machineId: '',
    machineCode: '',
  };
}

/** A consumable of the catalogue (none listed: no line), its quantity from its consumption rate. */
function addConsumable(
  r: RouteLines,
  code: string,
  label: string,
  kind: Parameters<typeof findConsumable>[1],
  quantityOf: (usage: number) => Lin,
  unit: string,
  colour?: string,
): void {
  const item = findConsumable(r.catalogue, kind, colour);
  if (!item) return;
  const q = quantityOf(item.consumptionRate ?? 0);
  addLine(r.lines, {
    category: r.category,
    code,
    label: `${label}: ${item.name}`,
    nature: 'CONSUMABLE',
    quantity: q,
    unit,
    rate: item.price,
    amount: times(q, item.price),
    stepIndex: r.stepIndex,
    decorationIndex: r.decorationIndex,
  });
}

/** A tool made for the order, free when the buyer's existing tool fits the step's machine. */
function addTooling(r: RouteLines, code: string, label: string, count: number, unitPrice: number): void {
  const existing = r.element.existingTools.has(r.machineId);
  addLine(r.lines, {
    category: 'tooling',
    code,
    label: existing ? `${label} (existing tool on ${r.machineCode})` : label,
    nature: 'TOOLING',
    quantity: lin(count, 0),
    unit: 'tool',
    rate: existing ? 0 : unitPrice,
    amount: lin(existing ? 0 : count * unitPrice, 0),
    stepIndex: r.stepIndex,
    decorationIndex: r.decorationIndex,
    existingTool: existing,
  });
}

/** The lines an operation adds beside its machine time: consumables, tools, packaging. */
function addOperationLines(
  r: RouteLines,
  step: StepRun,
  stepIndex: number,
  category: CostCategoryKey,
  suffix: string,
): void {
  const t = step.template;
  r.category = category;
  r.stepIndex = stepIndex;
  r.decorationIndex = step.decorationIndex;
  r.machineId = t.machine.id;
  r.machineCode = t.machine.code;
  switch (t.operation.code) {
    case 'PRINT_OFFSET':
    case 'PRINT_DIGITAL':
    case 'PRINT_FLEXO':
      addPrintingLines(r, step, suffix);
      break;
    case 'LAMINATION':
    case 'VARNISH':
    case 'AQUEOUS_COATING':
      addCoatingLines(r, step);
      break;
    case 'HOT_FOIL_STAMPING':
      addHotFoilLines(r, step);
      break;
    case 'EMBOSSING':
      addEmbossingLines(r);
      break;
    case 'DIE_CUTTING':
    case 'ROTARY_DIE_CUTTING':
      addCuttingDieLine(r, t.operation.code);
      break;
    case 'SLOT_FOLD_GLUE':
    case 'FOLDING_GLUING':
      addGlueLine(r, step);
      break;
    case 'WINDOW_PATCHING':
      addWindowLines(r, step);
      break;
    case 'PACKING':
      for (const line of packingLines(r.packing, r.element.quantity, stepIndex)) addLine(r.lines, line);
      break;
    default:
      break;
  }
}

/** Plates and ink (offset), clicks (digital), ink and plates made to the die's area (flexo). */
function addPrintingLines(r: RouteLines, step: StepRun, suffix: string): void {
  const t = step.template;
  const coverage = r.element.print.coverage;
  switch (t.operation.code) {
    case 'PRINT_OFFSET':
      addConsumable(r, 'OFFSET_PLATES', 'Offset plates', 'OFFSET_PLATE', () => lin(t.colours, 0), 'plate');
      addConsumable(r, 'OFFSET_INK', 'Ink', 'OFFSET_INK', (gsm) => inkKg(r, step, gsm), 'kg');
      break;
    case 'PRINT_DIGITAL':
      addConsumable(
        r,
        'DIGITAL_CLICKS',
        'Clicks (per colour impression)',
        'DIGITAL_CLICK',
        () => times(step.input, t.colours),
        'impression',
      );
      break;
    case 'PRINT_FLEXO': {
      addConsumable(r, 'FLEXO_INK', 'Ink', 'FLEXO_INK', (gsm) => inkKg(r, step, gsm), 'kg');
      const rule = findToolingRule(r.catalogue, 'FLEXO_PLATE');
      if (rule) {
        const areaCm2 = (r.dieLine.areaMm2 * r.ups * coverage) / 100;
        addTooling(
          r,
          'FLEXO_PLATES',
          `Flexo plates, ${round1(areaCm2)} cm2 each${suffix ? ` (${suffix})` : ''}`,
          t.colours,
          toolPrice(rule, areaCm2),
        );
      }
      break;
    }
  }
}

/** Ink on the sheets a press receives: area x coverage x colours x grams per m2 per colour. */
function inkKg(r: RouteLines, step: StepRun, gsm: number): Lin {
  return times(step.input, (r.sheetAreaM2 * r.element.print.coverage * step.template.colours * gsm) / 1000);
}

/** Coating by weight on the sheets received (grams per m2). */
function coatingKg(r: RouteLines, step: StepRun, gsm: number): Lin {
  return times(step.input, (r.sheetAreaM2 * gsm) / 1000);
}

/** Laminate film by the sheet's area; varnish (and its plate) and aqueous coating by weight. */
function addCoatingLines(r: RouteLines, step: StepRun): void {
  switch (step.template.operation.code) {
    case 'LAMINATION':
      addConsumable(
        r,
        'LAMINATE_FILM',
        'Laminate film',
        'LAMINATE_FILM',
        () => times(step.input, r.sheetAreaM2),
        'm2',
      );
      break;
    case 'VARNISH':
      addConsumable(r, 'VARNISH', 'Varnish', 'VARNISH', (gsm) => coatingKg(r, step, gsm), 'kg');
      addConsumable(r, 'VARNISH_PLATE', 'Varnish plate', 'VARNISH_PLATE', () => lin(1, 0), 'plate');
      break;
    case 'AQUEOUS_COATING':
      // Flood coat from the press's coating unit: no plate.
      addConsumable(
        r,
        'AQUEOUS_COATING',
        'Aqueous coating',
        'AQUEOUS_COATING',
        (gsm) => coatingKg(r, step, gsm),
        'kg',
      );
      break;
  }
}

/** Per stamp: foil (its area plus the allowance, on every up) and a die per up. */
function addHotFoilLines(r: RouteLines, step: StepRun): void {
  const a = r.catalogue.settings.foilAllowanceMm;
  const rule = findToolingRule(r.catalogue, 'STAMPING_DIE');
  r.element.stampings.forEach((stamp, i) => {
    const foilM2 = ((stamp.width + 2 * a) * (stamp.height + 2 * a)) / 1e6;
    addConsumable(
      r,
      `FOIL`,
      `Foil ${stamp.color} (stamp ${i + 1})`,
      'FOIL',
      () => times(step.input, r.ups * foilM2),
      'm2',
      stamp.color,
    );
    if (rule) {
      const engravedCm2 = (stamp.width * stamp.height * stamp.coverage) / 100;
      addTooling(
        r,
        'STAMPING_DIE',
        `Stamping die ${stamp.width} x ${stamp.height} mm (stamp ${i + 1}) x ${r.ups} ups`,
        r.ups,
        toolPrice(rule, engravedCm2),
      );
    }
  });
}

/** Per embossing: a die per up (braille or embossing), priced by area and depth. */
function addEmbossingLines(r: RouteLines): void {
  const ups = r.ups;
  r.element.embossings.forEach((emboss, i) => {
    const rule = findToolingRule(r.catalogue, emboss.type === 'BRAILLE' ? 'BRAILLE_DIE' : 'EMBOSSING_DIE');
    if (!rule) return;
    const areaCm2 = (emboss.width * emboss.height) / 100;
    addTooling(
      r,
      emboss.type === 'BRAILLE' ? 'BRAILLE_DIE' : 'EMBOSSING_DIE',
      `${emboss.type.toLowerCase()} die ${emboss.width} x ${emboss.height} mm, ${emboss.depth} mm deep (${i + 1}) x ${ups} ups`,
      ups,
      toolPrice(rule, areaCm2, emboss.depth),
    );
  });
}

/** The cutting die (flat or rotary), priced by the metres of cutting and creasing rule. */
function addCuttingDieLine(r: RouteLines, code: 'DIE_CUTTING' | 'ROTARY_DIE_CUTTING'): void {
  const rule = findToolingRule(r.catalogue, code === 'DIE_CUTTING' ? 'CUTTING_DIE' : 'ROTARY_DIE');
  if (!rule) return;
  const metres = ((r.dieLine.cutLengthMm + r.dieLine.creaseLengthMm) * r.ups) / 1000;
  addTooling(
    r,
    rule.kind,
    `${rule.name}: ${round1(metres)} m of rule for ${r.ups} ups`,
    1,
    cuttingDiePrice(rule, metres),
  );
}

/** A cutting die's price: base plus its metres of rule, never under the minimum. */
export function cuttingDiePrice(rule: ToolingRule, metres: number): number {
  return Math.max(rule.minimumPrice, rule.basePrice + rule.pricePerMetre * metres);
}

/** Glue along the glue flap, per unit glued (sheets in, units out: the units). */
function addGlueLine(r: RouteLines, step: StepRun): void {
  const t = step.template;
  const units = t.output === 'UNIT' && t.input === 'SHEET' ? step.output : step.input;
  addConsumable(
    r,
    'FOLDING_GLUE',
    'Glue',
    'FOLDING_GLUE',
    (gPerM) => times(units, (r.dieLine.glueLengthMm / 1000) * (gPerM / 1000)),
    'kg',
  );
}

/** Window film (the window plus its overlap each side) and the glue around it. */
function addWindowLines(r: RouteLines, step: StepRun): void {
  const o = r.catalogue.settings.windowFilmOverlapMm;
  const w = (r.element.window?.width ?? 0) + 2 * o;
  const h = (r.element.window?.height ?? 0) + 2 * o;
  addConsumable(r, 'WINDOW_FILM', 'Window film', 'WINDOW_FILM', () => times(step.input, (w * h) / 1e6), 'm2');
  addConsumable(
    r,
    'WINDOW_GLUE',
    'Window glue',
    'WINDOW_GLUE',
    (gPerM) => times(step.input, ((2 * (w + h)) / 1000) * (gPerM / 1000)),
    'kg',
  );
}

/**
 * Packages and pallets, charged on their exact (fractional) counts so that the unit price never
 * rises with quantity.
 */
export function packingLines(
  packing: PackingPlan,
  quantity: number,
  stepIndex: number,
): Omit<RawCostLine, 'existingTool'>[] {
  const packages = lin(0, quantity / packing.unitsPerPackage);
  const pallets = lin(0, quantity / (packing.unitsPerPackage * packing.packagesPerPallet));
  return [
    {
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
    },
    {
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
    },
  ];
}

/**
 * Product cost (every category but tooling), tooling, production hours, and what routes are
 * ranked by: the product price at the element's margin plus the tooling charged to this order
 * (tooling / repeats, as a tool is expected to serve that many orders).
 */
export function routeTotals(
  lines: RawCostLine[],
  steps: StepRun[],
  toolingRepeats: number,
  element: Pick<ResolvedElement, 'commercialMargin'>,
): Pick<
  RouteCosting,
  'productCost' | 'toolingCost' | 'productionHours' | 'rankingTotal' | 'amortisedTooling'
> {
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
  const amortisedTooling = toolingCost / toolingRepeats;
  const rankingTotal = at(productCost) / (1 - element.commercialMargin) + amortisedTooling;
  return { productCost, toolingCost, productionHours, rankingTotal, amortisedTooling };
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
