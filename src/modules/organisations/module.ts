import { defineModule } from '../../platform/module.ts';
import { organisationResource } from '../events/resource-repository.ts';
import { filesModule } from '../files/module.ts';
import { ORGANISATION_SETTINGS_ENTITY } from './repository.ts';
import { organisationsRoutes } from './routes.ts';
import { createOrganisationService, ORGANISATION_ENTITY } from './service.ts';
import { organisationSettingsRoutes } from './settings-routes.ts';
import { createOrganisationSettingsService } from './settings-service.ts';

/** Tenants and their settings (the seller's identity on quotes, which the quotes module reads). */
export const organisationsModule = defineModule({
  name: 'organisations',
  services: (ctx) => ({
    organisations: createOrganisationService({
      db: ctx.db,
      change: ctx.change,
      config: ctx.config,
      organisationSeeders: ctx.registry.organisationSeeders,
    }),
    settings: createOrganisationSettingsService({
      db: ctx.db,
      change: ctx.change,
      files: filesModule.services(ctx).files,
      fileSizeLimitBytes: ctx.config.fileSizeLimitBytes,
    }),
  }),
  wire: (ctx, { organisations, settings }) => {
    ctx.registry.entityPayload(ORGANISATION_ENTITY);
    ctx.registry.eventResource('organisations', organisationResource);
    ctx.registry.eventResource(ORGANISATION_SETTINGS_ENTITY.tableName, async (db, organisationId) => {
      const { logo: _logo, ...seller } = await settings.sellerOf(db, organisationId);
      return seller;
    });
    return [{ plugin: organisationsRoutes(organisations) }, { plugin: organisationSettingsRoutes(settings) }];
  },
});
