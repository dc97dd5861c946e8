import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { DeletedResponse, IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import { CreateProjectBody, ProjectSchema, UpdateProjectBody } from './schemas.ts';
import { type createProjectService, PROJECT_PAGE } from './service.ts';

const Project = Type.Ref('Project');

const ProjectListQuery = pageQuerySchema(PROJECT_PAGE, {
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive "contains" on name, code or externalId',
    }),
  ),
  companyId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the projects of this company' })),
  externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exact externalId' })),
  manager: Type.Optional(Type.String({ format: 'uuid', description: 'Only the projects this user manages' })),
  createdBy: Type.Optional(
    Type.String({ format: 'uuid', description: 'Only the projects this user created' }),
  ),
  status: Type.Optional(
    Type.String({ maxLength: 2000, description: 'Comma-separated status ids: the projects in any of them' }),
  ),
  start: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only the projects created at or after this time' }),
  ),
  end: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only the projects created at or before this time' }),
  ),
  ...Object.fromEntries(
    ['contact', 'date', 'filterId', 'pipeline', 'step'].map((name) => [
      name,
      Type.Optional(Type.String({ maxLength: 200, description: 'Accepted from HIPE clients and ignored' })),
    ]),
  ),
});

export const projectsRoutes = (
  service: ReturnType<typeof createProjectService>,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(ProjectSchema);

    for (const [url, operationId] of [
      ['/projects/pagination', 'listProjects'],
      ['/projects', 'listProjectsAlias'],
    ] as const) {
      app.get(
        url,
        {
          config: { permission: 'projects:read' },
          schema: {
            tags: ['projects'],
            operationId,
            summary:
              url === '/projects'
                ? 'List projects (same as /projects/pagination)'
                : 'List projects page by page',
            description: 'Projects of archived companies are not listed.',
            querystring: ProjectListQuery,
            response: { 200: Paginated(Project), ...problemResponses() },
          },
        },
        async (request) => service.list(actorOf(request), request.query),
      );
    }

    app.post(
      '/projects',
      {
        config: { permission: 'projects:write', hipe: { aliases: [], jsonStrings: ['customFields'] } },
        schema: {
          tags: ['projects'],
          operationId: 'createProject',
          summary: 'Create a project',
          description:
            '`companyId` must be a company of the organisation (422 `unknown_company`; external sales: one of ' +
            'their companies, else 403); `statusId` a project status (422 `unknown_status`); `externalId` is ' +
            'unique per organisation (409 `external_id_taken`).',
          body: CreateProjectBody,
          response: { 201: Project, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/projects/:id',
      {
        config: { permission: 'projects:read' },
        schema: {
          tags: ['projects'],
          operationId: 'getProject',
          summary: 'Read a project',
          params: IdParams,
          response: { 200: Project, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/projects/:id',
      {
        config: { permission: 'projects:write', hipe: { aliases: [], jsonStrings: ['customFields'] } },
        schema: {
          tags: ['projects'],
          operationId: 'updateProject',
          summary: 'Change a project',
          description:
            'Only the properties sent change; a new `companyId` moves the project to that company.',
          params: IdParams,
          body: UpdateProjectBody,
          response: { 200: Project, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/projects/:id',
      {
        config: { permission: 'projects:write', hipe: { aliases: [], jsonStrings: ['customFields'] } },
        schema: {
          tags: ['projects'],
          operationId: 'deleteProject',
          summary: 'Delete a project (soft delete)',
          params: IdParams,
          response: { 200: DeletedResponse, ...problemResponses() },
        },
      },
      async (request) => service.remove(actorOf(request), request.params.id),
    );
  };
};
