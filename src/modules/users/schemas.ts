import { type Static, Type } from '@sinclair/typebox';
import { ROLES } from '../../db/schema/platform.ts';
import {
  type Alias,
  registerOutputAliases,
  withInputAliases,
  withOutputAliases,
} from '../../platform/hipe.ts';
import {
  CustomFieldValues,
  DateTime,
  Nullable,
  NullableInput,
  StringEnum,
  Uuid,
} from '../../platform/schemas.ts';

export const RoleSchema = StringEnum(ROLES, { description: 'User role' });

export const userProperties = {
  id: Uuid,
  organisationId: Uuid,
  role: RoleSchema,
  username: Nullable(
    Type.String({ description: 'Sign-in name: the e-mail in lower case; null if the user cannot sign in' }),
  ),
  email: Nullable(Type.String()),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  mobilePhone: Nullable(Type.String()),
  jobTitle: Nullable(Type.String()),
  language: Nullable(Type.String()),
  externalId: Nullable(Type.String()),
  customFields: CustomFieldValues,
  lastSignInAt: Nullable(DateTime),
  createdById: Nullable(Uuid),
  createdAt: DateTime,
  updatedAt: DateTime,
  deletedAt: Nullable(DateTime),
};

/** HIPE's names of user and contact properties. */
export const USER_ALIASES: readonly Alias[] = registerOutputAliases([{ alias: 'job', of: 'jobTitle' }]);
/** PATCH /users/{id}: HIPE's `collaborationIds` are the linked companies. */
export const USER_UPDATE_ALIASES: readonly Alias[] = [
  ...USER_ALIASES,
  { alias: 'collaborationIds', of: 'companyIds' },
];

export const UserSchema = Type.Object(
  {
    ...userProperties,
    companyIds: Type.Optional(
      Type.Array(Uuid, {
        description:
          'Linked companies (the companies an external sales user or a contact works with); a company-scoped ' +
          'reader only sees its own companies here',
      }),
    ),
    collaborationIds: Type.Optional(
      Type.Array(Uuid, { description: 'Contacts only: the same as companyIds' }),
    ),
  },
  { $id: 'User' },
);
export const UserSchemaWithAliases = withOutputAliases(UserSchema, USER_ALIASES);

/** Optional text that may be cleared with null. */
const text = (maxLength: number) => Type.Optional(NullableInput(Type.String({ maxLength })));

export const personFields = {
  firstName: text(200),
  lastName: text(200),
  phoneNumber: text(50),
  mobilePhone: text(50),
  jobTitle: text(200),
  language: Type.Optional(
    NullableInput(
      Type.String({
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
        maxLength: 35,
        description: 'BCP 47 language tag, e.g. `fr` or `en-GB`',
      }),
    ),
  ),
  externalId: Type.Optional(
    NullableInput(
      Type.String({ minLength: 1, maxLength: 200, description: 'ERP identifier, unique per organisation' }),
    ),
  ),
};

const Email = Type.String({ format: 'email', maxLength: 320 });
export const Password = Type.String({ minLength: 8, maxLength: 1024, description: 'At least 8 characters' });
const CompanyIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: 1000,
  description: 'Linked companies (replaces the set); they scope what external sales users and contacts see',
});

export const CreateUserBody = Type.Object(
  {
    email: Email,
    password: Password,
    role: RoleSchema,
    ...personFields,
    companyIds: Type.Optional(CompanyIds),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = withInputAliases(
  Type.Object(
    {
      email: Type.Optional(Email),
      password: Type.Optional(Password),
      role: Type.Optional(RoleSchema),
      ...personFields,
      companyIds: Type.Optional(CompanyIds),
      customFields: Type.Optional({
        ...CustomFieldValues,
        description: 'Contacts only (422 for other roles): merged, a key set to null is removed',
      } as typeof CustomFieldValues),
    },
    { additionalProperties: false, description: 'Only the properties sent change' },
  ),
  USER_UPDATE_ALIASES,
);

type Role = (typeof ROLES)[number];
export type CreateUser = Omit<Static<typeof CreateUserBody>, 'role'> & { role: Role };
export type UpdateUser = Omit<Static<typeof UpdateUserBody>, 'role' | 'customFields'> & {
  role?: Role;
  customFields?: Record<string, unknown>;
};
