import { CloneType, type Static, type TOptional, type TSchema, Type } from '@sinclair/typebox';
import { PREDICTION_STATUSES } from '../../db/schema/briefs.ts';
import { DateTime, Nullable, NullableInput, StringEnum, Uuid } from '../../platform/schemas.ts';

// ---------------------------------------------------------------------------------------------
// Requests. Strict (unknown properties refused); the engine's own checks (catalogue references,
// machine ranges, consistency of decoration and finishes) run after these and answer 422.
// ---------------------------------------------------------------------------------------------

const mm = (description: string, minimum: 'positive' | 'zero' = 'positive') =>
  Type.Number({
    ...(minimum === 'positive' ? { exclusiveMinimum: 0 } : { minimum: 0 }),
    maximum: 10_000,
    description: `${description}, mm`,
  });

const catalogueId = (what: string) =>
  Type.String({ format: 'uuid', description: `A ${what} of the organisation's catalogue` });

export const DecorationCountSchema = Type.Object(
  {
    decorationIndex: Type.Integer({
      minimum: 0,
      maximum: 11,
      description: 'Variant number 0..11, unique within the element',
    }),
    quantity: Type.Integer({
      minimum: 1,
      maximum: 50_000_000,
      description: 'Order quantity of the variant (units)',
    }),
    name: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description: 'The variant’s name (e.g. "Lemon"), shown under the element’s quote and order lines',
        }),
      ),
    ),
    artworkReference: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'The artwork file or reference of the variant' })),
    ),
  },
  { additionalProperties: false },
);

export const LayoutCountSchema = Type.Object(
  {
    quantity: Type.Integer({
      minimum: 1,
      maximum: 1000,
      description: 'Blanks per sheet of the existing tool',
    }),
    machineId: catalogueId('machine (die-cutter, foil press, flexo line) holding the tool'),
  },
  {
    additionalProperties: false,
    description: 'An existing tool: not charged again, and the layout keeps its ups',
  },
);

export const HotStampingSchema = Type.Object(
  {
    color: Type.String({ minLength: 1, maxLength: 50, description: 'Foil colour, e.g. gold, silver' }),
    coverage: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1,
      description: 'Engraved fraction of the stamp rectangle',
    }),
    width: mm('Stamp width'),
    height: mm('Stamp height'),
  },
  { additionalProperties: false },
);

export const EmbossingSchema = Type.Object(
  {
    type: StringEnum(['EMBOSSING', 'DEBOSSING', 'BRAILLE'] as const),
    width: mm('Width'),
    height: mm('Height'),
    depth: Type.Number({ exclusiveMinimum: 0, maximum: 2, description: 'Depth, mm (0..2]' }),
  },
  { additionalProperties: false },
);

const Margin = Type.Number({
  minimum: 0,
  maximum: 0.99,
  description: 'Commercial margin, 0..0.99 (price = cost / (1 - m))',
});

/** Every property of a brief element except `position` and `id`, all optional. */
const elementProperties = {
  productCategoryId: catalogueId('product category'),
  productId: catalogueId('product (style)'),
  lengthDimension: mm('Inside length'),
  widthDimension: mm('Inside width'),
  heightDimension: mm('Inside height (0 or absent for flat items)', 'zero'),
  matterId: catalogueId('matter'),
  materialTypeId: catalogueId('material type'),
  materialReferenceId: catalogueId('material reference (board)'),
  grammage: Type.Number({
    exclusiveMinimum: 0,
    maximum: 5000,
    description: 'g/m2; must match the material reference',
  }),
  corrugatedMaterialId: catalogueId('corrugated composition'),
  decorationsCount: Type.Array(DecorationCountSchema, {
    minItems: 1,
    maxItems: 12,
    description: 'Decoration variants (0..11), each with its quantity',
  }),
  wantDecoration: Type.Boolean({ description: 'Printed (default false); colour counts need it' }),
  sidePrinted: StringEnum(['RECTO', 'VERSO', 'RECTO_VERSO'] as const),
  rectoColorCount: Type.Integer({ minimum: 0, maximum: 8 }),
  versoColorCount: Type.Integer({ minimum: 0, maximum: 8 }),
  inkCoverage: Type.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'Ink coverage fraction; catalogue default when absent',
  }),
  printingProcess: StringEnum(['offset', 'digital', 'flexo'] as const, {
    description: 'Forces one process; when absent every applicable process is priced (variants)',
  }),
  wantLaminationRecto: Type.Boolean(),
  wantVarnishRecto: Type.Boolean(),
  wantStampingRecto: Type.Boolean({ description: 'Hot-foil stamping; needs `hotStampings`' }),
  hotStampings: Type.Array(HotStampingSchema, { maxItems: 10 }),
  wantEmbossingDebossingRecto: Type.Boolean({ description: 'Needs `embossings`' }),
  embossings: Type.Array(EmbossingSchema, { maxItems: 10 }),
  wantWindow: Type.Boolean({ description: 'A PET window in the front panel; needs its size' }),
  windowWidth: mm('Window width'),
  windowHeight: mm('Window height'),
  layoutCounts: Type.Array(LayoutCountSchema, { maxItems: 10 }),
  commercialMargin: Margin,
};

