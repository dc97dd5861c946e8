/**
 * Reference data the engine prices against: a snapshot of one organisation's catalogue.
 *
 * Every record has a stable `id` (what briefs refer to) and a human `code` + `name`. The default
 * catalogue uses the code as the id; the database layer replaces ids with UUIDs. The engine only
 * ever looks records up by `id`, and never imports the default catalogue: the caller passes the
 * catalogue in, so an organisation's edited rates are what gets priced.
 *
 * Units: lengths in mm, areas in mm2 unless the field says m2/cm2, times in hours, money in the
 * catalogue currency (EUR), rates that are fractions (waste, margin) in 0..1.
 */
import type { OPERATION_CODES } from './message-codes.ts';

export interface CatalogueRecord {
  id: string;
  code: string;
  name: string;
}

/** A sheet or machine format. Normalised so that `width >= height` (long edge first). */
export interface Format {
  width: number;
  height: number;
  /** Sheet formats only: grain along the long edge (`LONG`) or the short edge; overrides the board's. */
  grain?: SheetGrain;
}

/** Board grain (machine direction) relative to the sheet: along its long edge or its short edge. */
export type SheetGrain = 'LONG' | 'SHORT';

/**
 * The grain a style needs relative to its blank (the die-line's x axis is the blank width):
 * `BLANK_WIDTH` = grain running around a tube (across the main panels' creases), `BLANK_HEIGHT`,
 * or `ANY`.
 */
export type RequiredGrain = 'BLANK_WIDTH' | 'BLANK_HEIGHT' | 'ANY';

export type CategoryKind = 'FOLDING_CARTON' | 'CORRUGATED_CASE' | 'FLAT_ITEM';

export interface ProductCategory extends CatalogueRecord {
  kind: CategoryKind;
}

/** The die-line formula a product uses (see geometry/styles.ts). */
export type StyleCode = 'STE' | 'RTE' | 'CLB' | 'SLEEVE' | 'TRAY' | 'FEFCO_0201' | 'FEFCO_0427' | 'FLAT';

/** The operation that turns printed sheets into blanks. */
export type CuttingOperationCode =
  | 'DIE_CUTTING'
  | 'GUILLOTINE_CUTTING'
  | 'SLOT_FOLD_GLUE'
  | 'ROTARY_DIE_CUTTING';

/** Capability a folder-gluer needs for the product (null: the product is not glued on a folder-gluer). */
export type GluingCapability = 'STRAIGHT_LINE' | 'CRASH_LOCK';

export interface DimensionLimits {
  length: number;
  width: number;
  height: number;
}

export interface Product extends CatalogueRecord {
  categoryId: string;
  style: StyleCode;
  /** Matters (paper, boxboard, corrugated) the style can be made of. */
  allowedMatterIds: string[];
  cuttingOperation: CuttingOperationCode;
  gluing: GluingCapability | null;
  /** Glue flap (manufacturer's joint) width, mm: 12-15 cartons, 30-35 corrugated. */
  glueFlapMm: number;
  /** Tuck flap depth beyond the closing panel, mm. */
  tuckFlapMm: number;
  /** Dust flap depth as a fraction of the inside width (0.4-0.5). */
  dustFlapRatio: number;
  /** Slot width between corrugated flaps, mm. */
  slotWidthMm: number;
  /** Inside dimension limits, mm (inclusive). Height is ignored for flat items. */
  minDimensions: DimensionLimits;
  maxDimensions: DimensionLimits;
  /** Whether a window (PET patch) can be cut in the front panel. */
  windowAllowed: boolean;
  /** Grain the style needs relative to its blank; default by style (see grainRuleOf). */
  requiredGrain?: RequiredGrain;
  /** Blanks may be laid in both orientations on one sheet (mixed grain); default only flat items. */
  mixedGrainAllowed?: boolean;
  /**
   * Corrugated: the direction the flutes must run relative to the blank (`BLANK_HEIGHT`: up the
   * walls of a 0201, the default for that style; `ANY` otherwise). See corrugated.ts.
   */
  requiredFlute?: RequiredGrain;
}

const TUBE_STYLES: ReadonlySet<StyleCode> = new Set<StyleCode>(['STE', 'RTE', 'CLB', 'SLEEVE']);

