import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/client.ts';
import { accessTokens, type Role, userSessions, users } from '../db/schema/platform.ts';
import type { Actor } from './actor.ts';
import { AppError, unauthorized } from './errors.ts';

const ISSUER = 'packaging-quote-service';
const AUDIENCE = 'api';

export type TokenSigner = {
  sign(
    user: {
      id: string;
      organisationId: string;
      role: Role;
      tokenVersion: number;
    },
    /** The browser session the token belongs to (claim `sid`; user_sessions), if any. */
    sessionId?: string,
    /** The token's lifetime; the signer's default (JWT_EXPIRES_IN) otherwise. */
    lifetimeSeconds?: number,
  ): Promise<{ token: string; expiresAt: Date }>;
  /**
   * The token's user, the token version it was signed with (`ver`; 0 for tokens without it) and
   * its browser session (`sid`), if any.
   */
  verify(token: string): Promise<VerifiedToken>;
};

export type VerifiedToken = { userId: string; version: number; sessionId?: string };

/** Verified bearer tokens kept in memory (a user's client sends the same token for its whole life). */
const VERIFIED_CACHE_SIZE = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createTokenSigner(secret: string, expiresInSeconds: number): TokenSigner {
  const key = new TextEncoder().encode(secret);
  // jose verifies HS256 through WebCrypto: about 200 µs a token on the benchmark machine, a third
  // of an authenticated read. A token that verified once is taken again from here until it
  // expires (checked on every hit); only tokens that passed verification are ever kept, and the
  // oldest entry goes when the map is full.
  // The cache keeps what the signature proves (subject, version, expiry); whether the version is
  // still current is checked against the user row on every request (createAuthenticator).
  const verified = new Map<string, VerifiedToken & { expiresAtMs: number }>();
  const answer = ({ userId, version, sessionId }: VerifiedToken): VerifiedToken =>
    sessionId === undefined ? { userId, version } : { userId, version, sessionId };
  return {
    async sign(user, sessionId, lifetimeSeconds = expiresInSeconds) {
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = new Date((now + lifetimeSeconds) * 1000);
      const claims = { org: user.organisationId, role: user.role, ver: user.tokenVersion };
      const token = await new SignJWT(sessionId === undefined ? claims : { ...claims, sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + lifetimeSeconds)
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAtMs) return answer(known);
        verified.delete(token);
        throw new AppError('token_expired', 'The bearer token has expired');
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          // A token without an expiry would be valid forever (issue 14, defect 9).
          requiredClaims: ['sub', 'exp'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number')
          throw new AppError('invalid_token', 'The bearer token has no subject or expiry');
        const version = payload.ver ?? 0;
        if (typeof version !== 'number' || !Number.isSafeInteger(version))
          throw new AppError('invalid_token', 'The bearer token is not valid');
        const sessionId = payload.sid;
        if (sessionId !== undefined && (typeof sessionId !== 'string' || !UUID.test(sessionId)))
          throw new AppError('invalid_token', 'The bearer token is not valid');
        const result = answer({ userId: payload.sub, version, sessionId });
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
        verified.set(token, { ...result, expiresAtMs: payload.exp * 1000 });
        return result;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired)
          throw new AppError('token_expired', 'The bearer token has expired');
        throw new AppError('invalid_token', 'The bearer token is not valid');
      }
    },
  };
}

export const ACCESS_TOKEN_PREFIX = 'pqs_';

export function newAccessToken(): { token: string; hash: string; prefix: string } {
  const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashAccessToken(token), prefix: token.slice(0, 10) };
}

// Access tokens carry 256 bits of randomness, so a fast hash is enough: a slow password hash would
// cost every request without adding security.
export const hashAccessToken = (token: string) => createHash('sha256').update(token).digest('hex');

// Only company-scoped roles need their links; CASE keeps the subquery from running for the others.
// "users"."id" is written out: drizzle renders ${users.id} unqualified ("id") in a select list, and
// inside the subquery "id" would mean c.id, so no link would ever match.
const companyIdsOf = sql<string[]>`case when ${users.role} in ('external_sales', 'contact') then coalesce(
  (select array_agg(cu.company_id) from company_users cu join companies c on c.id = cu.company_id
   and c.deleted_at is null where cu.user_id = "users"."id"), '{}') else '{}' end`;

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
  mobilePhone: users.mobilePhone,
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

/** The user as the API shows it, loaded with the credential check (with its companies when scoped). */
export const currentUserColumns = { ...userColumns, companyIds: companyIdsOf };

