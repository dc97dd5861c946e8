import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { projects } from '../../db/schema/organisation-data.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { notFound } from '../../platform/errors.ts';
import { type AttachmentServices, registerAttachmentRoutes } from './attachments.ts';

/**
 * Files and comments of projects. Orders, articles and quotes register theirs from their own
 * modules with registerAttachmentRoutes (see attachments.ts).
 */
export const filesRoutes =
  (ctx: Pick<AppContext, 'db'>, attachments: AttachmentServices): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAttachmentRoutes(app, attachments, {
      entity: 'project',
      path: '/projects/:id',
      // Queried here rather than through the projects module to keep the modules independent.
      assertParentVisible: async (actor: Actor, id: string) => {
        const [row] = await ctx.db
          .select({ id: projects.id })
          .from(projects)
          .where(
            and(
              eq(projects.id, id),
              eq(projects.organisationId, actor.organisationId),
              isNull(projects.deletedAt),
              inCompanyScope(actor, projects.companyId),
            ),
          )
          .limit(1);
        if (!row) throw notFound('Project');
      },
    });
  };
