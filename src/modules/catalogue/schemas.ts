/**
 * The fields of each catalogue collection's records, as the engine's catalogue has them
 * (src/pricing/catalogue.ts), for the OpenAPI document: a generated client gets every field typed
 * (issue 27). A record's fields are served beside the entry's own (`id`, `kind`, `code`, `name`,
 * ...); a buyer (every role without `costs:read`) gets only the fields of audience.ts, so a field a
 * buyer does not see is optional in the answer whatever the engine requires (`answerSchemaOf`).
 *
 * The answers are serialized as plain JSON (routes.ts): these schemas document, they never drop or
 * refuse a stored value. test/catalogue/schemas.test.ts checks every released default catalogue
 * (defaults/v1..vN.json) and the served entries against them, so a field added to the engine's
 * records without being declared here fails a test.
 *
 * A record's own `kind` (a machine's OFFSET_PRESS, a category's FOLDING_CARTON) is not declared:
 * the entry's `kind` (its collection) is served in its place (service.ts `present`).
 */
import { OptionalKind, type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { DateTime, NullableOutput, StringEnum, Uuid } from '../../platform/schemas.ts';
import { BUYER_FIELDS } from './audience.ts';
import type { CatalogueKind } from './repository.ts';

/** The fields every catalogue entry has, beside its record's (service.ts `present`). */
export const ENTRY_FIELDS = {
  id: Uuid,
  kind: Type.String({ description: 'The catalogue collection of the record (e.g. `machines`)' }),
  code: Type.String(),
  name: Type.String(),
  names: Type.Object(
    {
      en: Type.Optional(Type.String()),
      fr: Type.Optional(Type.String()),
      de: Type.Optional(Type.String()),
    },
    {
      additionalProperties: false,
      description:
        "The name per language (the web app in the user's language, the quote PDF in the quote's); a language without one shows `name`",
    },
  ),
  enabled: Type.Boolean(),
  position: Type.Integer(),
  createdAt: DateTime,
  updatedAt: DateTime,
};

const Id = (collection: string, description = '') =>
  Type.String({ description: `A record of GET /api/${collection}${description ? `; ${description}` : ''}` });
const Mm = (description = 'mm') => Type.Number({ description });
const Fraction = (description: string) => Type.Number({ description: `${description} (0..1)` });
const Price = (description = 'In the catalogue currency') => Type.Number({ description });
const open = { additionalProperties: false } as const;

const Format = Type.Object(
  {
    width: Mm(),
    height: Mm(),
    grain: Type.Optional(
      StringEnum(['LONG', 'SHORT'], {
        description: "Sheet formats only: grain along the long or the short edge; overrides the board's",
      }),
    ),
  },
  { ...open, description: 'mm, long edge first' },
);
const Dimensions = Type.Object(
  { length: Mm(), width: Mm(), height: Mm() },
  { ...open, description: 'Inside dimensions, mm (inclusive)' },
);
const GrainRule = StringEnum(['BLANK_WIDTH', 'BLANK_HEIGHT', 'ANY']);

const product = {
  categoryId: Id('product-categories', 'its product category'),
  style: StringEnum(['STE', 'RTE', 'CLB', 'SLEEVE', 'TRAY', 'FEFCO_0201', 'FEFCO_0427', 'FLAT'], {
    description: 'The die-line formula',
  }),
  allowedMatterIds: Type.Array(Type.String(), {
    description:
      'The matters (GET /api/matters) it can be made of: pick a board whose matterId is one of them',
  }),
  cuttingOperation: StringEnum(
    ['DIE_CUTTING', 'GUILLOTINE_CUTTING', 'SLOT_FOLD_GLUE', 'ROTARY_DIE_CUTTING'],
    {
      description: 'The operation that turns printed sheets into blanks',
    },
  ),
  gluing: Type.Union([StringEnum(['STRAIGHT_LINE', 'CRASH_LOCK']), Type.Null()], {
    description: 'The folder-gluer capability it needs; null: not glued on a folder-gluer',
  }),
  glueFlapMm: Mm('Glue flap width, mm'),
  tuckFlapMm: Mm('Tuck flap depth, mm'),
  dustFlapRatio: Fraction('Dust flap depth as a fraction of the inside width'),
  slotWidthMm: Mm('Slot width between corrugated flaps, mm'),
  minDimensions: Dimensions,
  maxDimensions: Dimensions,
  windowAllowed: Type.Boolean({ description: 'A window can be cut in the front panel' }),
  requiredGrain: Type.Optional(GrainRule),
  mixedGrainAllowed: Type.Optional(Type.Boolean()),
  requiredFlute: Type.Optional(GrainRule),
};

const materialType = {
  matterId: Id('matters'),
  flute: Type.Optional(Type.String({ description: 'Flute profile of a corrugated type (E, B, C, EB, BC)' })),
  // A corrugated flute created through /api/corrugated-flutes.
  thickness: Type.Optional(NullableOutput(Mm('Flute thickness, mm (corrugated flutes)'))),
  outsideGain: Type.Optional(NullableOutput(Mm('Outside gain, mm (corrugated flutes)'))),
  insideLoss: Type.Optional(NullableOutput(Mm('Inside loss, mm (corrugated flutes)'))),
};

const CREATED_AS_CORRUGATED =
  'absent on a board created through /api/corrugated-materials (disabled: not priced)';
const materialReference = {
  materialTypeId: Type.Optional(Id('material-types', CREATED_AS_CORRUGATED)),
  matterId: Id('matters', 'a product lists the matters it allows'),
  grammage: Type.Optional(Type.Number({ description: `g/m2; ${CREATED_AS_CORRUGATED}` })),
  caliperMm: Type.Optional(Type.Number({ description: `mm; ${CREATED_AS_CORRUGATED}` })),
  pricePerTonne: Type.Optional(Price('Price per tonne; used unless pricePerSquareMetre is set')),
  pricePerSquareMetre: Type.Optional(Price('Price per m2 of sheet; overrides pricePerTonne')),
  sheetFormats: Type.Optional(Type.Array(Format, { description: 'Stock sheet formats it is sold in' })),
  grain: Type.Optional(StringEnum(['LONG', 'SHORT'], { description: 'Grain of the stock sheets' })),
  cutToSize: Type.Optional(
    Type.Object(
      {
        min: Format,
        max: Format,
        trimMm: Type.Optional(Mm('Edge trim of the corrugator web, mm')),
        wasteRate: Type.Optional(Fraction('Corrugating waste')),
        webWidthsMm: Type.Optional(Type.Array(Type.Number(), { description: 'Usual web widths, mm' })),
      },
      { ...open, description: 'Sheets made to any size within these limits (corrugated)' },
    ),
  ),
  supplier: Type.Optional(Type.String()),
  description: Type.Optional(NullableOutput(Type.String())),
};

const operation = {
  category: StringEnum(['PRINTING', 'FINISHING', 'CONVERTING', 'PACKING']),
};

const MachineOperationRate = Type.Object(
  {
    operationId: Id('operations'),
    setupHours: Type.Number({ description: 'Per make-ready, hours' }),
    setupHoursPerColour: Type.Number({ description: 'Hours' }),
    setupHoursPerTool: Type.Number({ description: 'Hours' }),
    speedPerHour: Type.Number({ description: "In the operation's input unit" }),
    makeReady: Type.Number({ description: 'Spoilage per make-ready, input units' }),
    makeReadyPerColour: Type.Number(),
    runningWasteRate: Fraction('Running waste as a fraction of the good output'),
    wasteByRunLength: Type.Optional(
      Type.Array(Type.Object({ upTo: Type.Number(), rate: Fraction('Running waste') }, open), {
        description: 'Spoilage table: the rate of the first row whose upTo the run does not exceed',
      }),
    ),
    inlineWithPrevious: Type.Optional(Type.Boolean()),
    speedBasis: Type.Optional(StringEnum(['UNIT', 'PACKAGE'])),
  },
  { ...open, description: 'What the machine charges and how fast it runs for one operation' },
);
const machine = {
  hourlyRate: Price('Per hour'),
  minFormat: Format,
  maxFormat: Format,
  minCaliperMm: Mm(),
  maxCaliperMm: Mm(),
  gripperMm: Mm(),
  sideMarginMm: Mm(),
  tailMarginMm: Mm(),
  gutterMm: Mm(),
  maxColours: Type.Integer(),
  maxUps: Type.Optional(Type.Integer({ description: 'Cap on blanks per sheet' })),
  liftHeightMm: Type.Optional(Mm('Stack height cut at once (guillotine), mm')),
  capabilities: Type.Array(StringEnum(['STRAIGHT_LINE', 'CRASH_LOCK', 'FOUR_CORNER'])),
  operations: Type.Array(MachineOperationRate),
};

const consumable = {
  unit: StringEnum(['KG', 'M2', 'EACH', 'IMPRESSION']),
  price: Price('Per unit'),
  consumptionRate: Type.Optional(Type.Number({ description: 'g/m2 (inks, varnish), g/m (glues)' })),
  colour: Type.Optional(Type.String({ description: 'Foil colour' })),
};

const toolingRule = {
  basePrice: Price(),
  pricePerMetre: Price('Per metre of cutting and creasing rule'),
  pricePerSquareCentimetre: Price('Per cm2 of tool area'),
  depthSurchargePerMm: Fraction('Embossing surcharge per mm of depth, of the area price'),
  minimumPrice: Price(),
};

const packingCase = {
  length: Mm('Inside, mm'),
  width: Mm('Inside, mm'),
  height: Mm('Inside, mm'),
  wallThicknessMm: Mm(),
  maxStackHeightMm: Type.Optional(Mm('Bundle stack height limit, mm')),
  packagesPerHour: Type.Optional(Type.Number({ description: 'Packing labour' })),
  maxWeightKg: Type.Number(),
  price: Price(),
  tareKg: Type.Number(),
};

const pallet = {
  type: StringEnum(['EURO', 'STANDARD', 'CUSTOM']),
  length: Mm(),
  width: Mm(),
  deckHeightMm: Mm(),
  maxLoadedHeightMm: Mm(),
  maxGrossWeightKg: Type.Number(),
  price: Price(),
  tareKg: Type.Number(),
  perTruck: Type.Optional(Type.Number({ description: 'Pallets per full truck' })),
};

const deliveryZone = {
  countryCodes: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2 codes' }),
  pricePerPallet: Price(),
  minimumPrice: Price(),
  transitDays: Type.Optional(Type.Number({ description: 'Working days on the road' })),
};

const settings = {
  currency: Type.String({ description: 'ISO 4217 code of the catalogue currency' }),
  defaultCommercialMargin: Fraction('Default commercial margin'),
  defaultInkCoverage: Fraction('Ink coverage when a brief element gives none'),
  foilAllowanceMm: Mm(),
  windowFilmOverlapMm: Mm(),
  windowPanelMarginMm: Mm(),
  corrugatedPacking: Type.Optional(StringEnum(['BUNDLE', 'AS_BRIEF'])),
  routeSelection: Type.Optional(
    Type.Object(
      {
        toolingRepeats: Type.Optional(Type.Number()),
        variantMargin: Type.Optional(Type.Number()),
        maxVariants: Type.Optional(Type.Number()),
      },
      open,
    ),
  ),
  leadTime: Type.Optional(
    Type.Object(
      {
        hoursPerWorkingDay: Type.Optional(Type.Number()),
        boardStockDays: Type.Optional(Type.Number()),
        boardMillOrderDays: Type.Optional(Type.Number()),
        boardStockLimitKg: Type.Optional(Type.Number()),
        corrugatorDays: Type.Optional(Type.Number()),
        toolingDays: Type.Optional(
          Type.Record(Type.String(), Type.Number(), { description: 'Per tooling line code' }),
        ),
        platesDays: Type.Optional(Type.Number()),
        queueDays: Type.Optional(Type.Number()),
        transportDays: Type.Optional(Type.Number()),
      },
      { ...open, description: 'Working days unless said otherwise' },
    ),
  ),
  valueAnalysis: Type.Object(
    {
      priceBreakSaving: Fraction('A price break saves at least this fraction of the unit price'),
      quantityCurveFactors: Type.Array(Type.Number()),
      maxQuantityFactor: Type.Optional(Type.Number()),
      maxDimensionReductionMm: Mm(),
      grammageTolerance: Fraction('Comparable board: relative grammage tolerance'),
      caliperTolerance: Fraction('Comparable board: relative caliper tolerance'),
    },
    open,
  ),
};

/** The record fields of each collection the catalogue routes serve (the settings under `settings`). */
export const RECORD_FIELDS: Record<CatalogueKind | 'settings', TProperties> = {
  productCategories: {},
  products: product,
  matters: {},
  materialTypes: materialType,
  materialReferences: materialReference,
  corrugatedMaterials: {
    materialReferenceId: Id('material-references'),
    composition: Type.String(),
    grammage: Type.Number(),
    pricePerSquareMetre: Price(),
  },
  operations: operation,
  machines: machine,
  consumables: consumable,
  toolingRules: toolingRule,
  packingCases: packingCase,
  pallets: pallet,
  deliveryZones: deliveryZone,
  settings,
};

const isOptional = (schema: TSchema) => OptionalKind in schema;

/**
 * The record fields of a collection as served: a field a buyer does not see is optional (and says
 * so), whatever the engine requires of the record.
 */
export function answerFieldsOf(kind: CatalogueKind | 'settings'): TProperties {
  const buyer = new Set(BUYER_FIELDS[kind] ?? []);
  return Object.fromEntries(
    Object.entries(RECORD_FIELDS[kind]).map(([name, schema]) => {
      if (buyer.has(name)) return [name, schema];
      const { description } = schema as { description?: string };
      const sellerOnly = 'Seller staff only (costs:read)';
      const described = {
        ...schema,
        description: description ? `${description}. ${sellerOnly}` : sellerOnly,
      };
      return [name, isOptional(schema) ? described : Type.Optional(described as TSchema)];
    }),
  );
}

/** Every field of a record (the engine's view), closed: for checking stored data in tests. */
export const recordSchemaOf = (kind: CatalogueKind | 'settings'): TObject =>
  Type.Object(RECORD_FIELDS[kind], open);