type ElementProperties = typeof elementProperties;
const optional = <T extends Record<string, TSchema>>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

const REQUIRED = [
  'productId',
  'lengthDimension',
  'widthDimension',
  'materialReferenceId',
  'decorationsCount',
] as const;
type Required = (typeof REQUIRED)[number];

const requiredElementProperties = {
  ...optional(elementProperties),
  productId: elementProperties.productId,
  lengthDimension: elementProperties.lengthDimension,
  widthDimension: elementProperties.widthDimension,
  materialReferenceId: elementProperties.materialReferenceId,
  decorationsCount: elementProperties.decorationsCount,
} as { [K in Exclude<keyof ElementProperties, Required>]: TOptional<ElementProperties[K]> } & {
  [K in Required]: ElementProperties[K];
};

const Position = Type.Integer({
  minimum: 0,
  maximum: 99,
  description: '0-indexed, unique within the brief; positions are 0..n-1 in any order',
});

/** An element of a brief in POST /briefs. */
export const BriefElementInputSchema = Type.Object(
  { position: Position, ...requiredElementProperties },
  { additionalProperties: false, description: 'A brief element (BriefElement of the spec)' },
);

/** An element in PUT /briefs/:id: `id` keeps an existing element (and its links from articles and quotes). */
export const BriefElementUpdateSchema = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'An element of this brief to keep (updated in place). Without it, the element that had the same position is kept; elements left unmatched are deleted',
      }),
    ),
    position: Position,
    ...requiredElementProperties,
  },
  { additionalProperties: false },
);

/**
 * A standalone element (nested `briefElement` of an article): the same properties, all optional;
 * it is priced when it has product, dimensions, board and decoration variants.
 */
export const StandaloneElementSchema = Type.Object(optional(elementProperties), {
  additionalProperties: false,
});

const briefFields = {
  name: Type.String({ minLength: 1, maxLength: 300, description: 'Defaults to "Brief <code>"' }),
  projectId: Type.String({ format: 'uuid', description: 'A project of the organisation; sets the company' }),
  companyId: Type.String({
    format: 'uuid',
    description: 'The company (required without projectId; must be the project company with it)',
  }),
  statusId: NullableInput(Type.String({ format: 'uuid', description: 'A status of entity `brief`' })),
  packingType: StringEnum(['SHIPPING_CASE', 'BUNDLE'] as const, { description: 'Default SHIPPING_CASE' }),
  palletType: StringEnum(['EURO', 'STANDARD', 'CUSTOM'] as const, { description: 'Default EURO' }),
  deliveryZoneId: NullableInput(catalogueId('delivery zone; null = ex works')),
  commercialMargin: NullableInput(Margin),
};

