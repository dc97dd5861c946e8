import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TObject, Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../platform/route-security.ts';
import {
  DateTime,
  IdParams,
  NullableInput,
  NullableOutput,
  problemResponses,
  StringEnum,
  Uuid,
} from '../../platform/schemas.ts';
import type { CatalogueKind } from './repository.ts';
import { createCatalogueService } from './service.ts';
import { upgradeCatalogues } from './upgrade.ts';

/**
 * Each collection's path and names; the spec names the first six, the others complete the model.
 * The corrugated compositions are served by the corrugated module (HIPE's
 * `/corrugated-material-compositions`; `/corrugated-materials` is HIPE's corrugated boards there).
 */
const COLLECTIONS: { path: string; kind: CatalogueKind; one: string; many: string; about: string }[] = [
  {
    path: 'product-categories',
    kind: 'productCategories',
    one: 'ProductCategory',
    many: 'ProductCategories',
    about: 'folding carton, corrugated case, flat item',
  },
  {
    path: 'products',
    kind: 'products',
    one: 'Product',
    many: 'Products',
    about: 'product styles with their die-line formula and allowances',
  },
  {
    path: 'matters',
    kind: 'matters',
    one: 'Matter',
    many: 'Matters',
    about: 'paper, folding boxboard, corrugated',
  },
  {
    path: 'material-types',
    kind: 'materialTypes',
    one: 'MaterialType',
    many: 'MaterialTypes',
    about: 'GC1, GC2, SBS, kraft liner, flutes...',
  },
  {
    path: 'material-references',
    kind: 'materialReferences',
    one: 'MaterialReference',
    many: 'MaterialReferences',
    about: 'supplier boards: grammage, caliper, price per tonne, sheet formats',
  },
  {
    path: 'machines',
    kind: 'machines',
    one: 'Machine',
    many: 'Machines',
    about: 'formats, speeds, set-up times, hourly rates, spoilage',
  },
  {
    path: 'operations',
    kind: 'operations',
    one: 'Operation',
    many: 'Operations',
    about: 'manufacturing operations',
  },
  {
    path: 'consumables',
    kind: 'consumables',
    one: 'Consumable',
    many: 'Consumables',
    about: 'inks, plates, films, foils, glue',
  },
  {
    path: 'tooling-rules',
    kind: 'toolingRules',
    one: 'ToolingRule',
    many: 'ToolingRules',
    about: 'cutting dies, stamping and embossing dies, flexo plates',
  },
  {
    path: 'packing-cases',
    kind: 'packingCases',
    one: 'PackingCase',
    many: 'PackingCases',
    about: 'shipping cases',
  },
  {
    path: 'pallets',
    kind: 'pallets',
    one: 'Pallet',
    many: 'Pallets',
    about: 'EURO, STANDARD, CUSTOM pallets',
  },
  {
    path: 'delivery-zones',
    kind: 'deliveryZones',
    one: 'DeliveryZone',
    many: 'DeliveryZones',
    about: 'delivery prices by destination zone',
  },
];

export const Entry = Type.Object(
  {
    id: Uuid,
    kind: Type.String(),
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
  },
  {
    $id: 'CatalogueEntry',
    additionalProperties: true,
    description: 'A catalogue record: its own fields (see docs/pricing.md) beside these',
  },
);

/**
 * The fields of a collection's records (its `data`, served beside the entry's own) a client needs to choose records (declared for every audience:
 * a buyer sees these, src/modules/catalogue/audience.ts); other fields stay open
 * (`additionalProperties`), so what is served does not change. Ids name records of the catalogue:
 * a product can be made of a board whose `matterId` is in its `allowedMatterIds`.
 */
