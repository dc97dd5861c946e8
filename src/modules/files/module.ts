import { defineModule } from '../../platform/module.ts';
import { COMMENT_ENTITY, FILE_ENTITY } from './repository.ts';
import { filesRoutes } from './routes.ts';
import { createCommentsService, createFilesService } from './service.ts';

/**
 * The file store and comments, made once per app: every module with attachments (orders,
 * articles, quotes), quote PDFs, exports, proofs and the organisation logo use these services.
 */
export const filesModule = defineModule({
  name: 'files',
  services: (ctx) => ({ files: createFilesService(ctx), comments: createCommentsService(ctx) }),
  wire: (ctx, attachments) => {
    ctx.registry.entityPayload(FILE_ENTITY);
    ctx.registry.entityPayload(COMMENT_ENTITY);
    return [{ plugin: filesRoutes(attachments) }];
  },
});
