import type { FeatureModule } from '../../platform/module.ts';
import { usersRoutes } from './routes.ts';

export const usersModule: FeatureModule = {
  name: 'users',
  wire: (ctx) => [{ plugin: usersRoutes(ctx) }],
};
