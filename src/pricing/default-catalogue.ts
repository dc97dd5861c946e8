/**
 * A realistic converter's reference data, used to seed an organisation on first start and in
 * tests/benchmarks. Plain data with stable codes (the code doubles as the id here; the database
 * layer maps ids to UUIDs). Rates follow docs/pricing.md ("Reference values"): EUR, 2025 levels.
 *
 * The engine never imports this module: callers pass a Catalogue to priceBrief.
 */

import type {
  Catalogue,
  Consumable,
  DeliveryZone,
  Format,
  Machine,
  MachineOperationRate,
  MaterialReference,
  Operation,
  OperationCode,
  PackingCase,
  Pallet,
  Product,
  ToolingRule,
} from './catalogue.ts';
import { DEFAULT_LEAD_TIME } from './lead-time.ts';

const f = (width: number, height: number): Format => ({ width, height });

/**
 * Stock formats of folding boxboard and paper, long edge first: long grain (the board's grain,
 * set on each reference) plus the three largest also in short grain, as mills and merchants
 * sell them, so a carton can lie either way on the sheet and keep its grain.
 */
const BOARD_SHEETS: Format[] = [
  f(1020, 720),
  f(1000, 700),
  f(920, 650),
  f(880, 630),
  f(720, 520),
  { ...f(1020, 720), grain: 'SHORT' },
  { ...f(1000, 700), grain: 'SHORT' },
  { ...f(920, 650), grain: 'SHORT' },
];

const operations: Operation[] = (
  [
    ['PRINT_OFFSET', 'Offset printing', 'PRINTING'],
    ['PRINT_DIGITAL', 'Digital printing', 'PRINTING'],
    ['PRINT_FLEXO', 'Flexo printing', 'PRINTING'],
    ['LAMINATION', 'Lamination', 'FINISHING'],
    ['VARNISH', 'UV varnish', 'FINISHING'],
    ['AQUEOUS_COATING', 'Inline aqueous coating', 'FINISHING'],
    ['HOT_FOIL_STAMPING', 'Hot-foil stamping', 'FINISHING'],
    ['EMBOSSING', 'Embossing / debossing', 'FINISHING'],
    ['DIE_CUTTING', 'Die-cutting and stripping', 'CONVERTING'],
    ['ROTARY_DIE_CUTTING', 'Rotary die-cutting', 'CONVERTING'],
    ['GUILLOTINE_CUTTING', 'Guillotine cutting', 'CONVERTING'],
    ['SLOT_FOLD_GLUE', 'Slotting, folding and gluing', 'CONVERTING'],
    ['WINDOW_PATCHING', 'Window patching', 'CONVERTING'],
    ['FOLDING_GLUING', 'Folding and gluing', 'CONVERTING'],
    ['PACKING', 'Packing', 'PACKING'],
  ] as const
).map(([code, name, category]) => ({ id: code, code, name, category }));

function rate(
  operation: OperationCode,
  values: Partial<MachineOperationRate> & { setupHours: number; speedPerHour: number },
): MachineOperationRate {
  return {
    operationId: operation,
    setupHoursPerColour: 0,
    setupHoursPerTool: 0,
    makeReady: 0,
    makeReadyPerColour: 0,
    runningWasteRate: 0,
    ...values,
  };
}

function machine(
  values: Omit<
    Machine,
    'id' | 'capabilities' | 'gutterMm' | 'maxColours' | 'gripperMm' | 'sideMarginMm' | 'tailMarginMm'
  > &
    Partial<Machine>,
): Machine {
  return {
    id: values.code,
    capabilities: [],
    gutterMm: 0,
    maxColours: 0,
    gripperMm: 0,
    sideMarginMm: 0,
    tailMarginMm: 0,
    ...values,
  };
}

/**
 * Converting spoilage of corrugated lines by run length (good sheets of the run): with the
 * corrugator's trim and waste, 8-12 % of the board on short runs, about 7 % on long ones
 * (published 5-10 %; see docs/pricing.md).
 */
const CORRUGATED_CONVERTING_WASTE = [
  { upTo: 1000, rate: 0.06 },
  { upTo: 5000, rate: 0.04 },
  { upTo: 20000, rate: 0.03 },
];
/** Die-cut styles lose a few percent more than slotted cases (published +3-5 %). */
const CORRUGATED_DIE_CUT_WASTE = [
  { upTo: 1000, rate: 0.08 },
  { upTo: 5000, rate: 0.06 },
  { upTo: 20000, rate: 0.04 },
];