export const CreateBriefBody = Type.Object(
  {
    name: Type.Optional(briefFields.name),
    projectId: Type.Optional(briefFields.projectId),
    companyId: Type.Optional(briefFields.companyId),
    statusId: Type.Optional(briefFields.statusId),
    packingType: Type.Optional(briefFields.packingType),
    palletType: Type.Optional(briefFields.palletType),
    deliveryZoneId: Type.Optional(briefFields.deliveryZoneId),
    commercialMargin: Type.Optional(briefFields.commercialMargin),
    briefElements: Type.Array(BriefElementInputSchema, {
      minItems: 1,
      maxItems: 50,
      description: 'At least one element; positions unique, 0..n-1',
    }),
  },
  { additionalProperties: false },
);

export const UpdateBriefBody = Type.Object(
  {
    name: Type.Optional(briefFields.name),
    projectId: Type.Optional(NullableInput(briefFields.projectId)),
    companyId: Type.Optional(briefFields.companyId),
    statusId: Type.Optional(briefFields.statusId),
    packingType: Type.Optional(briefFields.packingType),
    palletType: Type.Optional(briefFields.palletType),
    deliveryZoneId: Type.Optional(briefFields.deliveryZoneId),
    commercialMargin: Type.Optional(briefFields.commercialMargin),
    briefElements: Type.Optional(
      Type.Array(BriefElementUpdateSchema, {
        minItems: 1,
        maxItems: 50,
        description: 'When sent, replaces every element (matched by `id`, else by position)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Only the properties sent change. A change of elements, packing, pallet, delivery zone or margin re-prices the brief into a new prediction version.',
  },
);

export type CreateBrief = Static<typeof CreateBriefBody>;
export type UpdateBrief = Static<typeof UpdateBriefBody>;
export type BriefElementBody = Static<typeof BriefElementInputSchema>;
export type BriefElementUpdate = Static<typeof BriefElementUpdateSchema>;
export type StandaloneElementBody = Static<typeof StandaloneElementSchema>;

export const BriefIdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const ElementIndexParams = Type.Object(
  {
    id: Uuid,
    elementIndex: Type.Integer({ minimum: 0, maximum: 99, description: 'Element position (0-indexed)' }),
  },
  { additionalProperties: false },
);
export const VersionQuery = Type.Object(
  {
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'A prediction version (default: the current one)' }),
    ),
  },
  { additionalProperties: false },
);
/** GET /briefs/:id/details: a version, and what heavy parts to add. */
export const DetailsQuery = Type.Object(
  {
    version: VersionQuery.properties.version,
    include: Type.Optional(
      StringEnum(['alternatives'] as const, {
        description:
          '`alternatives`: `briefPrice.predictionRequestsComputed` lists every process variant of every element ' +
          '(cheapest first), not only the selected one per element. They are also read per element at ' +
          '`/briefs/{id}/process/{elementIndex}`',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ImpositionQuery = Type.Object(
  {
    version: VersionQuery.properties.version,
    variant: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A process variant key of the element (default: the selected variant)',
      }),
    ),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------
// Responses.
// ---------------------------------------------------------------------------------------------

/**
 * A field only the seller's staff see (permission `costs:read`); absent from the buyer's view of the
 * same answer (contacts, guests, external sales: docs/permissions.md).
 */
const SellerOnly = <T extends TSchema>(schema: T) =>
  Type.Optional(
    CloneType(schema, {
      description: `${schema.description ? `${schema.description}. ` : ''}Only for roles with costs:read.`,
    }),
  );

/** A loosely typed object: the key fields are documented, the rest passes through. */
const Loose = (properties: Record<string, TSchema>, description: string) =>
  Type.Object(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v)])), {
    additionalProperties: true,
    description,
  });

export const ElementPriceSchema = Type.Object(
  {
    unitPrice: Type.Number({ description: 'Per piece, 4 decimals, tooling and delivery apart' }),
    quantity: Type.Integer({ description: 'Total of the decoration variants' }),
    totalPrice: Type.Number(),
    currency: Type.String(),
    predictionId: Uuid,
    pricedAt: DateTime,
  },
  { description: 'BriefElementPrice: the latest price of the element' },
);

