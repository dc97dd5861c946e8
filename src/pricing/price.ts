/**
 * Builds the output records (BriefComputed, BriefPrice with its PredictionRequestComputed
 * variants, BriefElementPrice) from a computed brief. This is the rounding boundary: lines are
 * rounded to cents, totals are sums of rounded lines, the margin turns product cost into
 * product price (price = cost / (1 - m)), and the legacy `...Predis` fields are filled from the
 * same rounded lines.
 */
import { type DeliveryZone, type PricingSettings, routeSelectionOf } from './catalogue.ts';
import { at, type CostCategoryKey, type RawCostLine, type RouteCosting } from './costing.ts';
import {
  type BriefComputation,
  type ElementComputation,
  PRODUCT_CATEGORIES,
  type VariantMoney,
  variantMoney,
} from './engine.ts';
import { gangLabel, isGang } from './gang.ts';
import type { DieLine } from './geometry/die-line.ts';
import type { Imposition } from './imposition.ts';
import { type LeadTimeBreakdown, leadTimeOf } from './lead-time.ts';
import type { PackingPlan } from './logistics.ts';
import { fromCents, round1, round2, round4, sumCents, toCents } from './money.ts';
import type {
  BriefComputed,
  BriefElementComputed,
  BriefElementPrice,
  BriefPrediction,
  BriefPrice,
  CostBreakdown,
  CostCategory,
  CostLine,
  CostLineNature,
  CostSummary,
  CostSummaryGroup,
  PackingPlanOutput,
  PredictionOperation,
  PredictionRequestComputed,
} from './output.ts';
import type { PricingSession } from './session.ts';
import { type OptimisationHints, optimisationHints } from './value-analysis.ts';

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const ceilCount = (n: number) => Math.ceil(n - 1e-6);

/** Good sheets needed: each decoration variant is printed on its own sheets. */
const netSheetsOf = (decorations: { quantity: number }[], ups: number) =>
  decorations.reduce((sum, d) => sum + Math.ceil(d.quantity / ups), 0);

const GROUPS: { key: CostCategoryKey | 'margin' | 'delivery'; label: string }[] = [
  { key: 'materials', label: 'Board & materials' },
  { key: 'printing', label: 'Printing' },
  { key: 'finishing', label: 'Finishing' },
  { key: 'converting', label: 'Cutting & converting' },
  { key: 'packing', label: 'Packing' },
  { key: 'margin', label: 'Margin' },
  { key: 'tooling', label: 'Tooling' },
  { key: 'delivery', label: 'Delivery' },
];

const NATURES: { key: CostLineNature | 'MARGIN'; label: string }[] = [
  { key: 'MATERIAL', label: 'Board' },
  { key: 'CONSUMABLE', label: 'Consumables' },
  { key: 'MACHINE', label: 'Machine time' },
  { key: 'PACKAGING', label: 'Packaging' },
  { key: 'MARGIN', label: 'Margin' },
  { key: 'TOOLING', label: 'Tooling' },
  { key: 'LOGISTICS', label: 'Delivery' },
];

function share(cents: number, totalCents: number): number {
  return totalCents > 0 ? round1((cents / totalCents) * 100) : 0;
}

function outputLine(line: RawCostLine, cents: number): CostLine {
  return {
    code: line.code,
    label: line.label,
    nature: line.nature,
    quantity: round4(at(line.quantity)),
    unit: line.unit,
    rate: round4(line.rate),
    amount: fromCents(cents),
    operationPosition: line.stepIndex,
    decorationIndex: line.decorationIndex,
    existingTool: line.existingTool,
  };
}

function category(lines: CostLine[], cents: number[]): CostCategory {
  return { total: fromCents(sumCents(cents)), lines };
}

interface DeliveryShare {
  cents: number;
  label: string;
  /** The brief's delivery zone (lead time: transport), none ex works. */
  zone?: DeliveryZone | undefined;
}

