import { defineModule } from '../../platform/module.ts';
import { CONTACT_ENTITY, USER_ENTITY } from './repository.ts';
import { usersRoutes } from './routes.ts';
import { createUserService } from './service.ts';

export const usersModule = defineModule({
  name: 'users',
  services: (ctx) => ({ users: createUserService(ctx) }),
  wire: (ctx, { users }) => {
    ctx.registry.entityPayload(USER_ENTITY);
    ctx.registry.entityPayload(CONTACT_ENTITY);
    return [{ plugin: usersRoutes(users) }];
  },
});
