import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Actor } from '../../platform/actor.ts';
import { type AttachmentServices, registerAttachmentRoutes } from './attachments.ts';

/**
 * Files and comments of projects. Orders, articles and quotes register theirs from their own
 * modules with registerAttachmentRoutes (see attachments.ts).
 */
export const filesRoutes =
  (attachments: AttachmentServices): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAttachmentRoutes(app, attachments, {
      entity: 'project',
      path: '/projects/:id',
      assertParentVisible: (actor: Actor, id: string) => attachments.files.assertProjectVisible(actor, id),
    });
  };