const machines: Machine[] = [
  machine({
    code: 'OFFSET-XL106',
    name: 'Offset press B1, 6 colours',
    kind: 'OFFSET_PRESS',
    hourlyRate: 210,
    minFormat: f(480, 340),
    maxFormat: f(1060, 750),
    minCaliperMm: 0.03,
    maxCaliperMm: 1.0,
    gripperMm: 12,
    sideMarginMm: 5,
    tailMarginMm: 5,
    maxColours: 6,
    operations: [
      // Make-ready 0.25 h + 0.05 h per plate (4 colours: 27 min; published 15-40 min), running
      // waste falling with the run length (see docs/pricing.md, calibration).
      rate('PRINT_OFFSET', {
        setupHours: 0.25,
        setupHoursPerColour: 0.05,
        speedPerHour: 12000,
        makeReady: 150,
        makeReadyPerColour: 15,
        runningWasteRate: 0.015,
        wasteByRunLength: [
          { upTo: 2500, rate: 0.03 },
          { upTo: 10000, rate: 0.025 },
          { upTo: 25000, rate: 0.02 },
        ],
      }),
      // Coating unit at the end of the press (issue 30): aqueous coating in the printing pass,
      // its own set-up (fill and wash) and make-ready, no pass of its own. Estimates.
      rate('AQUEOUS_COATING', {
        setupHours: 0.1,
        speedPerHour: 12000,
        makeReady: 20,
        inlineWithPrevious: true,
      }),
    ],
  }),
  machine({
    code: 'DIGITAL-B2',
    name: 'Digital press B2, 7 colours',
    kind: 'DIGITAL_PRESS',
    hourlyRate: 115,
    minFormat: f(420, 297),
    maxFormat: f(750, 530),
    minCaliperMm: 0.07,
    maxCaliperMm: 0.6,
    gripperMm: 10,
    sideMarginMm: 5,
    tailMarginMm: 5,
    maxColours: 7,
    operations: [
      rate('PRINT_DIGITAL', { setupHours: 0.15, speedPerHour: 3000, makeReady: 8, runningWasteRate: 0.01 }),
    ],
  }),
  machine({
    code: 'COATER-UV',
    name: 'UV coater',
    kind: 'UV_COATER',
    hourlyRate: 85,
    minFormat: f(400, 300),
    maxFormat: f(1060, 760),
    minCaliperMm: 0.05,
    maxCaliperMm: 1.0,
    gripperMm: 10,
    sideMarginMm: 5,
    tailMarginMm: 5,
    operations: [
      rate('VARNISH', { setupHours: 0.3, speedPerHour: 6000, makeReady: 60, runningWasteRate: 0.01 }),
    ],
  }),
  machine({
    code: 'LAMINATOR-105',
    name: 'Thermal film laminator',
    kind: 'LAMINATOR',
    hourlyRate: 90,
    minFormat: f(350, 250),
    maxFormat: f(1050, 760),
    minCaliperMm: 0.05,
    maxCaliperMm: 1.0,
    gripperMm: 10,
    sideMarginMm: 5,
    tailMarginMm: 5,
    operations: [
      rate('LAMINATION', { setupHours: 0.35, speedPerHour: 4500, makeReady: 40, runningWasteRate: 0.01 }),
    ],
  }),
  machine({
    code: 'FOIL-106',
    name: 'Hot-foil stamping and embossing press',
    kind: 'HOT_FOIL_PRESS',
    hourlyRate: 140,
    minFormat: f(400, 350),
    maxFormat: f(1060, 760),
    minCaliperMm: 0.1,
    maxCaliperMm: 1.5,
    gripperMm: 12,
    sideMarginMm: 5,
    tailMarginMm: 5,
    operations: [
      rate('HOT_FOIL_STAMPING', {
        setupHours: 0.75,
        setupHoursPerTool: 0.25,
        speedPerHour: 4000,
        makeReady: 100,
        runningWasteRate: 0.02,
      }),
      rate('EMBOSSING', {
        setupHours: 0.5,
        setupHoursPerTool: 0.3,
        speedPerHour: 4500,
        makeReady: 80,
        runningWasteRate: 0.015,
      }),
    ],
  }),
  machine({
    code: 'DIECUT-106',
    name: 'Flat-bed die-cutter with stripping',
    kind: 'DIE_CUTTER',
    hourlyRate: 125,
    minFormat: f(400, 350),
    maxFormat: f(1060, 760),
    minCaliperMm: 0.1,
    maxCaliperMm: 2.0,
    gripperMm: 12,
    sideMarginMm: 5,
    tailMarginMm: 5,
    gutterMm: 3,
    operations: [
      rate('DIE_CUTTING', { setupHours: 0.9, speedPerHour: 6500, makeReady: 80, runningWasteRate: 0.01 }),
    ],
  }),
  machine({
    code: 'GUILLOTINE-115',
    name: 'Programmable guillotine 115 cm',
    kind: 'GUILLOTINE',
    hourlyRate: 65,
    minFormat: f(100, 100),
    maxFormat: f(1150, 1150),
    minCaliperMm: 0.03,
    maxCaliperMm: 1.0,
    gutterMm: 4,
    liftHeightMm: 80,
    operations: [
      rate('GUILLOTINE_CUTTING', {
        setupHours: 0.15,
        speedPerHour: 240,
        makeReady: 10,
        runningWasteRate: 0.005,
      }),
    ],
  }),
  machine({
    code: 'WINDOW-110',
    name: 'Window patcher',
    kind: 'WINDOW_PATCHER',
    hourlyRate: 75,
    minFormat: f(100, 50),
    maxFormat: f(1000, 700),
    minCaliperMm: 0.2,
    maxCaliperMm: 1.0,
    operations: [
      rate('WINDOW_PATCHING', {
        setupHours: 0.5,
        speedPerHour: 12000,
        makeReady: 60,
        runningWasteRate: 0.01,
      }),
    ],
  }),
  machine({
    code: 'FG-STRAIGHT-110',
    name: 'Folder-gluer, straight-line',
    kind: 'FOLDER_GLUER',
    hourlyRate: 95,
    minFormat: f(90, 60),
    maxFormat: f(1100, 900),
    minCaliperMm: 0.15,
    maxCaliperMm: 1.0,
    capabilities: ['STRAIGHT_LINE'],
    operations: [
      rate('FOLDING_GLUING', { setupHours: 0.5, speedPerHour: 30000, makeReady: 80, runningWasteRate: 0.01 }),
    ],
  }),
  machine({
    code: 'FG-CRASHLOCK-110',
    name: 'Folder-gluer, crash-lock and 4/6 corner',
    kind: 'FOLDER_GLUER',
    hourlyRate: 115,
    minFormat: f(120, 80),
    maxFormat: f(1100, 900),
    minCaliperMm: 0.15,
    maxCaliperMm: 1.2,
    capabilities: ['STRAIGHT_LINE', 'CRASH_LOCK', 'FOUR_CORNER'],
    operations: [
      rate('FOLDING_GLUING', {
        setupHours: 1.0,
        speedPerHour: 12000,
        makeReady: 120,
        runningWasteRate: 0.015,
      }),
    ],
  }),
  machine({
    code: 'FFG-1628',
    name: 'Flexo folder-gluer 1628, 4 colours',
    kind: 'CORRUGATED_LINE',
    hourlyRate: 260,
    minFormat: f(400, 200),
    maxFormat: f(2800, 1600),
    minCaliperMm: 1.0,
    maxCaliperMm: 8.0,
    maxColours: 4,
    maxUps: 1,
    operations: [
      // 250 boxes a minute (published 250-400/min for flexo folder-gluers); changeover 0.2 h +
      // 0.05 h per print unit + 0.25 h slotting/folding: well under an hour.
      rate('PRINT_FLEXO', {
        setupHours: 0.2,
        setupHoursPerColour: 0.05,
        speedPerHour: 15000,
        makeReady: 40,
        makeReadyPerColour: 10,
        runningWasteRate: 0.025,
        wasteByRunLength: CORRUGATED_CONVERTING_WASTE,
      }),
      rate('SLOT_FOLD_GLUE', {
        setupHours: 0.25,
        speedPerHour: 15000,
        makeReady: 30,
        runningWasteRate: 0.025,
        wasteByRunLength: CORRUGATED_CONVERTING_WASTE,
        inlineWithPrevious: true,
      }),
    ],
  }),
  machine({
    code: 'RDC-1628',
    name: 'Flexo rotary die-cutter 1628, 3 colours',
    kind: 'CORRUGATED_LINE',
    hourlyRate: 230,
    minFormat: f(500, 300),
    maxFormat: f(2400, 1500),
    minCaliperMm: 1.0,
    maxCaliperMm: 8.0,
    gripperMm: 10,
    sideMarginMm: 10,
    tailMarginMm: 10,
    gutterMm: 6,
    maxColours: 3,
    maxUps: 9,
    operations: [
      rate('PRINT_FLEXO', {
        setupHours: 0.2,
        setupHoursPerColour: 0.05,
        speedPerHour: 8000,
        makeReady: 60,
        makeReadyPerColour: 10,
        runningWasteRate: 0.03,
        wasteByRunLength: CORRUGATED_DIE_CUT_WASTE,
      }),
      rate('ROTARY_DIE_CUTTING', {
        setupHours: 0.4,
        speedPerHour: 8000,
        makeReady: 50,
        runningWasteRate: 0.03,
        wasteByRunLength: CORRUGATED_DIE_CUT_WASTE,
        inlineWithPrevious: true,
      }),
    ],
  }),
  machine({
    code: 'PACK-MANUAL',
    name: 'Packing station',
    kind: 'PACKING_STATION',
    hourlyRate: 38,
    minFormat: f(0, 0),
    maxFormat: f(10000, 10000),
    minCaliperMm: 0,
    maxCaliperMm: 20,
    // Labour per package: a case made up, filled at the line's delivery, closed, labelled and
    // palletised (packagesPerHour of each package below); the packer is busy at least as long
    // as the line runs.
    operations: [rate('PACKING', { setupHours: 0.1, speedPerHour: 90, speedBasis: 'PACKAGE' })],
  }),
];

