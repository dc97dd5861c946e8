import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accessTokens, users } from '../../db/schema/platform.ts';

/** The token columns anyone may see: never its hash. */
const publicTokenColumns = {
  id: accessTokens.id,
  userId: accessTokens.userId,
  name: accessTokens.name,
  prefix: accessTokens.prefix,
  createdAt: accessTokens.createdAt,
  lastUsedAt: accessTokens.lastUsedAt,
  expiresAt: accessTokens.expiresAt,
  revokedAt: accessTokens.revokedAt,
};

/** A live user of the organisation, with the role that decides who may manage their tokens. */
export async function findLiveUserRole(db: Executor, organisationId: string, userId: string) {
  const [row] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organisationId, organisationId), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** The live user signing in with this username, compared case-insensitively, with their password hash. */
export async function findSignInUser(db: Executor, username: string) {
  const [row] = await db
    .select({
      id: users.id,
      organisationId: users.organisationId,
      role: users.role,
      tokenVersion: users.tokenVersion,
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(and(sql`lower(${users.username}) = ${username.toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
  return row;
}

export async function markSignedIn(db: Executor, userId: string) {
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, userId));
}

export async function insertAccessToken(db: Executor, values: typeof accessTokens.$inferInsert) {
  const [row] = await db.insert(accessTokens).values(values).returning(publicTokenColumns);
  return row!;
}

/** The user's tokens, newest first, revoked and expired ones included. */
export async function listUserAccessTokens(db: Executor, userId: string) {
  return db
    .select(publicTokenColumns)
    .from(accessTokens)
    .where(eq(accessTokens.userId, userId))
    .orderBy(desc(accessTokens.createdAt));
}

/** Revokes the user's token unless already revoked; undefined when there is no such live token. */
export async function revokeUserAccessToken(db: Executor, userId: string, tokenId: string) {
  const [row] = await db
    .update(accessTokens)
    .set({ revokedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .returning(publicTokenColumns);
  return row;
}
