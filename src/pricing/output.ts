/**
 * What priceBrief returns: the spec's BriefComputed, BriefPrice (with its
 * PredictionRequestComputed variants and operation sequences) and BriefElementPrice.
 *
 * Money is in the catalogue currency, rounded to cents, except unit prices (4 decimals). Every
 * total is the sum of its already-rounded parts, so totals always add up exactly.
 */

import type { CostNature } from './costing.ts';
import type { DieLine } from './geometry/die-line.ts';
import type { Imposition } from './imposition.ts';
import type {
  BriefPalletType,
  DecorationCount,
  EmbossingDebossing,
  HotStamping,
  PackingType,
  SidePrinted,
} from './input.ts';
import type { LeadTimeBreakdown } from './lead-time.ts';
import type { OPTIMISATION_TYPES } from './message-codes.ts';
import type { RouteProcess } from './resolve.ts';

export type OptimisationType = (typeof OPTIMISATION_TYPES)[number];

/** What a cost line pays for; LOGISTICS is delivery. */
export type CostLineNature = CostNature | 'LOGISTICS';

export interface CostLine {
  code: string;
  label: string;
  nature: CostLineNature;
  quantity: number;
  unit: string;
  rate: number;
  amount: number;
  /** Position of the operation in `operations`, when the line belongs to one. */
  operationPosition: number | null;
  decorationIndex: number | null;
  existingTool: boolean;
}

export interface CostCategory {
  total: number;
  lines: CostLine[];
}

export interface CostBreakdown {
  currency: string;
  materials: CostCategory;
  printing: CostCategory;
  finishing: CostCategory;
  converting: CostCategory;
  packing: CostCategory;
  tooling: CostCategory;
  delivery: CostCategory;
  margin: { amount: number; marginPercentage: number };
  /** Commercial margin as a percentage of the product price (m x 100). */
  marginPercentage: number;
  /** materials + printing + finishing + converting + packing */
  productCost: number;
  /** productCost + margin */
  productPrice: number;
  toolingCost: number;
  deliveryCost: number;
  /** productPrice + toolingCost + deliveryCost */
  totalPrice: number;
}

export interface CostSummaryGroup {
  key: string;
  label: string;
  amount: number;
  /** Share of the total price, percent (1 decimal). */
  sharePercent: number;
}

export interface CostSummary {
  currency: string;
  quantity: number;
  unitPrice: number;
  pricePerThousand: number;
  /** By stage of manufacture; amounts add up to totalPrice. */
  groups: CostSummaryGroup[];
  /** By nature (board, consumables, machine time, packaging, margin, tooling, delivery); adds up to totalPrice. */
  natures: CostSummaryGroup[];
  productCost: number;
  margin: number;
  productPrice: number;
  toolingCost: number;
  deliveryCost: number;
  totalPrice: number;
}

export interface PredictionOperation {
  position: number;
  partNumber: number;
  operation: { id: string; code: string; name: string };
  machine: { id: string; code: string; name: string };
  decorationIndex: number | null;
  side: 'RECTO' | 'VERSO' | null;
  pass: number;
  /** Runs in the same pass as the previous operation (no own rolling time). */
  inline: boolean;
  /** hours */
  setupTime: number;
  rollingTime: number;
  /** Sheets (or units, after cutting) the operation receives, make-ready and waste included. */
  sheetQuantity: number;
  sheetWidth: number;
  sheetHeight: number;
  makeReady: number;
  /** Machine cost of the operation (set-up + rolling time x hourly rate). */
  cost: number;
  /** Packing only: packages, units each, the line speed filling them, pallets and trucks. */
  packages?: number;
  unitsPerPackage?: number;
  packagingKind?: 'SHIPPING_CASE' | 'BUNDLE';
  lineSpeedPerHour?: number | null;
  pallets?: number;
  packagesPerPallet?: number;
  trucks?: number;
  palletsPerTruck?: number;
  /**
   * The operation that cuts the sheet into blanks: the layout on the sheet (`GRID` or `NESTED`
   * head to tail), its ups and the best grid's ups on the same sheet.
   */
  layout?: 'GRID' | 'NESTED';
  ups?: number;
  gridUps?: number;
  /** Guillotine only: whole lifts cut, cuts per lift and cuts in all. */
  lifts?: number;
  cutsPerLift?: number;
  cuts?: number;
}

