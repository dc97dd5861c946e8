import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { pipelinesRoutes } from './routes.ts';
import { findPipeline, seedPipelines } from './service.ts';

export const pipelinesModule: FeatureModule = {
  name: 'pipelines',
  wire: (ctx) => {
    // Once per app: every new organisation starts with the default opportunity pipeline.
    ctx.organisationSeeders.push(seedPipelines);
    registerEventResource('pipelines', (db, organisationId, id) => findPipeline(db, organisationId, id));
    return [{ plugin: pipelinesRoutes(ctx) }];
  },
};
