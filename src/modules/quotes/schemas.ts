import { type Static, Type } from '@sinclair/typebox';
import { PRICE_SOURCES, QUOTE_STATES, VAT_TREATMENTS } from '../../db/schema/quotes.ts';
import { dateInput } from '../../platform/filters.ts';
import {
  LocalisedLineSchema,
  ToolingLineSchema,
  VariantLineSchema,
} from '../../platform/line-parts-schemas.ts';
import {
  CustomFieldValues,
  DateTime,
  Money as MoneyInput,
  Nullable,
  NullableInput,
  Quantity,
  StringEnum,
  Uuid,
} from '../../platform/schemas.ts';
import { OrderItemSchema, OrderSchema } from '../orders/schemas.ts';
import { IncotermSchema, NullableIncoterm } from '../organisations/schemas.ts';
import { SUPPORTED_LANGUAGES } from './i18n.ts';
import { QUOTE_ACTIONS } from './lifecycle.ts';

export const QuoteStateSchema = StringEnum(QUOTE_STATES, { description: 'Lifecycle state (docs/quotes.md)' });

const Money = (description: string) => Type.Number({ description });

/** A price-break column of a line as a buyer sees it (docs/quotes.md, "Price breaks"). */
const priceBreakProperties = {
  id: Type.String({ description: 'The column’s id (kept while its quantity is offered)' }),
  quantity: Type.Number(),
  unitPrice: Type.Number({
    description: 'amount / quantity, 4 decimals (the typed unit price of an article line)',
  }),
  amount: Money('Goods amount at the quantity before discount (cents): the engine’s price, as for the line'),
  discount: Money('The line’s discount applied to this column (cents)'),
  toolingCost: Money('Tooling at this quantity'),
  deliveryCost: Money('Delivery at this quantity'),
  totalPrice: Money('amount - discount + toolingCost + deliveryCost (cents)'),
  currency: Type.String({ description: 'The quote’s currency' }),
};
/** The keys a buyer sees of a price-break column. */
export const BUYER_PRICE_BREAK_KEYS = Object.keys(
  priceBreakProperties,
) as (keyof typeof priceBreakProperties)[];

const PriceBreakSchema = Type.Object(
  {
    ...priceBreakProperties,
    engineAmount: Type.Optional(
      Type.Number({ description: 'Staff only: the engine’s amount at the quantity' }),
    ),
    engineCost: Type.Optional(
      Nullable(Type.Number({ description: 'Staff only: the engine’s product cost at the quantity' })),
    ),
    margin: Type.Optional(
      Nullable(
        Type.Number({ description: 'Staff only: amount - discount - engineCost (null without a cost)' }),
      ),
    ),
  },
  { description: 'The line offered at another quantity' },
);

