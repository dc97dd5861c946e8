import { type Static, Type } from '@sinclair/typebox';
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
  Nullable,
  NullableInput,
  Uuid,
  type WithCustomFields,
} from '../../platform/schemas.ts';

/** HIPE's names of company properties. */
export const COMPANY_ALIASES: readonly Alias[] = registerOutputAliases([
  { alias: 'phone', of: 'phoneNumber' },
  { alias: 'vat', of: 'vatNumber' },
]);

const CollaboratorIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: 100,
  description: 'Users of the organisation (not contacts) who collaborate on the account (replaces the set)',
});

export const CompanySchema = withOutputAliases(
  Type.Object(
    {
      id: Uuid,
      organisationId: Uuid,
      name: Type.String(),
      externalId: Nullable(
        Type.String({ description: 'Identifier in the client’s ERP, unique per organisation' }),
      ),
      parentId: Nullable(Uuid),
      email: Nullable(Type.String()),
      phoneNumber: Nullable(Type.String()),
      website: Nullable(Type.String()),
      vatNumber: Nullable(Type.String()),
      vatExempt: Type.Boolean({ description: 'Sales to the company carry no VAT (its quotes say why)' }),
      vatExemptionReason: Nullable(Type.String()),
      managedById: Nullable(Uuid),
      collaboratorIds: Type.Array(Uuid),
      currencyId: Nullable(Uuid),
      customFields: CustomFieldValues,
      enabled: Type.Boolean(),
      createdById: Nullable(Uuid),
      createdAt: DateTime,
      updatedAt: DateTime,
      deletedAt: Nullable(DateTime),
    },
    { $id: 'Company', description: 'A client company; `parentId` places it in a hierarchy' },
  ),
  COMPANY_ALIASES,
);

const companyFields = {
  name: Type.String({ minLength: 1, maxLength: 300 }),
  externalId: NullableInput(
    Type.String({ minLength: 1, maxLength: 200, description: 'ERP identifier, unique per organisation' }),
  ),
  parentId: NullableInput(Type.String({ format: 'uuid', description: 'Parent company (same organisation)' })),
  email: NullableInput(Type.String({ format: 'email', maxLength: 320 })),
  phoneNumber: NullableInput(Type.String({ maxLength: 50 })),
  website: NullableInput(Type.String({ maxLength: 500 })),
  vatNumber: NullableInput(
    Type.String({
      maxLength: 50,
      description:
        'A number with an EU prefix (FR, DE, EL...) must have that country’s format and is stored normalised (FR40303265045); others are kept as typed',
    }),
  ),
  vatExempt: Type.Boolean({ description: 'Default false; true needs a vatExemptionReason' }),
  vatExemptionReason: NullableInput(
    Type.String({ maxLength: 500, description: 'Printed on the quotes, e.g. the exemption’s legal basis' }),
  ),
  managedById: NullableInput(
    Type.String({
      format: 'uuid',
      description: 'The user of the organisation (not a contact) managing the account',
    }),
  ),
  collaboratorIds: CollaboratorIds,
  currencyId: NullableInput(Type.String({ format: 'uuid', description: 'A currency of the organisation' })),
  createdAt: Type.String({
    ...DateTimeInput,
    description: 'When the company was created, for records brought from another system (default: now)',
  }),
  customFields: CustomFieldValues,
  enabled: Type.Boolean({ description: 'Default true' }),
};

export const CreateCompanyBody = withInputAliases(
  Type.Object(
    {
      name: companyFields.name,
      externalId: Type.Optional(companyFields.externalId),
      parentId: Type.Optional(companyFields.parentId),
      email: Type.Optional(companyFields.email),
      phoneNumber: Type.Optional(companyFields.phoneNumber),
      website: Type.Optional(companyFields.website),
      vatNumber: Type.Optional(companyFields.vatNumber),
      vatExempt: Type.Optional(companyFields.vatExempt),
      vatExemptionReason: Type.Optional(companyFields.vatExemptionReason),
      managedById: Type.Optional(companyFields.managedById),
      collaboratorIds: Type.Optional(companyFields.collaboratorIds),
      currencyId: Type.Optional(companyFields.currencyId),
      createdAt: Type.Optional(companyFields.createdAt),
      customFields: Type.Optional(companyFields.customFields),
      enabled: Type.Optional(companyFields.enabled),
    },
    { additionalProperties: false },
  ),
  COMPANY_ALIASES,
);
export type CreateCompany = WithCustomFields<Static<typeof CreateCompanyBody>>;

export const UpdateCompanyBody = withInputAliases(
  Type.Object(
    {
      name: Type.Optional(companyFields.name),
      externalId: Type.Optional(companyFields.externalId),
      parentId: Type.Optional(companyFields.parentId),
      email: Type.Optional(companyFields.email),
      phoneNumber: Type.Optional(companyFields.phoneNumber),
      website: Type.Optional(companyFields.website),
      vatNumber: Type.Optional(companyFields.vatNumber),
      vatExempt: Type.Optional(companyFields.vatExempt),
      vatExemptionReason: Type.Optional(companyFields.vatExemptionReason),
      managedById: Type.Optional(companyFields.managedById),
      collaboratorIds: Type.Optional(companyFields.collaboratorIds),
      currencyId: Type.Optional(companyFields.currencyId),
      createdAt: Type.Optional(companyFields.createdAt),
      customFields: Type.Optional(companyFields.customFields),
      enabled: Type.Optional(companyFields.enabled),
    },
    {
      additionalProperties: false,
      description:
        'Only the properties sent change; `customFields` are merged (a key set to null is removed)',
    },
  ),
  COMPANY_ALIASES,
);
export type UpdateCompany = WithCustomFields<Static<typeof UpdateCompanyBody>>;

export const COMPANY_SORT_FIELDS = ['name', 'externalId', 'createdAt', 'updatedAt'] as const;