const Dimensions = Type.Object(
  { length: Type.Number(), width: Type.Number(), height: Type.Number() },
  { additionalProperties: true, description: 'Inside dimensions, mm' },
);
const GrainRule = StringEnum(['BLANK_WIDTH', 'BLANK_HEIGHT', 'ANY']);
const ProductData = Type.Object(
  {
    categoryId: Type.String({ description: 'Its product category (GET /api/product-categories)' }),
    style: StringEnum(['STE', 'RTE', 'CLB', 'SLEEVE', 'TRAY', 'FEFCO_0201', 'FEFCO_0427', 'FLAT'], {
      description: 'The die-line formula',
    }),
    allowedMatterIds: Type.Array(Type.String(), {
      description:
        'The matters (GET /api/matters) it can be made of: pick a board whose matterId is one of them',
    }),
    windowAllowed: Type.Optional(Type.Boolean()),
    minDimensions: Type.Optional(Dimensions),
    maxDimensions: Type.Optional(Dimensions),
    gluing: Type.Optional(NullableOutput(StringEnum(['STRAIGHT_LINE', 'CRASH_LOCK']))),
    requiredGrain: Type.Optional(GrainRule),
    requiredFlute: Type.Optional(GrainRule),
    mixedGrainAllowed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
const SheetFormat = Type.Object(
  { width: Type.Number(), height: Type.Number(), grain: Type.Optional(StringEnum(['LONG', 'SHORT'])) },
  { additionalProperties: true, description: 'mm, long edge first' },
);
const MaterialReferenceData = Type.Object(
  {
    materialTypeId: Type.String({ description: 'GET /api/material-types' }),
    matterId: Type.String({ description: 'GET /api/matters; a product lists the matters it allows' }),
    grammage: Type.Number({ description: 'g/m2' }),
    caliperMm: Type.Number(),
    grain: Type.Optional(StringEnum(['LONG', 'SHORT'])),
    sheetFormats: Type.Optional(Type.Array(SheetFormat)),
  },
  { additionalProperties: true },
);
const DATA_OF: Partial<Record<CatalogueKind, TObject>> = {
  products: ProductData,
  materialReferences: MaterialReferenceData,
};

/** The entry schema of a collection: `CatalogueEntry` with its own fields (served beside them) where declared. */
const entrySchemaOf = (c: (typeof COLLECTIONS)[number]) => {
  const data = DATA_OF[c.kind];
  if (!data) return undefined;
  return Type.Object(
    { ...Entry.properties, ...data.properties },
    { $id: c.one, additionalProperties: true, description: `A catalogue entry of ${c.path}` },
  );
};

const EntryPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    names: Type.Optional(
      Type.Object(
        {
          en: Type.Optional(NullableInput(Type.String({ maxLength: 200 }))),
          fr: Type.Optional(NullableInput(Type.String({ maxLength: 200 }))),
          de: Type.Optional(NullableInput(Type.String({ maxLength: 200 }))),
        },
        {
          additionalProperties: false,
          description: 'Names per language to set; null or an empty string removes one',
        },
      ),
    ),
    enabled: Type.Optional(Type.Boolean()),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    data: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Fields to change or add (e.g. {"hourlyRate": 180}): the record\'s own fields and the optional ' +
          'fields the engine knows for the collection (docs/pricing.md); each keeps its type, numbers >= 0',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const catalogueRoutes = (ctx: AppContext): FastifyPluginAsyncTypebox => {
  const service = createCatalogueService(ctx);
  return async (app) => {
    // Existing organisations' catalogues onto the current default version (safe on every node).
    await upgradeCatalogues(ctx);
    app.addSchema(Entry);
    const tags = ['catalogue'];
    for (const c of COLLECTIONS) {
      const typed = entrySchemaOf(c);
      if (typed) app.addSchema(typed);
      const EntryRef = Type.Ref(typed ? c.one : 'CatalogueEntry');
      // A typed collection documents its fields but is serialized as an open entry was (plain
      // JSON): an edited record (PATCH `data`) is served as stored, never refused by the serializer.
      const serializer = typed ? { serializerCompiler: () => (data: unknown) => JSON.stringify(data) } : {};
      app.get(
        `/${c.path}`,
        {
          ...serializer,
          config: { permission: 'catalogue:read' },
          schema: {
            tags,
            operationId: `list${c.many}`,
            summary: `The estimating catalogue's ${c.about}`,
            response: { 200: Type.Array(EntryRef), ...problemResponses() },
          },
        },
        async (request) => service.list(actorOf(request), c.kind),
      );
      app.get(
        `/${c.path}/:id`,
        {
          ...serializer,
          config: { permission: 'catalogue:read' },
          schema: {
            tags,
            operationId: `get${c.one}`,
            summary: `One ${c.one} of the catalogue`,
            params: IdParams,
            response: { 200: EntryRef, ...problemResponses() },
          },
        },
        async (request) => service.get(actorOf(request), c.kind, request.params.id),
      );
      app.patch(
        `/${c.path}/:id`,
        {
          ...serializer,
          config: { permission: 'catalogue:manage' },
          schema: {
            tags,
            operationId: `update${c.one}`,
            summary: `Edit a ${c.one} (rates, speeds, prices); prices computed afterwards use it`,
            params: IdParams,
            body: EntryPatch,
            response: { 200: EntryRef, ...problemResponses() },
          },
        },
        async (request) => service.update(actorOf(request), c.kind, request.params.id, request.body),
      );
    }

    app.get(
      '/pricing-settings',
      {
        config: { permission: 'catalogue:read' },
        schema: {
          tags,
          operationId: 'getPricingSettings',
          summary: 'Default margin, ink coverage and value-analysis settings of the estimating engine',
          response: { 200: Type.Ref('CatalogueEntry'), ...problemResponses() },
        },
      },
      async (request) => service.settings(actorOf(request)),
    );
    app.patch(
      '/pricing-settings',
      {
        config: { permission: 'catalogue:manage' },
        schema: {
          tags,
          operationId: 'updatePricingSettings',
          summary: 'Edit the pricing settings (e.g. the default commercial margin)',
          body: EntryPatch,
          response: { 200: Type.Ref('CatalogueEntry'), ...problemResponses() },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const entry = await service.settingsEntry(actor);
        return service.update(actor, entry.kind, entry.id, request.body);
      },
    );
  };
};