function breakdownOf(
  lines: { line: CostLine; category: CostCategoryKey; cents: number }[],
  money: {
    productCostCents: number;
    marginCents: number;
    productPriceCents: number;
    toolingCents: number;
    totalCents: number;
    margin: number;
  },
  delivery: DeliveryShare,
  currency: string,
): CostBreakdown {
  const pick = (key: CostCategoryKey) => {
    const selected = lines.filter((l) => l.category === key);
    return category(
      selected.map((l) => l.line),
      selected.map((l) => l.cents),
    );
  };
  const deliveryLine: CostLine = {
    code: 'DELIVERY',
    label: delivery.label,
    nature: 'LOGISTICS',
    quantity: 1,
    unit: 'shipment',
    rate: fromCents(delivery.cents),
    amount: fromCents(delivery.cents),
    operationPosition: null,
    decorationIndex: null,
    existingTool: false,
  };
  const marginPercentage = round2(money.margin * 100);
  return {
    currency,
    materials: pick('materials'),
    printing: pick('printing'),
    finishing: pick('finishing'),
    converting: pick('converting'),
    packing: pick('packing'),
    tooling: pick('tooling'),
    delivery: { total: fromCents(delivery.cents), lines: delivery.cents > 0 ? [deliveryLine] : [] },
    margin: { amount: fromCents(money.marginCents), marginPercentage },
    marginPercentage,
    productCost: fromCents(money.productCostCents),
    productPrice: fromCents(money.productPriceCents),
    toolingCost: fromCents(money.toolingCents),
    deliveryCost: fromCents(delivery.cents),
    totalPrice: fromCents(money.totalCents),
  };
}

interface SummaryCents {
  groups: Record<string, number>;
  natures: Record<string, number>;
}

function summaryCents(
  lines: { category: CostCategoryKey; nature: CostLineNature; cents: number }[],
  marginCents: number,
  deliveryCents: number,
): SummaryCents {
  const groups: Record<string, number> = { margin: marginCents, delivery: deliveryCents };
  const natures: Record<string, number> = { MARGIN: marginCents, LOGISTICS: deliveryCents };
  for (const line of lines) {
    groups[line.category] = (groups[line.category] ?? 0) + line.cents;
    natures[line.nature] = (natures[line.nature] ?? 0) + line.cents;
  }
  return { groups, natures };
}

function summaryOf(
  cents: SummaryCents,
  totals: {
    productCostCents: number;
    marginCents: number;
    productPriceCents: number;
    toolingCents: number;
    deliveryCents: number;
    totalCents: number;
  },
  quantity: number,
  unitPrice: number,
  pricePerThousand: number,
  currency: string,
): CostSummary {
  const group = (key: string, label: string, amountCents: number): CostSummaryGroup => ({
    key,
    label,
    amount: fromCents(amountCents),
    sharePercent: share(amountCents, totals.totalCents),
  });
  return {
    currency,
    quantity,
    unitPrice,
    pricePerThousand,
    groups: GROUPS.map((g) => group(g.key, g.label, cents.groups[g.key] ?? 0)),
    natures: NATURES.map((n) => group(n.key, n.label, cents.natures[n.key] ?? 0)),
    productCost: fromCents(totals.productCostCents),
    margin: fromCents(totals.marginCents),
    productPrice: fromCents(totals.productPriceCents),
    toolingCost: fromCents(totals.toolingCents),
    deliveryCost: fromCents(totals.deliveryCents),
    totalPrice: fromCents(totals.totalCents),
  };
}

function roundImposition(imposition: Imposition): Imposition {
  return {
    ...imposition,
    usable: {
      x: round2(imposition.usable.x),
      y: round2(imposition.usable.y),
      width: round2(imposition.usable.width),
      height: round2(imposition.usable.height),
    },
    blank: {
      width: round2(imposition.blank.width),
      height: round2(imposition.blank.height),
      areaMm2: round2(imposition.blank.areaMm2),
    },
    placements: imposition.placements.map((p) => ({
      x: round2(p.x),
      y: round2(p.y),
      width: round2(p.width),
      height: round2(p.height),
      rotated: p.rotated,
      ...(p.turned ? { turned: true } : {}),
    })),
    blocks: imposition.blocks.map((b) => ({ ...b })),
    utilisation: round4(imposition.utilisation),
    nesting: imposition.nesting
      ? {
          ...imposition.nesting,
          shiftMm: round2(imposition.nesting.shiftMm),
          pitchAB: round2(imposition.nesting.pitchAB),
          pitchBA: round2(imposition.nesting.pitchBA),
          width: round2(imposition.nesting.width),
          height: round2(imposition.nesting.height),
        }
      : null,
  };
}

