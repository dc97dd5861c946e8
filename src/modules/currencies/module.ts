import type { FeatureModule } from '../../platform/module.ts';
import { currenciesRoutes } from './routes.ts';
import { seedCurrencies } from './service.ts';

export const currenciesModule: FeatureModule = {
  name: 'currencies',
  wire: (ctx) => {
    // Once per app (not per prefix): every new organisation starts with its base currency (EUR).
    ctx.organisationSeeders.push(seedCurrencies);
    return [{ plugin: currenciesRoutes(ctx) }];
  },
};