/** The grain rule of a product: its own fields, else the style's default. */
export function grainRuleOf(product: Product): { required: RequiredGrain; mixedAllowed: boolean } {
  return {
    required: product.requiredGrain ?? (TUBE_STYLES.has(product.style) ? 'BLANK_WIDTH' : 'ANY'),
    mixedAllowed: product.mixedGrainAllowed ?? product.style === 'FLAT',
  };
}

export type MatterKind = 'PAPER' | 'FOLDING_BOXBOARD' | 'CORRUGATED';

export interface Matter extends CatalogueRecord {
  kind: MatterKind;
}

export interface MaterialType extends CatalogueRecord {
  matterId: string;
  /** Flute profile for corrugated types (E, B, C, EB, BC). */
  flute?: string;
}

/** Corrugated sheets are made to size on the corrugator, within these limits. */
export interface CutToSize {
  min: Format;
  max: Format;
  /** Edge trim of the corrugator web across each sheet (both edges together), mm; bought, not used. */
  trimMm?: number;
  /** Corrugating waste (splices, start-up, rejects) as a fraction of the sheets made. */
  wasteRate?: number;
  /**
   * The corrugator's usual web (deckle) widths, mm: a sheet is cut `outs` times across the one
   * that wastes least, the rest of the web bought as trim (corrugated.ts).
   */
  webWidthsMm?: number[];
}

/** Running waste of a run of `goodOutput` input units: the spoilage table, else the flat rate. */
export function wasteRateFor(rate: MachineOperationRate, goodOutput: number): number {
  const table = rate.wasteByRunLength;
  if (!table || table.length === 0) return rate.runningWasteRate;
  // The row with the smallest upTo the run does not exceed (rows in any order).
  let best: { upTo: number; rate: number } | null = null;
  for (const row of table) {
    if (goodOutput <= row.upTo + 1e-9 && (!best || row.upTo < best.upTo)) best = row;
  }
  return best ? best.rate : rate.runningWasteRate;
}

export interface MaterialReference extends CatalogueRecord {
  materialTypeId: string;
  matterId: string;
  /** g/m2 */
  grammage: number;
  caliperMm: number;
  /** Price per tonne; used unless `pricePerSquareMetre` is set. */
  pricePerTonne: number;
  /** Price per m2 of sheet (corrugated is usually bought by area). Overrides pricePerTonne. */
  pricePerSquareMetre?: number;
  /** Stock sheet formats the board is sold in. */
  sheetFormats: Format[];
  /** Grain of the stock sheets (along the long edge or the short edge); absent = unknown, not constrained. */
  grain?: SheetGrain;
  /** When set, sheets can be ordered to any size within these limits (corrugated). */
  cutToSize?: CutToSize;
  supplier?: string;
}

/** A liner/flute composition of a corrugated reference (e.g. K150/T125/K150). */
export interface CorrugatedMaterial extends CatalogueRecord {
  materialReferenceId: string;
  composition: string;
  grammage: number;
  pricePerSquareMetre: number;
}

export type OperationCode = (typeof OPERATION_CODES)[number];

export type OperationCategory = 'PRINTING' | 'FINISHING' | 'CONVERTING' | 'PACKING';

export interface Operation extends CatalogueRecord {
  code: OperationCode;
  category: OperationCategory;
}

export type MachineKind =
  | 'OFFSET_PRESS'
  | 'DIGITAL_PRESS'
  | 'UV_COATER'
  | 'LAMINATOR'
  | 'HOT_FOIL_PRESS'
  | 'DIE_CUTTER'
  | 'GUILLOTINE'
  | 'WINDOW_PATCHER'
  | 'FOLDER_GLUER'
  | 'CORRUGATED_LINE'
  | 'PACKING_STATION';

/**
 * What one machine charges and how fast it runs for one operation (the spec's
 * "machine operation rates"). Speeds and make-ready are in the operation's input unit: sheets for
 * sheet-fed operations, blanks/units for window patching, folding-gluing and packing, and cuts
 * per hour for the guillotine.
 */
