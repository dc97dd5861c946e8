import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * The browser session of the web app (docs/web.md): beside bearer tokens, a sign-in through
 * POST /api/session also sets
 *
 * - `pqs_session`: the same signed JWT, httpOnly (scripts never read it), SameSite=Strict (never
 *   sent on a request started by another site), Secure when the service is reached over https;
 * - `pqs_csrf`: a token derived from the session (HMAC), readable by the app's own scripts.
 *
 * A request without Authorization / X-ACCESS-TOKEN is authenticated by the session cookie; when it
 * is not a safe method (GET, HEAD, OPTIONS) it must also carry `X-CSRF-Token` equal to the session's
 * CSRF token (double submit, bound to the session), else 403 `csrf_failed`. Another site can make
 * the browser send a request, but can neither read the cookie nor set that header.
 */
export const SESSION_COOKIE = 'pqs_session';
export const CSRF_COOKIE = 'pqs_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type SessionCookies = ReturnType<typeof createSessionCookies>;

export function createSessionCookies(secret: string, publicBaseUrl: string) {
  const csrfFor = (sessionToken: string) =>
    createHmac('sha256', secret).update(`csrf:${sessionToken}`).digest('base64url');
  const secure = (request: FastifyRequest) =>
    request.protocol === 'https' || publicBaseUrl.startsWith('https:');

  return {
    csrfFor,

    /** Sets both cookies for a freshly signed token; returns the CSRF token for the app. */
    set(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): string {
      const csrfToken = csrfFor(token);
      const common = { path: '/', sameSite: 'strict' as const, secure: secure(request), expires: expiresAt };
      reply.setCookie(SESSION_COOKIE, token, { ...common, httpOnly: true });
      reply.setCookie(CSRF_COOKIE, csrfToken, { ...common, httpOnly: false });
      return csrfToken;
    },

    clear(request: FastifyRequest, reply: FastifyReply) {
      const common = { path: '/', sameSite: 'strict' as const, secure: secure(request) };
      reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
      reply.clearCookie(CSRF_COOKIE, common);
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
      if (!SAFE_METHODS.has(request.method)) {
        const sent = request.headers[CSRF_HEADER];
        const expected = Buffer.from(csrfFor(token));
        const given = Buffer.from(typeof sent === 'string' ? sent : '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          throw new AppError(
            'csrf_failed',
            `A request authenticated by the session cookie must send the ${CSRF_HEADER} header (the value of the ${CSRF_COOKIE} cookie)`,
          );
        }
      }
      return token;
    },
  };
}
