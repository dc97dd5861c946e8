/**
 * Process planning: for each printing process and each sheet the board is sold in, the ordered
 * operations and the machine that runs each one, plus the imposition on that sheet.
 *
 * A sheet is usable only if every sheet-fed machine of the route (press, coater, laminator, foil
 * press, die-cutter or guillotine) accepts it and the board's caliper. Margins are the largest
 * gripper/side/tail of those machines, the gutter that of the cutting machine. When several
 * machines can run an operation, the one with the lowest set-up + running cost for this job is
 * taken. Routes that cannot be made say why (RouteFailure) so validation can report it.
 */
import {
  type Format,
  formatFits,
  grainRuleOf,
  type Machine,
  type MachineOperationRate,
  machineRate,
  normaliseFormat,
  type Operation,
  type OperationCode,
} from './catalogue.ts';
import { corrugatedSheets, fluteRuleOf } from './corrugated.ts';
import type { DieLine } from './geometry/die-line.ts';
import { grainLayout, type Imposition, type SheetMargins } from './imposition.ts';
import type { ResolvedElement, RouteProcess } from './resolve.ts';
import { impositionFor, type PricingSession } from './session.ts';

export type FlowUnit = 'SHEET' | 'UNIT';

export interface StepTemplate {
  operation: Operation;
  machine: Machine;
  rate: MachineOperationRate;
  /** VARIANT steps run once per decoration variant (own plates and make-ready); JOB steps once. */
  scope: 'VARIANT' | 'JOB';
  side: 'RECTO' | 'VERSO' | null;
  /** Printing pass on this side (1-based) when a side has more colours than the press has units. */
  pass: number;
  colours: number;
  /** Dies mounted (stamping/embossing). */
  tools: number;
  input: FlowUnit;
  output: FlowUnit;
  /** Runs in the same pass as the previous step on the same machine: no own rolling time or waste. */
  inline: boolean;
}

export interface RoutePlan {
  key: string;
  process: RouteProcess;
  sheet: Format;
  imposition: Imposition;
  steps: StepTemplate[];
  /**
   * Fewer ups than the sheet holds (fewer-ups.ts): the densest layout's ups this route gave up
   * to save tooling that is made per up (dies, plates). Absent on the densest layout.
   */
  reducedFromUps?: number;
}

export interface RouteFailure {
  pointer: string;
  message: string;
  /** Higher is more specific; validation reports the highest-ranked reasons. */
  rank: number;
  /** Orders reasons of equal rank, larger first (the usable area for "blank too big"). */
  order?: number;
}

export interface RoutePlanning {
  plans: RoutePlan[];
  failures: RouteFailure[];
}

interface StepSpec {
  code: OperationCode;
  scope: 'VARIANT' | 'JOB';
  side: 'RECTO' | 'VERSO' | null;
  colours: number;
  tools: number;
  input: FlowUnit;
  output: FlowUnit;
  /** The brief field that asked for the step, for failure messages. */
  pointer: string;
}

const PRINT_CODE: Record<Exclude<RouteProcess, 'none'>, OperationCode> = {
  offset: 'PRINT_OFFSET',
  digital: 'PRINT_DIGITAL',
  flexo: 'PRINT_FLEXO',
};

/** Operations whose tools (dies, plates) can already exist on a machine (LayoutCount). */
export const TOOL_OPERATIONS: ReadonlySet<OperationCode> = new Set<OperationCode>([
  'DIE_CUTTING',
  'ROTARY_DIE_CUTTING',
  'SLOT_FOLD_GLUE',
  'HOT_FOIL_STAMPING',
  'EMBOSSING',
  'PRINT_FLEXO',
]);

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();
const formatText = (f: Format) => `${fmt(f.width)} x ${fmt(f.height)} mm`;

function elementPointer(element: ResolvedElement, field: string): string {
  return `/briefElements/${element.arrayIndex}/${field}`;
}

