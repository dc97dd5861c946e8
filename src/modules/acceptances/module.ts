import { defineModule } from '../../platform/module.ts';
import { organisationsModule } from '../organisations/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { findAcceptanceById, QUOTE_ACCEPTANCE_ENTITY } from './repository.ts';
import { acceptancesPublicRoutes, acceptancesRoutes } from './routes.ts';
import { createAcceptanceService, presentAcceptance } from './service.ts';

/**
 * Buyers' answers to quotes with their evidence, the PAdES signed PDF, and guest acceptance
 * (docs/quotes.md, "Acceptance evidence"). Serves POST /quotes/{id}/accept and /decline.
 */
export const acceptancesModule = defineModule({
  name: 'acceptances',
  aliases: ['/quotes'],
  services: (ctx) => {
    const { quotes, pdfs } = quotesModule.services(ctx);
    return {
      acceptances: createAcceptanceService(ctx, {
        quotes,
        pdfs,
        brand: organisationsModule.services(ctx).settings,
      }),
    };
  },
  wire: (ctx, { acceptances }) => {
    ctx.registry.entityPayload(QUOTE_ACCEPTANCE_ENTITY);
    ctx.registry.eventResource(QUOTE_ACCEPTANCE_ENTITY.tableName, async (db, organisationId, id) => {
      const row = await findAcceptanceById(db, organisationId, id);
      return row ? presentAcceptance(row) : undefined;
    });
    return [
      { plugin: acceptancesRoutes(acceptances), aliased: true },
      { plugin: acceptancesPublicRoutes(acceptances) },
    ];
  },
});
