import { defineModule } from '../../platform/module.ts';
import { PROJECT_ENTITY } from './repository.ts';
import { projectsRoutes } from './routes.ts';
import { createProjectService } from './service.ts';

export const projectsModule = defineModule({
  name: 'projects',
  services: (ctx) => ({ projects: createProjectService(ctx) }),
  wire: (ctx, { projects }) => {
    ctx.registry.entityPayload(PROJECT_ENTITY);
    return [{ plugin: projectsRoutes(projects) }];
  },
});
