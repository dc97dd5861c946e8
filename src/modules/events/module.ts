import type { FeatureModule } from '../../platform/module.ts';
import { eventsRoutes } from './routes.ts';

export const eventsModule: FeatureModule = {
  name: 'events',
  wire: (ctx) => [{ plugin: eventsRoutes(ctx) }],
};