function product(
  values: Omit<Product, 'id' | 'tuckFlapMm' | 'dustFlapRatio' | 'slotWidthMm' | 'windowAllowed'> &
    Partial<Product>,
): Product {
  return {
    id: values.code,
    tuckFlapMm: 15,
    dustFlapRatio: 0.45,
    slotWidthMm: 8,
    windowAllowed: false,
    ...values,
  };
}

const CARTON_MIN = { length: 20, width: 15, height: 30 };
const CARTON_MAX = { length: 400, width: 250, height: 500 };

const products: Product[] = [
  product({
    code: 'STE',
    name: 'Straight tuck end carton',
    categoryId: 'FOLDING-CARTON',
    style: 'STE',
    allowedMatterIds: ['FBB'],
    cuttingOperation: 'DIE_CUTTING',
    gluing: 'STRAIGHT_LINE',
    glueFlapMm: 15,
    minDimensions: CARTON_MIN,
    maxDimensions: CARTON_MAX,
    windowAllowed: true,
  }),
  product({
    code: 'RTE',
    name: 'Reverse tuck end carton',
    categoryId: 'FOLDING-CARTON',
    style: 'RTE',
    allowedMatterIds: ['FBB'],
    cuttingOperation: 'DIE_CUTTING',
    gluing: 'STRAIGHT_LINE',
    glueFlapMm: 15,
    minDimensions: CARTON_MIN,
    maxDimensions: CARTON_MAX,
    windowAllowed: true,
  }),
  product({
    code: 'CLB',
    name: 'Crash-lock bottom carton',
    categoryId: 'FOLDING-CARTON',
    style: 'CLB',
    allowedMatterIds: ['FBB'],
    cuttingOperation: 'DIE_CUTTING',
    gluing: 'CRASH_LOCK',
    glueFlapMm: 15,
    minDimensions: { length: 40, width: 30, height: 40 },
    maxDimensions: CARTON_MAX,
    windowAllowed: true,
  }),
  product({
    code: 'SLEEVE',
    name: 'Sleeve',
    categoryId: 'FOLDING-CARTON',
    style: 'SLEEVE',
    allowedMatterIds: ['FBB'],
    cuttingOperation: 'DIE_CUTTING',
    gluing: 'STRAIGHT_LINE',
    glueFlapMm: 15,
    minDimensions: { length: 30, width: 15, height: 60 },
    maxDimensions: { length: 400, width: 250, height: 600 },
    windowAllowed: true,
  }),
  product({
    code: 'TRAY',
    name: 'Folded tray (shipped flat)',
    categoryId: 'FOLDING-CARTON',
    style: 'TRAY',
    allowedMatterIds: ['FBB'],
    cuttingOperation: 'DIE_CUTTING',
    gluing: null,
    glueFlapMm: 0,
    minDimensions: { length: 50, width: 40, height: 10 },
    maxDimensions: { length: 600, width: 400, height: 150 },
  }),
  product({
    code: '0201',
    name: 'FEFCO 0201 regular slotted case',
    categoryId: 'CORRUGATED-CASE',
    style: 'FEFCO_0201',
    allowedMatterIds: ['CORRUGATED'],
    cuttingOperation: 'SLOT_FOLD_GLUE',
    gluing: null,
    glueFlapMm: 35,
    minDimensions: { length: 150, width: 100, height: 100 },
    maxDimensions: { length: 1000, width: 800, height: 1200 },
  }),
  product({
    code: '0427',
    name: 'FEFCO 0427 roll-end tuck-front mailer',
    categoryId: 'CORRUGATED-CASE',
    style: 'FEFCO_0427',
    allowedMatterIds: ['CORRUGATED'],
    cuttingOperation: 'ROTARY_DIE_CUTTING',
    gluing: null,
    glueFlapMm: 0,
    minDimensions: { length: 80, width: 60, height: 20 },
    maxDimensions: { length: 600, width: 450, height: 200 },
  }),
  product({
    // Issue 30: a die-cut corrugated tray (FEFCO 04xx family: a flat blank with four walls and
    // corner flaps), rotary die-cut on the flexo line like the 0427, shipped flat.
    code: 'TRAY-CORR',
    name: 'Corrugated die-cut tray (shipped flat)',
    categoryId: 'CORRUGATED-CASE',
    style: 'TRAY',
    allowedMatterIds: ['CORRUGATED'],
    cuttingOperation: 'ROTARY_DIE_CUTTING',
    gluing: null,
    glueFlapMm: 0,
    minDimensions: { length: 100, width: 80, height: 20 },
    maxDimensions: { length: 800, width: 600, height: 300 },
  }),
  product({
    code: 'FLAT',
    name: 'Flat item (card, leaflet, label)',
    categoryId: 'FLAT-ITEM',
    style: 'FLAT',
    allowedMatterIds: ['PAPER', 'FBB'],
    cuttingOperation: 'GUILLOTINE_CUTTING',
    gluing: null,
    glueFlapMm: 0,
    minDimensions: { length: 40, width: 30, height: 0 },
    maxDimensions: { length: 1000, width: 700, height: 0 },
  }),
];

