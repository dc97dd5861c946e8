import type { FeatureModule } from '../../platform/module.ts';
import { passwordResetRoutes } from './routes.ts';

export const passwordResetModule: FeatureModule = {
  name: 'password-reset',
  wire: (ctx) => [{ plugin: passwordResetRoutes(ctx) }],
};