export const BriefElementSchema = Type.Object(
  {
    id: Uuid,
    briefId: Nullable(Uuid),
    position: Type.Integer(),
    productCategoryId: Nullable(Uuid),
    productId: Nullable(Uuid),
    lengthDimension: Nullable(Type.Number()),
    widthDimension: Nullable(Type.Number()),
    heightDimension: Nullable(Type.Number()),
    matterId: Nullable(Uuid),
    materialTypeId: Nullable(Uuid),
    materialReferenceId: Nullable(Uuid),
    grammage: Nullable(Type.Number()),
    corrugatedMaterialId: Nullable(Uuid),
    externalId: Type.Optional(Nullable(Type.String({ description: 'The caller’s own id (HIPE)' }))),
    decorationsCount: Type.Array(
      Type.Object({
        decorationIndex: Type.Integer(),
        quantity: Type.Integer(),
        name: Type.Optional(Nullable(Type.String())),
        artworkReference: Type.Optional(Nullable(Type.String())),
      }),
    ),
    quantity: Type.Integer({ description: 'Sum of the decoration variants' }),
    wantDecoration: Type.Boolean(),
    sidePrinted: Nullable(Type.String()),
    rectoColorCount: Nullable(Type.Integer()),
    versoColorCount: Nullable(Type.Integer()),
    inkCoverage: Nullable(Type.Number()),
    printingProcess: Nullable(Type.String()),
    wantLaminationRecto: Type.Boolean(),
    wantVarnishRecto: Type.Boolean(),
    wantStampingRecto: Type.Boolean(),
    hotStampings: Type.Array(HotStampingSchema),
    wantEmbossingDebossingRecto: Type.Boolean(),
    embossings: Type.Array(EmbossingSchema),
    wantWindow: Type.Boolean(),
    windowWidth: Nullable(Type.Number()),
    windowHeight: Nullable(Type.Number()),
    layoutCounts: Type.Array(Type.Object({ quantity: Type.Integer(), machineId: Type.String() })),
    commercialMargin: SellerOnly(Nullable(Type.Number())),
    briefElementPrice: Nullable(ElementPriceSchema),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    $id: 'BriefElement',
    description: 'A brief element (or a standalone element of an article) with its latest price',
  },
);

export const BriefElementPriceItem = Type.Object({
  position: Type.Integer(),
  unitPrice: Type.Number(),
  quantity: Type.Integer(),
  totalPrice: Type.Number(),
});

export const PredictionSummarySchema = Type.Object(
  {
    id: Uuid,
    version: Type.Integer({ description: 'Increments with every pricing of the brief' }),
    currency: Type.String(),
    totalPrice: Type.Number({ description: 'productPrice + toolingCost + deliveryCost' }),
    productCost: SellerOnly(Type.Number()),
    productPrice: Type.Number(),
    marginAmount: SellerOnly(Type.Number()),
    toolingCost: Type.Number(),
    deliveryCost: Type.Number(),
    productionTime: Type.Number({ description: 'Hours' }),
    processCount: Type.Integer(),
    commercialMargin: SellerOnly(Type.Number()),
    commercialMarginInitial: SellerOnly(Type.Number()),
    quantity: Type.Integer(),
    createdAt: DateTime,
  },
  { $id: 'PredictionSummary', description: 'Totals of one prediction version (BriefPrice)' },
);

const ProjectRef = Type.Object({ id: Uuid, name: Type.String(), companyId: Uuid });
const CompanyRef = Type.Object({ id: Uuid, name: Type.String() });
const StatusRef = Type.Object({ id: Uuid, internalLabel: Type.String(), externalLabel: Type.String() });

const briefProperties = {
  id: Uuid,
  organisationId: Uuid,
  code: Type.String({ description: 'Sequential per organisation, e.g. B-000123' }),
  name: Type.String(),
  projectId: Nullable(Uuid),
  companyId: Uuid,
  project: Nullable(ProjectRef),
  company: Type.Optional(Nullable(CompanyRef)),
  statusId: Nullable(Uuid),
  status: Type.Optional(Nullable(StatusRef)),
  predictionStatus: StringEnum(PREDICTION_STATUSES, {
    description: 'PENDING -> IN_PROGRESS -> COMPLETED | FAILED (docs/briefs.md)',
  }),
  hasPrice: Type.Boolean({ description: 'A prediction is available (the current version)' }),
  failureReason: Nullable(Type.String()),
  packingType: Type.String(),
  palletType: Type.String(),
  deliveryZoneId: Nullable(Uuid),
  commercialMargin: SellerOnly(Nullable(Type.Number())),
  currentVersion: Nullable(Type.Integer()),
  totalPrice: Nullable(Type.Number()),
  currency: Nullable(Type.String()),
  pricedAt: Nullable(DateTime),
  elementsCount: Type.Integer(),
  createdById: Nullable(Uuid),
  createdAt: DateTime,
  updatedAt: DateTime,
};

