import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { outputAliasesFor, withOutputAliases } from '../../platform/hipe.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, NullableInput, problemResponses } from '../../platform/schemas.ts';
import type { CatalogueKind } from './repository.ts';
import { answerFieldsOf, ENTRY_FIELDS } from './schemas.ts';
import type { createCatalogueService } from './service.ts';

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

/**
 * The entry schema of a collection: the entry's own fields and its records' fields (schemas.ts),
 * closed, so a generated client gets every field typed (issue 27). A product can be made of a board
 * whose `matterId` is in its `allowedMatterIds`.
 */
const entrySchemaOf = (kind: CatalogueKind | 'settings', id: string, description: string) => {
  const schema = Type.Object(
    { ...ENTRY_FIELDS, ...answerFieldsOf(kind) },
    { $id: id, additionalProperties: false, description },
  );
  // HIPE's names of the entry's properties (`enable`) are served beside ours (platform/hipe.ts).
  return withOutputAliases(schema, outputAliasesFor(schema.properties));
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

export const catalogueRoutes = (
  service: ReturnType<typeof createCatalogueService>,
  /** Existing organisations' catalogues onto the current default version (upgrade.ts). */
  upgradeCatalogues: () => Promise<void>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    // Before serving (safe on every node).
    await upgradeCatalogues();
    const tags = ['catalogue'];
    for (const c of COLLECTIONS)
      app.addSchema(entrySchemaOf(c.kind, c.one, `A catalogue entry of ${c.path}: ${c.about}`));
    app.addSchema(
      entrySchemaOf('settings', 'PricingSettings', 'The pricing settings of the estimating engine'),
    );
    // Every entry is serialized as plain JSON: an edited record (PATCH `data`) is served as
    // stored, never trimmed or refused by a serializer; the schemas document it (schemas.ts).
    const serializer = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
    for (const c of COLLECTIONS) {
      const EntryRef = Type.Ref(c.one);
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
        ...serializer,
        config: { permission: 'catalogue:read' },
        schema: {
          tags,
          operationId: 'getPricingSettings',
          summary: 'Default margin, ink coverage and value-analysis settings of the estimating engine',
          response: { 200: Type.Ref('PricingSettings'), ...problemResponses() },
        },
      },
      async (request) => service.settings(actorOf(request)),
    );
    app.patch(
      '/pricing-settings',
      {
        ...serializer,
        config: { permission: 'catalogue:manage' },
        schema: {
          tags,
          operationId: 'updatePricingSettings',
          summary: 'Edit the pricing settings (e.g. the default commercial margin)',
          body: EntryPatch,
          response: { 200: Type.Ref('PricingSettings'), ...problemResponses() },
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