/** The operations a sheet-fed (folding carton, flat item) element goes through, in order. */
function sheetFedSpecs(element: ResolvedElement, process: RouteProcess): StepSpec[] {
  const p = (field: string) => elementPointer(element, field);
  const specs: StepSpec[] = [];
  if (process !== 'none') {
    const code = PRINT_CODE[process];
    const processPointer = element.input.printingProcess ? p('printingProcess') : p('wantDecoration');
    if (element.print.recto > 0) {
      specs.push({
        code,
        scope: 'VARIANT',
        side: 'RECTO',
        colours: element.print.recto,
        tools: 0,
        input: 'SHEET',
        output: 'SHEET',
        pointer: processPointer,
      });
    }
    if (element.print.verso > 0) {
      specs.push({
        code,
        scope: 'VARIANT',
        side: 'VERSO',
        colours: element.print.verso,
        tools: 0,
        input: 'SHEET',
        output: 'SHEET',
        pointer: processPointer,
      });
    }
  }
  const job = (
    code: OperationCode,
    pointer: string,
    tools = 0,
    input: FlowUnit = 'SHEET',
    output: FlowUnit = input,
  ): StepSpec => ({
    code,
    scope: 'JOB',
    side: null,
    colours: 0,
    tools,
    input,
    output,
    pointer,
  });
  // Laminate first; a varnish after lamination is a spot/UV coat on top of the film.
  if (element.lamination) specs.push(job('LAMINATION', p('wantLaminationRecto')));
  if (element.varnish) specs.push(job('VARNISH', p('wantVarnishRecto')));
  if (element.stampings.length > 0)
    specs.push(job('HOT_FOIL_STAMPING', p('wantStampingRecto'), element.stampings.length));
  if (element.embossings.length > 0) {
    specs.push(job('EMBOSSING', p('wantEmbossingDebossingRecto'), element.embossings.length));
  }
  specs.push(job(element.product.cuttingOperation, p('productId'), 0, 'SHEET', 'UNIT'));
  if (element.window) specs.push(job('WINDOW_PATCHING', p('wantWindow'), 0, 'UNIT'));
  if (element.product.gluing) specs.push(job('FOLDING_GLUING', p('productId'), 0, 'UNIT'));
  specs.push(job('PACKING', p('productId'), 0, 'UNIT'));
  return specs;
}

function caliperFits(machine: Machine, caliper: number): boolean {
  return caliper >= machine.minCaliperMm && caliper <= machine.maxCaliperMm;
}

function machinesFor(
  session: PricingSession,
  element: ResolvedElement,
  spec: StepSpec,
  sheet: Format,
  dieLine: DieLine,
): { machine: Machine; rate: MachineOperationRate }[] {
  const blank = normaliseFormat({ width: dieLine.width, height: dieLine.height });
  const out: { machine: Machine; rate: MachineOperationRate }[] = [];
  for (const machine of session.index.catalogue.machines) {
    const rate = machineRate(session.index, machine, spec.code);
    if (!rate || rate.speedPerHour <= 0) continue;
    if (!caliperFits(machine, element.caliperMm)) continue;
    if (spec.input === 'SHEET' && !formatFits(sheet, machine.minFormat, machine.maxFormat)) continue;
    if (
      spec.input === 'UNIT' &&
      spec.code !== 'PACKING' &&
      !formatFits(blank, machine.minFormat, machine.maxFormat)
    ) {
      continue;
    }
    if (spec.colours > 0 && machine.maxColours < 1) continue;
    if (
      spec.code === 'FOLDING_GLUING' &&
      element.product.gluing &&
      !machine.capabilities.includes(element.product.gluing)
    ) {
      continue;
    }
    out.push({ machine, rate });
  }
  // An existing tool pins the operation to the machine that holds it.
  if (TOOL_OPERATIONS.has(spec.code)) {
    const owned = out.filter((candidate) => element.existingTools.has(candidate.machine.id));
    if (owned.length > 0) return owned;
  }
  return out;
}

/** Colours per pass when a side has more colours than the press has printing units. */
function passes(colours: number, units: number): number[] {
  const out: number[] = [];
  let left = colours;
  while (left > 0) {
    const now = Math.min(units, left);
    out.push(now);
    left -= now;
  }
  return out;
}

