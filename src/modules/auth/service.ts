import type { AppContext } from '../../context.ts';
import type { Actor } from '../../platform/actor.ts';
import { newAccessToken } from '../../platform/auth.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { entity } from '../../platform/events.ts';
import { verifyDecoy, verifyPassword } from '../../platform/passwords.ts';
import { mayActFor } from '../../platform/permissions.ts';
import {
  findLiveUserRole,
  findSignInUser,
  insertAccessToken,
  listUserAccessTokens,
  markSignedIn,
  revokeUserAccessToken,
} from './repository.ts';
import type { SessionService } from './sessions.ts';
import { createSignInThrottle } from './throttle.ts';

export const ACCESS_TOKEN_ENTITY = entity('ACCESS_TOKEN', 'access_tokens');

export function createAuthService(
  ctx: Pick<AppContext, 'db' | 'change' | 'config' | 'signer'>,
  /** The auth module's session service (sign-in opens a session with it). */
  { sessions }: { sessions: SessionService },
) {
  const { db } = ctx;
  const throttle = createSignInThrottle(db, ctx.config.signInThrottle);

  /**
   * The user whose tokens are managed: oneself; for an admin, a user of the organisation below admin;
   * for a superadmin, any user of the organisation (the role hierarchy, platform/permissions.ts).
   */
  async function tokenOwner(actor: Actor, userId: string) {
    const owner = await findLiveUserRole(db, actor.organisationId, userId);
    if (!owner) throw notFound('User');
    if (!mayActFor(actor, owner)) {
      throw forbidden(
        actor.role === 'admin'
          ? 'An admin manages the access tokens of users below admin only'
          : 'Only admins manage the access tokens of other users',
      );
    }
    return owner;
  }

  /** The user whose username and password these are; 401, or 429 when throttled. */
  async function checkCredentials(username: string, password: string, address: string) {
    // Counted before the password is checked, so concurrent attempts (on any node) cannot all
    // slip under the limit; 429 without checking anything once it is reached (issue 23, probe 3).
    const reservation = await throttle.reserve(username, address);
    const user = await findSignInUser(db, username);
    const valid = user?.passwordHash
      ? await verifyPassword(user.passwordHash, password)
      : await verifyDecoy(password);
    // A failure keeps its reservation: it is the recorded failure.
    if (!user || !valid) throw new AppError('invalid_credentials', 'Unknown username or wrong password');
    await throttle.succeeded(reservation);
    await markSignedIn(db, user.id);
    return user;
  }

  return {
    /** A bearer token (JWT) of no session: it lasts until it expires or the password changes. */
    async signIn(username: string, password: string, address: string) {
      return ctx.signer.sign(await checkCredentials(username, password, address));
    },

    /**
     * A browser session (POST /api/session, sessions.ts): one per sign-in, so signing out one
     * browser leaves the user's other sessions and bearer tokens alone.
     */
    async openSession(username: string, password: string, address: string) {
      return sessions.open(await checkCredentials(username, password, address));
    },

    async createAccessToken(actor: Actor, userId: string, input: { name: string; expiresAt?: string }) {
      const owner = await tokenOwner(actor, userId);
      if (input.expiresAt && new Date(input.expiresAt).getTime() <= Date.now()) {
        throw new AppError('already_expired', 'The access token would already have expired', {
          issues: [{ pointer: '/expiresAt', message: 'must be in the future', in: 'body' }],
        });
      }
      const { token, hash, prefix } = newAccessToken();
      const created = await ctx.change(actor, async (tx, record) => {
        const row = await insertAccessToken(tx, {
          organisationId: actor.organisationId,
          userId: owner.id,
          name: input.name,
          tokenHash: hash,
          prefix,
          createdById: actor.userId,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        });
        await record({ on: ACCESS_TOKEN_ENTITY, type: 'CREATE', entityId: row.id, snapshot: row });
        return row;
      });
      return { ...created, token };
    },

    async listAccessTokens(actor: Actor, userId: string) {
      const owner = await tokenOwner(actor, userId);
      return listUserAccessTokens(db, owner.id);
    },

    async revokeAccessToken(actor: Actor, userId: string, tokenId: string) {
      const owner = await tokenOwner(actor, userId);
      return ctx.change(actor, async (tx, record) => {
        const row = await revokeUserAccessToken(tx, owner.id, tokenId);
        if (!row) throw notFound('Access token');
        await record({ on: ACCESS_TOKEN_ENTITY, type: 'DELETE', entityId: row.id, snapshot: row });
        return row;
      });
    },
  };
}
