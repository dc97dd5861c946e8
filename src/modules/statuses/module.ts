import { defineModule } from '../../platform/module.ts';
import { STATUS_ENTITY } from './repository.ts';
import { statusesRoutes } from './routes.ts';
import { createStatusService, seedStatuses } from './service.ts';

export const statusesModule = defineModule({
  name: 'statuses',
  services: (ctx) => ({ statuses: createStatusService(ctx) }),
  wire: (ctx, { statuses }) => {
    ctx.registry.entityPayload(STATUS_ENTITY);
    // Every new organisation starts with the order workflow.
    ctx.registry.organisationSeeder(seedStatuses);
    return [{ plugin: statusesRoutes(statuses) }];
  },
});
