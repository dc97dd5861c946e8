import { defineModule } from '../../platform/module.ts';
import { PipelineSchema, pipelinesRoutes, StepSchema } from './routes.ts';
import { createPipelineService, findPipeline, PIPELINE_ENTITY, seedPipelines } from './service.ts';

export const pipelinesModule = defineModule({
  name: 'pipelines',
  services: (ctx) => ({ pipelines: createPipelineService(ctx) }),
  wire: (ctx, { pipelines }) => {
    // A pipeline's events deliver it with its steps, as GET /pipelines lists it (presentPipeline).
    ctx.registry.entityPayload(PIPELINE_ENTITY, { schema: PipelineSchema, refs: [StepSchema] });
    ctx.registry.eventResource('pipelines', (db, organisationId, id) => findPipeline(db, organisationId, id));
    // Every new organisation starts with the default opportunity pipeline.
    ctx.registry.organisationSeeder(seedPipelines);
    return [{ plugin: pipelinesRoutes(pipelines) }];
  },
});