function roundDieLine(dieLine: DieLine): DieLine {
  return {
    ...dieLine,
    width: round3(dieLine.width),
    height: round3(dieLine.height),
    outline: dieLine.outline.map((p) => ({ x: round3(p.x), y: round3(p.y) })),
    holes: dieLine.holes.map((h) => h.map((p) => ({ x: round3(p.x), y: round3(p.y) }))),
    segments: dieLine.segments.map((s) => ({
      kind: s.kind,
      x1: round3(s.x1),
      y1: round3(s.y1),
      x2: round3(s.x2),
      y2: round3(s.y2),
    })),
    areaMm2: round2(dieLine.areaMm2),
    cutLengthMm: round2(dieLine.cutLengthMm),
    creaseLengthMm: round2(dieLine.creaseLengthMm),
    glueLengthMm: round2(dieLine.glueLengthMm),
    knockedDown: {
      length: round2(dieLine.knockedDown.length),
      width: round2(dieLine.knockedDown.width),
      thickness: round3(dieLine.knockedDown.thickness),
    },
    dimensions: dieLine.dimensions.map((d) => ({ ...d, start: round3(d.start), end: round3(d.end) })),
  };
}

function packingOutput(packing: PackingPlan): PackingPlanOutput {
  return {
    packingType: packing.packingType,
    package: packing.package,
    unitWeightKg: round4(packing.unitWeightKg),
    unitsPerPackage: packing.unitsPerPackage,
    packageLength: round2(packing.packageLength),
    packageWidth: round2(packing.packageWidth),
    packageHeight: round2(packing.packageHeight),
    packageWeightKg: round3(packing.packageWeightKg),
    packages: packing.packages,
    pallet: packing.pallet,
    packagesPerLayer: packing.packagesPerLayer,
    layers: packing.layers,
    packagesPerPallet: packing.packagesPerPallet,
    pallets: packing.pallets,
    palletsPerTruck: packing.palletsPerTruck,
    trucks: packing.trucks,
    palletLoadedHeightMm: round2(packing.palletLoadedHeightMm),
    palletGrossWeightKg: round3(packing.palletGrossWeightKg),
    netWeightKg: round3(packing.netWeightKg),
    grossWeightKg: round3(packing.grossWeightKg),
    notes: packing.notes,
  };
}

function operationsOf(costing: RouteCosting, dieLine: DieLine, packing: PackingPlan): PredictionOperation[] {
  return costing.steps.map((step, position) => {
    const t = step.template;
    const onSheets = t.input === 'SHEET';
    return {
      position,
      partNumber: 1,
      operation: { id: t.operation.id, code: t.operation.code, name: t.operation.name },
      machine: { id: t.machine.id, code: t.machine.code, name: t.machine.name },
      decorationIndex: step.decorationIndex,
      side: t.side,
      pass: t.pass,
      inline: t.inline,
      setupTime: round4(step.setupHours),
      rollingTime: round4(at(step.rollingHours)),
      sheetQuantity: ceilCount(at(step.input)),
      sheetWidth: round2(onSheets ? costing.plan.sheet.width : dieLine.width),
      sheetHeight: round2(onSheets ? costing.plan.sheet.height : dieLine.height),
      makeReady: step.makeReady,
      cost: fromCents(toCents(at(step.machineCost))),
      ...(t.operation.code === 'PACKING'
        ? {
            packages: packing.packages,
            unitsPerPackage: packing.unitsPerPackage,
            packagingKind: packing.package.kind,
            lineSpeedPerHour: step.lineSpeedPerHour ?? null,
            pallets: packing.pallets,
            packagesPerPallet: packing.packagesPerPallet,
            trucks: packing.trucks,
            palletsPerTruck: packing.palletsPerTruck,
          }
        : {}),
      ...(t.input === 'SHEET' && t.output === 'UNIT'
        ? {
            layout: costing.plan.imposition.layout,
            ups: costing.plan.imposition.ups,
            gridUps: costing.plan.imposition.gridUps,
          }
        : {}),
      ...(step.lifts !== undefined
        ? { lifts: step.lifts, cutsPerLift: step.cutsPerLift!, cuts: step.lifts * step.cutsPerLift! }
        : {}),
    };
  });
}

