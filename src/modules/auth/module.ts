import { defineModule } from '../../platform/module.ts';
import { AccessToken, authRoutes } from './routes.ts';
import { ACCESS_TOKEN_ENTITY, createAuthService } from './service.ts';
import { createSessionService } from './sessions.ts';

export const authModule = defineModule({
  name: 'auth',
  services: (ctx) => {
    const sessions = createSessionService(ctx);
    return { auth: createAuthService(ctx, { sessions }), sessions };
  },
  wire: (ctx, services) => {
    // An access token's events deliver it as GET /users/{userId}/access-tokens lists it (no hash).
    ctx.registry.entityPayload(ACCESS_TOKEN_ENTITY, { schema: AccessToken });
    return [{ plugin: authRoutes(ctx, services) }];
  },
});