/** Set-up plus running cost of a step on a machine for this job's net flow (machine choice). */
function estimateCost(
  machine: Machine,
  rate: MachineOperationRate,
  spec: StepSpec,
  element: ResolvedElement,
  imposition: Imposition,
): number {
  const runs = spec.scope === 'VARIANT' ? element.decorations.length : 1;
  const colourPasses = spec.colours > 0 ? passes(spec.colours, machine.maxColours) : [0];
  const netSheets = element.quantity / imposition.ups;
  let flow = spec.input === 'SHEET' ? netSheets : element.quantity;
  if (spec.code === 'GUILLOTINE_CUTTING') {
    flow = element.decorations.reduce(
      (sum, d) => sum + cutsFor(d.quantity / imposition.ups, element.caliperMm, machine, imposition),
      0,
    );
  }
  let hours = 0;
  for (const colours of colourPasses) {
    hours +=
      runs * (rate.setupHours + rate.setupHoursPerColour * colours + rate.setupHoursPerTool * spec.tools);
    hours += flow / rate.speedPerHour;
  }
  return hours * machine.hourlyRate;
}

/**
 * Guillotine work for a pile of sheets: the pile is cut in whole lifts of `liftHeightMm`, and
 * every lift takes every cut of the sheet's layout (strips first, then each strip across).
 */
export function liftsFor(sheets: number, caliperMm: number, machine: Machine): number {
  const lift = machine.liftHeightMm ?? 100;
  const sheetsPerLift = Math.max(1, Math.floor(lift / Math.max(caliperMm, 1e-6) + 1e-9));
  return Math.ceil(Math.ceil(sheets - 1e-9) / sheetsPerLift - 1e-9);
}

/** Guillotine cuts for a pile of sheets: whole lifts x cuts per sheet layout. */
export function cutsFor(sheets: number, caliperMm: number, machine: Machine, imposition: Imposition): number {
  return liftsFor(sheets, caliperMm, machine) * imposition.cutsPerSheet;
}

function cheapest<T extends { machine: Machine; rate: MachineOperationRate }>(
  candidates: T[],
  cost: (candidate: T) => number,
): T {
  let best = candidates[0]!;
  let bestCost = cost(best);
  for (const candidate of candidates.slice(1)) {
    const c = cost(candidate);
    if (c < bestCost - 1e-9) {
      best = candidate;
      bestCost = c;
    }
  }
  return best;
}

function failureForMissingMachine(
  spec: StepSpec,
  session: PricingSession,
  sheet: Format,
  element: ResolvedElement,
  dieLine: DieLine,
  stepIndex: number,
): RouteFailure {
  const failure = missingMachine(spec, session, sheet, element, dieLine);
  // A reason found further down the route is more telling (the earlier steps were possible).
  return { ...failure, order: stepIndex };
}

function missingMachine(
  spec: StepSpec,
  session: PricingSession,
  sheet: Format,
  element: ResolvedElement,
  dieLine: DieLine,
): RouteFailure {
  const name = session.index.operationsByCode.get(spec.code)?.name ?? spec.code;
  const capable = session.index.catalogue.machines.filter((m) => machineRate(session.index, m, spec.code));
  if (capable.length === 0) {
    return { pointer: spec.pointer, message: `the catalogue has no machine for ${name}`, rank: 2 };
  }
  if (spec.code === 'FOLDING_GLUING' && element.product.gluing) {
    const withCapability = capable.filter((m) => m.capabilities.includes(element.product.gluing!));
    if (withCapability.length === 0) {
      return {
        pointer: elementPointer(element, 'productId'),
        message: `${element.product.name} needs a ${element.product.gluing.replace('_', '-').toLowerCase()} folder-gluer; the catalogue has none`,
        rank: 2,
      };
    }
  }
  const caliperOk = capable.filter((m) => caliperFits(m, element.caliperMm));
  if (caliperOk.length === 0) {
    const limits = capable.map((m) => `${m.code} ${m.minCaliperMm}-${m.maxCaliperMm} mm`).join(', ');
    return {
      pointer: elementPointer(element, 'materialReferenceId'),
      message: `board caliper ${element.caliperMm} mm is outside the caliper range of every ${name} machine (${limits})`,
      rank: 2,
    };
  }
  const where =
    spec.input === 'SHEET'
      ? `the ${formatText(sheet)} sheet`
      : `the ${formatText(normaliseFormat({ width: dieLine.width, height: dieLine.height }))} blank`;
  const limits = caliperOk
    .map((m) => `${m.code} ${formatText(m.minFormat)} to ${formatText(m.maxFormat)}`)
    .join(', ');
  return {
    pointer: spec.pointer,
    message: `no ${name} machine takes ${where} (formats: ${limits})`,
    rank: 1,
  };
}

