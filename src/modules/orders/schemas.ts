import { Type } from '@sinclair/typebox';
import { dateInput } from '../../platform/filters.ts';
import { withOutputAliases } from '../../platform/hipe.ts';
import { LocalisedLineSchema, VariantLineSchema } from '../../platform/line-parts-schemas.ts';
import {
  CustomFieldValues,
  DateTime,
  Money,
  NullableInput,
  NullableOutput,
  Uuid,
} from '../../platform/schemas.ts';
import { ORDER_ITEM_ALIASES } from './items-schemas.ts';

const Amount = Money({
  description: 'Amount billed, in the order currency (double precision, rounded to cents)',
});

const orderFields = {
  companyId: NullableInput(Uuid),
  projectId: NullableInput(
    Type.String({
      format: 'uuid',
      description: 'A project of the order company; when companyId is absent the project company is used',
    }),
  ),
  statusId: NullableInput(
    Type.String({
      format: 'uuid',
      description: 'A status of entity `order`; on create the organisation default order status when absent',
    }),
  ),
  externalId: NullableInput(
    Type.String({ minLength: 1, maxLength: 200, description: 'ERP order id, unique among live orders' }),
  ),
  currencyId: NullableInput(Uuid),
  orderDate: NullableInput(dateInput()),
  expectedDeliveryDate: NullableInput(dateInput()),
  actualDeliveryDate: NullableInput(dateInput()),
  shippingAddressId: NullableInput(
    Type.String({ format: 'uuid', description: 'An address of the order company' }),
  ),
  trackingId: NullableInput(Type.String({ maxLength: 200, description: 'Shipping tracking number' })),
  poNumber: NullableInput(
    Type.String({
      maxLength: 100,
      description:
        'The buyer’s purchase order number (a quote converted into the order brings its acceptance’s)',
    }),
  ),
  customFields: CustomFieldValues,
  createdById: Type.String({
    format: 'uuid',
    description: 'Who created the order, for records brought from another system (default: the caller)',
  }),
  createdAt: Type.String({ format: 'date-time', description: 'When it was created (default: now)' }),
};

export const CreateOrderBody = Type.Object(
  {
    billedAmount: Amount,
    companyId: Type.Optional(orderFields.companyId),
    projectId: Type.Optional(orderFields.projectId),
    statusId: Type.Optional(orderFields.statusId),
    externalId: Type.Optional(orderFields.externalId),
    currencyId: Type.Optional(orderFields.currencyId),
    orderDate: Type.Optional(orderFields.orderDate),
    expectedDeliveryDate: Type.Optional(orderFields.expectedDeliveryDate),
    actualDeliveryDate: Type.Optional(orderFields.actualDeliveryDate),
    shippingAddressId: Type.Optional(orderFields.shippingAddressId),
    trackingId: Type.Optional(orderFields.trackingId),
    poNumber: Type.Optional(orderFields.poNumber),
    customFields: Type.Optional(orderFields.customFields),
    createdById: Type.Optional(orderFields.createdById),
    createdAt: Type.Optional(orderFields.createdAt),
  },
  { additionalProperties: false },
);