/** Sum of the rounded lines whose code matches. */
function linesCents(costing: RouteCosting, money: VariantMoney, codes: string[]): number {
  let total = 0;
  costing.lines.forEach((line, i) => {
    if (codes.includes(line.code)) total += money.lineCents[i]!;
  });
  return total;
}

const CATEGORY_LABELS: Record<CostCategoryKey, string> = {
  materials: 'board & materials',
  printing: 'printing',
  finishing: 'finishing',
  converting: 'cutting & converting',
  packing: 'packing',
  tooling: 'tooling',
};

export function routeLabel(costing: RouteCosting): string {
  const plan = costing.plan;
  const process = plan.process === 'none' ? 'unprinted' : plan.process;
  const nested = plan.imposition.layout === 'NESTED' ? ' nested' : '';
  const gang = isGang(plan) ? `, ${plan.gang.shares.length} decorations gang-run` : '';
  const reduced = plan.reducedFromUps ? ` (of ${plan.reducedFromUps}: fewer per-up tools)` : '';
  return `${process} on ${plan.sheet.width} x ${plan.sheet.height} mm sheets, ${plan.imposition.ups} up${nested}${reduced}${gang}`;
}

/** In words: how much more a route costs in total than the selected one, and where. */
export function whyNotSelected(
  costing: RouteCosting,
  selected: RouteCosting,
  margin: number,
  repeats: number,
  currency: string,
): string {
  const byCategory = (c: RouteCosting) => {
    const out: Record<CostCategoryKey, number> = {
      materials: 0,
      printing: 0,
      finishing: 0,
      converting: 0,
      packing: 0,
      tooling: 0,
    };
    for (const line of c.lines) out[line.category] += at(line.amount);
    return out;
  };
  const mine = byCategory(costing);
  const theirs = byCategory(selected);
  const diffs = (Object.keys(mine) as CostCategoryKey[])
    .map((key) => {
      // Product categories at price (with margin), tooling as amortised in the ranking.
      const factor = key === 'tooling' ? 1 / repeats : 1 / (1 - margin);
      return { key, diff: (mine[key] - theirs[key]) * factor };
    })
    .filter((d) => Math.abs(d.diff) >= 0.005)
    .sort((a, b) => Math.abs(b.diff) - Math.abs(a.diff))
    .slice(0, 3);
  const more = costing.rankingTotal - selected.rankingTotal;
  const percent = selected.rankingTotal > 0 ? (more / selected.rankingTotal) * 100 : 0;
  const money = (n: number) => `${n >= 0 ? '+' : '-'}${Math.abs(n).toFixed(2)}`;
  const parts = diffs.map((d) => `${CATEGORY_LABELS[d.key]} ${money(d.diff)}`).join(', ');
  const tooling = repeats > 1 ? ` (tooling amortised over ${repeats} orders)` : '';
  if (more <= 1e-9) {
    return `same total as the selected ${routeLabel(selected)}; ranked after it on tooling, time or key`;
  }
  return `${more.toFixed(2)} ${currency} (${percent.toFixed(1)} %) more in total than the selected ${routeLabel(selected)}${tooling}${parts ? `: ${parts}` : ''}`;
}

