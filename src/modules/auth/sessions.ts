import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import type { users } from '../../db/schema/platform.ts';
import { hashAccessToken } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import {
  deleteExpiredSessions,
  endReusedSession,
  endSignedOutSession,
  extendSession,
  insertRefreshToken,
  insertSession,
  lockRefreshToken,
  lockSessionWithUser,
  markRefreshTokenUsed,
  sessionIdOfRefreshToken,
} from './session-repository.ts';

/**
 * Sliding browser sessions (docs/web.md "Sessions", docs/security.md "Sliding sessions"):
 *
 * - sign-in opens a session (user_sessions) and answers a short access token (a JWT with the
 *   session's id, claim `sid`, SESSION_ACCESS_EXPIRES_IN) and a refresh token (256 random bits,
 *   httpOnly cookie, stored as a hash in session_refresh_tokens);
 * - POST /api/session/refresh, while the user is active, trades the current refresh token for a new
 *   one (rotation) and a new access token, and moves the session's idle limit
 *   (SESSION_IDLE_EXPIRES_IN) forward, never past its absolute limit (SESSION_MAX_EXPIRES_IN);
 * - a refresh token that was already rotated and comes back more than
 *   SESSION_REFRESH_REUSE_GRACE seconds later is taken as stolen: the whole session ends (its
 *   access tokens too, on every node: the authenticator joins the session row), 401
 *   `refresh_token_reused`. Within the grace (two tabs refreshing at once) it answers a new access
 *   token and no new refresh token: the browser keeps the one the other answer set;
 * - a signed-out, reused or expired session stays ended: every later refresh answers 401.
 *
 * Everything is in the database, so any node serves any step.
 */
export type SessionTokens = {
  sessionId: string;
  token: string;
  expiresAt: Date;
  /** A new refresh token; absent when a refresh within the reuse grace answered an access token only. */
  refreshToken?: string;
  /** Until when the session can be refreshed (its idle limit, or its absolute limit if sooner). */
  sessionExpiresAt: Date;
};

type SessionUser = {
  id: string;
  organisationId: string;
  role: typeof users.$inferSelect.role;
  tokenVersion: number;
};

const newRefreshToken = () => `pqr_${randomBytes(32).toString('base64url')}`;

