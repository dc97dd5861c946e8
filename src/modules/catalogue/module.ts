import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { defaultCatalogue } from '../../pricing/default-catalogue.ts';
import { CATALOGUE_ENTITY } from './repository.ts';
import { catalogueRoutes, Entry } from './routes.ts';

/** A catalogue entry's events deliver it as GET /catalogue/{kind}/{id} shows it to staff (present). */
declareEntityPayload(CATALOGUE_ENTITY, { schema: Entry });

import { catalogueSeeder } from './seed.ts';

export const catalogueModule: FeatureModule = {
  name: 'catalogue',
  wire: (ctx) => {
    ctx.organisationSeeders.push(catalogueSeeder(defaultCatalogue));
    return [{ plugin: catalogueRoutes(ctx) }];
  },
};
