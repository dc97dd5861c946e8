import { Type } from '@sinclair/typebox';
import { defineModule } from '../../platform/module.ts';
import { defaultCatalogue } from '../../pricing/default-catalogue.ts';
import { CATALOGUE_ENTITY } from './repository.ts';
import { catalogueRoutes } from './routes.ts';
import { ENTRY_FIELDS } from './schemas.ts';
import { catalogueSeeder } from './seed.ts';
import { createCatalogueService } from './service.ts';
import { upgradeCatalogues } from './upgrade.ts';

/**
 * A catalogue entry's events deliver it as GET /catalogue/{kind}/{id} shows it to staff (present):
 * the entry's own fields, typed, and its record's fields (each collection's GET schema types them).
 */
const CatalogueEntryEvent = Type.Object(ENTRY_FIELDS, {
  $id: 'CatalogueEntryEventEntity',
  additionalProperties: true,
  description: "A catalogue entry as its events deliver it: its collection's GET answer",
});

export const catalogueModule = defineModule({
  name: 'catalogue',
  services: (ctx) => ({ catalogue: createCatalogueService(ctx) }),
  wire: (ctx, { catalogue }) => {
    ctx.registry.entityPayload(CATALOGUE_ENTITY, { schema: CatalogueEntryEvent });
    ctx.registry.organisationSeeder(catalogueSeeder(defaultCatalogue));
    return [{ plugin: catalogueRoutes(catalogue, () => upgradeCatalogues(ctx)) }];
  },
});