/** Margins that satisfy every machine that may handle the sheet. */
function marginsFor(sheetMachines: Machine[], cuttingMachines: Machine[]): SheetMargins {
  const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
  return {
    gripperMm: max(sheetMachines.map((m) => m.gripperMm)),
    sideMarginMm: max(sheetMachines.map((m) => m.sideMarginMm)),
    tailMarginMm: max(sheetMachines.map((m) => m.tailMarginMm)),
    gutterMm: max(cuttingMachines.map((m) => m.gutterMm)),
  };
}

function toolLayout(
  element: ResolvedElement,
  machines: Machine[],
): { ups: number | null; conflict: boolean } {
  const counts = new Set<number>();
  for (const machine of machines) {
    const ups = element.existingTools.get(machine.id);
    if (ups !== undefined) counts.add(ups);
  }
  if (counts.size === 0) return { ups: null, conflict: false };
  return { ups: Math.min(...counts), conflict: counts.size > 1 };
}

function blankTooBig(
  element: ResolvedElement,
  dieLine: DieLine,
  imposition: Imposition,
  process: RouteProcess,
): RouteFailure {
  const u = imposition.usable;
  const forProcess = process === 'none' ? '' : ` for ${process} printing`;
  return {
    pointer: elementPointer(element, 'lengthDimension'),
    message:
      `the ${fmt(dieLine.width)} x ${fmt(dieLine.height)} mm blank does not fit the usable ${fmt(u.width)} x ${fmt(u.height)} mm ` +
      `of a ${formatText(imposition.sheet)} sheet (gripper ${imposition.margins.gripperMm} mm, side margins ${imposition.margins.sideMarginMm} mm, ` +
      `tail ${imposition.margins.tailMarginMm} mm)${forProcess}`,
    rank: 3,
    order: u.width * u.height,
  };
}

function toTemplate(
  spec: StepSpec,
  machine: Machine,
  rate: MachineOperationRate,
  operation: Operation,
): StepTemplate {
  return {
    operation,
    machine,
    rate,
    scope: spec.scope,
    side: spec.side,
    pass: 1,
    colours: spec.colours,
    tools: spec.tools,
    input: spec.input,
    output: spec.output,
    inline: false,
  };
}

/** Marks steps that run inline with the previous step on the same machine. */
function markInline(steps: StepTemplate[]): StepTemplate[] {
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i]!;
    const previous = steps[i - 1]!;
    step.inline = step.rate.inlineWithPrevious === true && previous.machine.id === step.machine.id;
  }
  return steps;
}

