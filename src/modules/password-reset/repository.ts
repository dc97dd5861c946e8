import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { organisations, passwordResetTokens, userSessions, users } from '../../db/schema/platform.ts';

/**
 * The live user a reset request names: by username (unique across the service), else by e-mail
 * when exactly one live user has it (an e-mail is unique per organisation only).
 */
export async function findUserForReset(db: Executor, login: string) {
  const wanted = login.trim().toLowerCase();
  const columns = {
    id: users.id,
    organisationId: users.organisationId,
    email: users.email,
    language: users.language,
    firstName: users.firstName,
    lastName: users.lastName,
    organisationName: organisations.name,
  };
  const byUsername = await db
    .select(columns)
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(sql`lower(${users.username}) = ${wanted}`, isNull(users.deletedAt)))
    .limit(1);
  if (byUsername[0]) return byUsername[0];
  const byEmail = await db
    .select(columns)
    .from(users)
    .innerJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(sql`lower(${users.email}) = ${wanted}`, isNull(users.deletedAt)))
    .limit(2);
  return byEmail.length === 1 ? byEmail[0] : undefined;
}

export async function insertResetToken(
  db: Executor,
  row: { organisationId: string; userId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(passwordResetTokens).values(row);
}

/** Takes a live, unused, unexpired token (locked): undefined when there is none. */
export async function takeResetToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ id: passwordResetTokens.id, userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    )
    .for('update', { of: passwordResetTokens })
    .limit(1);
  return row;
}

/**
 * The new password: it replaces the hash, revokes the user's bearer tokens (token version), ends
 * their browser sessions, and spends every outstanding reset token of the user.
 */
export async function applyNewPassword(db: Executor, userId: string, passwordHash: string) {
  const now = new Date();
  await db
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
    .where(eq(users.id, userId));
  await db
    .update(userSessions)
    .set({ endedAt: now })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt)));
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
