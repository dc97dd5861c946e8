import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import {
  CreateStatusBody,
  STATUS_ALIASES,
  StatusEntityInput,
  StatusListQuery,
  StatusSchema,
  statusEntityOf,
  UpdateStatusBody,
} from './schemas.ts';
import type { createStatusService } from './service.ts';

const STATUS_CREATE_HIPE = { aliases: STATUS_ALIASES, flatten: ['additionalFields'] } as const;

/** `entity` in HIPE's names (`QUOTES`, any case) or ours, in the body or the query: ours. */
async function normaliseEntity(request: FastifyRequest) {
  for (const part of [request.body, request.query] as Record<string, unknown>[]) {
    if (part && typeof part === 'object' && 'entity' in part) part.entity = statusEntityOf(part.entity);
  }
}

export const statusesRoutes = (
  service: ReturnType<typeof createStatusService>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(StatusSchema);
    const tags = ['statuses'];
    const Status = Type.Ref('Status');

    app.post(
      '/statuses',
      {
        config: { permission: 'settings:manage', hipe: STATUS_CREATE_HIPE },
        preValidation: normaliseEntity,
        schema: {
          tags,
          operationId: 'createStatus',
          summary: 'Create a status for an entity',
          description:
            'The internal label is unique per entity among live statuses (409). `isDefault: true` moves ' +
            'the default from the previous default status. Without `position` the status goes last.',
          body: CreateStatusBody,
          response: { 201: Status, ...problemResponses(409) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/statuses',
      {
        config: { permission: 'settings:read' },
        preValidation: normaliseEntity,
        schema: {
          tags,
          operationId: 'listStatuses',
          summary: 'List the statuses of the organisation, optionally of one entity',
          querystring: StatusListQuery,
          response: { 200: Paginated(Status), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/statuses/entity',
      {
        config: { permission: 'settings:read' },
        preValidation: normaliseEntity,
        schema: {
          tags,
          operationId: 'listStatusesOfEntity',
          summary: 'The statuses of one entity in workflow order (by position)',
          querystring: Type.Object({ entity: StatusEntityInput }, { additionalProperties: false }),
          response: { 200: Type.Array(Status), ...problemResponses() },
        },
      },
      async (request) => service.listOfEntity(actorOf(request), request.query.entity),
    );

    app.get(
      '/statuses/:id',
      {
        config: { permission: 'settings:read' },
        schema: {
          tags,
          operationId: 'getStatus',
          summary: 'Get a status',
          params: IdParams,
          response: { 200: Status, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/statuses/:id',
      {
        config: { permission: 'settings:manage', hipe: { aliases: STATUS_ALIASES } },
        preValidation: normaliseEntity,
        schema: {
          tags,
          operationId: 'updateStatus',
          summary: 'Change a status (its entity cannot change)',
          params: IdParams,
          body: UpdateStatusBody,
          response: { 200: Status, ...problemResponses(409) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/statuses/:id',
      {
        config: { permission: 'settings:manage' },
        schema: {
          tags,
          operationId: 'deleteStatus',
          summary: 'Delete a status (soft delete)',
          description:
            'Records already referencing the status keep it; it is no longer offered or accepted for new ' +
            'assignments. The default status cannot be deleted while its entity has other statuses (409).',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses(409) },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );
  };
};
