import type { FeatureModule } from '../../platform/module.ts';
import { projectsRoutes } from './routes.ts';

export const projectsModule: FeatureModule = {
  name: 'projects',
  wire: (ctx) => [{ plugin: projectsRoutes(ctx) }],
};