const itemProperties = {
  id: Uuid,
  quoteId: Uuid,
  parentId: Nullable(Uuid),
  position: Type.Integer({ description: 'Display order among the siblings, from 1' }),
  briefId: Nullable(Uuid),
  briefElementId: Nullable(Uuid),
  articleId: Nullable(Uuid),
  predictionId: Nullable(
    Type.String({ format: 'uuid', description: 'The brief prediction the item was priced from' }),
  ),
  elementPosition: Nullable(
    Type.Integer({ description: 'An element line: the element’s position in its brief when it was quoted' }),
  ),
  briefVersion: Nullable(
    Type.Integer({
      description:
        'An element line: the brief’s prediction version it was quoted at (its die-line files and 3D preview show it)',
    }),
  ),
  priceSource: Nullable(StringEnum(PRICE_SOURCES)),
  reference: Nullable(Type.String({ description: 'Brief code or article code (snapshot)' })),
  name: Type.String({
    description:
      'Snapshot taken when the item was added (English catalogue names), or the name a user typed (customName)',
  }),
  customName: Type.Boolean({
    description:
      'Whether name was typed by a user (PATCH { name }): then shown as typed in every language, over the catalogue’s',
  }),
  description: Nullable(Type.String()),
  localised: LocalisedLineSchema,
  quantity: Type.Number(),
  price: Nullable(
    Type.Number({
      description:
        'Unit price shown (4 decimals): amount / quantity, or the price typed in (article, manual); null while unknown',
    }),
  ),
  amount: Nullable(
    Type.Number({
      description:
        'Goods amount before discount (cents): the engine’s product price for the quantity, or quantity x the typed unit price rounded once',
    }),
  ),
  discountPercent: Nullable(Type.Number({ description: 'Discount as a percentage of the amount' })),
  discountAmount: Nullable(Type.Number({ description: 'Discount as an amount (cents)' })),
  optional: Type.Boolean({
    description:
      'An optional line is shown with its price but not counted in its parent’s or the quote’s total',
  }),
  groupLabel: Nullable(Type.String({ description: 'Heading the line is shown under' })),
  totalPrice: Money(
    'amount - discount + toolingCost + deliveryCost (cents); a parent: sum of its children that are not optional',
  ),
  toolingCost: Money('One-off tooling (plates, cutting dies...)'),
  tooling: Type.Array(ToolingLineSchema, {
    description:
      'The tools toolingCost pays for, one line each (adding up to toolingCost; counted once, inside totalPrice)',
  }),
  variants: Type.Array(VariantLineSchema, {
    description:
      'The decoration variants (artworks) of an element line, from its brief: quantities add up to the line quantity, amounts to its net goods amount (amount - discount); empty for other lines',
  }),
  deliveryCost: Money('Delivery share'),
  valid: Type.Boolean({ description: 'Whether the pricing is complete (a parent: all its children are)' }),
  comment: Nullable(Type.String()),
  priceBreaks: Type.Array(PriceBreakSchema, {
    description:
      'Price-break columns: the line offered at other quantities, by quantity (at most 6); empty: the line’s quantity only',
  }),
  length: Nullable(Type.Number({ description: 'mm' })),
  width: Nullable(Type.Number({ description: 'mm' })),
  height: Nullable(Type.Number({ description: 'mm' })),
  createdById: Nullable(Uuid),
  createdAt: DateTime,
  updatedAt: DateTime,
};

/** The keys a buyer sees of a quote item (an allowlist: anything else is the seller's). */
export const BUYER_ITEM_KEYS = Object.keys(itemProperties) as (keyof typeof itemProperties)[];

/** Seen by staff with `costs:read` only (src/platform/audience.ts). */
const sellerItemProperties = {
  enginePrice: Type.Optional(
    Nullable(Type.Number({ description: 'Staff only: the engine’s (or article’s) unit price' })),
  ),
  engineAmount: Type.Optional(
    Nullable(Type.Number({ description: 'Staff only: the engine’s goods amount for the quantity' })),
  ),
  engineCost: Type.Optional(
    Nullable(Type.Number({ description: 'Staff only: the engine’s product cost for the quantity' })),
  ),
  margin: Type.Optional(
    Nullable(
      Type.Number({
        description:
          'Staff only: amount - discount - engineCost, the margin the line makes at its price (null without a cost)',
      }),
    ),
  ),
};

export const QuoteItemChildSchema = Type.Object(
  { ...itemProperties, ...sellerItemProperties },
  {
    $id: 'QuoteItemChild',
    description: 'An item below a parent item (an element of a brief)',
  },
);

export const QuoteItemSchema = Type.Object(
  { ...itemProperties, ...sellerItemProperties, children: Type.Array(Type.Ref('QuoteItemChild')) },
  { $id: 'QuoteItem', description: 'A root item with its children, by position' },
);

const Ref = <T extends Record<string, ReturnType<typeof Type.String>>>(extra: T) =>
  Nullable(Type.Object({ id: Uuid, ...extra }));

export const QuotePdfSchema = Type.Object(
  {
    id: Uuid,
    localisationId: Type.String({ description: 'The language of the PDF (the file label)' }),
    filename: Type.String(),
    mimeType: Type.String(),
    size: Type.Integer(),
    sha256: Type.String(),
    url: Type.String({ description: 'Download path (GET, authenticated)' }),
    createdAt: DateTime,
  },
  { $id: 'QuotePdf' },
);

/** Commercial terms and VAT of a quote (docs/quotes.md, "VAT and terms"). */
const termsProperties = {
  paymentTerms: Nullable(Type.String({ description: 'Default: the organisation settings’' })),
  paymentDays: Nullable(Type.Integer()),
  incoterm: Nullable(IncotermSchema),
  incotermPlace: Nullable(Type.String()),
  deliveryTerms: Nullable(Type.String()),
  poNumber: Nullable(Type.String({ description: 'The buyer’s purchase order number' })),
  vatTreatment: StringEnum(VAT_TREATMENTS, {
    description:
      'standard (at vatRate), reverse_charge (EU customer abroad with a VAT number), exempt (the company’s exemption), export (outside the EU), none (the seller has no VAT rate)',
  }),
  vatRate: Nullable(Type.Number({ description: 'Percent; null with vatTreatment none' })),
  vatExemptionReason: Nullable(Type.String({ description: 'With vatTreatment exempt' })),
};