function buildVariant(
  computation: ElementComputation,
  costing: RouteCosting,
  rank: number,
  delivery: DeliveryShare,
  hints: OptimisationHints,
  currency: string,
  repeats: number,
  settings: PricingSettings,
): PredictionRequestComputed {
  const { element, dieLine, packing } = computation;
  const selectedRoute = computation.variants[0]!;
  const money = variantMoney(costing, element, delivery.cents);
  const lostBy = rank === 0 ? 0 : Math.max(0, costing.rankingTotal - selectedRoute.rankingTotal);
  const lines = costing.lines.map((line, i) => ({
    line: outputLine(line, money.lineCents[i]!),
    category: line.category,
    nature: line.nature,
    cents: money.lineCents[i]!,
  }));
  const costBreakdown = breakdownOf(lines, money, delivery, currency);
  const pricePerThousand = round2(money.unitPriceExact * 1000);
  const costSummary = summaryOf(
    summaryCents(lines, money.marginCents, delivery.cents),
    money,
    element.quantity,
    money.unitPrice,
    pricePerThousand,
    currency,
  );
  const c = (codes: string[]) => fromCents(linesCents(costing, money, codes));
  const isCorrugated = element.category.kind === 'CORRUGATED_CASE';
  const machineCents = sumCents(
    costing.lines.map((l, i) => (l.nature === 'MACHINE' ? money.lineCents[i]! : 0)),
  );
  const printingCents = sumCents(
    costing.lines.map((l, i) =>
      l.category === 'printing' && l.code !== 'OFFSET_PLATES' ? money.lineCents[i]! : 0,
    ),
  );
  const firstStepOfVariant = (decorationIndex: number | null) =>
    costing.steps.find((s) => s.decorationIndex === decorationIndex && s.template.scope === 'VARIANT');
  const imposition = costing.plan.imposition;
  const gang = isGang(costing.plan) ? costing.plan.gang : null;
  return {
    position: element.position,
    variantKey: costing.plan.key,
    rank,
    selected: rank === 0,
    rankingTotal: round2(costing.rankingTotal),
    amortisedToolingCost: round2(costing.amortisedTooling),
    toolingRepeats: repeats,
    lostBy: round2(lostBy),
    lostByPercent:
      rank === 0 || selectedRoute.rankingTotal <= 0 ? 0 : round2((lostBy / selectedRoute.rankingTotal) * 100),
    whyNotSelected:
      rank === 0 ? null : whyNotSelected(costing, selectedRoute, element.commercialMargin, repeats, currency),
    printingProcess: costing.plan.process,
    unitPrice: money.unitPrice,
    toolingCost: fromCents(money.toolingCents),
    deliveryCost: fromCents(delivery.cents),
    productCost: fromCents(money.productCostCents),
    productPrice: fromCents(money.productPriceCents),
    totalPrice: fromCents(money.totalCents),
    quantity: element.quantity,
    productionTime: round4(at(costing.productionHours)),
    leadTime: leadTimeOf(costing, element, settings, delivery.zone),
    partsCount: 1,
    parts: { '1': element.product.name },
    productIds: [element.product.id],
    sheetSizeWidth: costing.plan.sheet.width,
    sheetSizeHeight: costing.plan.sheet.height,
    layoutCount: imposition.ups,
    sheetUtilisation: round4(imposition.utilisation),
    simulationPliantLargeurPredis: round2(dieLine.width),
    simulationPliantHauteurPredis: round2(dieLine.height),
    simulationNbPosesPliantPredis: imposition.ups,
    netSheets: gang ? Math.ceil(gang.netSheets - 1e-9) : netSheetsOf(element.decorations, imposition.ups),
    gang: gang
      ? {
          variants: gang.shares.map((share) => ({ ...share })),
          netSheets: Math.ceil(gang.netSheets - 1e-9),
          goodUnitsPerSheet: round2(gang.effectiveUps),
          label: gangLabel(gang),
        }
      : null,
    nbFeuilleTotalPliantPredis: ceilCount(at(costing.boardSheets)),
    boardKg: round3(ceilCount(at(costing.boardSheets)) * costing.sheetKg),
    pliantObjFoldingWeight: round3(packing.netWeightKg),
    decorations: element.decorations.map((d) => {
      // On a gang run every variant is on every printed sheet.
      const step = firstStepOfVariant(gang ? null : d.decorationIndex);
      return {
        decorationIndex: d.decorationIndex,
        quantity: d.quantity,
        printedSheets: step ? ceilCount(at(step.input)) : 0,
      };
    }),
    pliantPredis: isCorrugated ? 0 : c(['BOARD']),
    cartonStructurePredis: isCorrugated ? c(['BOARD']) : 0,
    encrageRectoDeBasePredis: fromCents(printingCents),
    plaqueOffsetPredis: c(['OFFSET_PLATES']),
    vernisDeBasePredis: c(['MACHINE_VARNISH', 'VARNISH', 'MACHINE_AQUEOUS_COATING', 'AQUEOUS_COATING']),
    plaqueVernisPredis: c(['VARNISH_PLATE']),
    pelliculagePredis: c(['MACHINE_LAMINATION', 'LAMINATE_FILM']),
    varnishOrScreenprintingPredis: 0,
    ecranSerigraphiePredis: 0,
    dorurePredis: c(['MACHINE_HOT_FOIL_STAMPING', 'FOIL']),
    colleContreCollagePredis: 0,
    colleFenetrePrixPredis: c(['WINDOW_GLUE']),
    petFenetrePrixPredis: c(['WINDOW_FILM']),
    digipackPredis: 0,
    sachetsPrixPredis: 0,
    cellophanePredis: 0,
    caissePredis: c(['SHIPPING_CASES', 'BUNDLES']),
    palettePredis: c(['PALLETS']),
    predictedDeliveryPrice: fromCents(delivery.cents),
    predictedThousandPrice: pricePerThousand,
    prixFinalTotalPredis: fromCents(money.totalCents),
    decorticageCarcassePredis: 0,
    decoupeCarcassePredis: c([
      'MACHINE_DIE_CUTTING',
      'MACHINE_ROTARY_DIE_CUTTING',
      'MACHINE_GUILLOTINE_CUTTING',
    ]),
    sealingStripPredis: 0,
    totalPrixMachinePredis: fromCents(machineCents),
    costBreakdown,
    costSummary,
    commercialMarginInitial: element.commercialMarginInitial,
    commercialMargin: element.commercialMargin,
    optimisations: hints.optimisations,
    optimisationQuantity: hints.optimisationQuantity,
    optimiseProductQuantityPerDecoration: hints.optimiseProductQuantityPerDecoration,
    operations: operationsOf(costing, dieLine, packing),
    imposition: roundImposition(imposition),
  };
}

