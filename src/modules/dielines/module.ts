import { defineModule } from '../../platform/module.ts';
import { briefsModule } from '../briefs/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { dieLineRoutes } from './routes.ts';
import { createDieLineService } from './service.ts';

/**
 * Die-line files (PDF template, DXF, CF2) of the elements of briefs, of quote items and of
 * articles; see docs/dielines.md.
 */
export const dieLinesModule = defineModule({
  name: 'dielines',
  aliases: [],
  services: (ctx) => ({
    dieLines: createDieLineService({
      db: ctx.db,
      briefs: briefsModule.services(ctx).briefs,
      quotes: quotesModule.services(ctx).quotes,
    }),
  }),
  wire: (_ctx, { dieLines }) => [{ plugin: dieLineRoutes(dieLines) }],
});
