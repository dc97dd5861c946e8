import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { AccessToken, authRoutes } from './routes.ts';
import { ACCESS_TOKEN_ENTITY } from './service.ts';

/** An access token's events deliver it as GET /users/{userId}/access-tokens lists it (no hash). */
declareEntityPayload(ACCESS_TOKEN_ENTITY, { schema: AccessToken });

export const authModule: FeatureModule = {
  name: 'auth',
  wire: (ctx) => [{ plugin: authRoutes(ctx) }],
};