export interface MachineOperationRate {
  operationId: string;
  /** Set-up per make-ready (per decoration variant and pass for printing), hours. */
  setupHours: number;
  /** Extra set-up per colour (plate hanging, ink duct), hours. */
  setupHoursPerColour: number;
  /** Extra set-up per tool (stamping/embossing die), hours. */
  setupHoursPerTool: number;
  speedPerHour: number;
  /** Spoilage per make-ready, input units. */
  makeReady: number;
  makeReadyPerColour: number;
  /** Running waste as a fraction of the good output (0.01-0.03). */
  runningWasteRate: number;
  /**
   * Running waste by run length (spoilage table): the rate of the first row whose `upTo` (good
   * output of the run, in input units) the run does not exceed; longer runs than the last row
   * use `runningWasteRate`. Rates should not rise with the run length.
   */
  wasteByRunLength?: { upTo: number; rate: number }[];
  /** The operation runs in the same pass as the previous one on this machine (no own rolling time). */
  inlineWithPrevious?: boolean;
  /**
   * Packing only: what `speedPerHour` counts. `UNIT` (default): units packed per hour. `PACKAGE`:
   * the labour is per case or bundle (erect, close, tape or strap, label, palletise) at the
   * package's `packagesPerHour` (else `speedPerHour`), and packages are filled at the line speed
   * of the last operation: the packer is busy for max(packages / packagesPerHour, line time).
   */
  speedBasis?: 'UNIT' | 'PACKAGE';
}

export type MachineCapability = 'STRAIGHT_LINE' | 'CRASH_LOCK' | 'FOUR_CORNER';

export interface Machine extends CatalogueRecord {
  kind: MachineKind;
  hourlyRate: number;
  /** Sheet limits for sheet-fed machines, blank limits for blank-fed machines. */
  minFormat: Format;
  maxFormat: Format;
  /** Board caliper limits, mm. */
  minCaliperMm: number;
  maxCaliperMm: number;
  /** Non-printable leading edge held by the grippers, mm. */
  gripperMm: number;
  sideMarginMm: number;
  tailMarginMm: number;
  /** Space between blanks on the sheet (cutting machines), mm. */
  gutterMm: number;
  /** Printing units per pass (presses). */
  maxColours: number;
  /** Cap on blanks per sheet (a flexo folder-gluer runs one blank at a time). */
  maxUps?: number;
  /** Stack height cut at once (guillotine), mm. */
  liftHeightMm?: number;
  capabilities: MachineCapability[];
  operations: MachineOperationRate[];
}

export type ConsumableKind =
  | 'OFFSET_INK'
  | 'FLEXO_INK'
  | 'OFFSET_PLATE'
  | 'VARNISH'
  | 'VARNISH_PLATE'
  | 'AQUEOUS_COATING'
  | 'LAMINATE_FILM'
  | 'FOIL'
  | 'WINDOW_FILM'
  | 'WINDOW_GLUE'
  | 'FOLDING_GLUE'
  | 'DIGITAL_CLICK';

export type ConsumableUnit = 'KG' | 'M2' | 'EACH' | 'IMPRESSION';

export interface Consumable extends CatalogueRecord {
  kind: ConsumableKind;
  unit: ConsumableUnit;
  price: number;
  /**
   * Usage per unit of work: g/m2 per colour at 100 % coverage for inks, g/m2 for varnish,
   * g per metre of glue line for glues. Unused for other kinds.
   */
  consumptionRate?: number;
  /** Foil colour (matched case-insensitively against HotStamping.color). */
  colour?: string;
}

export type ToolingKind =
  | 'CUTTING_DIE'
  | 'ROTARY_DIE'
  | 'STAMPING_DIE'
  | 'EMBOSSING_DIE'
  | 'BRAILLE_DIE'
  | 'FLEXO_PLATE';

export interface ToolingRule extends CatalogueRecord {
  kind: ToolingKind;
  basePrice: number;
  /** Per metre of cutting + creasing rule (dies). */
  pricePerMetre: number;
  /** Per cm2 of tool area (stamping/embossing dies, flexo plates). */
  pricePerSquareCentimetre: number;
  /** Embossing depth surcharge: fraction of the area price per mm of depth. */
  depthSurchargePerMm: number;
  minimumPrice: number;
}

export interface PackingCase extends CatalogueRecord {
  kind: 'SHIPPING_CASE' | 'BUNDLE';
  /** Inside dimensions (shipping case), mm. Bundles use the product footprint. */
  length: number;
  width: number;
  height: number;
  /** Case board thickness; outside = inside + 2 x wall, mm. */
  wallThicknessMm: number;
  /** Bundle stack height limit, mm. */
  maxStackHeightMm?: number;
  /** Packing labour: cases made up, closed and labelled (or bundles strapped) per hour. */
  packagesPerHour?: number;
  maxWeightKg: number;
  price: number;
  tareKg: number;
}

