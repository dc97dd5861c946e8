import { type Static, Type } from '@sinclair/typebox';
import { INCOTERMS, TERMS_LANGUAGES } from '../../db/schema/organisation-settings.ts';
import { DateTime, Nullable, NullableInput, StringEnum, Uuid } from '../../platform/schemas.ts';

export const IncotermSchema = StringEnum(INCOTERMS, { description: 'Incoterms 2020 rule' });

const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });

const AddressOut = Type.Object({
  street1: Type.String(),
  street2: Nullable(Type.String()),
  postcode: Nullable(Type.String()),
  city: Type.String(),
  region: Nullable(Type.String()),
  countryCode: Type.String(),
});

const AddressIn = Type.Object(
  {
    street1: Type.String({ minLength: 1, maxLength: 200 }),
    street2: Type.Optional(NullableInput(Type.String({ maxLength: 200 }))),
    postcode: Type.Optional(NullableInput(Type.String({ maxLength: 20 }))),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    region: Type.Optional(NullableInput(Type.String({ maxLength: 100 }))),
    countryCode: CountryCode,
  },
  { additionalProperties: false },
);

const Terms = Type.Object(
  { en: Type.Optional(Type.String()), fr: Type.Optional(Type.String()), de: Type.Optional(Type.String()) },
  {
    description: `Terms and conditions by language (${TERMS_LANGUAGES.join(', ')}), appended to the quote PDF`,
  },
);

const termsText = () => Type.Optional(NullableInput(Type.String({ maxLength: 50_000 })));
const TermsIn = Type.Object(
  { en: termsText(), fr: termsText(), de: termsText() },
  {
    additionalProperties: false,
    description: 'Only the languages sent change; null or blank removes a language',
  },
);

/** An incoterm or null in a request (a StringEnum made nullable needs null in its enum too). */
export const NullableIncoterm = Type.Unsafe<(typeof INCOTERMS)[number] | null>({
  type: ['string', 'null'],
  enum: [...INCOTERMS, null],
  description: 'Incoterms 2020 rule, or null',
});

const VatRate = Type.Number({ minimum: 0, maximum: 100, description: 'Percent, e.g. 20 or 5.5' });

export const LogoSchema = Type.Object({
  id: Uuid,
  filename: Type.String(),
  mimeType: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  url: Type.String({ description: 'Download path (GET, staff)' }),
});

export const OrganisationSettingsSchema = Type.Object(
  {
    organisationId: Uuid,
    name: Type.String({
      description: 'The organisation’s name in the service (not printed when a legal name is set)',
    }),
    legalName: Nullable(Type.String()),
    tradingName: Nullable(Type.String()),
    logo: Nullable(LogoSchema),
    registeredAddress: Nullable(AddressOut),
    invoiceAddress: Nullable(AddressOut),
    email: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
    website: Nullable(Type.String()),
    vatNumber: Nullable(Type.String()),
    registrationNumber: Nullable(Type.String()),
    bankName: Nullable(Type.String()),
    accountHolder: Nullable(Type.String()),
    iban: Nullable(Type.String({ description: 'Electronic format (no spaces)' })),
    bic: Nullable(Type.String()),
    paymentTerms: Nullable(Type.String()),
    paymentDays: Nullable(Type.Integer()),
    incoterm: Nullable(IncotermSchema),
    incotermPlace: Nullable(Type.String()),
    deliveryTerms: Nullable(Type.String()),
    termsAndConditions: Terms,
    defaultVatRate: Nullable(VatRate),
    vatRates: Type.Record(Type.String(), Type.Number(), { description: 'Percent by customer country' }),
    pdfFooter: Nullable(Type.String()),
    updatedAt: Nullable(DateTime),
  },
  { $id: 'OrganisationSettings', description: 'The seller’s identity and commercial defaults' },
);

const text = (maxLength: number, description?: string) =>
  Type.Optional(NullableInput(Type.String({ maxLength, ...(description ? { description } : {}) })));

export const UpdateOrganisationSettingsBody = Type.Object(
  {
    legalName: text(200),
    tradingName: text(200),
    registeredAddress: Type.Optional(NullableInput(AddressIn)),
    invoiceAddress: Type.Optional(NullableInput(AddressIn)),
    email: Type.Optional(NullableInput(Type.String({ format: 'email', maxLength: 320 }))),
    phoneNumber: text(50),
    website: text(300),
    vatNumber: text(50, 'EU numbers are checked against their country’s format'),
    registrationNumber: text(100, 'Company registration (SIREN/SIRET, HRB, company number...)'),
    bankName: text(200),
    accountHolder: text(200),
    iban: text(50, 'Checked (country length and mod-97 checksum); stored without spaces'),
    bic: text(20, 'BIC/SWIFT, 8 or 11 characters'),
    paymentTerms: text(500, 'e.g. "30 days net from invoice date"'),
    paymentDays: Type.Optional(NullableInput(Type.Integer({ minimum: 0, maximum: 365 }))),
    incoterm: Type.Optional(NullableIncoterm),
    incotermPlace: text(200, 'The named place of the incoterm, e.g. "Lyon"'),
    deliveryTerms: text(1000),
    termsAndConditions: Type.Optional(TermsIn),
    defaultVatRate: Type.Optional(NullableInput(VatRate)),
    vatRates: Type.Optional(
      Type.Record(Type.String(), VatRate, {
        description: 'Replaces the set: percent by ISO country code of the customer',
        maxProperties: 100,
      }),
    ),
    pdfFooter: text(500),
  },
  { additionalProperties: false, description: 'Only the properties sent change; null clears one' },
);
export type UpdateOrganisationSettings = Static<typeof UpdateOrganisationSettingsBody>;

export const LogoUploadBody = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        nullable: true,
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'A PNG or JPEG image',
          },
        },
        required: ['file'],
      },
    },
  },
};

/** A tenant as POST /organisations answers it (without its first admin): its events deliver it. */
export const OrganisationSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    baseCurrency: Type.String(),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'OrganisationEventEntity', description: 'A tenant' },
);