function elementComputed(computation: ElementComputation, deliveryCents: number): BriefElementComputed {
  const { element, dieLine, packing } = computation;
  const selected = computation.variants[0]!;
  const grossSheets = ceilCount(at(selected.boardSheets));
  return {
    position: element.position,
    productId: element.product.id,
    productCode: element.product.code,
    cadKey: element.product.style,
    flatPackSurface: {
      width: round2(dieLine.width),
      height: round2(dieLine.height),
      areaM2: round4((dieLine.width * dieLine.height) / 1e6),
    },
    cad: {
      blankWidth: round2(dieLine.width),
      blankHeight: round2(dieLine.height),
      blankAreaMm2: round2(dieLine.areaMm2),
      blankAreaM2: Math.round(dieLine.areaMm2) / 1e6,
      cutRuleLengthMm: round2(dieLine.cutLengthMm),
      creaseRuleLengthMm: round2(dieLine.creaseLengthMm),
      glueLengthMm: round2(dieLine.glueLengthMm),
      caliperMm: dieLine.caliperMm,
      knockedDown: {
        length: round2(dieLine.knockedDown.length),
        width: round2(dieLine.knockedDown.width),
        thickness: round3(dieLine.knockedDown.thickness),
      },
      cutSegments: dieLine.segments.filter((s) => s.kind === 'CUT').length,
      creaseSegments: dieLine.segments.filter((s) => s.kind === 'CREASE').length,
    },
    dieLine: roundDieLine(dieLine),
    material: {
      matterId: element.matter.id,
      materialTypeId: element.materialType.id,
      materialReferenceId: element.reference.id,
      corrugatedMaterialId: element.corrugated?.id ?? null,
      grammage: element.grammage,
      caliperMm: element.caliperMm,
      pricePerM2: round4(element.boardPricePerM2),
    },
    decorationSummary: {
      wantDecoration: element.print.wanted,
      sidePrinted: element.print.sidePrinted,
      rectoColorCount: element.print.recto,
      versoColorCount: element.print.verso,
      inkCoverage: element.print.coverage,
      variantCount: element.decorations.length,
      totalQuantity: element.quantity,
      decorationsCount: element.decorations.map((d) => ({ ...d })),
      printingProcesses: computation.variants.map((v) => v.plan.process),
    },
    finishing: {
      lamination: element.lamination,
      varnish: element.varnish,
      hotStampings: element.stampings.map((s) => ({ ...s })),
      embossings: element.embossings.map((e) => ({ ...e })),
      window: element.window ? { ...element.window } : null,
    },
    production: {
      selectedVariantKey: selected.plan.key,
      printingProcess: selected.plan.process,
      sheetSizeWidth: selected.plan.sheet.width,
      sheetSizeHeight: selected.plan.sheet.height,
      layoutCount: selected.plan.imposition.ups,
      sheetUtilisation: round4(selected.plan.imposition.utilisation),
      netSheets: netSheetsOf(element.decorations, selected.plan.imposition.ups),
      grossSheets,
      boardKg: round3(grossSheets * selected.sheetKg),
      productionTime: round4(at(selected.productionHours)),
    },
    packing: packingOutput(packing),
    delivery: { pallets: packing.pallets, cost: fromCents(deliveryCents) },
  };
}