export const BriefListItemSchema = Type.Object(briefProperties, {
  $id: 'BriefListItem',
  description: 'A brief in a list (without elements)',
});

export const BriefSchema = Type.Object(
  {
    ...briefProperties,
    briefElements: Type.Array(Type.Ref('BriefElement'), { description: 'By position' }),
    prediction: Nullable(Type.Ref('PredictionSummary')),
    briefElementPrices: Type.Array(BriefElementPriceItem),
  },
  {
    $id: 'Brief',
    description: 'A brief with its element specifications, project and latest prediction totals',
  },
);

const Operation = Loose(
  {
    position: Type.Integer(),
    partNumber: Type.Integer(),
    operation: Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() }),
    machine: Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() }),
    setupTime: Type.Number({ description: 'hours' }),
    rollingTime: Type.Number({ description: 'hours' }),
    sheetQuantity: Type.Number(),
    sheetWidth: Type.Number(),
    sheetHeight: Type.Number(),
  },
  'PredictionOperation: one step of the manufacturing process',
);

/** The lead time as a breakdown (src/pricing/lead-time.ts, issue 30): no money, shown to buyers. */
export const LeadTimeBreakdownSchema = Type.Object(
  {
    workingDays: Type.Integer({
      description: 'procurementDays + queueDays + productionDays + transport.days, from artwork approval',
    }),
    hoursPerWorkingDay: Type.Number(),
    board: Type.Object({
      source: StringEnum(['STOCK', 'MILL_ORDER', 'CORRUGATOR'] as const),
      kg: Type.Number(),
      days: Type.Number(),
    }),
    tooling: Type.Object(
      {
        days: Type.Number({ description: 'The longest tool: they are made in parallel' }),
        items: Type.Array(Type.Object({ code: Type.String(), label: Type.String(), days: Type.Number() })),
      },
      { description: 'Dies and plates, made after artwork approval' },
    ),
    procurementDays: Type.Number({ description: 'max(board.days, tooling.days)' }),
    queueDays: Type.Number(),
    operations: Type.Array(
      Type.Object({
        position: Type.Integer(),
        code: Type.String(),
        name: Type.String(),
        hours: Type.Number(),
        days: Type.Integer({ description: 'Whole working days; packing 0 (filled at the line)' }),
      }),
    ),
    productionHours: Type.Number(),
    productionDays: Type.Integer(),
    transport: Type.Object({ zone: Nullable(Type.String()), days: Type.Number() }),
  },
  { description: 'Lead time: board procurement, tooling, queue, each operation, transport' },
);

const variantKeyFields = {
  id: Uuid,
  predictionRequestId: Uuid,
  position: Type.Integer(),
  variantKey: Type.String(),
  rank: Type.Integer(),
  selected: Type.Boolean(),
  printingProcess: Type.String(),
  unitPrice: Type.Number(),
  toolingCost: Type.Number(),
  deliveryCost: Type.Number(),
  productCost: Type.Number(),
  totalPrice: Type.Number(),
  productionTime: Type.Number(),
  layoutCount: Type.Integer(),
  sheetSizeWidth: Type.Number(),
  sheetSizeHeight: Type.Number(),
  predictedThousandPrice: Type.Number(),
  costBreakdown: Loose({ marginPercentage: Type.Number() }, 'CostBreakdown'),
  costSummary: Loose({}, 'CostSummary'),
  commercialMargin: Type.Number(),
  commercialMarginInitial: Type.Number(),
  operations: Type.Array(Operation),
  leadTime: Type.Optional(LeadTimeBreakdownSchema),
};