function planSheetFed(
  session: PricingSession,
  element: ResolvedElement,
  dieLine: DieLine,
  process: RouteProcess,
  planning: RoutePlanning,
): void {
  const specs = sheetFedSpecs(element, process);
  const sheets = element.reference.sheetFormats.map(normaliseFormat);
  if (sheets.length === 0) {
    planning.failures.push({
      pointer: elementPointer(element, 'materialReferenceId'),
      message: `${element.reference.code} has no sheet formats`,
      rank: 2,
    });
  }
  // Machines for blank-fed steps do not depend on the sheet; sheet-fed ones only on its size.
  const machineCache = new Map<string, ReturnType<typeof machinesFor>>();
  const machinesOn = (spec: StepSpec, i: number, sheet: Format) => {
    const key = spec.input === 'SHEET' ? `${i}|${sheet.width}x${sheet.height}` : `${i}`;
    let found = machineCache.get(key);
    if (!found) {
      found = machinesFor(session, element, spec, sheet, dieLine);
      machineCache.set(key, found);
    }
    return found;
  };
  for (const sheet of sheets) {
    const candidates = specs.map((spec, i) => machinesOn(spec, i, sheet));
    // Sheet-fed machines first: whether the blank fits the sheet at all is the more basic reason.
    const missingSheetStep = specs.findIndex(
      (spec, i) => spec.input === 'SHEET' && candidates[i]!.length === 0,
    );
    if (missingSheetStep >= 0) {
      planning.failures.push(
        failureForMissingMachine(
          specs[missingSheetStep]!,
          session,
          sheet,
          element,
          dieLine,
          missingSheetStep,
        ),
      );
      continue;
    }
    const sheetMachines = specs.flatMap((spec, i) =>
      spec.input === 'SHEET' ? candidates[i]!.map((c) => c.machine) : [],
    );
    const cuttingIndex = specs.findIndex((spec) => spec.input === 'SHEET' && spec.output === 'UNIT');
    const cuttingMachines = candidates[cuttingIndex]!.map((c) => c.machine);
    const toolMachines = specs.flatMap((spec, i) =>
      TOOL_OPERATIONS.has(spec.code) ? candidates[i]!.map((c) => c.machine) : [],
    );
    const tool = toolLayout(element, toolMachines);
    if (tool.conflict) {
      planning.failures.push({
        pointer: elementPointer(element, 'layoutCounts'),
        message: 'existing tools on this route have different numbers of ups',
        rank: 2,
      });
      continue;
    }
    const machineCap = Math.min(...cuttingMachines.map((m) => m.maxUps ?? Number.POSITIVE_INFINITY));
    const cap = Math.min(machineCap, tool.ups ?? Number.POSITIVE_INFINITY);
    const grain = grainRuleOf(element.product);
    const imposition = impositionFor(
      session,
      sheet,
      dieLine,
      marginsFor(sheetMachines, cuttingMachines),
      cap,
      grainLayout(sheet.grain ?? element.reference.grain ?? null, grain.required, grain.mixedAllowed),
    );
    if (imposition.ups === 0) {
      planning.failures.push(blankTooBig(element, dieLine, imposition, process));
      continue;
    }
    if (tool.ups !== null && imposition.ups < tool.ups) {
      planning.failures.push({
        pointer: elementPointer(element, 'layoutCounts'),
        message: `the existing tool has ${tool.ups} ups but a ${formatText(sheet)} sheet holds only ${imposition.ups}`,
        rank: 2,
      });
      continue;
    }
    const missing = candidates.findIndex((list) => list.length === 0);
    if (missing >= 0) {
      planning.failures.push(
        failureForMissingMachine(specs[missing]!, session, sheet, element, dieLine, missing),
      );
      continue;
    }
    const steps: StepTemplate[] = [];
    specs.forEach((spec, i) => {
      const chosen = cheapest(candidates[i]!, (c) =>
        estimateCost(c.machine, c.rate, spec, element, imposition),
      );
      const operation = session.index.operationsByCode.get(spec.code)!;
      if (spec.colours > 0) {
        passes(spec.colours, chosen.machine.maxColours).forEach((colours, passIndex) => {
          steps.push({
            ...toTemplate(spec, chosen.machine, chosen.rate, operation),
            colours,
            pass: passIndex + 1,
          });
        });
      } else {
        steps.push(toTemplate(spec, chosen.machine, chosen.rate, operation));
      }
    });
    const key = `${process}:${sheet.width}x${sheet.height}${sheet.grain ? `:${sheet.grain}` : ''}`;
    planning.plans.push({ key, process, sheet, imposition, steps: markInline(steps) });
    const coated = inlineCoatingSteps(session, element, steps);
    if (coated) planning.plans.push({ key: `${key}:AQUEOUS`, process, sheet, imposition, steps: coated });
  }
}