function board(
  code: string,
  name: string,
  materialTypeId: string,
  matterId: string,
  grammage: number,
  caliperMm: number,
  pricePerTonne: number,
  extra: Partial<MaterialReference> = {},
): MaterialReference {
  return {
    id: code,
    code,
    name,
    materialTypeId,
    matterId,
    grammage,
    caliperMm,
    pricePerTonne,
    sheetFormats: BOARD_SHEETS,
    // Long-grain stock (grain along the 1,020 mm edge): tube cartons lie with their width along it.
    grain: 'LONG',
    ...extra,
  };
}

/** Corrugator limits; 30 mm of web edge trim and 3 % corrugating waste are bought with each sheet. */
/**
 * Corrugator: sheets made to size within these limits; the usual web (deckle) widths a corrugator
 * runs, 1,400 to 2,500 mm in 200 mm steps (reels are stocked in a few standard widths; the
 * sheet's deckle is laid as many times as fits across the one that wastes least), 30 mm edge trim,
 * 3 % corrugating waste.
 */
const CORRUGATOR = {
  min: f(300, 200),
  max: f(2500, 1500),
  trimMm: 30,
  wasteRate: 0.03,
  webWidthsMm: [1400, 1600, 1800, 2000, 2200, 2500],
};

/** Corrugated is bought by area; the tonne price is for reference. */
function corrugated(
  code: string,
  name: string,
  materialTypeId: string,
  grammage: number,
  caliperMm: number,
  pricePerM2: number,
): MaterialReference {
  const { grain: _stockGrain, ...reference } = board(
    code,
    name,
    materialTypeId,
    'CORRUGATED',
    grammage,
    caliperMm,
    Math.round((pricePerM2 / grammage) * 1e6),
    {
      pricePerSquareMetre: pricePerM2,
      sheetFormats: [],
      cutToSize: CORRUGATOR,
    },
  );
  return reference; // made to size on the corrugator: no stock grain
}