const PredictionRequestComputed = Loose(
  variantKeyFields,
  'PredictionRequestComputed: one process variant of one element (every spec field, legacy ...Predis fields included)',
);

export const BriefDetailsSchema = Type.Object(
  {
    ...briefProperties,
    briefElements: Type.Array(Type.Ref('BriefElement')),
    prediction: Nullable(Type.Ref('PredictionSummary')),
    briefComputed: Nullable(
      Loose(
        {
          briefElements: Type.Array(
            Loose(
              {
                position: Type.Integer(),
                flatPackSurface: Loose({}, ''),
                cad: Loose({}, ''),
                packing: Loose({}, ''),
              },
              'BriefElementComputed',
            ),
          ),
          packing: Loose({}, 'Brief packing and pallets'),
          delivery: Loose({}, 'Delivery zone, pallets and cost'),
        },
        'BriefComputed: geometry, CAD, packing, pallets and logistics (no pricing)',
      ),
    ),
    briefPrice: Nullable(
      Loose(
        {
          totalPrice: Type.Number(),
          productCost: Type.Number(),
          toolingCost: Type.Number(),
          deliveryCost: Type.Number(),
          costBreakdown: Loose({ marginPercentage: Type.Number() }, 'CostBreakdown'),
          costSummary: Loose({}, 'CostSummary'),
          productionTime: Type.Number(),
          processCount: Type.Integer(),
          commercialMargin: Type.Number(),
          commercialMarginInitial: Type.Number(),
          predictionRequestsComputed: Type.Array(PredictionRequestComputed),
        },
        'BriefPrice (PredictionRequest)',
      ),
    ),
    briefElementPrices: Type.Array(BriefElementPriceItem),
  },
  {
    description: 'The complete brief: elements, BriefComputed, BriefPrice and BriefElementPrice per element',
  },
);

export const ProcessSchema = Loose(
  {
    ...variantKeyFields,
    briefId: Uuid,
    version: Type.Integer(),
    predictionOperationSequence: Type.Array(Operation, { description: 'Ordered by position' }),
    operationsByPart: Type.Array(
      Type.Object({ partNumber: Type.Integer(), operations: Type.Array(Operation) }),
      { description: 'The sequence grouped by partNumber' },
    ),
    otherVariants: Type.Array(PredictionRequestComputed, {
      description: 'The other process variants, cheapest first',
    }),
  },
  'The selected PredictionRequestComputed of the element, its operation sequence, and the other variants',
);

export const ValueAnalysisSchema = Loose(
  {
    briefId: Uuid,
    version: Type.Integer(),
    currency: Type.String(),
    totalPrice: Type.Number(),
    elements: Type.Array(
      Loose(
        {
          position: Type.Integer(),
          optimisations: Type.Array(
            Loose({ type: Type.String(), applies: Type.Boolean() }, 'An optimisation proposal'),
          ),
          quantityCurve: Type.Array(Loose({ quantity: Type.Number(), unitPrice: Type.Number() }, '')),
        },
        'Per element: cost shares, the seven optimisations, quantity curve, next price break',
      ),
    ),
    bestSaving: Nullable(Loose({}, '')),
  },
  'Cost explanation and optimisation proposals (INCREASE_QUANTITY, CHANGE_MATERIAL, SIMPLIFY_FINISHING, ADJUST_DIMENSIONS), each priced by the engine',
);

const Amount = (description: string) => Type.Number({ description });
const ChartSegment = Type.Object({
  key: Type.String(),
  label: Type.String(),
  amount: Type.Number(),
  sharePercent: Type.Number(),
});
const CurvePoint = Type.Object({
  factor: Type.Number(),
  quantity: Type.Number(),
  unitPrice: Type.Number(),
  totalPrice: Type.Number(),
});
const LeadTime = Type.Object({
  productionHours: Amount('Machine hours of the selected processes'),
  workingDays: Type.Integer({
    description:
      'steps.workingDays (board or tooling, queue, operations, transport); ceil(productionHours / ' +
      'hoursPerWorkingDay) for predictions stored before the breakdown existed (steps null)',
  }),
  hoursPerWorkingDay: Type.Number(),
  steps: Nullable(LeadTimeBreakdownSchema),
});