export function assemblePrediction(session: PricingSession, computation: BriefComputation): BriefPrediction {
  const catalogue = session.index.catalogue;
  const currency = catalogue.settings.currency;
  const totalPallets = computation.delivery.pallets;
  const predictions: PredictionRequestComputed[] = [];
  const briefElements: BriefElementComputed[] = [];
  const briefElementPrices: BriefElementPrice[] = [];
  const selectedVariants: PredictionRequestComputed[] = [];
  computation.elements.forEach((elementComputation, i) => {
    const deliveryCents = computation.deliveryCents[i]!;
    const zone = computation.delivery.zone;
    const delivery: DeliveryShare = {
      cents: deliveryCents,
      zone:
        computation.brief.deliveryZoneId !== undefined
          ? session.index.deliveryZones.get(computation.brief.deliveryZoneId)
          : undefined,
      label: zone
        ? `Delivery to ${zone.name}: ${elementComputation.packing.pallets} of ${totalPallets} pallets${computation.delivery.minimumApplied ? ' (minimum charge)' : ''}`
        : 'Delivery not included: ex works (no delivery zone chosen)',
    };
    const hints = optimisationHints(session, elementComputation);
    const repeats = routeSelectionOf(catalogue.settings).toolingRepeats;
    const variants = elementComputation.variants.map((costing, rank) =>
      buildVariant(elementComputation, costing, rank, delivery, hints, currency, repeats, catalogue.settings),
    );
    predictions.push(...variants);
    selectedVariants.push(variants[0]!);
    briefElements.push(elementComputed(elementComputation, deliveryCents));
    briefElementPrices.push({
      position: elementComputation.element.position,
      unitPrice: variants[0]!.unitPrice,
      quantity: elementComputation.element.quantity,
      totalPrice: variants[0]!.totalPrice,
    });
  });
  return {
    currency,
    briefComputed: briefComputedOf(computation, briefElements),
    briefPrice: briefPriceOf(computation, selectedVariants, predictions, currency),
    briefElementPrices,
  };
}

function briefComputedOf(
  computation: BriefComputation,
  briefElements: BriefElementComputed[],
): BriefComputed {
  const packings = computation.elements.map((e) => e.packing);
  return {
    briefElements,
    packing: {
      packingType: computation.packingType,
      palletType: computation.palletType,
      pallets: computation.delivery.pallets,
      netWeightKg: round3(packings.reduce((s, p) => s + p.netWeightKg, 0)),
      grossWeightKg: round3(packings.reduce((s, p) => s + p.grossWeightKg, 0)),
    },
    delivery: {
      zone: computation.delivery.zone,
      pallets: computation.delivery.pallets,
      cost: fromCents(computation.deliveryCents.reduce((a, b) => a + b, 0)),
      minimumApplied: computation.delivery.minimumApplied,
      included: computation.delivery.zone !== null,
      notIncludedReason: computation.delivery.zone === null ? 'NO_DELIVERY_ZONE' : null,
    },
  };
}