const materialReferences: MaterialReference[] = [
  board('GC1-300', 'GC1 folding boxboard 300 g/m2', 'GC1', 'FBB', 300, 0.44, 1280),
  board('GC1-350', 'GC1 folding boxboard 350 g/m2', 'GC1', 'FBB', 350, 0.52, 1250),
  board('GC1-400', 'GC1 folding boxboard 400 g/m2', 'GC1', 'FBB', 400, 0.6, 1240),
  board('GC1-340', 'GC1 folding boxboard 340 g/m2, second mill', 'GC1', 'FBB', 340, 0.5, 1215),
  board('GC2-300', 'GC2 folding boxboard 300 g/m2', 'GC2', 'FBB', 300, 0.46, 1120),
  board('GC2-350', 'GC2 folding boxboard 350 g/m2', 'GC2', 'FBB', 350, 0.54, 1100),
  // Issue 30: unbleached kraft folding boxboard (CUK / SUK: coated or solid unbleached kraft);
  // price per tonne an estimate between GC2 and GC1 (docs/pricing.md, sources).
  board('KRAFT-FBB-300', 'Unbleached kraft folding boxboard 300 g/m2', 'KRAFT-FBB', 'FBB', 300, 0.4, 1180),
  board('KRAFT-FBB-350', 'Unbleached kraft folding boxboard 350 g/m2', 'KRAFT-FBB', 'FBB', 350, 0.47, 1160),
  board('SBS-300', 'SBS solid bleached board 300 g/m2', 'SBS', 'FBB', 300, 0.38, 1650),
  board('SBS-350', 'SBS solid bleached board 350 g/m2', 'SBS', 'FBB', 350, 0.45, 1620),
  board('ART-170', 'Coated silk paper 170 g/m2', 'COATED-PAPER', 'PAPER', 170, 0.15, 1050),
  board('ART-300', 'Coated art board 300 g/m2', 'COATED-PAPER', 'PAPER', 300, 0.3, 1150),
  board('OFFSET-120', 'Uncoated offset paper 120 g/m2', 'UNCOATED-PAPER', 'PAPER', 120, 0.14, 980),
  board('KL-200', 'Kraft liner 200 g/m2', 'KRAFT-LINER', 'PAPER', 200, 0.28, 720),
  corrugated('CORR-E-WK', 'E flute, white top / kraft, 1.6 mm', 'E-FLUTE', 420, 1.6, 0.46),
  corrugated('CORR-B-KK', 'B flute, kraft / kraft, 3 mm', 'B-FLUTE', 520, 3.0, 0.44),
  corrugated('CORR-C-KK', 'C flute, kraft / kraft, 4 mm', 'C-FLUTE', 560, 4.0, 0.48),
  corrugated('CORR-EB-KK', 'EB double wall, kraft, 4.5 mm', 'EB-FLUTE', 720, 4.5, 0.66),
  corrugated('CORR-BC-KK', 'BC double wall, kraft, 6.5 mm', 'BC-FLUTE', 860, 6.5, 0.78),
];

