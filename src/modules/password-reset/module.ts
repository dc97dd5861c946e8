import { defineModule } from '../../platform/module.ts';
import { passwordResetRoutes } from './routes.ts';
import { createPasswordResetService } from './service.ts';

export const passwordResetModule = defineModule({
  name: 'password-reset',
  services: (ctx) => ({ passwordReset: createPasswordResetService(ctx) }),
  wire: (_ctx, { passwordReset }) => [{ plugin: passwordResetRoutes(passwordReset) }],
});