export const PredictionPanelSchema = Type.Object(
  {
    briefId: Uuid,
    code: Type.String(),
    name: Type.String(),
    version: Type.Integer(),
    predictionId: Uuid,
    pricedAt: DateTime,
    currency: Type.String(),
    totals: Type.Object({
      totalPrice: Type.Number(),
      productPrice: Type.Number(),
      productCost: SellerOnly(Type.Number()),
      marginAmount: SellerOnly(Type.Number()),
      marginPercentage: SellerOnly(Type.Number()),
      toolingCost: Type.Number(),
      deliveryCost: Type.Number(),
    }),
    delivery: Type.Object(
      {
        included: Type.Boolean({
          description:
            'false: no delivery zone chosen, the prices are ex works (deliveryCost 0 = not included, not free)',
        }),
        reason: Nullable(
          StringEnum(['NO_DELIVERY_ZONE'] as const, {
            description: 'Why delivery is not included; null when it is',
          }),
        ),
        zone: Nullable(Type.Object({ id: Type.String(), code: Type.String(), name: Type.String() })),
        pallets: Type.Integer({ description: 'Pallets of the brief (delivered or collected)' }),
      },
      { description: 'Delivery: included in the prices or not, and why' },
    ),
    quantity: Type.Integer(),
    unitPrice: Amount('productPrice / quantity (tooling and delivery apart), 4 decimals'),
    allInUnitPrice: Amount('totalPrice / quantity, 4 decimals'),
    pricePerThousand: Amount('unitPrice x 1000'),
    leadTime: LeadTime,
    breakdown: SellerOnly(
      Type.Object({
        chart: Type.String({ description: 'Suggested chart type' }),
        total: Type.Number(),
        segments: Type.Array(ChartSegment, {
          description: 'By stage of manufacture; amounts add up to total',
        }),
        natures: Type.Array(ChartSegment, { description: 'By nature; amounts add up to total' }),
      }),
    ),
    quantityCurve: Type.Array(CurvePoint, {
      description: 'The whole brief at each factor of the ordered quantities',
    }),
    elements: Type.Array(
      Type.Object({
        position: Type.Integer(),
        productId: Type.String(),
        productCode: Type.String(),
        quantity: Type.Integer(),
        unitPrice: Type.Number(),
        pricePerThousand: Type.Number(),
        totalPrice: Type.Number(),
        toolingCost: Type.Number(),
        deliveryCost: Type.Number(),
        printingProcess: Type.String(),
        variantKey: Type.String(),
        variants: Type.Integer({ description: 'Process variants priced' }),
        sheet: Type.Object({ width: Type.Number(), height: Type.Number() }),
        layoutCount: Type.Integer(),
        sheetUtilisation: Type.Number(),
        leadTime: LeadTime,
        quantityCurve: Type.Array(CurvePoint),
        nextPriceBreak: Nullable(Loose({ quantity: Type.Number(), unitPrice: Type.Number() }, '')),
      }),
    ),
    optimisations: Type.Array(
      Type.Object({
        position: Type.Integer(),
        type: Type.String(),
        description: Type.String(),
        totalSaving: Type.Number(),
        savingPercent: Type.Number(),
      }),
      { description: 'Applicable savings, largest first' },
    ),
  },
  { description: 'What a buyer screen shows for the current (or given) prediction' },
);

export const PredictionVersionsSchema = Type.Object({
  briefId: Uuid,
  currentVersion: Nullable(Type.Integer()),
  data: Type.Array(
    Type.Object(
      {
        ...PredictionSummarySchema.properties,
        createdBy: Nullable(
          Type.Object(
            { id: Uuid, name: Nullable(Type.String({ description: 'Null when the user no longer exists' })) },
            { description: 'Who priced this version (null: priced by the system)' },
          ),
        ),
        input: Loose(
          {
            briefElements: Type.Array(Loose({ position: Type.Integer() }, 'BriefElementInput')),
          },
          'The request this version priced: the brief-level levers (packingType, palletType, deliveryZoneId, ' +
            'commercialMargin) and each element as POST /briefs names its fields; compare two versions to see what changed',
        ),
      },
      { description: 'One prediction version: its totals, who priced it and what it priced' },
    ),
  ),
});