export const UpdateOrderBody = Type.Object(
  {
    billedAmount: Type.Optional(Amount),
    companyId: Type.Optional(orderFields.companyId),
    projectId: Type.Optional(orderFields.projectId),
    statusId: Type.Optional(orderFields.statusId),
    externalId: Type.Optional(orderFields.externalId),
    currencyId: Type.Optional(orderFields.currencyId),
    orderDate: Type.Optional(orderFields.orderDate),
    expectedDeliveryDate: Type.Optional(orderFields.expectedDeliveryDate),
    actualDeliveryDate: Type.Optional(orderFields.actualDeliveryDate),
    shippingAddressId: Type.Optional(orderFields.shippingAddressId),
    trackingId: Type.Optional(orderFields.trackingId),
    poNumber: Type.Optional(orderFields.poNumber),
    customFields: Type.Optional(orderFields.customFields),
    createdById: Type.Optional(orderFields.createdById),
    createdAt: Type.Optional(orderFields.createdAt),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Ref = (extra: Record<string, ReturnType<typeof Type.String>>) =>
  NullableOutput(Type.Object({ id: Uuid, ...extra }));

export const ItemArticleSchema = NullableOutput(
  Type.Object(
    { id: Uuid, code: Type.String(), name: Type.String() },
    { description: 'The article of the item' },
  ),
);

export const OrderItemSchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      organisationId: Uuid,
      orderId: Uuid,
      articleId: NullableOutput(Uuid),
      article: ItemArticleSchema,
      parentId: NullableOutput(
        Type.String({ format: 'uuid', description: 'The kit or group item this item belongs to' }),
      ),
      commentId: NullableOutput(Uuid),
      quantity: Type.Number({ exclusiveMinimum: 0 }),
      unitPrice: NullableOutput(
        Type.Number({ description: 'Unit price (4 decimals); null for an item priced by its total' }),
      ),
      totalPrice: Type.Number({ description: 'quantity x unitPrice, rounded to cents' }),
      unit: NullableOutput(Type.String()),
      position: Type.Integer(),
      name: NullableOutput(
        Type.String({
          description:
            'What an item without article is: a brief’s group, a tool ("Cutting die"), "Delivery" (set by quote conversion)',
        }),
      ),
      code: NullableOutput(
        Type.String({
          description:
            'The engine’s code of a service item (CUTTING_DIE, DELIVERY...), for its name per language',
        }),
      ),
      variants: Type.Array(VariantLineSchema, {
        description:
          'The decoration variants of an element item, from its quote line: quantities add up to quantity, amounts to totalPrice',
      }),
      localised: NullableOutput(LocalisedLineSchema),
      currency: NullableOutput(
        Type.Object(
          { id: Uuid, code: Type.String(), symbol: Type.String() },
          { description: 'The order’s currency: every amount of the item is in it' },
        ),
      ),
      externalId: NullableOutput(Type.String()),
      customFields: CustomFieldValues,
      createdById: NullableOutput(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
      deletedAt: NullableOutput(DateTime),
    },
    { $id: 'OrderItem' },
  ),
  ORDER_ITEM_ALIASES,
);

const orderProperties = {
  id: Uuid,
  organisationId: Uuid,
  code: NullableOutput(
    Type.Integer({ description: 'The order’s number in its organisation (1, 2, 3...), set by the service' }),
  ),
  externalId: NullableOutput(Type.String()),
  billedAmount: Type.Number(),
  itemsTotal: Type.Number({
    description:
      'Sum of totalPrice over the live items, kept up to date by every item change (not enforced against ' +
      'billedAmount, which may include shipping or taxes)',
  }),
  currencyId: NullableOutput(Uuid),
  orderDate: NullableOutput(DateTime),
  expectedDeliveryDate: NullableOutput(DateTime),
  actualDeliveryDate: NullableOutput(DateTime),
  trackingId: NullableOutput(Type.String()),
  poNumber: NullableOutput(Type.String({ description: 'The buyer’s purchase order number' })),
  shippingAddressId: NullableOutput(Uuid),
  statusId: NullableOutput(Uuid),
  companyId: NullableOutput(Uuid),
  projectId: NullableOutput(Uuid),
  createdById: NullableOutput(Uuid),
  customFields: CustomFieldValues,
  createdAt: DateTime,
  updatedAt: DateTime,
  deletedAt: NullableOutput(DateTime),
};

/** An order in lists: its own fields and the total of its items. */
export const OrderSummarySchema = Type.Object(
  {
    ...orderProperties,
    currency: NullableOutput(
      Type.Object(
        { id: Uuid, code: Type.String(), symbol: Type.String() },
        { description: 'The order’s currency (billedAmount and itemsTotal are in it)' },
      ),
    ),
  },
  { $id: 'OrderSummary' },
);

/** An order read alone: with company, project, status, currency and its items (each with its article). */
export const OrderSchema = Type.Object(
  {
    ...orderProperties,
    company: Ref({ name: Type.String() }),
    project: Ref({ name: Type.String() }),
    status: Ref({ internalLabel: Type.String() }),
    currency: Ref({ code: Type.String(), symbol: Type.String() }),
    items: Type.Array(Type.Ref('OrderItem'), { description: 'Live items by position, then creation order' }),
  },
  { $id: 'Order' },
);
