import type { FeatureModule } from '../../platform/module.ts';
import { addressesRoutes } from './routes.ts';

export const addressesModule: FeatureModule = {
  name: 'addresses',
  wire: (ctx) => [{ plugin: addressesRoutes(ctx) }],
};
