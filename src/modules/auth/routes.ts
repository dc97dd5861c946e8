import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DateTime, DateTimeInput, Nullable, problemResponses, Uuid } from '../../platform/schemas.ts';
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
