import type { FeatureModule } from '../../platform/module.ts';
import { companiesRoutes } from './routes.ts';

export const companiesModule: FeatureModule = {
  name: 'companies',
  wire: (ctx) => [{ plugin: companiesRoutes(ctx) }],
};
