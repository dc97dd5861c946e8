import type { FeatureModule } from '../../platform/module.ts';
import { briefsModule } from '../briefs/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { dieLineRoutes } from './routes.ts';
import { createDieLineService } from './service.ts';

/**
 * Die-line files (PDF template, DXF, CF2) of the elements of briefs, of quote items and of
 * articles; see docs/dielines.md.
 */
export const dieLinesFeature: FeatureModule = {
  name: 'dielines',
  aliases: [],
  wire: (ctx) => {
    const service = createDieLineService({
      db: ctx.db,
      briefs: briefsModule(ctx).service,
      quotes: quotesModule(ctx).service,
    });
    return [{ plugin: dieLineRoutes(service) }];
  },
};
