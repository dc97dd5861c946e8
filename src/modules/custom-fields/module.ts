import type { FeatureModule } from '../../platform/module.ts';
import { customFieldsRoutes } from './routes.ts';

export const customFieldsModule: FeatureModule = {
  name: 'custom-fields',
  wire: (ctx) => [{ plugin: customFieldsRoutes(ctx) }],
};