export interface PredictionRequestComputed {
  position: number;
  /** Stable key of the process variant, e.g. `offset:1000x700`. */
  variantKey: string;
  rank: number;
  selected: boolean;
  /**
   * What variants are ranked by: product price + tooling / toolingRepeats (delivery, equal for
   * all variants of an element, left out). The selected variant has the lowest.
   */
  rankingTotal: number;
  /** Tooling charged to this order in the ranking (toolingCost / toolingRepeats). */
  amortisedToolingCost: number;
  toolingRepeats: number;
  /** How much more this variant's ranking total is than the selected one's (0 when selected). */
  lostBy: number;
  lostByPercent: number;
  /** Why this variant was not selected, in words (null for the selected one). */
  whyNotSelected: string | null;
  printingProcess: RouteProcess;
  unitPrice: number;
  toolingCost: number;
  deliveryCost: number;
  /** Manufacturing cost before margin. */
  productCost: number;
  /** productCost / (1 - commercialMargin) */
  productPrice: number;
  totalPrice: number;
  quantity: number;
  productionTime: number;
  /** Lead time of this variant as a breakdown: board, tooling, queue, operations, transport. */
  leadTime: LeadTimeBreakdown;
  partsCount: number;
  parts: Record<string, string>;
  productIds: string[];
  sheetSizeWidth: number;
  sheetSizeHeight: number;
  layoutCount: number;
  sheetUtilisation: number;
  simulationPliantLargeurPredis: number;
  simulationPliantHauteurPredis: number;
  simulationNbPosesPliantPredis: number;
  netSheets: number;
  /**
   * Gang run (gang.ts): every decoration variant printed on the same sheets, the ups split
   * between them (`variants[].ups`, `printedUnits` = units printed incl. overs); null = separate
   * runs, one per variant.
   */
  gang: {
    variants: { decorationIndex: number; quantity: number; ups: number; printedUnits: number }[];
    netSheets: number;
    goodUnitsPerSheet: number;
    label: string;
  } | null;
  nbFeuilleTotalPliantPredis: number;
  boardKg: number;
  pliantObjFoldingWeight: number;
  decorations: { decorationIndex: number; quantity: number; printedSheets: number }[];
  pliantPredis: number;
  cartonStructurePredis: number;
  encrageRectoDeBasePredis: number;
  plaqueOffsetPredis: number;
  vernisDeBasePredis: number;
  plaqueVernisPredis: number;
  pelliculagePredis: number;
  varnishOrScreenprintingPredis: number;
  ecranSerigraphiePredis: number;
  dorurePredis: number;
  colleContreCollagePredis: number;
  colleFenetrePrixPredis: number;
  petFenetrePrixPredis: number;
  digipackPredis: number;
  sachetsPrixPredis: number;
  cellophanePredis: number;
  caissePredis: number;
  palettePredis: number;
  predictedDeliveryPrice: number;
  predictedThousandPrice: number;
  prixFinalTotalPredis: number;
  decorticageCarcassePredis: number;
  decoupeCarcassePredis: number;
  sealingStripPredis: number;
  totalPrixMachinePredis: number;
  costBreakdown: CostBreakdown;
  costSummary: CostSummary;
  commercialMarginInitial: number;
  commercialMargin: number;
  optimisations: OptimisationType[];
  optimisationQuantity: number;
  optimiseProductQuantityPerDecoration: DecorationCount[];
  operations: PredictionOperation[];
  imposition: Imposition;
}

export interface PackingPlanOutput {
  packingType: PackingType;
  package: { id: string; code: string; name: string; kind: 'SHIPPING_CASE' | 'BUNDLE' };
  unitWeightKg: number;
  unitsPerPackage: number;
  packageLength: number;
  packageWidth: number;
  packageHeight: number;
  packageWeightKg: number;
  packages: number;
  pallet: { id: string; code: string; name: string; type: BriefPalletType };
  packagesPerLayer: number;
  layers: number;
  packagesPerPallet: number;
  pallets: number;
  palletsPerTruck: number;
  trucks: number;
  palletLoadedHeightMm: number;
  palletGrossWeightKg: number;
  netWeightKg: number;
  grossWeightKg: number;
  notes: string[];
}

