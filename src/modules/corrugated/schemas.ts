import { OptionalKind, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { aliasDescription } from '../../platform/hipe.ts';
import { Nullable, NullableInput, Uuid } from '../../platform/schemas.ts';
import type { CatalogueKind } from '../catalogue/repository.ts';
import { answerFieldsOf, ENTRY_FIELDS } from '../catalogue/schemas.ts';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Mm = (description: string) => Type.Number({ minimum: 0, maximum: 10_000, description });
const Enabled = Type.Boolean({ description: 'Used for pricing (default true)' });
/** n8n's dateTime values: `2026-01-01T00:00:00` (no zone: UTC), a date, or "" for none. */
const DateInput = NullableInput(
  Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time (no zone: UTC); "" or null: none' }),
);

/** Create: `required` must be sent; update: every property optional (an empty body changes nothing). */
function bodies(properties: TProperties, required: string[]) {
  const optional = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v)]));
  const create = Type.Object(
    { ...optional, ...Object.fromEntries(required.map((k) => [k, properties[k]!])) },
    { additionalProperties: false },
  );
  const update = Type.Object(optional, { additionalProperties: false });
  return { create, update };
}

const supplier = {
  name: Name,
  contactInfo: NullableInput(Type.String({ maxLength: 2000, description: 'Contact information' })),
  enabled: Enabled,
};
const flute = {
  name: Type.String({ minLength: 1, maxLength: 100, description: 'e.g. `B`' }),
  flute: Type.String({
    minLength: 1,
    maxLength: 20,
    description: 'Flute profile (E, B, C, EB, BC); default: the name',
  }),
  thickness: Mm('Thickness of the flute, mm'),
  outsideGain: Mm('Outside gain, mm'),
  insideLoss: Mm('Inside loss, mm'),
  enabled: Enabled,
};
// Language tags only (TypeBox turns a key schema without a pattern into "any key"), texts only.
const Label = Type.Record(
  Type.String({ pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,2}$' }),
  Type.String({ maxLength: 200 }),
  {
    additionalProperties: false,
    description: 'The label per language, e.g. `{"en-US": "Kraft 150", "fr-FR": "Kraft 150"}`',
  },
);
const liner = {
  name: Name,
  weight: Type.Number({ exclusiveMinimum: 0, maximum: 2000, description: 'g/m2' }),
  label: Label,
  category: Type.Union([Type.Literal('Kraft'), Type.Literal('Test'), Type.Literal('Other')]),
  inkPorosity: Type.Number({ minimum: 0, maximum: 1_000_000 }),
  varnishPorosity: Type.Number({ minimum: 0, maximum: 1_000_000 }),
  color: Type.String({ maxLength: 50 }),
  type: Type.String({ maxLength: 50 }),
  enabled: Enabled,
};
const format = {
  width: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'mm' }),
  length: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'mm' }),
  name: Name,
  enabled: Enabled,
};
const material = {
  name: Name,
  description: NullableInput(Type.String({ maxLength: 2000 })),
};
const Liners = Type.Array(Uuid, { minItems: 1, maxItems: 9, description: 'The papers, outside to inside' });
const composition = {
  materialReferenceId: { ...Uuid, description: 'The corrugated material (board) it is a composition of' },
  corrugatedMaterial: { ...Uuid, description: aliasDescription('materialReferenceId') },
  fluteId: { ...Uuid, description: 'Its flute (the board’s own when the board names one)' },
  flute: { ...Uuid, description: aliasDescription('fluteId') },
  linerIds: Liners,
  liners: { ...Liners, description: aliasDescription('linerIds') },
  composition: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'e.g. K150/T125/K150; default: the liners’ names',
  }),
  grammage: Type.Number({
    exclusiveMinimum: 0,
    maximum: 5000,
    description: 'g/m2; default: the liners’ weights summed',
  }),
  gsm: Type.Number({ exclusiveMinimum: 0, maximum: 5000, description: aliasDescription('grammage') }),
  code: Type.String({ minLength: 1, maxLength: 100, description: 'Unique reference' }),
  reference: Type.String({ minLength: 1, maxLength: 100, description: aliasDescription('code') }),
  pricePerSquareMetre: Type.Number({
    minimum: 0,
    maximum: 1000,
    description: 'Purchase price per m2 (base currency)',
  }),
  supplierId: NullableInput({ ...Uuid, description: 'A corrugated supplier' }),
  name: Name,
  enabled: Enabled,
};
const price = {
  corrugatedMaterialComposition: { ...Uuid, description: 'The composition priced' },
  price: Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Price per m2' }),
  currency: Type.String({
    pattern: '^[A-Za-z]{3}$',
    description: 'ISO 4217 code of a currency of the organisation',
  }),
  validFrom: DateInput,
  validTo: DateInput,
};

export const BODIES = {
  'corrugated-suppliers': bodies(supplier, ['name']),
  'corrugated-flutes': bodies(flute, ['name']),
  'corrugated-liners': bodies(liner, ['name']),
  'corrugated-formats': bodies(format, ['width', 'length']),
  'corrugated-materials': bodies(material, ['name']),
  'corrugated-material-compositions': bodies(composition, []),
  'corrugated-material-composition-prices': bodies(price, [
    'corrugatedMaterialComposition',
    'price',
    'currency',
  ]),
} as Record<string, { create: TObject; update: TObject }>;

