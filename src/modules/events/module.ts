import type { FeatureModule } from '../../platform/module.ts';
import { eventRoutes } from './routes.ts';

export const eventsModule: FeatureModule = {
  name: 'events',
  wire: (ctx) => [{ plugin: eventRoutes(ctx) }],
};
