import { defineModule } from '../../platform/module.ts';
import { CURRENCY_ENTITY } from './repository.ts';
import { currenciesRoutes } from './routes.ts';
import { createCurrencyService, seedCurrencies } from './service.ts';

export const currenciesModule = defineModule({
  name: 'currencies',
  services: (ctx) => ({ currencies: createCurrencyService(ctx) }),
  wire: (ctx, { currencies }) => {
    ctx.registry.entityPayload(CURRENCY_ENTITY);
    // Every new organisation starts with its base currency (EUR).
    ctx.registry.organisationSeeder(seedCurrencies);
    return [{ plugin: currenciesRoutes(currencies) }];
  },
});
