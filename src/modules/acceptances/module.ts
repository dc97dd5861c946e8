import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { organisationSettingsModule } from '../organisations/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { findAcceptanceById, QUOTE_ACCEPTANCE_ENTITY } from './repository.ts';
import { acceptancesPublicRoutes, acceptancesRoutes } from './routes.ts';
import { createAcceptanceService, presentAcceptance } from './service.ts';

/**
 * Buyers' answers to quotes with their evidence, the PAdES signed PDF, and guest acceptance
 * (docs/quotes.md, "Acceptance evidence"). Serves POST /quotes/{id}/accept and /decline.
 */
export const acceptancesFeature: FeatureModule = {
  name: 'acceptances',
  aliases: ['/quotes'],
  wire: (ctx) => {
    const { service: quotes, pdfs } = quotesModule(ctx);
    const service = createAcceptanceService(ctx, {
      quotes,
      pdfs,
      brand: organisationSettingsModule(ctx).settings,
    });
    registerEventResource(QUOTE_ACCEPTANCE_ENTITY.tableName, async (db, organisationId, id) => {
      const row = await findAcceptanceById(db, organisationId, id);
      return row ? presentAcceptance(row) : undefined;
    });
    return [
      { plugin: acceptancesRoutes(ctx, service), aliased: true },
      { plugin: acceptancesPublicRoutes(ctx, service) },
    ];
  },
};
