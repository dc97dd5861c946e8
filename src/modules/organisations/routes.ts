import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../platform/route-security.ts';
import { Nullable, problemResponses, Uuid } from '../../platform/schemas.ts';
import { OrganisationSchema } from './schemas.ts';
import type { createOrganisationService } from './service.ts';

const Organisation = Type.Object({
  ...OrganisationSchema.properties,
  admin: Type.Object({ id: Uuid, email: Nullable(Type.String()), role: Type.String() }),
});

export const organisationsRoutes =
  (service: ReturnType<typeof createOrganisationService>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/organisations',
      {
        config: { permission: 'organisations:create' },
        schema: {
          tags: ['organisations'],
          operationId: 'createOrganisation',
          summary: 'Create a tenant with its first admin user',
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 200 }),
              admin: Type.Object(
                {
                  email: Type.String({ format: 'email', maxLength: 320 }),
                  password: Type.String({ minLength: 8, maxLength: 1024 }),
                },
                { additionalProperties: false },
              ),
            },
            { additionalProperties: false },
          ),
          response: { 201: Organisation, ...problemResponses(409) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );
  };