const consumables: Consumable[] = [
  {
    id: 'INK-OFFSET-PROCESS',
    code: 'INK-OFFSET-PROCESS',
    name: 'Offset process ink',
    kind: 'OFFSET_INK',
    unit: 'KG',
    price: 12.5,
    consumptionRate: 1.4,
  },
  {
    id: 'INK-FLEXO-WATER',
    code: 'INK-FLEXO-WATER',
    name: 'Water-based flexo ink',
    kind: 'FLEXO_INK',
    unit: 'KG',
    price: 6.8,
    consumptionRate: 3.5,
  },
  {
    id: 'PLATE-CTP-B1',
    code: 'PLATE-CTP-B1',
    name: 'CTP offset plate B1',
    kind: 'OFFSET_PLATE',
    unit: 'EACH',
    price: 18.5,
  },
  {
    id: 'VARNISH-UV',
    code: 'VARNISH-UV',
    name: 'UV varnish',
    kind: 'VARNISH',
    unit: 'KG',
    price: 9.5,
    consumptionRate: 5,
  },
  {
    // Water-based coating from the press's coating unit (issue 30): an estimate.
    id: 'COATING-AQUEOUS',
    code: 'COATING-AQUEOUS',
    name: 'Aqueous coating',
    kind: 'AQUEOUS_COATING',
    unit: 'KG',
    price: 4,
    consumptionRate: 4,
  },
  {
    id: 'PLATE-VARNISH',
    code: 'PLATE-VARNISH',
    name: 'Coating plate',
    kind: 'VARNISH_PLATE',
    unit: 'EACH',
    price: 38,
  },
  {
    id: 'FILM-BOPP-GLOSS',
    code: 'FILM-BOPP-GLOSS',
    name: 'BOPP laminate film, gloss',
    kind: 'LAMINATE_FILM',
    unit: 'M2',
    price: 0.16,
  },
  {
    id: 'FILM-BOPP-MATT',
    code: 'FILM-BOPP-MATT',
    name: 'BOPP laminate film, matt',
    kind: 'LAMINATE_FILM',
    unit: 'M2',
    price: 0.19,
  },
  {
    id: 'FOIL-GOLD',
    code: 'FOIL-GOLD',
    name: 'Hot-stamping foil, gold',
    kind: 'FOIL',
    unit: 'M2',
    price: 0.95,
    colour: 'gold',
  },
  {
    id: 'FOIL-SILVER',
    code: 'FOIL-SILVER',
    name: 'Hot-stamping foil, silver',
    kind: 'FOIL',
    unit: 'M2',
    price: 0.85,
    colour: 'silver',
  },
  {
    id: 'FOIL-HOLO',
    code: 'FOIL-HOLO',
    name: 'Hot-stamping foil, holographic',
    kind: 'FOIL',
    unit: 'M2',
    price: 2.4,
    colour: 'holographic',
  },
  {
    id: 'PET-WINDOW-125',
    code: 'PET-WINDOW-125',
    name: 'PET window film 125 micron',
    kind: 'WINDOW_FILM',
    unit: 'M2',
    price: 1.35,
  },
  {
    id: 'GLUE-WINDOW',
    code: 'GLUE-WINDOW',
    name: 'Window patching glue',
    kind: 'WINDOW_GLUE',
    unit: 'KG',
    price: 4.8,
    consumptionRate: 3,
  },
  {
    id: 'GLUE-PVA',
    code: 'GLUE-PVA',
    name: 'PVA folding glue',
    kind: 'FOLDING_GLUE',
    unit: 'KG',
    price: 3.9,
    consumptionRate: 1.2,
  },
  {
    id: 'CLICK-DIGITAL-B2',
    code: 'CLICK-DIGITAL-B2',
    name: 'Digital click, per colour per B2 side',
    kind: 'DIGITAL_CLICK',
    unit: 'IMPRESSION',
    price: 0.04,
  },
];

const toolingRules: ToolingRule[] = [
  {
    id: 'DIE-FLATBED',
    code: 'DIE-FLATBED',
    name: 'Flat-bed cutting die',
    kind: 'CUTTING_DIE',
    basePrice: 180,
    pricePerMetre: 14,
    pricePerSquareCentimetre: 0,
    depthSurchargePerMm: 0,
    minimumPrice: 250,
  },
  {
    id: 'DIE-ROTARY',
    code: 'DIE-ROTARY',
    name: 'Rotary cutting die',
    kind: 'ROTARY_DIE',
    basePrice: 450,
    pricePerMetre: 32,
    pricePerSquareCentimetre: 0,
    depthSurchargePerMm: 0,
    minimumPrice: 650,
  },
  {
    id: 'DIE-STAMPING-MG',
    code: 'DIE-STAMPING-MG',
    name: 'Magnesium stamping die',
    kind: 'STAMPING_DIE',
    basePrice: 45,
    pricePerMetre: 0,
    pricePerSquareCentimetre: 0.95,
    depthSurchargePerMm: 0,
    minimumPrice: 75,
  },
  {
    id: 'DIE-EMBOSSING-BRASS',
    code: 'DIE-EMBOSSING-BRASS',
    name: 'Brass embossing die and counter',
    kind: 'EMBOSSING_DIE',
    basePrice: 90,
    pricePerMetre: 0,
    pricePerSquareCentimetre: 1.8,
    depthSurchargePerMm: 0.5,
    minimumPrice: 160,
  },
  {
    id: 'DIE-BRAILLE',
    code: 'DIE-BRAILLE',
    name: 'Braille die and counter',
    kind: 'BRAILLE_DIE',
    basePrice: 110,
    pricePerMetre: 0,
    pricePerSquareCentimetre: 1.2,
    depthSurchargePerMm: 0,
    minimumPrice: 150,
  },
  {
    id: 'PLATE-FLEXO',
    code: 'PLATE-FLEXO',
    name: 'Flexo photopolymer plate',
    kind: 'FLEXO_PLATE',
    // Per colour (issue 30): from USD 95 for a single-panel plate, about USD 200 mid coverage,
    // USD 300-800 full coverage (EcoEnclose, plate pricing): EUR 87 base + EUR 0.149/cm2 of inked
    // area gives EUR 240 for a 0427 250 x 180 x 60 at 35 % coverage (the published figure).
    basePrice: 87,
    pricePerMetre: 0,
    pricePerSquareCentimetre: 0.149,
    depthSurchargePerMm: 0,
    minimumPrice: 87,
  },
];

