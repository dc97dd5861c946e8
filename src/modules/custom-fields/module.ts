import type { FeatureModule } from '../../platform/module.ts';
import { customFieldRoutes } from './routes.ts';

export const customFieldsModule: FeatureModule = {
  name: 'custom-fields',
  wire: (ctx) => [{ plugin: customFieldRoutes(ctx) }],
};
