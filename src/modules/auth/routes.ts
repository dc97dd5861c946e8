import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DateTime, DateTimeInput, Nullable, problemResponses, Uuid } from '../../platform/schemas.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { createAuthService } from './service.ts';

const AccessToken = Type.Object(
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
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const service = createAuthService(ctx);
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
      token: Type.String({ description: 'A bearer token for the Authorization header, kept in memory' }),
      expiresAt: DateTime,
      csrfToken: Type.String({ description: 'Send as X-CSRF-Token with cookie-authenticated writes' }),
    });

    app.post(
      '/session',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'createSession',
          summary: 'Sign in a browser: a bearer token plus an httpOnly, SameSite=Strict session cookie',
          description:
            'The same check and throttling as POST /sign-in. Sets `pqs_session` (httpOnly) and `pqs_csrf`. A request ' +
            'with no Authorization or X-ACCESS-TOKEN header is then authenticated by the cookie; its writes must send ' +
            '`X-CSRF-Token` (the `pqs_csrf` value), else 403 `csrf_failed`. The tokens of the session (the cookie and the ' +
            'answered bearer token) work until DELETE /session ends it. See docs/web.md.',
          body: Credentials,
          response: { 200: SessionAnswer, ...problemResponses(429) },
        },
      },
      async (request, reply) => {
        const signed = await service.openSession(request.body.username, request.body.password, request.ip);
        const csrfToken = ctx.session.set(request, reply, signed.token, signed.expiresAt);
        return { ...signed, csrfToken };
      },
    );

    app.post(
      '/session/refresh',
      {
        // Served without a header credential: the session cookie is checked here (with the CSRF
        // header), through the same authenticator as every route; any role may refresh its own.
        config: { public: true },
        schema: {
          tags,
          operationId: 'refreshSession',
          summary: 'A new bearer token and session cookie from the session cookie (the web app on reload)',
          description:
            'Authenticated by the session cookie only, with `X-CSRF-Token`; 401 `session_required` for a header credential ' +
            'or a token of POST /sign-in, 401 `session_ended` once the session was signed out (DELETE /session).',
          response: { 200: SessionAnswer, ...problemResponses() },
        },
      },
      async (request, reply) => {
        const sessionToken = ctx.session.credentialOf(request);
        if (!sessionToken)
          throw new AppError('session_required', 'This operation is authenticated by the session cookie');
        const signed = await service.refreshSession(sessionToken);
        const csrfToken = ctx.session.set(request, reply, signed.token, signed.expiresAt);
        return { ...signed, csrfToken };
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
            'Ends the session of the `pqs_session` cookie on every node: its tokens (the cookie and the bearer tokens ' +
            'answered by POST /session and its refreshes) then answer 401 `session_ended`, and it cannot be refreshed. ' +
            "The user's other sessions, bearer tokens of POST /sign-in and access tokens are not affected. Without a " +
            'valid session cookie it only clears the cookies.',
          response: { 204: Type.Null(), ...problemResponses() },
        },
      },
      async (request, reply) => {
        // No CSRF check: the web app signs out without one, SameSite=Strict keeps the cookie off
        // other sites' requests, and the worst a forged sign-out does is sign a browser out.
        await service.endSession(request.cookies?.[SESSION_COOKIE]);
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