/**
 * A case sized by its outside dimensions (modular 600 x 400 footprints fill a EUR pallet layer);
 * inside = outside - 2 x wall across, - 4 x wall in height (the engine adds them back).
 */
function shippingCase(
  code: string,
  outsideLength: number,
  outsideWidth: number,
  outsideHeight: number,
  wall: number,
  price: number,
  tareKg: number,
  maxWeightKg: number,
): PackingCase {
  const length = outsideLength - 2 * wall;
  const width = outsideWidth - 2 * wall;
  const height = outsideHeight - 4 * wall;
  return {
    id: code,
    code,
    name: `Shipping case ${length} x ${width} x ${height} mm (outside ${outsideLength} x ${outsideWidth} x ${outsideHeight})`,
    kind: 'SHIPPING_CASE',
    length,
    width,
    height,
    wallThicknessMm: wall,
    packagesPerHour: 90,
    maxWeightKg,
    price,
    tareKg,
  };
}

const packingCases: PackingCase[] = [
  shippingCase('CASE-S', 300, 200, 150, 3, 0.62, 0.2, 12),
  shippingCase('CASE-M', 400, 300, 250, 4, 0.95, 0.38, 15),
  shippingCase('CASE-L', 600, 400, 300, 4, 1.45, 0.62, 20),
  shippingCase('CASE-XL', 800, 600, 400, 5, 2.6, 1.15, 25),
  {
    id: 'BUNDLE',
    code: 'BUNDLE',
    name: 'Strapped bundle',
    kind: 'BUNDLE',
    length: 0,
    width: 0,
    height: 0,
    wallThicknessMm: 0,
    maxStackHeightMm: 250,
    packagesPerHour: 240,
    maxWeightKg: 15,
    price: 0.15,
    tareKg: 0.02,
  },
];

const pallets: Pallet[] = [
  {
    id: 'EURO',
    code: 'EURO',
    name: 'EUR pallet 1200 x 800',
    type: 'EURO',
    length: 1200,
    width: 800,
    deckHeightMm: 144,
    maxLoadedHeightMm: 1600,
    maxGrossWeightKg: 1000,
    price: 9.5,
    tareKg: 25,
    perTruck: 33,
  },
  {
    id: 'STANDARD',
    code: 'STANDARD',
    name: 'Standard pallet 1200 x 1000',
    type: 'STANDARD',
    length: 1200,
    width: 1000,
    deckHeightMm: 150,
    maxLoadedHeightMm: 1600,
    maxGrossWeightKg: 1200,
    price: 11.5,
    tareKg: 30,
    perTruck: 26,
  },
  {
    id: 'CUSTOM',
    code: 'CUSTOM',
    name: 'Custom pallet 1140 x 1140',
    type: 'CUSTOM',
    length: 1140,
    width: 1140,
    deckHeightMm: 150,
    maxLoadedHeightMm: 1600,
    maxGrossWeightKg: 1000,
    price: 16,
    tareKg: 32,
    perTruck: 22,
  },
];

function zone(
  code: string,
  name: string,
  countryCodes: string[],
  pricePerPallet: number,
  minimumPrice: number,
): DeliveryZone {
  return { id: code, code, name, countryCodes, pricePerPallet, minimumPrice };
}

/** Working days on the road (pallet groupage from a French plant): estimates, docs/pricing.md. */
const TRANSIT_DAYS: Record<string, number> = {
  'FR-LOCAL': 1,
  'FR-NATIONAL': 2,
  BENELUX: 2,
  'DE-AT': 3,
  SOUTH: 4,
  'UK-IE': 4,
  NORDICS: 4,
};

const deliveryZones: DeliveryZone[] = [
  zone('FR-LOCAL', 'France, within 150 km', ['FR'], 48, 95),
  zone('FR-NATIONAL', 'France, national', ['FR'], 78, 140),
  zone('BENELUX', 'Belgium, Netherlands, Luxembourg', ['BE', 'NL', 'LU'], 96, 160),
  zone('DE-AT', 'Germany, Austria', ['DE', 'AT'], 110, 185),
  zone('SOUTH', 'Spain, Italy, Portugal', ['ES', 'IT', 'PT'], 135, 220),
  zone('UK-IE', 'United Kingdom, Ireland', ['GB', 'IE'], 190, 320),
  zone('NORDICS', 'Denmark, Sweden, Norway, Finland', ['DK', 'SE', 'NO', 'FI'], 175, 290),
].map((z) => ({ ...z, transitDays: TRANSIT_DAYS[z.code]! }));