/** The request properties of the terms (create and update of a draft). */
const termsInput = {
  paymentTerms: Type.Optional(NullableInput(Type.String({ maxLength: 500 }))),
  paymentDays: Type.Optional(NullableInput(Type.Integer({ minimum: 0, maximum: 365 }))),
  incoterm: Type.Optional(NullableIncoterm),
  incotermPlace: Type.Optional(NullableInput(Type.String({ maxLength: 200 }))),
  deliveryTerms: Type.Optional(NullableInput(Type.String({ maxLength: 1000 }))),
  poNumber: Type.Optional(NullableInput(Type.String({ maxLength: 100 }))),
};
export const TERMS_KEYS = [
  'paymentTerms',
  'paymentDays',
  'incoterm',
  'incotermPlace',
  'deliveryTerms',
  'poNumber',
] as const;

const quoteProperties = {
  id: Uuid,
  organisationId: Uuid,
  code: Nullable(Type.String({ description: 'Assigned on publication, e.g. Q-2026-00042' })),
  name: Type.String(),
  state: QuoteStateSchema,
  version: Type.Integer({ description: '1, then +1 for each revision of the lineage' }),
  parentQuoteId: Nullable(
    Type.String({ format: 'uuid', description: 'The quote this revision was made from' }),
  ),
  projectId: Nullable(Uuid),
  companyId: Uuid,
  contactId: Nullable(Uuid),
  addressId: Nullable(Uuid),
  email: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  receiverName: Nullable(Type.String()),
  validUntil: Nullable(DateTime),
  currency: Type.String({ description: 'ISO 4217 code of every amount of the quote' }),
  totalPrice: Money('Sum of the items (tooling and delivery included)'),
  toolingCost: Money('Sum of the items’ tooling'),
  deliveryCost: Money('Sum of the items’ delivery'),
  ...termsProperties,
  publishedAt: Nullable(DateTime),
  signedAt: Nullable(DateTime),
  rejectedAt: Nullable(DateTime),
  rejectionReason: Nullable(Type.String()),
  expiredAt: Nullable(DateTime),
  respondedById: Nullable(Uuid),
  orderId: Nullable(Type.String({ format: 'uuid', description: 'The order made from the signed quote' })),
  createdById: Nullable(Uuid),
  createdAt: DateTime,
  updatedAt: DateTime,
  project: Ref({ name: Type.String() }),
  company: Type.Object({ id: Uuid, name: Type.String() }),
  allowedActions: Type.Array(StringEnum(QUOTE_ACTIONS), {
    description:
      'What the caller may do next with this quote, from the lifecycle table (docs/quotes.md): `edit` (a ' +
      'draft’s fields and items), `publish`, `accept`, `decline`, `revise` (POST revisions), `convert` (POST ' +
      'order). Per caller: their role’s permissions and the guards (validity, an order already made). The ' +
      'API still decides each request.',
  }),
};

export const QuoteSummarySchema = Type.Object(quoteProperties, { $id: 'QuoteSummary' });

