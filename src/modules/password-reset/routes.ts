import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { problemResponses } from '../../platform/schemas.ts';
import { Password } from '../users/schemas.ts';
import { type createPasswordResetService, RESET_TOKEN_TTL_MINUTES } from './service.ts';

export const passwordResetRoutes =
  (service: ReturnType<typeof createPasswordResetService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['authentication'];

    app.post(
      '/password-reset/request',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'requestPasswordReset',
          summary: 'E-mail a password reset link to the user with this username or e-mail',
          description:
            'Always 202, whether or not such a user exists (no account enumeration). The e-mail, in the ' +
            `user's language, holds a link to /app/reset-password valid ${RESET_TOKEN_TTL_MINUTES} minutes and ` +
            'usable once. Throttled per login and per client address (429 with Retry-After).',
          body: Type.Object(
            { login: Type.String({ minLength: 1, maxLength: 320, description: 'A username or an e-mail' }) },
            { additionalProperties: false },
          ),
          response: { 202: Type.Null(), ...problemResponses(429) },
        },
      },
      async (request, reply) => {
        await service.request(request.body.login, request.ip);
        return reply.status(202).send(null);
      },
    );

    app.post(
      '/password-reset',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'resetPassword',
          summary: 'Set a new password with the token of a reset e-mail',
          description:
            'The token works once and until it expires (else 400 `reset_token_invalid`). The new password ' +
            "follows the sign-up policy; the user's bearer tokens are revoked and browser sessions ended.",
          body: Type.Object(
            { token: Type.String({ minLength: 1, maxLength: 200 }), password: Password },
            { additionalProperties: false },
          ),
          response: { 204: Type.Null(), ...problemResponses() },
        },
      },
      async (request, reply) => {
        await service.reset(request.body.token, request.body.password);
        return reply.status(204).send(null);
      },
    );
  };
