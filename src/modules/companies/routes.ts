import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, Paginated, problemResponses, Uuid } from '../../platform/schemas.ts';
import { COMPANY_CRUD_FIELDS } from './repository.ts';
import {
  CompanySchema,
  CreateCompanyBody,
  crudQuerySchema,
  foldIndexedCrudParams,
  SearchResult,
  UpdateCompanyBody,
} from './schemas.ts';
import { COMPANY_PAGE, COMPANY_SEARCH, createCompanyService } from './service.ts';

const Company = Type.Ref('Company');

export const companiesRoutes = (ctx: AppContext): FastifyPluginAsyncTypebox => {
  const service = createCompanyService(ctx);
  return async (app) => {
    app.addSchema(CompanySchema);

    app.get(
      '/companies',
      {
        config: { permission: 'companies:read' },
        preValidation: foldIndexedCrudParams,
        schema: {
          tags: ['companies'],
          operationId: 'searchCompanies',
          summary: 'Search companies (@nestjsx/crud grammar)',
          description:
            'The ERP sync flow: `s={"externalId":{"$eq":"X"}}&limit=1` (or `$contL` on `name`) answers an array ' +
            'of zero or one company; create it with POST when absent, update it with PATCH when present. ' +
            'A plain array unless `page` is given.',
          querystring: crudQuerySchema({ fields: Object.keys(COMPANY_CRUD_FIELDS), ...COMPANY_SEARCH }),
          response: { 200: SearchResult(Company), ...problemResponses() },
        },
      },
      async (request) => service.search(actorOf(request), request.query),
    );

    app.get(
      '/companies/pagination',
      {
        config: { permission: 'companies:read' },
        schema: {
          tags: ['companies'],
          operationId: 'listCompanies',
          summary: 'List companies page by page',
          querystring: pageQuerySchema(COMPANY_PAGE, {
            search: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 200,
                description: 'Case-insensitive "contains" on name or externalId',
              }),
            ),
            parentId: Type.Optional(
              Type.String({ format: 'uuid', description: 'Only children of this company' }),
            ),
          }),
          response: { 200: Paginated(Company), ...problemResponses() },
        },
      },
      async (request) => service.paginate(actorOf(request), request.query),
    );

    app.post(
      '/companies',
      {
        config: { permission: 'companies:write' },
        schema: {
          tags: ['companies'],
          operationId: 'createCompany',
          summary: 'Create a company',
          description:
            '`externalId` is unique per organisation (409 `external_id_taken`); `parentId` must be a company ' +
            'of the organisation (422 `parent_not_found`). A company-scoped creator (external sales) is ' +
            'linked to the company it creates.',
          body: CreateCompanyBody,
          response: { 201: Company, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/companies/:id',
      {
        config: { permission: 'companies:read' },
        schema: {
          tags: ['companies'],
          operationId: 'getCompany',
          summary: 'Read a company',
          params: IdParams,
          response: { 200: Company, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.patch(
      '/companies/:id',
      {
        config: { permission: 'companies:write' },
        schema: {
          tags: ['companies'],
          operationId: 'updateCompany',
          summary: 'Change a company',
          description:
            'Only the properties sent change. A parent that is the company itself or one of its descendants ' +
            'is refused (422 `company_cycle`).',
          params: IdParams,
          body: UpdateCompanyBody,
          response: { 200: Company, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/companies/:id/archived',
      {
        config: { permission: 'companies:write' },
        schema: {
          tags: ['companies'],
          operationId: 'archiveCompany',
          summary: 'Archive a company (soft delete)',
          description:
            'Answers the archived company. An archived company, its projects and addresses are no longer ' +
            'visible, and its externalId is free again. A company with live child companies is refused ' +
            '(409 `company_has_children`).',
          params: Type.Object({ id: Uuid }),
          response: { 200: Company, ...problemResponses(409) },
        },
      },
      async (request) => service.archive(actorOf(request), request.params.id),
    );
  };
};
