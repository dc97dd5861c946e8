import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DateTime, DateTimeInput, Nullable, problemResponses, Uuid } from '../../platform/schemas.ts';
import { REFRESH_COOKIE, SESSION_COOKIE } from '../../platform/session.ts';
import type { createAuthService } from './service.ts';
import type { SessionService } from './sessions.ts';

type AuthService = ReturnType<typeof createAuthService>;

export const AccessToken = Type.Object(
  {
    id: Uuid,
    userId: Uuid,
    name: Type.String(),
    prefix: Type.String({ description: 'First characters of the token, to tell tokens apart' }),
    createdAt: DateTime,
    lastUsedAt: Nullable(DateTime),
    expiresAt: Nullable(DateTime),
    revokedAt: Nullable(DateTime),
  },
  { $id: 'AccessToken' },
);

const UserParams = Type.Object({ userId: Uuid });

export const authRoutes =
  (
    ctx: Pick<AppContext, 'session'>,
    { auth: service, sessions }: { auth: AuthService; sessions: SessionService },
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(AccessToken);
    const tags = ['authentication'];

    app.post(
      '/sign-in',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'signIn',
          summary: 'Exchange a username and password for a bearer token (JWT)',
          description:
            'Failed attempts are throttled per account and per client address (429 with Retry-After).',
          body: Type.Object(
            {
              username: Type.String({ minLength: 1, maxLength: 320 }),
              password: Type.String({ minLength: 1, maxLength: 1024 }),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ token: Type.String(), expiresAt: DateTime }),
            ...problemResponses(429),
          },
        },
      },
      async (request) => service.signIn(request.body.username, request.body.password, request.ip),
    );

    const Credentials = Type.Object(
      {
        username: Type.String({ minLength: 1, maxLength: 320 }),
        password: Type.String({ minLength: 1, maxLength: 1024 }),
      },
      { additionalProperties: false },
    );
    const SessionAnswer = Type.Object({
      token: Type.String({
        description:
          'The short access token, for the Authorization header, kept in memory (SESSION_ACCESS_EXPIRES_IN)',
      }),
      expiresAt: DateTime,
      expiresInSeconds: Type.Integer({ description: 'Seconds until the access token expires' }),
      sessionExpiresAt: DateTime,
      sessionExpiresInSeconds: Type.Integer({
        description:
          'Seconds until sessionExpiresAt: until when the session can be refreshed (its idle limit, ' +
          'SESSION_IDLE_EXPIRES_IN from this answer, or its absolute limit, SESSION_MAX_EXPIRES_IN from sign-in, if ' +
          'sooner). The web app warns before it.',
      }),
      csrfToken: Type.String({
        description: 'Send as X-CSRF-Token with cookie-authenticated writes and refreshes',
      }),
    });
    const answer = (
      request: Parameters<typeof ctx.session.set>[0],
      reply: Parameters<typeof ctx.session.set>[1],
      tokens: Awaited<ReturnType<typeof service.openSession>>,
    ) => {
      const csrfToken = ctx.session.set(request, reply, tokens);
      const seconds = (at: Date) => Math.max(0, Math.floor((at.getTime() - Date.now()) / 1000));
      return {
        token: tokens.token,
        expiresAt: tokens.expiresAt,
        expiresInSeconds: seconds(tokens.expiresAt),
        sessionExpiresAt: tokens.sessionExpiresAt,
        sessionExpiresInSeconds: seconds(tokens.sessionExpiresAt),
        csrfToken,
      };
    };

    app.post(
      '/session',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'createSession',
          summary:
            'Sign in a browser: a short access token, an httpOnly session cookie and a rotating refresh token',
          description:
            'The same check and throttling as POST /sign-in. Opens a session (docs/web.md, "Sessions") and sets ' +
            '`pqs_session` (the access token, httpOnly), `pqs_refresh` (the refresh token, httpOnly, path /api/session) ' +
            'and `pqs_csrf`. A request with no Authorization or X-ACCESS-TOKEN header is then authenticated by the ' +
            'session cookie; its writes must send `X-CSRF-Token` (the `pqs_csrf` value), else 403 `csrf_failed`. The ' +
            'access token lasts SESSION_ACCESS_EXPIRES_IN; POST /session/refresh gives the next one while the user is ' +
            'active, until DELETE /session ends the session or it expires.',
          body: Credentials,
          response: { 200: SessionAnswer, ...problemResponses(429) },
        },
      },
      async (request, reply) =>
        answer(
          request,
          reply,
          await service.openSession(request.body.username, request.body.password, request.ip),
        ),
    );

    app.post(
      '/session/refresh',
      {
        // Served without a header credential: the refresh cookie is checked here (with the CSRF
        // header); any role may refresh its own session.
        config: { public: true },
        schema: {
          tags,
          operationId: 'refreshSession',
          summary: 'Rotate the session: a new access token and refresh token from the refresh cookie',
          description:
            'Authenticated by the `pqs_refresh` cookie only, with `X-CSRF-Token` (403 `csrf_failed` without it); the ' +
            'access token may have expired. Marks the refresh token used and sets the next one (rotation), and moves ' +
            'the idle limit forward. 401 `session_required` without a refresh cookie (or with a header credential, or ' +
            'an unknown token), `session_ended` once the session was signed out, `session_expired` past its idle or ' +
            'absolute limit, `token_revoked` after a password change, and `refresh_token_reused` for a refresh token ' +
            'already rotated more than SESSION_REFRESH_REUSE_GRACE seconds ago: that ends the whole session (its ' +
            'access tokens too, on every node). Within the grace (two tabs refreshing at once) the answer is a new ' +
            'access token without a new refresh cookie.',
          response: { 200: SessionAnswer, ...problemResponses(403) },
        },
      },
      async (request, reply) => {
        const refreshToken = ctx.session.refreshTokenOf(request);
        if (!refreshToken)
          throw new AppError(
            'session_required',
            'This operation is authenticated by the refresh cookie of a session',
          );
        const sessionId = await sessions.sessionOf(refreshToken);
        if (!sessionId)
          throw new AppError('session_required', 'This refresh token belongs to no session; sign in again');
        ctx.session.checkSessionCsrf(request, sessionId);
        return answer(request, reply, await sessions.refresh(refreshToken));
      },
    );

    app.delete(
      '/session',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'deleteSession',
          summary: 'Sign a browser out: ends its session and clears the session cookies',
          description:
            'Ends the session of the `pqs_refresh` cookie (or of the `pqs_session` cookie) on every node: its access ' +
            "tokens then answer 401 `session_ended`, and it cannot be refreshed. The user's other sessions, bearer " +
            'tokens of POST /sign-in and access tokens are not affected. Without a valid session cookie it only clears ' +
            'the cookies.',
          response: { 204: Type.Null(), ...problemResponses() },
        },
      },
      async (request, reply) => {
        // No CSRF check: the web app signs out without one, SameSite=Strict keeps the cookie off
        // other sites' requests, and the worst a forged sign-out does is sign a browser out.
        await sessions.end(request.cookies?.[REFRESH_COOKIE], request.cookies?.[SESSION_COOKIE]);
        ctx.session.clear(request, reply);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/access-token/user/:userId',
      {
        // The answer carries the token, which is kept only as a hash: never stored for replay.
        config: { permission: 'access_tokens:manage', idempotent: false },
        schema: {
          tags,
          operationId: 'createAccessToken',
          summary: 'Create an access token for a user; the token is returned once and stored only as a hash',
          params: UserParams,
          body: Type.Object(
            {
              name: Type.String({
                minLength: 1,
                maxLength: 200,
                description: 'Name of the application using it',
              }),
              expiresAt: Type.Optional(DateTimeInput),
            },
            { additionalProperties: false },
          ),
          response: {
            201: Type.Intersect([
              Type.Ref('AccessToken'),
              Type.Object({ token: Type.String({ description: 'Send as X-ACCESS-TOKEN' }) }),
            ]),
            ...problemResponses(),
          },
        },
      },
      async (request, reply) => {
        const created = await service.createAccessToken(
          actorOf(request),
          request.params.userId,
          request.body,
        );
        return reply.status(201).send(created);
      },
    );

    app.get(
      '/access-token/user/:userId',
      {
        // The answer carries the token, which is kept only as a hash: never stored for replay.
        config: { permission: 'access_tokens:manage', idempotent: false },
        schema: {
          tags,
          operationId: 'listAccessTokens',
          summary: 'List the access tokens of a user (without the tokens themselves)',
          params: UserParams,
          response: { 200: Type.Array(Type.Ref('AccessToken')), ...problemResponses() },
        },
      },
      async (request) => service.listAccessTokens(actorOf(request), request.params.userId),
    );

    app.delete(
      '/access-token/user/:userId/:tokenId',
      {
        config: { permission: 'access_tokens:manage' },
        schema: {
          tags,
          operationId: 'revokeAccessToken',
          summary: 'Revoke an access token; it stops working at once',
          params: Type.Object({ userId: Uuid, tokenId: Uuid }),
          response: { 200: Type.Ref('AccessToken'), ...problemResponses() },
        },
      },
      async (request) =>
        service.revokeAccessToken(actorOf(request), request.params.userId, request.params.tokenId),
    );
  };
