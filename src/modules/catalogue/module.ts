import { Type } from '@sinclair/typebox';
import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { defaultCatalogue } from '../../pricing/default-catalogue.ts';
import { CATALOGUE_ENTITY } from './repository.ts';
import { catalogueRoutes } from './routes.ts';
import { ENTRY_FIELDS } from './schemas.ts';
import { catalogueSeeder } from './seed.ts';

/**
 * A catalogue entry's events deliver it as GET /catalogue/{kind}/{id} shows it to staff (present):
 * the entry's own fields, typed, and its record's fields (each collection's GET schema types them).
 */
const CatalogueEntryEvent = Type.Object(ENTRY_FIELDS, {
  $id: 'CatalogueEntryEventEntity',
  additionalProperties: true,
  description: "A catalogue entry as its events deliver it: its collection's GET answer",
});
declareEntityPayload(CATALOGUE_ENTITY, { schema: CatalogueEntryEvent });

export const catalogueModule: FeatureModule = {
  name: 'catalogue',
  wire: (ctx) => {
    ctx.organisationSeeders.push(catalogueSeeder(defaultCatalogue));
    return [{ plugin: catalogueRoutes(ctx) }];
  },
};
