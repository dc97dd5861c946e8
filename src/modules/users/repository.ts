import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';
import { entity } from '../../platform/events.ts';

export const USER_ENTITY = entity('USER', 'users');

/** The columns of a user that the API shows; never the password hash. */
export const userColumns = {
  id: users.id,
  organisationId: users.organisationId,
  role: users.role,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phoneNumber: users.phoneNumber,
  jobTitle: users.jobTitle,
  language: users.language,
  externalId: users.externalId,
  customFields: users.customFields,
  lastSignInAt: users.lastSignInAt,
  createdById: users.createdById,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  deletedAt: users.deletedAt,
};

export async function findUser(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.organisationId, organisationId), isNull(users.deletedAt)))
    .limit(1);
  return row;
}
