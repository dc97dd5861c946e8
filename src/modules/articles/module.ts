import { defineModule } from '../../platform/module.ts';
import { filesModule } from '../files/module.ts';
import { ARTICLE_ENTITY } from './repository.ts';
import { articlesRoutes } from './routes.ts';
import { createArticleService } from './service.ts';

export const articlesModule = defineModule({
  name: 'articles',
  aliases: ['/articles'],
  services: (ctx) => ({ articles: createArticleService(ctx) }),
  wire: (ctx, { articles }) => {
    ctx.registry.entityPayload(ARTICLE_ENTITY);
    return [{ plugin: articlesRoutes(articles, filesModule.services(ctx)), aliased: true }];
  },
});
