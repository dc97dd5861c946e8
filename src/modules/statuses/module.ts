import type { FeatureModule } from '../../platform/module.ts';
import { statusesRoutes } from './routes.ts';
import { seedStatuses } from './service.ts';

export const statusesModule: FeatureModule = {
  name: 'statuses',
  wire: (ctx) => {
    // Once per app (not per prefix): every new organisation starts with the order workflow.
    ctx.organisationSeeders.push(seedStatuses);
    return [{ plugin: statusesRoutes(ctx) }];
  },
};
