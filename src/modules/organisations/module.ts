import type { FeatureModule } from '../../platform/module.ts';
import { organisationRoutes } from './routes.ts';

export const organisationsModule: FeatureModule = {
  name: 'organisations',
  wire: (ctx) => [{ plugin: organisationRoutes(ctx) }],
};