export const QuoteSchema = Type.Object(
  {
    ...quoteProperties,
    contact: Nullable(
      Type.Object({
        id: Uuid,
        email: Nullable(Type.String()),
        firstName: Nullable(Type.String()),
        lastName: Nullable(Type.String()),
        phoneNumber: Nullable(Type.String()),
      }),
    ),
    address: Nullable(
      Type.Object({
        id: Uuid,
        name: Nullable(Type.String()),
        street1: Type.String(),
        street2: Nullable(Type.String()),
        street3: Nullable(Type.String()),
        postcode: Nullable(Type.String()),
        city: Type.String(),
        region: Nullable(Type.String()),
        countryCode: Type.String(),
      }),
    ),
    items: Type.Array(Type.Ref('QuoteItem'), {
      description: 'Root items by position, each with its children',
    }),
    pdfs: Type.Array(Type.Ref('QuotePdf'), { description: 'Generated PDFs, one per language' }),
    order: Nullable(
      Type.Object(
        {
          id: Uuid,
          code: Nullable(Type.Integer({ description: 'The order’s number in the organisation' })),
          externalId: Nullable(Type.String({ description: 'The order’s ERP id' })),
        },
        { description: 'The order made from the quote (`orderId`) while it exists' },
      ),
    ),
    priceBreakColumns: Type.Array(
      Type.Object({
        id: Type.String({
          description: 'What `option.id` of POST /quotes/{id}/accept names: the position ("1"...)',
        }),
        position: Type.Integer(),
        quantity: Nullable(
          Type.Number({ description: 'The quantity when every line offering columns has the same there' }),
        ),
        totalPrice: Money('The quote’s total with each line at this column (lines without one as they are)'),
        toolingCost: Money('Tooling at this column'),
        deliveryCost: Money('Delivery at this column'),
      }),
      {
        description:
          'The columns the buyer chooses from when accepting: the lines’ columns of the same rank added up; empty without price breaks',
      },
    ),
    netTotal: Money('totalPrice, excluding VAT'),
    vatAmount: Money('round(netTotal x vatRate / 100) to the cent, once per quote'),
    grossTotal: Money('netTotal + vatAmount'),
  },
  { $id: 'Quote' },
);

const ItemInput = Type.Object(
  {
    briefId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'A brief: a parent item and one child per element (or, with briefElementId, that element)',
      }),
    ),
    briefElementId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'One element of a brief, placed under its brief’s parent item',
      }),
    ),
    articleId: Type.Optional(Type.String({ format: 'uuid', description: 'A catalogue article' })),
    quantity: Type.Optional(
      Quantity({ description: 'Required for an article; an element defaults to its total quantity' }),
    ),
    price: Type.Optional(
      MoneyInput({ description: 'Unit price; default: the article price or the prediction’s unit price' }),
    ),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type ItemInput = Static<typeof ItemInput>;

const ItemsInput = Type.Array(ItemInput, { maxItems: 500 });

const Email = Type.String({ format: 'email', maxLength: 320 });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const ValidUntil = dateInput(
  'End of validity: an ISO 8601 timestamp, or a date (`YYYY-MM-DD`, valid through that day, UTC)',
);

export const CreateQuoteBody = Type.Object(
  {
    name: Type.Optional(Text(200)),
    projectId: Type.Optional(Uuid),
    companyId: Type.Optional(
      Type.String({ format: 'uuid', description: 'Required unless projectId is given (its company)' }),
    ),
    contactId: Type.Optional(
      Type.String({ format: 'uuid', description: 'A contact (user with role contact) of the company' }),
    ),
    addressId: Type.Optional(Type.String({ format: 'uuid', description: 'An address of the company' })),
    email: Type.Optional(Email),
    phoneNumber: Type.Optional(Text(50)),
    receiverName: Type.Optional(Text(200)),
    validUntil: Type.Optional(ValidUntil),
    ...termsInput,
    briefIds: Type.Optional(
      Type.Array(Uuid, { uniqueItems: true, maxItems: 50, description: 'One parent item per brief' }),
    ),
    items: Type.Optional(ItemsInput),
  },
  { additionalProperties: false },
);
export type CreateQuoteInput = Static<typeof CreateQuoteBody>;