/**
 * An answer: the catalogue entry's own fields, the fields of the engine's record it is (a flute is
 * a material type, a corrugated material a board: catalogue/schemas.ts, all optional since a record
 * created here lacks the engine's), then HIPE's fields; closed. Served as plain JSON, with HIPE's
 * names of the entry's properties (`enable`) that routes.ts adds to the schema once every module's
 * aliases are registered; test/catalogue/schemas.test.ts holds the answers to these schemas.
 */
const out = (properties: TProperties, id: string, description: string, kind?: CatalogueKind) => {
  const record = Object.fromEntries(
    Object.entries(kind ? answerFieldsOf(kind) : {}).map(([name, schema]) => [
      name,
      OptionalKind in schema ? schema : Type.Optional(schema),
    ]),
  );
  return Type.Object(
    { ...ENTRY_FIELDS, ...record, ...properties },
    { $id: id, additionalProperties: false, description },
  );
};
const N = (s: Parameters<typeof Nullable>[0]) => Nullable(s);

export const ANSWERS: Record<string, TObject> = {
  'corrugated-suppliers': out(
    { contactInfo: N(Type.String()) },
    'CorrugatedSupplier',
    'A corrugated supplier',
  ),
  'corrugated-flutes': out(
    { thickness: N(Type.Number()), outsideGain: N(Type.Number()), insideLoss: N(Type.Number()) },
    'CorrugatedFlute',
    'A flute: a material type of the corrugated matter',
    'materialTypes',
  ),
  'corrugated-liners': out(
    {
      weight: N(Type.Number()),
      label: N(Type.Record(Type.String(), Type.String())),
      category: N(Type.String()),
      inkPorosity: N(Type.Number()),
      varnishPorosity: N(Type.Number()),
      color: N(Type.String()),
      type: N(Type.String()),
    },
    'CorrugatedLiner',
    'A liner (paper of a composition)',
  ),
  'corrugated-formats': out(
    { width: Type.Number(), length: Type.Number() },
    'CorrugatedFormat',
    'A corrugated sheet format',
  ),
  'corrugated-materials': out(
    { description: N(Type.String()) },
    'CorrugatedMaterial',
    'A corrugated material: a board (material reference) of the corrugated matter',
    'materialReferences',
  ),
  'corrugated-material-compositions': out(
    {
      materialReferenceId: N(Uuid),
      corrugatedMaterial: N({ ...Uuid, description: aliasDescription('materialReferenceId') }),
      materialId: N({
        ...Uuid,
        description: aliasDescription('materialReferenceId', 'As in webhook events'),
      }),
      fluteId: N(Uuid),
      flute: N({ ...Uuid, description: aliasDescription('fluteId') }),
      linerIds: Type.Array(Uuid),
      liners: Type.Array(Uuid, { description: aliasDescription('linerIds') }),
      composition: N(Type.String()),
      grammage: N(Type.Number()),
      gsm: N(Type.Number({ description: aliasDescription('grammage') })),
      reference: Type.String({ description: aliasDescription('code') }),
      supplierId: N(Uuid),
      pricePerSquareMetre: N(Type.Number()),
    },
    'CorrugatedMaterialComposition',
    'A corrugated composition of the estimating catalogue; priced by area',
    'corrugatedMaterials',
  ),
  'corrugated-material-composition-prices': out(
    {
      corrugatedMaterialComposition: N(Uuid),
      compositionId: Type.Optional(N({ ...Uuid, description: 'Same as `corrugatedMaterialComposition`' })),
      price: N(Type.Number()),
      currency: N(Type.String()),
      validFrom: N(Type.String({ format: 'date-time' })),
      validTo: N(Type.String({ format: 'date-time' })),
    },
    'CorrugatedMaterialCompositionPrice',
    'A purchase price per m2 of a composition over a validity period',
  ),
};

const Filter = Type.String({ maxLength: 200 });
/** The list query: paging, sorting and the filters flat or bracketed (`filters[name]`, `order[name]`). */
export function listQuery(filters: string[], sorts: string[]) {
  return Type.Object(
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Default 50' })),
      itemsPerPage: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 500, description: 'Alias of `limit`' }),
      ),
      sortBy: Type.Optional(Type.String({ enum: sorts })),
      sortOrder: Type.Optional(Type.String({ enum: ['asc', 'desc', 'ASC', 'DESC'] })),
      sort: Type.Optional(
        Type.String({
          pattern: `^(${sorts.join('|')}),(ASC|DESC|asc|desc)$`,
          description: '`field,ASC|DESC`',
        }),
      ),
      ...Object.fromEntries(filters.map((f) => [f, Type.Optional(Filter)])),
    },
    {
      additionalProperties: false,
      patternProperties: {
        [`^filters\\[(${filters.join('|')})\\]$`]: Filter,
        [`^order\\[(${sorts.join('|')})\\]$`]: Type.String({ enum: ['asc', 'desc', 'ASC', 'DESC'] }),
      },
    },
  );
}
