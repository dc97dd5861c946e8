import { Type } from '@sinclair/typebox';
import { ROLES } from '../../db/schema/platform.ts';
import { CustomFieldValues, DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

export const RoleSchema = StringEnum(ROLES, { description: 'User role' });

export const UserSchema = Type.Object(
  {
    id: Uuid,
    organisationId: Uuid,
    role: RoleSchema,
    username: Nullable(Type.String()),
    email: Nullable(Type.String()),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
    jobTitle: Nullable(Type.String()),
    language: Nullable(Type.String()),
    externalId: Nullable(Type.String()),
    customFields: CustomFieldValues,
    companyIds: Type.Optional(Type.Array(Uuid, { description: 'Linked companies (collaborations)' })),
    lastSignInAt: Nullable(DateTime),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: Nullable(DateTime),
  },
  { $id: 'User' },
);
