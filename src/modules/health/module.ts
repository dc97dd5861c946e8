import { defineModule } from '../../platform/module.ts';
import { healthRoutes } from './routes.ts';

/** Liveness and readiness at the root (no service: the route asks the database itself). */
export const healthModule = defineModule({
  name: 'health',
  wire: (ctx) => [{ plugin: healthRoutes(ctx), root: true }],
});
