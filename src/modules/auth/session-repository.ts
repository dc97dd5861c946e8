/** The statements of sliding browser sessions (sessions.ts) on `user_sessions` and their refresh tokens. */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.ts';
import { sessionRefreshTokens, userSessions, users } from '../../db/schema/platform.ts';

/** Deletes the user's sessions that can no longer be refreshed (their refresh tokens go with them). */
export async function deleteExpiredSessions(tx: Executor, userId: string) {
  await tx
    .delete(userSessions)
    .where(and(eq(userSessions.userId, userId), lt(userSessions.expiresAt, sql`now()`)));
}

export async function insertSession(tx: Executor, values: typeof userSessions.$inferInsert) {
  await tx.insert(userSessions).values(values);
}

/** Stores a refresh token of the session, by its hash. */
export async function insertRefreshToken(tx: Executor, sessionId: string, tokenHash: string) {
  await tx.insert(sessionRefreshTokens).values({ id: uuidv7(), sessionId, tokenHash });
}

/** The session of a refresh token (by its hash), in any state; undefined for an unknown token. */
export async function sessionIdOfRefreshToken(db: Executor, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ sessionId: sessionRefreshTokens.sessionId })
    .from(sessionRefreshTokens)
    .where(eq(sessionRefreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row?.sessionId;
}

/** A refresh token (by its hash), locked for the rest of the transaction, with how long ago it was used. */
export async function lockRefreshToken(tx: Executor, tokenHash: string) {
  const [row] = await tx
    .select({
      id: sessionRefreshTokens.id,
      sessionId: sessionRefreshTokens.sessionId,
      usedAt: sessionRefreshTokens.usedAt,
      usedSecondsAgo: sql<
        number | null
      >`extract(epoch from (now() - ${sessionRefreshTokens.usedAt}))::float8`,
    })
    .from(sessionRefreshTokens)
    .where(eq(sessionRefreshTokens.tokenHash, tokenHash))
    .for('update')
    .limit(1);
  return row;
}

/** A session with its user, the session row locked for the rest of the transaction. */
export async function lockSessionWithUser(tx: Executor, sessionId: string) {
  const [session] = await tx
    .select({
      id: userSessions.id,
      endedAt: userSessions.endedAt,
      expired: sql<boolean>`${userSessions.expiresAt} <= now()`,
      maxExpiresAt: userSessions.maxExpiresAt,
      expiresAt: userSessions.expiresAt,
      sessionVersion: userSessions.tokenVersion,
      userId: users.id,
      organisationId: users.organisationId,
      role: users.role,
      tokenVersion: users.tokenVersion,
      userDeleted: sql<boolean>`${users.deletedAt} is not null`,
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(eq(userSessions.id, sessionId))
    .for('update', { of: userSessions })
    .limit(1);
  return session;
}

/** Ends a session now because one of its refresh tokens came back after use. */
export async function endReusedSession(tx: Executor, sessionId: string) {
  await tx
    .update(userSessions)
    .set({ endedAt: sql`now()`, endReason: 'refresh_reused' })
    .where(eq(userSessions.id, sessionId));
}

export async function markRefreshTokenUsed(tx: Executor, tokenId: string) {
  await tx
    .update(sessionRefreshTokens)
    .set({ usedAt: sql`now()` })
    .where(eq(sessionRefreshTokens.id, tokenId));
}

/** Moves the session's idle limit to `expiresAt` unless it is already later. */
export async function extendSession(tx: Executor, sessionId: string, expiresAt: Date) {
  await tx
    .update(userSessions)
    .set({ expiresAt: sql`greatest(${userSessions.expiresAt}, ${expiresAt})` })
    .where(eq(userSessions.id, sessionId));
}

/** Signs a session out unless it already ended (only the user's own when `userId` is given). */
export async function endSignedOutSession(db: Executor, sessionId: string, userId: string | undefined) {
  await db
    .update(userSessions)
    .set({ endedAt: sql`now()`, endReason: 'signed_out' })
    .where(
      and(
        eq(userSessions.id, sessionId),
        ...(userId ? [eq(userSessions.userId, userId)] : []),
        isNull(userSessions.endedAt),
      ),
    );
}
