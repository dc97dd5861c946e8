import type { FeatureModule } from '../../platform/module.ts';
import { filesRoutes } from './routes.ts';

export const filesModule: FeatureModule = {
  name: 'files',
  wire: (ctx) => [{ plugin: filesRoutes(ctx) }],
};
