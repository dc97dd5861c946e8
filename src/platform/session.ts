import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * The browser session of the web app (docs/web.md "Sessions"): beside bearer tokens, a sign-in
 * through POST /api/session also sets
 *
 * - `pqs_session`: the session's short access token (a signed JWT with claim `sid`), httpOnly
 *   (scripts never read it), SameSite=Strict (never sent on a request started by another site),
 *   Secure when the service is reached over https; it expires with the token;
 * - `pqs_refresh`: the session's current refresh token, httpOnly, SameSite=Strict, sent only to
 *   /api/session (refresh and sign-out); it expires with the session's idle limit;
 * - `pqs_csrf`: a token derived from the session's id (HMAC), readable by the app's own scripts;
 *   it lasts as long as the session, so a refresh after the access token expired can send it.
 *
 * A request without Authorization / X-ACCESS-TOKEN is authenticated by the session cookie; when it
 * is not a safe method (GET, HEAD, OPTIONS) it must also carry `X-CSRF-Token` equal to the session's
 * CSRF token (double submit, bound to the session), else 403 `csrf_failed`. Another site can make
 * the browser send a request, but can neither read the cookie nor set that header.
 */
export const SESSION_COOKIE = 'pqs_session';
export const REFRESH_COOKIE = 'pqs_refresh';
export const CSRF_COOKIE = 'pqs_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const REFRESH_PATH = '/api/session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type SessionCookies = ReturnType<typeof createSessionCookies>;

/**
 * What the CSRF token of a session cookie is bound to: the session id of a session's token (so it
 * stays the same across refreshes), else the token itself. Read without verifying the signature:
 * the token is verified by the authenticator right after, and a forged `sid` gains nothing (the
 * CSRF token is an HMAC with the service's secret).
 */
export function csrfBindingOf(token: string): string {
  const payload = token.split('.')[1];
  if (payload) {
    try {
      const { sid } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sid?: unknown };
      if (typeof sid === 'string') return `sid:${sid}`;
    } catch {
      // not a JWT: bound to the token itself
    }
  }
  return token;
}

export function createSessionCookies(secret: string, publicBaseUrl: string) {
  const csrfFor = (binding: string) =>
    createHmac('sha256', secret).update(`csrf:${binding}`).digest('base64url');
  const secure = (request: FastifyRequest) =>
    request.protocol === 'https' || publicBaseUrl.startsWith('https:');

  const checkCsrf = (request: FastifyRequest, binding: string) => {
    const sent = request.headers[CSRF_HEADER];
    const expected = Buffer.from(csrfFor(binding));
    const given = Buffer.from(typeof sent === 'string' ? sent : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(
        'csrf_failed',
        `A request authenticated by the session cookie must send the ${CSRF_HEADER} header (the value of the ${CSRF_COOKIE} cookie)`,
      );
    }
  };

  return {
    /** The CSRF token of a token (its session's, for a session's token). */
    csrfFor: (token: string) => csrfFor(csrfBindingOf(token)),
    csrfForSession: (sessionId: string) => csrfFor(`sid:${sessionId}`),

    /**
     * Sets the cookies of a session's new tokens; returns the CSRF token for the app. Without a
     * refresh token (a refresh within the reuse grace) the browser keeps its refresh cookie.
     */
    set(
      request: FastifyRequest,
      reply: FastifyReply,
      tokens: {
        sessionId: string;
        token: string;
        expiresAt: Date;
        refreshToken?: string;
        sessionExpiresAt: Date;
      },
    ): string {
      const csrfToken = csrfFor(`sid:${tokens.sessionId}`);
      const common = { path: '/', sameSite: 'strict' as const, secure: secure(request) };
      reply.setCookie(SESSION_COOKIE, tokens.token, { ...common, httpOnly: true, expires: tokens.expiresAt });
      if (tokens.refreshToken)
        reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
          ...common,
          path: REFRESH_PATH,
          httpOnly: true,
          expires: tokens.sessionExpiresAt,
        });
      reply.setCookie(CSRF_COOKIE, csrfToken, {
        ...common,
        httpOnly: false,
        expires: tokens.sessionExpiresAt,
      });
      return csrfToken;
    },

    clear(request: FastifyRequest, reply: FastifyReply) {
      const common = { path: '/', sameSite: 'strict' as const, secure: secure(request) };
      reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
      reply.clearCookie(REFRESH_COOKIE, { ...common, path: REFRESH_PATH, httpOnly: true });
      reply.clearCookie(CSRF_COOKIE, common);
    },

    /** The refresh cookie of a request that carries no header credential. */
    refreshTokenOf(request: FastifyRequest): string | undefined {
      if (request.headers.authorization !== undefined || request.headers['x-access-token'] !== undefined)
        return undefined;
      return request.cookies?.[REFRESH_COOKIE] || undefined;
    },

    /** 403 `csrf_failed` unless the request sends the CSRF token of this session. */
    checkSessionCsrf(request: FastifyRequest, sessionId: string) {
      checkCsrf(request, `sid:${sessionId}`);
    },

    /**
     * The session token of a request that carries no other credential, after the CSRF check of
     * unsafe methods; undefined when the request has a header credential or no session cookie.
     */
    credentialOf(request: FastifyRequest): string | undefined {
      if (request.headers.authorization !== undefined || request.headers['x-access-token'] !== undefined)
        return undefined;
      const token = request.cookies?.[SESSION_COOKIE];
      if (!token) return undefined;
      if (!SAFE_METHODS.has(request.method)) checkCsrf(request, csrfBindingOf(token));
      return token;
    },
  };
}