export interface BriefElementComputed {
  position: number;
  productId: string;
  productCode: string;
  /** Die-line formula used (CAD key). */
  cadKey: string;
  /** Printed flat blank, glue flap included. */
  flatPackSurface: { width: number; height: number; areaM2: number };
  cad: {
    blankWidth: number;
    blankHeight: number;
    blankAreaMm2: number;
    blankAreaM2: number;
    cutRuleLengthMm: number;
    creaseRuleLengthMm: number;
    glueLengthMm: number;
    caliperMm: number;
    knockedDown: { length: number; width: number; thickness: number };
    cutSegments: number;
    creaseSegments: number;
  };
  dieLine: DieLine;
  material: {
    matterId: string;
    materialTypeId: string;
    materialReferenceId: string;
    corrugatedMaterialId: string | null;
    grammage: number;
    caliperMm: number;
    pricePerM2: number;
  };
  decorationSummary: {
    wantDecoration: boolean;
    sidePrinted: SidePrinted | null;
    rectoColorCount: number;
    versoColorCount: number;
    inkCoverage: number;
    variantCount: number;
    totalQuantity: number;
    decorationsCount: DecorationCount[];
    printingProcesses: RouteProcess[];
  };
  finishing: {
    lamination: boolean;
    varnish: boolean;
    hotStampings: HotStamping[];
    embossings: EmbossingDebossing[];
    window: { width: number; height: number } | null;
  };
  production: {
    selectedVariantKey: string;
    printingProcess: RouteProcess;
    sheetSizeWidth: number;
    sheetSizeHeight: number;
    layoutCount: number;
    sheetUtilisation: number;
    netSheets: number;
    grossSheets: number;
    boardKg: number;
    productionTime: number;
  };
  packing: PackingPlanOutput;
  delivery: { pallets: number; cost: number };
}

export interface BriefComputed {
  briefElements: BriefElementComputed[];
  packing: {
    packingType: PackingType;
    palletType: BriefPalletType;
    pallets: number;
    netWeightKg: number;
    grossWeightKg: number;
  };
  delivery: {
    zone: { id: string; code: string; name: string } | null;
    pallets: number;
    cost: number;
    minimumApplied: boolean;
    /**
     * Whether the prices include delivery. Without a delivery zone the brief is priced ex works:
     * `cost` is 0 because delivery is not part of the price, not because it is free.
     */
    included: boolean;
    /** Why delivery is not included (`NO_DELIVERY_ZONE`), null when it is. */
    notIncludedReason: 'NO_DELIVERY_ZONE' | null;
  };
}

export interface BriefPrice {
  currency: string;
  totalPrice: number;
  productCost: number;
  productPrice: number;
  marginAmount: number;
  toolingCost: number;
  deliveryCost: number;
  costBreakdown: CostBreakdown;
  costSummary: CostSummary;
  /** Hours, all operations of the selected variants. */
  productionTime: number;
  /**
   * The brief's lead time: its elements are made side by side, so the element whose selected
   * variant takes longest sets it (`position`); that variant's breakdown.
   */
  leadTime: LeadTimeBreakdown & { position: number };
  /** Operations in the selected variants. */
  processCount: number;
  commercialMarginInitial: number;
  /** Effective margin over the brief: margin / product price. */
  commercialMargin: number;
  /** Every variant of every element, by position then cheapest first; `selected` marks the default. */
  predictionRequestsComputed: PredictionRequestComputed[];
}

export interface BriefElementPrice {
  position: number;
  unitPrice: number;
  /** Total over all decoration variants. */
  quantity: number;
  totalPrice: number;
}

export interface BriefPrediction {
  currency: string;
  briefComputed: BriefComputed;
  briefPrice: BriefPrice;
  briefElementPrices: BriefElementPrice[];
}