export const BriefListMeta = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  hasNextPage: Type.Boolean(),
  totalIsExact: Type.Boolean({ description: 'false when total is an estimate (very large results)' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as `after` for the next page (keyset)' })),
});

export const BriefListQueryExtra = {
  status: Type.Optional(
    Type.String({ maxLength: 2000, description: 'Comma-separated status UUIDs (any of)' }),
  ),
  lastupdate: Type.Optional(
    Type.String({ format: 'date-time', description: 'ISO 8601 timestamp: only briefs updated after it' }),
  ),
  companyId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the briefs of this company' })),
  projectId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the briefs of this project' })),
  predictionStatus: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Comma-separated prediction statuses (PENDING, IN_PROGRESS, COMPLETED, FAILED)',
    }),
  ),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Contains, on name or code' }),
  ),
  after: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'Keyset pagination: the id of the last brief of the previous page (`meta.nextCursor`); `page` is then ignored',
    }),
  ),
};

/** POST /briefs/estimate: the price of an unsaved brief, what a configurator shows beside its form. */
export const BriefEstimateSchema = Type.Object(
  {
    ...Type.Omit(PredictionPanelSchema, [
      'briefId',
      'code',
      'name',
      'version',
      'predictionId',
      'pricedAt',
      'elements',
      'quantityCurve',
      'optimisations',
    ]).properties,
    quantityCurve: Type.Optional(
      Type.Array(CurvePoint, {
        description: 'The whole brief at each factor of the ordered quantities (`?include=analysis`)',
      }),
    ),
    elements: Type.Array(
      Type.Object({
        ...Type.Omit(PredictionPanelSchema.properties.elements.items, ['quantityCurve', 'nextPriceBreak'])
          .properties,
        quantityCurve: Type.Optional(
          Type.Array(CurvePoint, { description: 'The unit-price curve (`?include=analysis`)' }),
        ),
        nextPriceBreak: Type.Optional(
          PredictionPanelSchema.properties.elements.items.properties.nextPriceBreak,
        ),
        dieLineSvg: Type.String({ description: 'The die-line (cut solid, crease dashed), SVG in mm' }),
        dieLine: Loose(
          { width: Type.Number(), height: Type.Number() },
          'The die-line geometry (outline, cut and crease segments, named panels, caliper), mm, y downwards: what the 3D preview folds',
        ),
        impositionSvg: Type.String({
          description: 'The imposition of the selected variant on its sheet, SVG',
        }),
        operations: Type.Array(Operation, { description: 'The selected variant: its operations in order' }),
        costShares: SellerOnly(
          Type.Array(Loose({ key: Type.String(), amount: Type.Number() }, 'A stage of manufacture'), {
            description: 'By stage of manufacture (`?include=analysis`)',
          }),
        ),
      }),
    ),
    optimisations: Type.Optional(
      Type.Array(
        Type.Object({
          position: Type.Integer(),
          type: Type.String(),
          description: Type.String(),
          totalSaving: Type.Number(),
          savingPercent: Type.Number(),
          changes: Type.Array(
            Type.Object({
              pointer: Type.String({ description: 'Where in the request body the change applies' }),
              field: Type.String(),
              from: Type.Unknown(),
              to: Type.Unknown(),
            }),
            { description: 'Apply these to the request body to get the saving' },
          ),
        }),
        { description: 'Applicable savings, largest first (`?include=analysis`)' },
      ),
    ),
  },
  { description: 'The prediction of an unsaved brief with its drawings; nothing is stored' },
);

/** POST /briefs/estimate: what heavy parts to add. */
export const EstimateQuery = Type.Object(
  {
    include: Type.Optional(
      StringEnum(['analysis'] as const, {
        description:
          '`analysis`: add the value analysis (the quantity curves of the brief and of each element, ' +
          "each element's next price break and cost shares, and the savings with their changes). It prices " +
          'the brief a few dozen times more, so a configurator asks for it once the price is shown, not on every keystroke',
      }),
    ),
  },
  { additionalProperties: false },
);
