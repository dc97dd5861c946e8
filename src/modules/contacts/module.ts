import type { FeatureModule } from '../../platform/module.ts';
import { contactsRoutes } from './routes.ts';

export const contactsModule: FeatureModule = {
  name: 'contacts',
  wire: (ctx) => [{ plugin: contactsRoutes(ctx) }],
};
