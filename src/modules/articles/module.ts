import type { FeatureModule } from '../../platform/module.ts';
import { articlesRoutes } from './routes.ts';

export const articlesModule: FeatureModule = {
  name: 'articles',
  aliases: ['/articles'],
  wire: (ctx) => [{ plugin: articlesRoutes(ctx), aliased: true }],
};
