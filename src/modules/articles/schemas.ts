import { Type } from '@sinclair/typebox';
import {
  type Alias,
  registerOutputAliases,
  withInputAliases,
  withOutputAliases,
} from '../../platform/hipe.ts';
import {
  CustomFieldValues,
  DateTime,
  DateTimeInput,
  Money,
  NullableInput,
  NullableOutput,
  Quantity,
  Uuid,
} from '../../platform/schemas.ts';

/** HIPE's names of article properties. */
export const ARTICLE_ALIASES: readonly Alias[] = registerOutputAliases([
  { alias: 'previewId', of: 'previewFileId' },
]);

const Price = Money({
  description: 'Default unit price in the article currency (4 decimals)',
});
const StockQuantity = Quantity({
  minimum: 0,
  description: 'Stock quantity: for a stocked article, the quantity available',
});

export const BriefElementInputSchema = Type.Object(
  {
    productId: Type.Optional(Uuid),
    lengthDimension: Type.Optional(Type.Number({ description: 'mm' })),
    widthDimension: Type.Optional(Type.Number({ description: 'mm' })),
    heightDimension: Type.Optional(Type.Number({ description: 'mm' })),
  },
  {
    additionalProperties: true,
    description:
      'A standalone brief element (one that belongs to no brief) to create and link. The properties are those ' +
      'of a brief element (all optional); the briefs module validates them and prices the element when it has ' +
      'enough data.',
  },
);

const STOCKED =
  'Stocked: available from `quantity`. Not stocked: produced on demand (usually from a brief element)';
const ENABLED = 'Whether new order items may use the article';

const articleFields = {
  name: Type.String({ minLength: 1, maxLength: 500 }),
  code: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Unique per organisation among live articles (case-insensitive)',
  }),
  description: NullableInput(Type.String({ maxLength: 10_000 })),
  price: NullableInput(Price),
  stocked: Type.Boolean({ description: STOCKED }),
  quantity: StockQuantity,
  unit: NullableInput(Type.String({ maxLength: 50, description: 'Unit of the dimensions, e.g. mm, cm' })),
  enabled: Type.Boolean({ description: ENABLED }),
  externalId: NullableInput(Type.String({ minLength: 1, maxLength: 200, description: 'ERP id' })),
  currencyId: NullableInput(Uuid),
  companyId: Uuid,
  briefElementId: NullableInput(
    Type.String({
      format: 'uuid',
      description: 'Link to an existing brief element (inherits its production specification)',
    }),
  ),
  briefElement: BriefElementInputSchema,
  customFields: CustomFieldValues,
  createdById: Type.String({
    format: 'uuid',
    description: 'Who created the article, for records brought from another system (default: the caller)',
  }),
  createdAt: Type.String({ ...DateTimeInput, description: 'When it was created (default: now)' }),
  previewFileId: NullableInput(
    Type.String({
      format: 'uuid',
      description: 'The preview image: a live file of this article (422 otherwise)',
    }),
  ),
};

export const CreateArticleBody = withInputAliases(
  Type.Object(
    {
      name: articleFields.name,
      code: articleFields.code,
      companyId: articleFields.companyId,
      description: Type.Optional(articleFields.description),
      price: Type.Optional(articleFields.price),
      stocked: Type.Optional(Type.Boolean({ description: STOCKED, default: false })),
      quantity: Type.Optional(StockQuantity),
      unit: Type.Optional(articleFields.unit),
      enabled: Type.Optional(Type.Boolean({ description: ENABLED, default: true })),
      externalId: Type.Optional(articleFields.externalId),
      currencyId: Type.Optional(articleFields.currencyId),
      briefElementId: Type.Optional(articleFields.briefElementId),
      briefElement: Type.Optional(articleFields.briefElement),
      customFields: Type.Optional(articleFields.customFields),
      createdById: Type.Optional(articleFields.createdById),
      createdAt: Type.Optional(articleFields.createdAt),
      previewFileId: Type.Optional(articleFields.previewFileId),
    },
    {
      additionalProperties: false,
      description:
        'Send `briefElementId` (link an existing element) or `briefElement` (create one), not both',
    },
  ),
  ARTICLE_ALIASES,
);

export const UpdateArticleBody = withInputAliases(
  Type.Object(
    {
      name: Type.Optional(articleFields.name),
      code: Type.Optional(articleFields.code),
      companyId: Type.Optional(articleFields.companyId),
      description: Type.Optional(articleFields.description),
      price: Type.Optional(articleFields.price),
      stocked: Type.Optional(articleFields.stocked),
      quantity: Type.Optional(StockQuantity),
      unit: Type.Optional(articleFields.unit),
      enabled: Type.Optional(articleFields.enabled),
      externalId: Type.Optional(articleFields.externalId),
      currencyId: Type.Optional(articleFields.currencyId),
      briefElementId: Type.Optional(articleFields.briefElementId),
      briefElement: Type.Optional(articleFields.briefElement),
      customFields: Type.Optional(articleFields.customFields),
      createdById: Type.Optional(articleFields.createdById),
      createdAt: Type.Optional(articleFields.createdAt),
      previewFileId: Type.Optional(articleFields.previewFileId),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  ARTICLE_ALIASES,
);

/** POST /articles/{id}/brief-element: the dimensions of a new standalone element (mm). */
const Dimension = Type.Number({ minimum: 0, maximum: 100_000, description: 'mm' });
export const AddBriefElementBody = Type.Object(
  {
    lengthDimension: Type.Optional(Dimension),
    widthDimension: Type.Optional(Dimension),
    heightDimension: Type.Optional(Dimension),
    alias: Type.Optional(
      Type.Object(
        {
          length: Type.Optional(Dimension),
          width: Type.Optional(Dimension),
          height: Type.Optional(Dimension),
        },
        {
          additionalProperties: false,
          description: 'HIPE client: the same dimensions as length/width/height (they must agree)',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ArticleSchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      organisationId: Uuid,
      companyId: Uuid,
      company: Type.Object({ id: Uuid, name: Type.String() }),
      name: Type.String(),
      code: Type.String(),
      description: NullableOutput(Type.String()),
      price: NullableOutput(Type.Number()),
      stocked: Type.Boolean(),
      quantity: Type.Number(),
      unit: NullableOutput(Type.String()),
      enabled: Type.Boolean(),
      externalId: NullableOutput(Type.String()),
      briefElementId: NullableOutput(Uuid),
      currencyId: NullableOutput(Uuid),
      currency: NullableOutput(Type.Object({ id: Uuid, code: Type.String(), symbol: Type.String() })),
      previewFileId: NullableOutput(
        Type.String({ format: 'uuid', description: 'The preview image (a file of the article)' }),
      ),
      customFields: CustomFieldValues,
      createdById: NullableOutput(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
      deletedAt: NullableOutput(DateTime),
    },
    { $id: 'Article' },
  ),
  ARTICLE_ALIASES,
);