/**
 * Varnish as inline aqueous coating: a press with a coating unit (a rate for AQUEOUS_COATING on
 * the press that prints the recto) coats in the printing pass itself - its own set-up, make-ready
 * sheets and coating, no pass of its own - instead of an offline UV-coater pass. Costed as a twin
 * route (`:AQUEOUS`) beside the UV one; the cheaper total wins (aqueous on long runs, where the UV
 * pass's running time dominates). Not offered with lamination: the varnish then goes on top of
 * the film, after the laminator.
 */
function inlineCoatingSteps(
  session: PricingSession,
  element: ResolvedElement,
  steps: StepTemplate[],
): StepTemplate[] | null {
  if (!element.varnish || element.lamination) return null;
  const varnish = steps.findIndex((s) => s.operation.code === 'VARNISH');
  let lastRecto = -1;
  steps.forEach((s, i) => {
    if (s.operation.category === 'PRINTING' && s.side === 'RECTO') lastRecto = i;
  });
  if (varnish < 0 || lastRecto < 0) return null;
  const press = steps[lastRecto]!.machine;
  const rate = machineRate(session.index, press, 'AQUEOUS_COATING');
  const operation = session.index.operationsByCode.get('AQUEOUS_COATING');
  if (!rate || !operation || !rate.inlineWithPrevious) return null;
  const coating: StepTemplate = {
    ...toTemplate(
      {
        code: 'AQUEOUS_COATING',
        scope: 'VARIANT',
        side: 'RECTO',
        colours: 0,
        tools: 0,
        input: 'SHEET',
        output: 'SHEET',
        pointer: elementPointer(element, 'wantVarnishRecto'),
      },
      press,
      rate,
      operation,
    ),
  };
  const out = steps.filter((_, i) => i !== varnish).map((s) => ({ ...s }));
  out.splice(lastRecto + 1, 0, coating);
  return markInline(out);
}

/**
 * Corrugated: sheets come off the corrugator cut to size; printing (flexo) and converting run in
 * one pass on a flexo folder-gluer (slotted cases) or a flexo rotary die-cutter (die-cut styles).
 */
