import { type Static, Type } from '@sinclair/typebox';
import { withInputAliases, withOutputAliases } from '../../platform/hipe.ts';
import { CustomFieldValues, NullableInput, Uuid, type WithCustomFields } from '../../platform/schemas.ts';
import { personFields, USER_ALIASES, userProperties } from '../users/schemas.ts';

export const ContactSchema = withOutputAliases(
  Type.Object(
    {
      ...userProperties,
      companyIds: Type.Array(Uuid, { description: 'The same as collaborationIds' }),
      collaborationIds: Type.Array(Uuid, {
        description: 'Linked companies; a company-scoped reader only sees its own companies here',
      }),
    },
    {
      $id: 'Contact',
      description:
        'A user with role `contact`. Without a password it has no username and cannot sign in; an admin may ' +
        'give it one with POST /api/users/{id}/invite.',
    },
  ),
  USER_ALIASES,
);

const CollaborationIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: 1000,
  description: 'Ids of the linked companies (replaces the set)',
});

const contactFields = {
  email: Type.Optional(
    NullableInput(
      Type.String({
        format: 'email',
        maxLength: 320,
        description: 'Unique among the live users of the organisation (case-insensitive)',
      }),
    ),
  ),
  ...personFields,
  collaborationIds: Type.Optional(CollaborationIds),
  customFields: Type.Optional(CustomFieldValues),
};

export const CreateContactBody = withInputAliases(
  Type.Object(contactFields, { additionalProperties: false }),
  USER_ALIASES,
);
export const UpdateContactBody = withInputAliases(
  Type.Object(contactFields, {
    additionalProperties: false,
    description: 'Only the properties sent change; `customFields` are merged (a key set to null is removed)',
  }),
  USER_ALIASES,
);

export type CreateContact = WithCustomFields<Static<typeof CreateContactBody>>;
export type UpdateContact = WithCustomFields<Static<typeof UpdateContactBody>>;

export const CompanyContactParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Company id' }),
  contactId: Type.String({ format: 'uuid', description: 'Contact id' }),
});