export function createSessionService(ctx: Pick<AppContext, 'db' | 'config' | 'signer'>) {
  const { db } = ctx;
  const lifetimes = ctx.config.sessions;

  const idleLimit = (now: Date, max: Date | null) => {
    const idle = new Date(now.getTime() + lifetimes.idleSeconds * 1000);
    return max && max < idle ? max : idle;
  };

  async function accessToken(user: SessionUser, sessionId: string, sessionExpiresAt: Date) {
    // An access token never outlives the session it belongs to.
    const remaining = Math.floor((sessionExpiresAt.getTime() - Date.now()) / 1000);
    const lifetime = Math.max(1, Math.min(lifetimes.accessSeconds, remaining));
    return ctx.signer.sign(user, sessionId, lifetime);
  }

  return {
    async open(user: SessionUser): Promise<SessionTokens> {
      const sessionId = uuidv7();
      const now = new Date();
      const maxExpiresAt = new Date(now.getTime() + lifetimes.maxSeconds * 1000);
      const sessionExpiresAt = idleLimit(now, maxExpiresAt);
      const refreshToken = newRefreshToken();
      await db.transaction(async (tx) => {
        // The user's sessions that can no longer be refreshed are of no more use (their refresh
        // tokens go with them).
        await deleteExpiredSessions(tx, user.id);
        await insertSession(tx, {
          id: sessionId,
          organisationId: user.organisationId,
          userId: user.id,
          expiresAt: sessionExpiresAt,
          maxExpiresAt,
          tokenVersion: user.tokenVersion,
        });
        await insertRefreshToken(tx, sessionId, hashAccessToken(refreshToken));
      });
      const signed = await accessToken(user, sessionId, sessionExpiresAt);
      return { sessionId, ...signed, refreshToken, sessionExpiresAt };
    },

    /**
     * The session a refresh token belongs to (any state), for the CSRF check before the refresh;
     * undefined for an unknown token.
     */
    async sessionOf(refreshToken: string): Promise<string | undefined> {
      return sessionIdOfRefreshToken(db, hashAccessToken(refreshToken));
    },

    /** Rotation: the next refresh token and a new access token; see the module comment for the 401s. */
    async refresh(refreshToken: string): Promise<SessionTokens> {
      const hash = hashAccessToken(refreshToken);
      const nextToken = newRefreshToken();
      const outcome = await db.transaction(async (tx) => {
        // The token row, locked: two refreshes of one token (any nodes) are serialised here, and
        // exactly one of them finds it unused.
        const row = await lockRefreshToken(tx, hash);
        if (!row) return { kind: 'unknown' as const };
        const session = await lockSessionWithUser(tx, row.sessionId);
        if (!session || session.userDeleted) return { kind: 'unknown' as const };
        // A signed-out (or already reused) session stays ended, whatever token comes back.
        if (session.endedAt) return { kind: 'ended' as const };
        if (row.usedAt) {
          if (
            (row.usedSecondsAgo ?? Number.POSITIVE_INFINITY) <= lifetimes.reuseGraceSeconds &&
            !session.expired
          )
            return { kind: 'grace' as const, session };
          await endReusedSession(tx, session.id);
          return { kind: 'reused' as const };
        }
        if (session.expired) return { kind: 'expired' as const };
        if (session.sessionVersion !== session.tokenVersion) return { kind: 'revoked' as const };
        const sessionExpiresAt = idleLimit(new Date(), session.maxExpiresAt);
        await markRefreshTokenUsed(tx, row.id);
        await insertRefreshToken(tx, session.id, hashAccessToken(nextToken));
        await extendSession(tx, session.id, sessionExpiresAt);
        return { kind: 'rotated' as const, session: { ...session, expiresAt: sessionExpiresAt } };
      });
      switch (outcome.kind) {
        case 'unknown':
          throw new AppError('session_required', 'This refresh token belongs to no session; sign in again');
        case 'ended':
          throw new AppError('session_ended', 'The session was signed out; sign in again');
        case 'reused':
          throw new AppError(
            'refresh_token_reused',
            'This refresh token was already used: the session is ended for safety; sign in again',
          );
        case 'expired':
          throw new AppError(
            'session_expired',
            'The session expired after a time without activity; sign in again',
          );
        case 'revoked':
          throw new AppError(
            'token_revoked',
            'The password changed after the session was opened; sign in again',
          );
      }
      const { session } = outcome;
      const user = {
        id: session.userId,
        organisationId: session.organisationId,
        role: session.role,
        tokenVersion: session.tokenVersion,
      };
      if (outcome.kind === 'grace' && session.sessionVersion !== session.tokenVersion)
        throw new AppError(
          'token_revoked',
          'The password changed after the session was opened; sign in again',
        );
      const signed = await accessToken(user, session.id, session.expiresAt);
      return {
        sessionId: session.id,
        ...signed,
        ...(outcome.kind === 'rotated' ? { refreshToken: nextToken } : {}),
        sessionExpiresAt: session.expiresAt,
      };
    },

    /**
     * Ends a session (sign-out): the one of the refresh token, else the one of a valid access
     * token. A missing, forged or expired credential ends nothing.
     */
    async end(refreshToken: string | undefined, accessToken: string | undefined) {
      let sessionId = refreshToken ? await this.sessionOf(refreshToken) : undefined;
      let userId: string | undefined;
      if (!sessionId && accessToken) {
        const verified = await ctx.signer.verify(accessToken).catch((error: unknown) => {
          if (error instanceof AppError) return undefined;
          throw error;
        });
        sessionId = verified?.sessionId;
        userId = verified?.userId;
      }
      if (!sessionId) return;
      await endSignedOutSession(db, sessionId, userId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
