import { defineModule } from '../../platform/module.ts';
import { eventsRoutes } from './routes.ts';
import { createEventService } from './service.ts';

/** The event log and event resources (`ctx.registry.eventResource`, resource-repository.ts). */
export const eventsModule = defineModule({
  name: 'events',
  services: (ctx) => ({ events: createEventService(ctx) }),
  wire: (_ctx, { events }) => [{ plugin: eventsRoutes(events) }],
});
