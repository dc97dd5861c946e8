import { type Static, Type } from '@sinclair/typebox';
import { ADDRESS_TYPES, type AddressType } from '../../db/schema/organisation-data.ts';
import { DateTime, Nullable, NullableInput, StringEnum, Uuid } from '../../platform/schemas.ts';

export const AddressTypeSchema = StringEnum(ADDRESS_TYPES, { description: 'What the address is used for' });

export const AddressSchema = Type.Object(
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
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: Nullable(DateTime),
  },
  { $id: 'Address', description: 'A postal address of a company' },
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
};

export const CreateAddressBody = Type.Object(
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
  },
  { additionalProperties: false },
);

export const UpdateAddressBody = Type.Object(
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
  },
  { additionalProperties: false, description: 'Only the properties sent change' },
);

export type CreateAddress = Omit<Static<typeof CreateAddressBody>, 'type'> & { type?: AddressType };
export type UpdateAddress = Omit<Static<typeof UpdateAddressBody>, 'type'> & { type?: AddressType };
