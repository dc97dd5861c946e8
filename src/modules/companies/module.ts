import { defineModule } from '../../platform/module.ts';
import { COMPANY_ENTITY } from './repository.ts';
import { companiesRoutes } from './routes.ts';
import { createCompanyService } from './service.ts';

export const companiesModule = defineModule({
  name: 'companies',
  services: (ctx) => ({ companies: createCompanyService(ctx) }),
  wire: (ctx, { companies }) => {
    ctx.registry.entityPayload(COMPANY_ENTITY);
    return [{ plugin: companiesRoutes(companies) }];
  },
});