export type PalletType = 'EURO' | 'STANDARD' | 'CUSTOM';

export interface Pallet extends CatalogueRecord {
  type: PalletType;
  length: number;
  width: number;
  /** Height of the pallet itself, mm. */
  deckHeightMm: number;
  /** Maximum height of the loaded pallet, mm. */
  maxLoadedHeightMm: number;
  maxGrossWeightKg: number;
  price: number;
  tareKg: number;
  /** Pallets per full truck (13.6 m trailer); default from the footprint on a 13,600 x 2,450 mm floor. */
  perTruck?: number;
}

export interface DeliveryZone extends CatalogueRecord {
  countryCodes: string[];
  pricePerPallet: number;
  minimumPrice: number;
  /** Working days on the road to the zone (lead time); absent: `settings.leadTime.transportDays`. */
  transitDays?: number;
}

/**
 * Lead-time figures (working days unless said otherwise; lead-time.ts). Every field is optional:
 * absent ones take `DEFAULT_LEAD_TIME` (lead-time.ts), so catalogues stored before these figures
 * existed still answer a breakdown.
 */
export interface LeadTimeSettings {
  /** Working hours of a production day (one shift). */
  hoursPerWorkingDay?: number;
  /** Board delivered from a merchant's or the mill's stock. */
  boardStockDays?: number;
  /** Board made to order at the mill (grammage or quantity beyond stock). */
  boardMillOrderDays?: number;
  /** Above this much board (kg) for one element, the board is a mill order. */
  boardStockLimitKg?: number;
  /** Corrugated sheets made to size on the corrugator. */
  corrugatorDays?: number;
  /** Tooling made after artwork approval, per tooling line code (CUTTING_DIE, STAMPING_DIE...). */
  toolingDays?: Record<string, number>;
  /** Offset plates made after artwork approval (computer-to-plate). */
  platesDays?: number;
  /** Waiting for a slot on the machines once board and tools are in. */
  queueDays?: number;
  /** Transport to a zone without its own `transitDays`. */
  transportDays?: number;
}

export interface PricingSettings {
  currency: string;
  defaultCommercialMargin: number;
  /** Ink coverage used when a brief element gives none, fraction of the printed area. */
  defaultInkCoverage: number;
  /** Foil pulled beyond each side of a stamp, mm. */
  foilAllowanceMm: number;
  /** PET film overlapping the window opening on each side, mm. */
  windowFilmOverlapMm: number;
  /** Minimum board margin around a window opening inside its panel, mm. */
  windowPanelMarginMm: number;
  /**
   * How corrugated cases ship whatever the brief's packing type: `BUNDLE` (default, strapped
   * bundles as corrugated plants deliver) or `AS_BRIEF`.
   */
  corrugatedPacking?: 'BUNDLE' | 'AS_BRIEF';
  /**
   * Route selection: routes are ranked by total = product price + tooling / toolingRepeats (the
   * tooling is amortised over the orders expected to reuse it; 1 = charged to this order only).
   * Absent fields take the defaults in `routeSelectionOf`.
   */
  routeSelection?: {
    /** Orders expected to share the tooling (>= 1). */
    toolingRepeats?: number;
    /** Routes whose total is within this fraction of the best one are shown as variants. */
    variantMargin?: number;
    /** At most this many variants per element (the best route of each process always shown). */
    maxVariants?: number;
  };
  /** Lead-time figures (lead-time.ts). */
  leadTime?: LeadTimeSettings;
  valueAnalysis: {
    /** A price break is a quantity where the unit price falls by at least this fraction. */
    priceBreakSaving: number;
    /** Quantity multipliers of the unit-price curve. */
    quantityCurveFactors: number[];
    /** INCREASE_QUANTITY proposes at most this multiple of the ordered quantity (default 2). */
    maxQuantityFactor?: number;
    /** Largest dimension reduction ADJUST_DIMENSIONS may propose, mm. */
    maxDimensionReductionMm: number;
    /** Comparable board for CHANGE_MATERIAL: relative grammage and caliper tolerance. */
    grammageTolerance: number;
    caliperTolerance: number;
  };
}

