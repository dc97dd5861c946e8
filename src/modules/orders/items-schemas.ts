import { Type } from '@sinclair/typebox';
import { type Alias, registerOutputAliases, withInputAliases } from '../../platform/hipe.ts';
import {
  CustomFieldValues,
  Money,
  NullableInput,
  Quantity as QuantityInput,
  Uuid,
} from '../../platform/schemas.ts';

/** HIPE's names of order item properties: the unit price per thousand units. */
export const ORDER_ITEM_ALIASES: readonly Alias[] = registerOutputAliases([
  {
    alias: 'unitPricePerThousand',
    of: 'unitPrice',
    input: Type.Number({ minimum: 0, description: 'The price of 1000 units: unitPrice x 1000' }),
    output: Type.Number({ description: 'unitPrice x 1000' }),
    toOurs: (value) => Math.round((Number(value) / 1000) * 1e8) / 1e8,
    toTheirs: (value) => Math.round(Number(value) * 1000 * 1e4) / 1e4,
  },
]);

const Quantity = QuantityInput({ description: 'Quantity ordered; must be positive' });
const UnitPrice = Money({
  description: 'Unit price (4 decimals); defaults to the article price when the item has an article',
});
const TotalPrice = Money({
  description:
    'quantity x unitPrice rounded to cents; computed when absent, refused (422 `inconsistent_total`) when it ' +
    'differs by more than half a cent. Without a unit price, the total as sent (default 0).',
});
const Position = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Display order (default 1)' });
const ParentId = Type.String({
  format: 'uuid',
  description: 'A live item of the same order (a kit or group), created before this one',
});

const itemFields = {
  articleId: Type.Optional(
    Type.String({ format: 'uuid', description: 'The article; without one the item is a custom item' }),
  ),
  parentId: Type.Optional(ParentId),
  quantity: Quantity,
  unitPrice: Type.Optional(UnitPrice),
  totalPrice: Type.Optional(TotalPrice),
  unit: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'Unit: pieces, kilograms, metres, kits, service...',
    }),
  ),
  position: Type.Optional(Position),
  commentId: Type.Optional(Type.String({ format: 'uuid', description: 'A comment of the organisation' })),
  externalId: Type.Optional(
    NullableInput(Type.String({ minLength: 1, maxLength: 200, description: 'Identifier in another system' })),
  ),
  customFields: Type.Optional(CustomFieldValues),
  createdAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When it was created, for records from another system' }),
  ),
};

export const CreateOrderItemBody = withInputAliases(
  Type.Object(
    { orderId: Type.String({ format: 'uuid', description: 'The order (required)' }), ...itemFields },
    { additionalProperties: false },
  ),
  ORDER_ITEM_ALIASES,
);

export const BulkOrderItem = Type.Object(
  {
    ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'A name for this item within the request, so later items can name it as `parentRef`',
      }),
    ),
    parentRef: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'The `ref` of an EARLIER item of the same request that is this item’s parent',
      }),
    ),
    ...itemFields,
    quantity: Type.Optional({
      ...Quantity,
      description:
        'Quantity ordered; with an article it may be left out: 1 (articles have no minimum order quantity)',
    }),
  },
  { additionalProperties: false },
);

export const BulkOrderItemsBody = Type.Array(BulkOrderItem, {
  minItems: 1,
  maxItems: 500,
  description: 'Items to add, in order; a parent comes before its children',
});

export const UpdateOrderItemBody = withInputAliases(
  Type.Object(
    {
      articleId: Type.Optional(NullableInput(Uuid)),
      parentId: Type.Optional(NullableInput(ParentId)),
      quantity: Type.Optional(Quantity),
      unitPrice: Type.Optional(NullableInput(UnitPrice)),
      totalPrice: Type.Optional(TotalPrice),
      unit: Type.Optional(NullableInput(Type.String({ minLength: 1, maxLength: 50 }))),
      position: Type.Optional(Position),
      commentId: Type.Optional(NullableInput(Uuid)),
      externalId: itemFields.externalId,
      customFields: itemFields.customFields,
      createdAt: itemFields.createdAt,
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  ORDER_ITEM_ALIASES,
);
