import type { FeatureModule } from '../../platform/module.ts';
import { organisationsRoutes } from './routes.ts';

export const organisationsModule: FeatureModule = {
  name: 'organisations',
  wire: (ctx) => [{ plugin: organisationsRoutes(ctx) }],
};
