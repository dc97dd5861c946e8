import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { PipelineSchema, pipelinesRoutes, StepSchema } from './routes.ts';
import { findPipeline, PIPELINE_ENTITY, seedPipelines } from './service.ts';

/** A pipeline's events deliver it with its steps, as GET /pipelines lists it (presentPipeline). */
declareEntityPayload(PIPELINE_ENTITY, { schema: PipelineSchema, refs: [StepSchema] });

export const pipelinesModule: FeatureModule = {
  name: 'pipelines',
  wire: (ctx) => {
    // Once per app: every new organisation starts with the default opportunity pipeline.
    ctx.organisationSeeders.push(seedPipelines);
    registerEventResource('pipelines', (db, organisationId, id) => findPipeline(db, organisationId, id));
    return [{ plugin: pipelinesRoutes(ctx) }];
  },
};