export interface RouteSelection {
  toolingRepeats: number;
  variantMargin: number;
  maxVariants: number;
}

export function routeSelectionOf(settings: PricingSettings): RouteSelection {
  const s = settings.routeSelection ?? {};
  return {
    toolingRepeats: Math.max(1, s.toolingRepeats ?? 1),
    variantMargin: Math.max(0, s.variantMargin ?? 0.15),
    maxVariants: Math.max(1, Math.floor(s.maxVariants ?? 6)),
  };
}

export interface Catalogue {
  settings: PricingSettings;
  productCategories: ProductCategory[];
  products: Product[];
  matters: Matter[];
  materialTypes: MaterialType[];
  materialReferences: MaterialReference[];
  corrugatedMaterials: CorrugatedMaterial[];
  operations: Operation[];
  machines: Machine[];
  consumables: Consumable[];
  toolingRules: ToolingRule[];
  packingCases: PackingCase[];
  pallets: Pallet[];
  deliveryZones: DeliveryZone[];
}

/** Id lookups built once per engine call (a few microseconds; never cached across calls). */
export interface CatalogueIndex {
  catalogue: Catalogue;
  productCategories: Map<string, ProductCategory>;
  products: Map<string, Product>;
  matters: Map<string, Matter>;
  materialTypes: Map<string, MaterialType>;
  materialReferences: Map<string, MaterialReference>;
  corrugatedMaterials: Map<string, CorrugatedMaterial>;
  operations: Map<string, Operation>;
  operationsByCode: Map<OperationCode, Operation>;
  machines: Map<string, Machine>;
  deliveryZones: Map<string, DeliveryZone>;
}

function byId<T extends CatalogueRecord>(records: T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const record of records) map.set(record.id, record);
  return map;
}

export function indexCatalogue(catalogue: Catalogue): CatalogueIndex {
  const operationsByCode = new Map<OperationCode, Operation>();
  for (const operation of catalogue.operations) operationsByCode.set(operation.code, operation);
  return {
    catalogue,
    productCategories: byId(catalogue.productCategories),
    products: byId(catalogue.products),
    matters: byId(catalogue.matters),
    materialTypes: byId(catalogue.materialTypes),
    materialReferences: byId(catalogue.materialReferences),
    corrugatedMaterials: byId(catalogue.corrugatedMaterials),
    operations: byId(catalogue.operations),
    operationsByCode,
    machines: byId(catalogue.machines),
    deliveryZones: byId(catalogue.deliveryZones),
  };
}

/** The rate a machine charges for an operation code, if it performs it. */
export function machineRate(
  index: CatalogueIndex,
  machine: Machine,
  code: OperationCode,
): MachineOperationRate | undefined {
  const operation = index.operationsByCode.get(code);
  if (!operation) return undefined;
  return machine.operations.find((rate) => rate.operationId === operation.id);
}

/** First consumable of a kind; for foils, the one whose colour matches (else the first foil). */
export function findConsumable(
  catalogue: Catalogue,
  kind: ConsumableKind,
  colour?: string,
): Consumable | undefined {
  const ofKind = catalogue.consumables.filter((consumable) => consumable.kind === kind);
  if (colour !== undefined) {
    const wanted = colour.trim().toLowerCase();
    const match = ofKind.find((consumable) => consumable.colour?.toLowerCase() === wanted);
    if (match) return match;
  }
  return ofKind[0];
}

export function findToolingRule(catalogue: Catalogue, kind: ToolingKind): ToolingRule | undefined {
  return catalogue.toolingRules.find((rule) => rule.kind === kind);
}

/** Normalise a format so the long edge comes first (a sheet's grain is relative to that edge). */
export function normaliseFormat(format: Format): Format {
  const out =
    format.width >= format.height
      ? { width: format.width, height: format.height }
      : { width: format.height, height: format.width };
  return format.grain ? { ...out, grain: format.grain } : out;
}

export function formatFits(format: Format, min: Format, max: Format): boolean {
  const f = normaliseFormat(format);
  const lo = normaliseFormat(min);
  const hi = normaliseFormat(max);
  return f.width <= hi.width && f.height <= hi.height && f.width >= lo.width && f.height >= lo.height;
}
