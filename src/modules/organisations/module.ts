import type { AppContext } from '../../context.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { createFilesService } from '../files/service.ts';
import { ORGANISATION_SETTINGS_ENTITY } from './repository.ts';
import { organisationsRoutes } from './routes.ts';
import { organisationSettingsRoutes } from './settings-routes.ts';
import { createOrganisationSettingsService, type OrganisationSettingsService } from './settings-service.ts';

export type OrganisationsModule = { settings: OrganisationSettingsService };
const modules = new WeakMap<AppContext, OrganisationsModule>();

/** The organisation settings service, made once per app (the quotes module reads it too). */
export function organisationSettingsModule(ctx: AppContext): OrganisationsModule {
  const existing = modules.get(ctx);
  if (existing) return existing;
  const settings = createOrganisationSettingsService({
    db: ctx.db,
    change: ctx.change,
    files: createFilesService(ctx),
    fileSizeLimitBytes: ctx.config.fileSizeLimitBytes,
  });
  const module = { settings };
  modules.set(ctx, module);
  registerEventResource(ORGANISATION_SETTINGS_ENTITY.tableName, async (db, organisationId) => {
    const { logo: _logo, ...seller } = await settings.sellerOf(db, organisationId);
    return seller;
  });
  return module;
}

export const organisationsModule: FeatureModule = {
  name: 'organisations',
  wire: (ctx) => [
    { plugin: organisationsRoutes(ctx) },
    { plugin: organisationSettingsRoutes(organisationSettingsModule(ctx).settings) },
  ],
};
