import { type Static, Type } from '@sinclair/typebox';
import { ADDRESS_TYPES, type AddressType } from '../../db/schema/organisation-data.ts';
import { countryCodeOf } from '../../platform/countries.ts';
import {
  type Alias,
  type HipeCompat,
  HipeValueError,
  registerOutputAliases,
  withInputAliases,
  withOutputAliases,
} from '../../platform/hipe.ts';
import { DateTime, Nullable, NullableInput, StringEnum, Uuid } from '../../platform/schemas.ts';

/** HIPE's address shape: its names of our properties. */
export const ADDRESS_ALIASES: readonly Alias[] = registerOutputAliases([
  { alias: 'address', of: 'street1' },
  { alias: 'firstComplementaryAddress', of: 'street2' },
  { alias: 'secondComplementaryAddress', of: 'street3' },
  { alias: 'zipCode', of: 'postcode' },
  { alias: 'state', of: 'region' },
  {
    alias: 'country',
    of: 'countryCode',
    input: Type.String({
      minLength: 2,
      maxLength: 100,
      description: 'A country code (any case) or a country name in English or French, e.g. `France`',
    }),
    toOurs: (value) => {
      const code = countryCodeOf(String(value));
      if (!code) throw new HipeValueError(`${String(value)} is not a known country or ISO 3166-1 code`);
      return code;
    },
  },
]);

export const AddressTypeSchema = StringEnum(ADDRESS_TYPES, { description: 'What the address is used for' });

export const AddressSchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      organisationId: Uuid,
      companyId: Uuid,
      type: AddressTypeSchema,
      name: Nullable(Type.String()),
      street1: Type.String(),
      street2: Nullable(Type.String()),
      street3: Nullable(Type.String()),
      postcode: Nullable(Type.String()),
      city: Type.String(),
      region: Nullable(Type.String()),
      countryCode: Type.String(),
      isDefault: Type.Boolean(),
      position: Nullable(Type.Integer()),
      externalId: Nullable(Type.String()),
      createdById: Nullable(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
      deletedAt: Nullable(DateTime),
    },
    { $id: 'Address', description: 'A postal address of a company' },
  ),
  ADDRESS_ALIASES,
);

const addressFields = {
  companyId: Type.String({ format: 'uuid', description: 'A company of the organisation' }),
  type: StringEnum(ADDRESS_TYPES, { description: 'billing, shipping (default) or other' }),
  name: NullableInput(Type.String({ maxLength: 300, description: 'Recipient or site name' })),
  street1: Type.String({ minLength: 1, maxLength: 300 }),
  street2: NullableInput(Type.String({ maxLength: 300 })),
  street3: NullableInput(Type.String({ maxLength: 300 })),
  postcode: NullableInput(Type.String({ maxLength: 20 })),
  city: Type.String({ minLength: 1, maxLength: 200 }),
  region: NullableInput(Type.String({ maxLength: 200 })),
  countryCode: Type.String({
    pattern: '^[A-Z]{2}$',
    description: 'ISO 3166-1 alpha-2 country code in upper case, e.g. FR',
  }),
  isDefault: Type.Boolean({
    description: 'The company’s default address of this type; setting it clears the previous default',
  }),
  position: NullableInput(
    Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Order among the company’s addresses' }),
  ),
  externalId: NullableInput(
    Type.String({ minLength: 1, maxLength: 200, description: 'Identifier in another system' }),
  ),
};

export const CreateAddressBody = withInputAliases(
  Type.Object(
    {
      companyId: addressFields.companyId,
      type: Type.Optional(addressFields.type),
      name: Type.Optional(addressFields.name),
      street1: addressFields.street1,
      street2: Type.Optional(addressFields.street2),
      street3: Type.Optional(addressFields.street3),
      postcode: Type.Optional(addressFields.postcode),
      city: addressFields.city,
      region: Type.Optional(addressFields.region),
      countryCode: addressFields.countryCode,
      isDefault: Type.Optional(addressFields.isDefault),
      position: Type.Optional(addressFields.position),
      externalId: Type.Optional(addressFields.externalId),
    },
    { additionalProperties: false },
  ),
  ADDRESS_ALIASES,
);

/** Create: street1 (address), city and countryCode (country) are required, under either name. */
export const ADDRESS_CREATE_HIPE: HipeCompat = { aliases: ADDRESS_ALIASES };
export const ADDRESS_UPDATE_HIPE: HipeCompat = { aliases: ADDRESS_ALIASES };

export const BulkCreateAddressesBody = Type.Object(
  {
    bulk: Type.Array(CreateAddressBody, {
      minItems: 1,
      maxItems: 1000,
      description: 'The addresses to create, all or none (HIPE client’s bulk creation)',
    }),
  },
  { additionalProperties: false },
);

export const UpdateAddressBody = withInputAliases(
  Type.Object(
    {
      companyId: Type.Optional(addressFields.companyId),
      type: Type.Optional(addressFields.type),
      name: Type.Optional(addressFields.name),
      street1: Type.Optional(addressFields.street1),
      street2: Type.Optional(addressFields.street2),
      street3: Type.Optional(addressFields.street3),
      postcode: Type.Optional(addressFields.postcode),
      city: Type.Optional(addressFields.city),
      region: Type.Optional(addressFields.region),
      countryCode: Type.Optional(addressFields.countryCode),
      isDefault: Type.Optional(addressFields.isDefault),
      position: Type.Optional(addressFields.position),
      externalId: Type.Optional(addressFields.externalId),
    },
    { additionalProperties: false, description: 'Only the properties sent change' },
  ),
  ADDRESS_ALIASES,
);

export type CreateAddress = Omit<Static<typeof CreateAddressBody>, 'type'> & { type?: AddressType };
export type UpdateAddress = Omit<Static<typeof UpdateAddressBody>, 'type'> & { type?: AddressType };