function planCorrugated(
  session: PricingSession,
  element: ResolvedElement,
  dieLine: DieLine,
  process: RouteProcess,
  planning: RoutePlanning,
): void {
  const index = session.index;
  const cuttingCode = element.product.cuttingOperation;
  const printing = process === 'flexo';
  const p = (field: string) => elementPointer(element, field);
  let converters = index.catalogue.machines.filter((m) => {
    const rate = machineRate(index, m, cuttingCode);
    if (!rate || !caliperFits(m, element.caliperMm)) return false;
    if (!printing) return true;
    return machineRate(index, m, 'PRINT_FLEXO') !== undefined && m.maxColours >= element.print.recto;
  });
  const owned = converters.filter((m) => element.existingTools.has(m.id));
  if (owned.length > 0) converters = owned;
  if (converters.length === 0) {
    const name = index.operationsByCode.get(cuttingCode)?.name ?? cuttingCode;
    planning.failures.push({
      pointer: printing ? p('rectoColorCount') : p('productId'),
      message: printing
        ? `no ${name} line prints ${element.print.recto} flexo colours on ${element.caliperMm} mm board`
        : `no ${name} line takes ${element.caliperMm} mm board`,
      rank: 2,
    });
    return;
  }
  const packingSpec: StepSpec = {
    code: 'PACKING',
    scope: 'JOB',
    side: null,
    colours: 0,
    tools: 0,
    input: 'UNIT',
    output: 'UNIT',
    pointer: p('productId'),
  };
  const fluteRule = fluteRuleOf(element.product);
  for (const machine of converters) {
    const margins: SheetMargins = {
      gripperMm: machine.gripperMm,
      sideMarginMm: machine.sideMarginMm,
      tailMarginMm: machine.tailMarginMm,
      gutterMm: machine.gutterMm,
    };
    const toolUps = element.existingTools.get(machine.id);
    const cap = Math.min(machine.maxUps ?? Number.POSITIVE_INFINITY, toolUps ?? Number.POSITIVE_INFINITY);
    const sheets = element.reference.cutToSize
      ? corrugatedSheets(
          dieLine,
          margins,
          element.reference.cutToSize,
          machine.minFormat,
          machine.maxFormat,
          Math.min(cap, 9),
          fluteRule,
        )
      : element.reference.sheetFormats
          .map(normaliseFormat)
          .filter((s) => formatFits(s, machine.minFormat, machine.maxFormat));
    if (sheets.length === 0) {
      const limits = element.reference.cutToSize
        ? `${formatText(element.reference.cutToSize.max)} corrugator limit`
        : 'stock sheet formats';
      planning.failures.push({
        pointer: p('lengthDimension'),
        message: `the ${fmt(dieLine.width)} x ${fmt(dieLine.height)} mm blank does not fit ${machine.code} (${formatText(machine.minFormat)} to ${formatText(machine.maxFormat)}) within the ${limits}`,
        rank: 3,
      });
      continue;
    }
    const packers = machinesFor(session, element, packingSpec, sheets[0]!, dieLine);
    if (packers.length === 0) {
      planning.failures.push(failureForMissingMachine(packingSpec, session, sheets[0]!, element, dieLine, 9));
      continue;
    }
    for (const sheet of sheets) {
      const imposition = impositionFor(
        session,
        sheet,
        dieLine,
        margins,
        cap,
        // Flute direction (corrugated.ts): the sheet's flutes keep the blank's required side.
        grainLayout(sheet.grain ?? null, fluteRule, grainRuleOf(element.product).mixedAllowed),
      );
      if (imposition.ups === 0) {
        planning.failures.push(blankTooBig(element, dieLine, imposition, process));
        continue;
      }
      if (toolUps !== undefined && imposition.ups < toolUps) continue;
      const steps: StepTemplate[] = [];
      if (printing) {
        const spec: StepSpec = {
          code: 'PRINT_FLEXO',
          scope: 'VARIANT',
          side: 'RECTO',
          colours: element.print.recto,
          tools: 0,
          input: 'SHEET',
          output: 'SHEET',
          pointer: p('wantDecoration'),
        };
        steps.push(
          toTemplate(
            spec,
            machine,
            machineRate(index, machine, 'PRINT_FLEXO')!,
            index.operationsByCode.get('PRINT_FLEXO')!,
          ),
        );
      }
      const cutting: StepSpec = {
        code: cuttingCode,
        scope: 'JOB',
        side: null,
        colours: 0,
        tools: 0,
        input: 'SHEET',
        output: 'UNIT',
        pointer: p('productId'),
      };
      steps.push(
        toTemplate(
          cutting,
          machine,
          machineRate(index, machine, cuttingCode)!,
          index.operationsByCode.get(cuttingCode)!,
        ),
      );
      const packer = cheapest(packers, (c) =>
        estimateCost(c.machine, c.rate, packingSpec, element, imposition),
      );
      steps.push(
        toTemplate(packingSpec, packer.machine, packer.rate, index.operationsByCode.get('PACKING')!),
      );
      planning.plans.push({
        key: `${process}:${machine.code}:${sheet.width}x${sheet.height}${sheet.grain ? `:FLUTE-${sheet.grain}` : ''}`,
        process,
        sheet,
        imposition,
        steps: markInline(steps),
      });
    }
  }
}

/** Every feasible route of an element, over all its candidate processes and sheets. */
export function planRoutes(
  session: PricingSession,
  element: ResolvedElement,
  dieLine: DieLine,
): RoutePlanning {
  const planning: RoutePlanning = { plans: [], failures: [] };
  for (const process of element.processes) {
    if (element.category.kind === 'CORRUGATED_CASE')
      planCorrugated(session, element, dieLine, process, planning);
    else planSheetFed(session, element, dieLine, process, planning);
  }
  return planning;
}
