import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { crudQuerySchema, foldIndexedCrudParams, SearchResult } from '../../platform/crud-search.ts';
import { AFTER_QUERY_DESCRIPTION, LIST_COUNT_CAP } from '../../platform/list-paging.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { CountedPage, IdParams, problemResponses, Uuid } from '../../platform/schemas.ts';
import { COMPANY_CRUD_FIELDS } from './repository.ts';
import { COMPANY_ALIASES, CompanySchema, CreateCompanyBody, UpdateCompanyBody } from './schemas.ts';
import { COMPANY_PAGE, COMPANY_SEARCH, type createCompanyService } from './service.ts';

const Company = Type.Ref('Company');

/** Filters HIPE's node offers on GET /companies/pagination that mean nothing here: accepted, ignored. */
const HIPE_IGNORED_COMPANY_FILTERS = Object.fromEntries(
  [
    'category',
    'comment',
    'company',
    'contact',
    'createdAt',
    'cursor',
    'date',
    'event',
    'filterId',
    'hierarchy',
    'lastupdate',
    'pipeline',
    'price',
    'process',
    'product',
    'role',
    'status',
    'step',
    'tab',
    'taskType',
    'type',
    'updateEnd',
    'updateStart',
    'updatedAt',
    'user',
    'version',
  ].map((name) => [
    name,
    Type.Optional(Type.String({ maxLength: 200, description: 'Accepted from HIPE clients and ignored' })),
  ]),
);

const COMPANY_HIPE = { aliases: COMPANY_ALIASES, jsonStrings: ['customFields'] } as const;

export const companiesRoutes = (
  service: ReturnType<typeof createCompanyService>,
): FastifyPluginAsyncTypebox => {
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
          querystring: crudQuerySchema({
            fields: Object.keys(COMPANY_CRUD_FIELDS),
            ...COMPANY_SEARCH,
            keyset: true,
          }),
          response: { 200: SearchResult(Company, { countCap: LIST_COUNT_CAP }), ...problemResponses() },
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
            after: Type.Optional(Type.String({ format: 'uuid', description: AFTER_QUERY_DESCRIPTION })),
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
            manager: Type.Optional(
              Type.String({
                format: 'uuid',
                description: 'Only the companies managed by this user (`managedById`)',
              }),
            ),
            createdBy: Type.Optional(
              Type.String({ format: 'uuid', description: 'Only the companies created by this user' }),
            ),
            start: Type.Optional(
              Type.String({
                format: 'date-time',
                description: 'Only the companies created at or after this time',
              }),
            ),
            end: Type.Optional(
              Type.String({
                format: 'date-time',
                description: 'Only the companies created at or before this time',
              }),
            ),
            ...HIPE_IGNORED_COMPANY_FILTERS,
          }),
          response: {
            200: CountedPage(Company, { cap: LIST_COUNT_CAP, alwaysSaysExact: false }),
            ...problemResponses(),
          },
        },
      },
      async (request) => service.paginate(actorOf(request), request.query),
    );

    app.post(
      '/companies',
      {
        config: { permission: 'companies:write', hipe: COMPANY_HIPE },
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
        config: { permission: 'companies:write', hipe: COMPANY_HIPE },
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

    app.delete(
      '/companies/:id',
      {
        config: { permission: 'companies:write' },
        schema: {
          tags: ['companies'],
          operationId: 'deleteCompany',
          summary: "Delete a company (HIPE client's hard delete; archives it here)",
          description:
            'The same as DELETE /api/companies/{id}/archived: the company is archived (soft delete) rather ' +
            'than erased, so the orders, quotes and events that refer to it keep their history.',
          params: Type.Object({ id: Uuid }),
          response: { 200: Company, ...problemResponses(409) },
        },
      },
      async (request) => service.archive(actorOf(request), request.params.id),
    );
  };
};