/** Brief totals: each element's selected variant, one line per element and nature per category. */
function briefPriceOf(
  computation: BriefComputation,
  selected: PredictionRequestComputed[],
  all: PredictionRequestComputed[],
  currency: string,
): BriefPrice {
  const categoryKeys: CostCategoryKey[] = [...PRODUCT_CATEGORIES, 'tooling'];
  const lines: { line: CostLine; category: CostCategoryKey; nature: CostLineNature; cents: number }[] = [];
  selected.forEach((variant, i) => {
    const element = computation.elements[i]!.element;
    for (const key of categoryKeys) {
      const byNature = new Map<CostLineNature, number>();
      for (const line of variant.costBreakdown[key].lines) {
        byNature.set(line.nature, (byNature.get(line.nature) ?? 0) + toCents(line.amount));
      }
      for (const [nature, amountCents] of byNature) {
        lines.push({
          category: key,
          nature,
          cents: amountCents,
          line: {
            code: `ELEMENT_${element.position}`,
            label: `Element ${element.position}: ${element.product.name} ${element.length} x ${element.width}${element.height ? ` x ${element.height}` : ''} mm`,
            nature,
            quantity: 1,
            unit: 'element',
            rate: fromCents(amountCents),
            amount: fromCents(amountCents),
            operationPosition: null,
            decorationIndex: null,
            existingTool: false,
          },
        });
      }
    }
  });
  const sum = (f: (v: PredictionRequestComputed) => number) => sumCents(selected.map((v) => toCents(f(v))));
  const productCostCents = sum((v) => v.productCost);
  const marginCents = sum((v) => v.costBreakdown.margin.amount);
  const productPriceCents = productCostCents + marginCents;
  const toolingCents = sum((v) => v.toolingCost);
  const deliveryCents = sum((v) => v.deliveryCost);
  const totalCents = productPriceCents + toolingCents + deliveryCents;
  const effectiveMargin = productPriceCents > 0 ? round4(marginCents / productPriceCents) : 0;
  const zone = computation.delivery.zone;
  const delivery: DeliveryShare = {
    cents: deliveryCents,
    label: zone
      ? `Delivery to ${zone.name}: ${computation.delivery.pallets} pallets`
      : 'Delivery not included: ex works (no delivery zone chosen)',
  };
  const totals = {
    productCostCents,
    marginCents,
    productPriceCents,
    toolingCents,
    deliveryCents,
    totalCents,
    margin: effectiveMargin,
  };
  const quantity = selected.reduce((s, v) => s + v.quantity, 0);
  const costSummary = summaryOf(
    summaryCents(lines, marginCents, deliveryCents),
    totals,
    quantity,
    quantity > 0 ? round4(productPriceCents / 100 / quantity) : 0,
    quantity > 0 ? round2((productPriceCents / 100 / quantity) * 1000) : 0,
    currency,
  );
  return {
    currency,
    totalPrice: fromCents(totalCents),
    productCost: fromCents(productCostCents),
    productPrice: fromCents(productPriceCents),
    marginAmount: fromCents(marginCents),
    toolingCost: fromCents(toolingCents),
    deliveryCost: fromCents(deliveryCents),
    costBreakdown: breakdownOf(lines, totals, delivery, currency),
    costSummary,
    productionTime: round4(computation.elements.reduce((s, e) => s + at(e.variants[0]!.productionHours), 0)),
    leadTime: selected.reduce(
      (longest: LeadTimeBreakdown & { position: number }, v) =>
        v.leadTime.workingDays > longest.workingDays ? { ...v.leadTime, position: v.position } : longest,
      { ...selected[0]!.leadTime, position: selected[0]!.position },
    ),
    processCount: selected.reduce((s, v) => s + v.operations.length, 0),
    commercialMarginInitial:
      computation.brief.commercialMargin ?? computation.elements[0]?.element.commercialMarginInitial ?? 0,
    commercialMargin: effectiveMargin,
    predictionRequestsComputed: all,
  };
}
