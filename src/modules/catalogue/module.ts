import type { FeatureModule } from '../../platform/module.ts';
import { defaultCatalogue } from '../../pricing/default-catalogue.ts';
import { catalogueRoutes } from './routes.ts';
import { catalogueSeeder } from './seed.ts';

export const catalogueModule: FeatureModule = {
  name: 'catalogue',
  wire: (ctx) => {
    ctx.organisationSeeders.push(catalogueSeeder(defaultCatalogue));
    return [{ plugin: catalogueRoutes(ctx) }];
  },
};