/** A fresh copy each call, so callers may edit it freely. */
export function defaultCatalogue(): Catalogue {
  const catalogue: Catalogue = {
    settings: {
      currency: 'EUR',
      defaultCommercialMargin: 0.25,
      defaultInkCoverage: 0.35,
      foilAllowanceMm: 5,
      windowFilmOverlapMm: 10,
      windowPanelMarginMm: 8,
      corrugatedPacking: 'BUNDLE',
      routeSelection: { toolingRepeats: 1, variantMargin: 0.15, maxVariants: 6 },
      // Lead-time figures and their sources: docs/pricing.md, "Lead time" (issue 30).
      leadTime: DEFAULT_LEAD_TIME,
      valueAnalysis: {
        priceBreakSaving: 0.1,
        quantityCurveFactors: [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10],
        maxQuantityFactor: 2,
        maxDimensionReductionMm: 5,
        grammageTolerance: 0.1,
        caliperTolerance: 0.2,
      },
    },
    productCategories: [
      { id: 'FOLDING-CARTON', code: 'FOLDING-CARTON', name: 'Folding carton', kind: 'FOLDING_CARTON' },
      { id: 'CORRUGATED-CASE', code: 'CORRUGATED-CASE', name: 'Corrugated case', kind: 'CORRUGATED_CASE' },
      { id: 'FLAT-ITEM', code: 'FLAT-ITEM', name: 'Flat item', kind: 'FLAT_ITEM' },
    ],
    products,
    matters: [
      { id: 'PAPER', code: 'PAPER', name: 'paper', kind: 'PAPER' },
      { id: 'FBB', code: 'FBB', name: 'folding boxboard', kind: 'FOLDING_BOXBOARD' },
      { id: 'CORRUGATED', code: 'CORRUGATED', name: 'corrugated board', kind: 'CORRUGATED' },
    ],
    materialTypes: [
      { id: 'GC1', code: 'GC1', name: 'GC1 white-back folding boxboard', matterId: 'FBB' },
      { id: 'GC2', code: 'GC2', name: 'GC2 cream-back folding boxboard', matterId: 'FBB' },
      { id: 'SBS', code: 'SBS', name: 'Solid bleached sulphate board', matterId: 'FBB' },
      {
        id: 'KRAFT-FBB',
        code: 'KRAFT-FBB',
        name: 'Unbleached kraft folding boxboard (CUK/SUK)',
        matterId: 'FBB',
      },
      { id: 'COATED-PAPER', code: 'COATED-PAPER', name: 'Coated paper', matterId: 'PAPER' },
      { id: 'UNCOATED-PAPER', code: 'UNCOATED-PAPER', name: 'Uncoated paper', matterId: 'PAPER' },
      { id: 'KRAFT-LINER', code: 'KRAFT-LINER', name: 'Kraft liner', matterId: 'PAPER' },
      { id: 'E-FLUTE', code: 'E-FLUTE', name: 'E flute single wall', matterId: 'CORRUGATED', flute: 'E' },
      { id: 'B-FLUTE', code: 'B-FLUTE', name: 'B flute single wall', matterId: 'CORRUGATED', flute: 'B' },
      { id: 'C-FLUTE', code: 'C-FLUTE', name: 'C flute single wall', matterId: 'CORRUGATED', flute: 'C' },
      { id: 'EB-FLUTE', code: 'EB-FLUTE', name: 'EB flute double wall', matterId: 'CORRUGATED', flute: 'EB' },
      { id: 'BC-FLUTE', code: 'BC-FLUTE', name: 'BC flute double wall', matterId: 'CORRUGATED', flute: 'BC' },
    ],
    materialReferences,
    corrugatedMaterials: [
      {
        id: 'B-K150-T125-K150',
        code: 'B-K150-T125-K150',
        name: 'B flute K150/T125/K150',
        materialReferenceId: 'CORR-B-KK',
        composition: 'K150/T125/K150',
        grammage: 545,
        pricePerSquareMetre: 0.47,
      },
      {
        id: 'B-T120-F100-T120',
        code: 'B-T120-F100-T120',
        name: 'B flute T120/F100/T120 (testliner)',
        materialReferenceId: 'CORR-B-KK',
        composition: 'T120/F100/T120',
        grammage: 380,
        pricePerSquareMetre: 0.37,
      },
      {
        id: 'EB-K150-T120-K150',
        code: 'EB-K150-T120-K150',
        name: 'EB K150/F100/T120/F100/K150',
        materialReferenceId: 'CORR-EB-KK',
        composition: 'K150/F100/T120/F100/K150',
        grammage: 760,
        pricePerSquareMetre: 0.7,
      },
    ],
    operations,
    machines,
    consumables,
    toolingRules,
    packingCases,
    pallets,
    deliveryZones,
  };
  return structuredClone(catalogue);
}
