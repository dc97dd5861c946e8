import { type Static, Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

const Localisation = Type.String({
  minLength: 2,
  maxLength: 35,
  description:
    'Language of the PDF the buyer was shown (en, fr, de; fr-FR means fr). Default: the guest link’s, else the user’s language, else en',
});
const Sha256 = Type.String({
  pattern: '^[0-9a-fA-F]{64}$',
  description:
    'SHA-256 (hex) of the PDF the client showed; when it differs from the stored PDF of that language the answer is 409 `pdf_hash_mismatch`',
});

const answerFields = {
  localisationId: Type.Optional(Localisation),
  pdfSha256: Type.Optional(Sha256),
};

export const AcceptBody = Type.Object(
  {
    typedName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The name the buyer types as signature (required)',
      }),
    ),
    confirm: Type.Optional(
      Type.Boolean({ description: 'The explicit confirmation ("I accept this quote"): must be true' }),
    ),
    poNumber: Type.Optional(
      Type.String({ maxLength: 100, description: 'The buyer’s purchase order number' }),
    ),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
    option: Type.Optional(
      Type.Object(
        {
          id: Type.Optional(Type.String({ maxLength: 100 })),
          quantity: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
        },
        {
          additionalProperties: false,
          description:
            'The price-break column chosen (docs/quotes.md, "Price breaks"): `id` a column of the quote’s `priceBreakColumns` (or a line’s column id), or `quantity` alone; required when the quote offers two columns or more, refused when it offers none (422 `invalid_price_break_option`). The order made from the quote takes that column',
        },
      ),
    ),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: 254,
        description: 'The signer’s e-mail: required from a guest; a user’s is their account’s',
      }),
    ),
    ...answerFields,
  },
  { additionalProperties: false },
);
export type AcceptInput = Static<typeof AcceptBody>;

export const DeclineBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Why the buyer declines' })),
    typedName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    ...answerFields,
  },
  { additionalProperties: false },
);
export type DeclineInput = Static<typeof DeclineBody>;

export const AcceptanceSchema = Type.Object(
  {
    id: Uuid,
    quoteId: Uuid,
    decision: StringEnum(['accepted', 'declined'] as const),
    userId: Nullable(Uuid),
    guestLinkId: Nullable(Uuid),
    actorRole: Type.String({ description: 'Role of the user who answered, or `guest`' }),
    onBehalf: Type.Boolean({
      description: 'Staff recorded the answer for the buyer without the buyer’s typed name and confirmation',
    }),
    email: Nullable(Type.String()),
    typedName: Nullable(Type.String()),
    confirmed: Type.Boolean(),
    answeredAt: DateTime,
    ip: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    quoteCode: Type.String(),
    quoteVersion: Type.Integer(),
    localisationId: Type.String({ description: 'Language of the PDF shown' }),
    pdfFileId: Nullable(Uuid),
    pdfSha256: Type.String({ description: 'SHA-256 (hex) of the exact PDF shown' }),
    pdfHashFromClient: Type.Boolean({
      description: 'The client sent the hash of the PDF it showed (and it matched)',
    }),
    poNumber: Nullable(Type.String()),
    comment: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    option: Nullable(Type.Object({}, { additionalProperties: true })),
    signedPdfUrl: Nullable(
      Type.String({
        description: 'Download path of the PAdES signed PDF (accepted quotes); made on first download',
      }),
    ),
  },
  { $id: 'QuoteAcceptance' },
);

export const GuestQuoteSchema = Type.Object(
  {
    quote: Type.Object({
      id: Uuid,
      code: Nullable(Type.String()),
      name: Type.String(),
      state: Type.String(),
      version: Type.Integer(),
      currency: Type.String(),
      totalPrice: Type.Number(),
      validUntil: Nullable(DateTime),
      companyName: Type.String(),
      organisationName: Type.String(),
      priceBreakColumns: Type.Array(
        Type.Object({
          id: Type.String({ description: 'What `option.id` of the accept names' }),
          position: Type.Integer(),
          quantity: Nullable(Type.Number()),
          totalPrice: Type.Number(),
          toolingCost: Type.Number(),
          deliveryCost: Type.Number(),
        }),
        {
          description:
            'The price-break columns to choose from when accepting (docs/quotes.md, "Price breaks"); empty without',
        },
      ),
    }),
    seller: Type.Object(
      {
        name: Type.String(),
        logoUrl: Nullable(Type.String({ description: 'The link’s own logo route; null without a logo' })),
        // The contact details of the organisation settings (absent when the organisation has no
        // settings record: then its name only).
        email: Type.Optional(Nullable(Type.String())),
        phoneNumber: Type.Optional(Nullable(Type.String())),
        website: Type.Optional(Nullable(Type.String())),
      },
      { additionalProperties: false, description: 'The seller’s brand (name, logo, contact details)' },
    ),
    lines: Type.Array(
      Type.Object({
        reference: Nullable(Type.String()),
        name: Type.String(),
        quantity: Type.Number(),
        unitPrice: Nullable(Type.Number()),
        totalPrice: Nullable(Type.Number()),
      }),
      { description: 'The quote’s top lines as the PDF prints them (no cost or margin)' },
    ),
    localisationId: Type.String(),
    pdfUrl: Type.String({ description: 'The PDF the guest is shown (the link’s own public PDF route)' }),
    pdfSha256: Nullable(Type.String({ description: 'Its SHA-256, to send back with the answer' })),
    acceptance: Nullable(Type.Ref('QuoteAcceptance')),
  },
  { $id: 'GuestQuote' },
);
