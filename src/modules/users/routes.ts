import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { ROLES } from '../../db/schema/platform.ts';
import { notFound } from '../../platform/errors.ts';
import { PERMISSIONS } from '../../platform/permissions.ts';
import { actorOf } from '../../platform/route-security.ts';
import { problemResponses } from '../../platform/schemas.ts';
import { findUser } from './repository.ts';
import { RoleSchema, UserSchema } from './schemas.ts';

const ROLE_DESCRIPTIONS: Record<(typeof ROLES)[number], string> = {
  superadmin: 'Administers the service: everything an admin does, plus creating organisations',
  admin: 'Manages everything in its organisation: users, settings, catalogue, webhooks, imports',
  sales: 'Works on companies, contacts, briefs, quotes, articles and orders',
  external_sales: 'Like sales, limited to the companies the user is linked to',
  contact: 'A client: sees its companies’ briefs, quotes and orders, accepts or declines quotes',
  guest: 'Reads only',
};

export const usersRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(UserSchema);
    app.get(
      '/users/me',
      {
        config: { permission: 'profile:read' },
        schema: {
          tags: ['users'],
          operationId: 'getCurrentUser',
          summary: 'The user behind the credential',
          response: { 200: Type.Ref('User'), ...problemResponses() },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const user = await findUser(ctx.db, actor.organisationId, actor.userId);
        if (!user) throw notFound('User');
        return { ...user, companyIds: actor.companyIds };
      },
    );

    app.get(
      '/roles',
      {
        config: { permission: 'roles:read' },
        schema: {
          tags: ['users'],
          operationId: 'listRoles',
          summary: 'The roles and the operations each may perform',
          response: {
            200: Type.Array(
              Type.Object({
                name: RoleSchema,
                description: Type.String(),
                permissions: Type.Array(Type.String()),
              }),
            ),
            ...problemResponses(),
          },
        },
      },
      async () =>
        ROLES.map((name) => ({
          name,
          description: ROLE_DESCRIPTIONS[name],
          permissions: Object.entries(PERMISSIONS)
            .filter(([, p]) => (p.roles as readonly string[]).includes(name))
            .map(([key]) => key),
        })),
    );
  };