export const UpdateQuoteBody = Type.Object(
  {
    name: Type.Optional(Text(200)),
    projectId: Type.Optional(NullableInput(Uuid)),
    companyId: Type.Optional(Uuid),
    contactId: Type.Optional(NullableInput(Uuid)),
    addressId: Type.Optional(NullableInput(Uuid)),
    email: Type.Optional(NullableInput(Email)),
    phoneNumber: Type.Optional(NullableInput(Text(50))),
    receiverName: Type.Optional(NullableInput(Text(200))),
    validUntil: Type.Optional(NullableInput(ValidUntil)),
    ...termsInput,
    state: Type.Optional(QuoteStateSchema),
    rejectionReason: Type.Optional(
      Type.String({ maxLength: 2000, description: 'With state `rejected` only' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateQuoteInput = Static<typeof UpdateQuoteBody>;

/** PATCH /quotes/{id}: the draft's own fields, no state change (that is PUT's or the lifecycle's). */
const { state: _state, rejectionReason: _reason, ...patchableQuoteFields } = UpdateQuoteBody.properties;
export const PatchQuoteBody = Type.Object(patchableQuoteFields, {
  additionalProperties: false,
  minProperties: 1,
});

export const UpdateItemBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'The line’s own name, shown as typed in every language (over the catalogue’s style name per language)',
      }),
    ),
    quantity: Type.Optional(
      Quantity({
        description:
          'A brief element is priced again by the engine at this quantity (whole pieces); an article line keeps its unit price',
      }),
    ),
    price: Type.Optional(
      NullableInput(
        MoneyInput({
          description:
            'Unit price override (manual, 4 decimals); the engine’s price is kept beside it. null: back to the engine’s price',
        }),
      ),
    ),
    discountPercent: Type.Optional(
      NullableInput(
        Type.Number({
          minimum: 0,
          maximum: 100,
          description: 'Percentage of the amount; not with discountAmount',
        }),
      ),
    ),
    discountAmount: Type.Optional(
      NullableInput(
        MoneyInput({ description: 'Amount off the line (at most its amount); not with discountPercent' }),
      ),
    ),
    comment: Type.Optional(NullableInput(Type.String({ maxLength: 2000 }))),
    optional: Type.Optional(
      Type.Boolean({ description: 'Shown with its price, not counted in the total (nor ordered)' }),
    ),
    position: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10000,
        description: 'New place among its siblings, from 1 (beyond the last: last); the others follow',
      }),
    ),
    groupLabel: Type.Optional(NullableInput(Type.String({ minLength: 1, maxLength: 200 }))),
    priceBreaks: Type.Optional(
      Type.Array(
        Type.Object(
          {
            quantity: Quantity({
              description: 'A quantity to offer (whole pieces for a brief element): priced like the line',
            }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 6,
          description:
            'The line’s price-break columns, replacing the current ones (distinct quantities, at most 6; [] removes them). A quantity already offered keeps its column; a new one is priced by the engine (brief element) or at the line’s unit price (article)',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateItemInput = Static<typeof UpdateItemBody>;

export const AddItemsBody = Type.Object(
  { items: Type.Array(ItemInput, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);

export const DeclineBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 2000 })) },
  { additionalProperties: false },
);

export const AcceptBody = Type.Object({}, { additionalProperties: false });

const Localisation = Type.String({
  minLength: 2,
  maxLength: 35,
  description: `Language tag; supported: ${SUPPORTED_LANGUAGES.join(', ')} (a region such as fr-FR uses its language)`,
});

export const GeneratePdfBody = Type.Object({ localisationId: Localisation }, { additionalProperties: false });

export const LocalisationParams = Type.Object({ id: Uuid, localisationId: Localisation });
export const ItemParams = Type.Object({ id: Uuid, itemId: Uuid });
export const LinkParams = Type.Object({ id: Uuid, linkId: Uuid });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 20, maxLength: 100 }) });

export const CreateGuestLinkBody = Type.Object(
  {
    localisationId: Localisation,
    expiresAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'Default: 30 days from now; at most one year ahead' }),
    ),
    proofs: Type.Optional(
      Type.Boolean({
        description:
          'Made for proofs: the guest may also read the artwork proofs and approve them or request changes ' +
          '(/public/quotes/{token}/proofs). Default false: the quote only.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const GuestLinkSchema = Type.Object(
  {
    id: Uuid,
    quoteId: Uuid,
    localisationId: Type.String(),
    expiresAt: DateTime,
    revokedAt: Nullable(DateTime),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    active: Type.Boolean({ description: 'Neither revoked nor expired' }),
    proofs: Type.Boolean({ description: 'Made for proofs: its guest may decide on artwork proofs' }),
  },
  { $id: 'QuoteGuestLink' },
);

export const CreatedGuestLinkSchema = Type.Object({
  ...GuestLinkSchema.properties,
  token: Type.String({ description: 'Shown once; only its hash is stored' }),
  url: Type.String({ description: 'The public PDF address (no credentials needed)' }),
  pageUrl: Type.String({
    description:
      'The guest page of the link (the web app, in the link’s language): read the quote, download the PDF, accept or decline',
  }),
});

/** The order made from a quote, as the orders module shows it. */
const ConvertedOrderSchema = Type.Object({
  ...OrderSchema.properties,
  items: Type.Array(Type.Object(OrderItemSchema.properties)),
});

export const ConversionSchema = Type.Object({
  quote: Type.Ref('Quote'),
  order: ConvertedOrderSchema,
});

export const ConvertBody = Type.Object(
  {
    customFields: Type.Optional(CustomFieldValues),
  },
  { additionalProperties: false },
);
