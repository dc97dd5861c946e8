import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, Nullable, problemResponses } from '../../platform/schemas.ts';
import type { createPipelineService } from './service.ts';

const Uuid = Type.String({ format: 'uuid' });
export const StepSchema = Type.Object(
  {
    id: Uuid,
    pipelineId: Uuid,
    name: Type.String(),
    position: Type.Integer({ description: '0-indexed order in the pipeline' }),
    probability: Nullable(Type.Integer({ description: 'Chance of winning at this step, percent' })),
    isWon: Nullable(Type.Boolean({ description: 'true: ends as won; false: ends as lost; null: open step' })),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'PipelineStep' },
);
export const PipelineSchema = Type.Object(
  {
    id: Uuid,
    type: Type.String({ description: 'What the pipeline is for: `opportunity` (projects)' }),
    entity: Type.String({ description: 'HIPE alias of `type`' }),
    name: Type.String(),
    position: Type.Integer(),
    isDefault: Type.Boolean({ description: 'The pipeline of its type proposed by default' }),
    externalId: Nullable(Type.String()),
    steps: Type.Array(Type.Ref('PipelineStep')),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Pipeline' },
);

/** `/api/pipelines`: the organisation's sales pipelines and their steps (HIPE client). */
export const pipelinesRoutes = (
  service: ReturnType<typeof createPipelineService>,
): FastifyPluginAsyncTypebox => {
  const tags = ['pipelines'];
  return async (app) => {
    app.addSchema(StepSchema);
    app.addSchema(PipelineSchema);
    app.get(
      '/pipelines',
      {
        config: { permission: 'pipelines:read' },
        schema: {
          tags,
          operationId: 'listPipelines',
          summary: 'List the sales pipelines with their steps',
          description:
            '`type` (HIPE’s entity, any case, e.g. `opportunity`) keeps the pipelines of that kind. An array, ' +
            'ordered by type and position. Every organisation starts with a default `opportunity` pipeline; ' +
            'projects name theirs in `opportunityPipelineId` / `opportunityStepId`.',
          querystring: Type.Object(
            { type: Type.Optional(Type.String({ maxLength: 50 })) },
            { additionalProperties: false },
          ),
          response: { 200: Type.Array(Type.Ref('Pipeline')), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query.type || undefined),
    );
    app.get(
      '/pipelines/:id',
      {
        config: { permission: 'pipelines:read' },
        schema: {
          tags,
          operationId: 'getPipeline',
          summary: 'Read a sales pipeline with its steps',
          params: IdParams,
          response: { 200: Type.Ref('Pipeline'), ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );
  };
};