const selectCurrentUser = (db: Db) => db.select(currentUserColumns).from(users);
export type CurrentUser = Awaited<ReturnType<typeof selectCurrentUser>>[number];
export type Authenticated = { actor: Actor; user: CurrentUser };

function toActor(user: CurrentUser, credential: Actor['credential']): Authenticated {
  return {
    actor: {
      userId: user.id,
      organisationId: user.organisationId,
      role: user.role,
      companyIds: user.companyIds,
      credential,
    },
    user,
  };
}

/** Resolves a request's credential to the acting user and its record, in one query. */
export function createAuthenticator(db: Db, signer: TokenSigner) {
  // Writing last_used_at on every call would turn every read into a write; once a minute is enough.
  const lastUsedWrites = new Map<string, number>();

  // Prepared once: every authenticated request runs one of these two statements, so building
  // their SQL per request would be wasted work on the hottest path of the service.
  const userById = db
    .select({ ...currentUserColumns, tokenVersion: users.tokenVersion })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('userId')), isNull(users.deletedAt)))
    .limit(1)
    .prepare('auth_user_by_id');
  // A token of a browser session (claim `sid`) is good only while its session is (issue 23, probe
  // 3): the same one query, with the session row joined.
  const userBySession = db
    .select({
      ...currentUserColumns,
      tokenVersion: users.tokenVersion,
      sessionOpen: sql<boolean>`(${userSessions.id} is not null and ${userSessions.endedAt} is null)`,
    })
    .from(users)
    .leftJoin(
      userSessions,
      and(eq(userSessions.id, sql.placeholder('sessionId')), eq(userSessions.userId, users.id)),
    )
    .where(and(eq(users.id, sql.placeholder('userId')), isNull(users.deletedAt)))
    .limit(1)
    .prepare('auth_user_by_session');
  const userByAccessToken = db
    .select({ ...currentUserColumns, tokenId: accessTokens.id })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(
      and(
        eq(accessTokens.tokenHash, sql.placeholder('hash')),
        isNull(accessTokens.revokedAt),
        or(isNull(accessTokens.expiresAt), gt(accessTokens.expiresAt, sql`now()`)),
        isNull(users.deletedAt),
      ),
    )
    .limit(1)
    .prepare('auth_user_by_access_token');

  async function fromBearer(token: string): Promise<Authenticated> {
    const { userId, version, sessionId } = await signer.verify(token);
    const [row] =
      sessionId === undefined
        ? await userById.execute({ userId })
        : await userBySession.execute({ userId, sessionId });
    if (!row) throw new AppError('invalid_token', 'The user of this token no longer exists');
    const { tokenVersion, ...rest } = row;
    // The password changed after this token was signed: sign in again (issue 14, defect 7).
    if (version !== tokenVersion)
      throw new AppError('token_revoked', 'The bearer token was revoked by a password change; sign in again');
    if (sessionId === undefined) return toActor(rest, 'jwt');
    const { sessionOpen, ...user } = rest as typeof rest & { sessionOpen: boolean };
    if (!sessionOpen)
      throw new AppError('session_ended', 'The session of this token was signed out; sign in again');
    return toActor(user, 'jwt');
  }

  async function fromAccessToken(token: string): Promise<Authenticated> {
    const [row] = await userByAccessToken.execute({ hash: hashAccessToken(token) });
    if (!row) throw new AppError('invalid_access_token', 'The access token is not valid or has been revoked');
    const now = Date.now();
    if ((lastUsedWrites.get(row.tokenId) ?? 0) < now - 60_000) {
      lastUsedWrites.set(row.tokenId, now);
      await db
        .update(accessTokens)
        .set({ lastUsedAt: new Date(now) })
        .where(eq(accessTokens.id, row.tokenId));
    }
    const { tokenId: _tokenId, ...user } = row;
    return toActor(user, 'access_token');
  }

  return {
    async authenticate(headers: Record<string, string | string[] | undefined>): Promise<Authenticated> {
      const accessToken = headers['x-access-token'];
      if (typeof accessToken === 'string' && accessToken) return fromAccessToken(accessToken);
      const authorization = headers.authorization;
      if (typeof authorization === 'string') {
        const match = /^Bearer\s+(\S+)$/i.exec(authorization);
        if (!match) throw new AppError('invalid_token', 'The Authorization header must be "Bearer <token>"');
        return fromBearer(match[1]!);
      }
      throw unauthorized('Send a bearer token (Authorization) or an access token (X-ACCESS-TOKEN)');
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
