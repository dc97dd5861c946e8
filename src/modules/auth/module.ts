import type { FeatureModule } from '../../platform/module.ts';
import { authRoutes } from './routes.ts';

export const authModule: FeatureModule = {
  name: 'auth',
  wire: (ctx) => [{ plugin: authRoutes(ctx) }],
};
