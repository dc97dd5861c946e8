import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IMPORT_STATUS, type ImportStatusName } from '../../db/schema/imports.ts';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, Nullable, problemResponses } from '../../platform/schemas.ts';
import { IMPORT_TYPES, STATUS_DESCRIPTIONS } from '../imports/import-types.ts';
import type { createExportService } from './service.ts';

type ExportService = ReturnType<typeof createExportService>;

const DateTime = Type.String({ format: 'date-time' });
export const ExportSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.String({
      description:
        'The import type code whose columns are written: 16 companies, 17 contacts, 18 articles, 19 orders',
    }),
    typeName: Type.String(),
    status: Type.Integer({
      description: 'The imports’ codes: 1 requested, 2 in progress, 5 done, 7 crashed',
    }),
    statusName: Type.String(),
    delimiter: Type.String(),
    startDate: Nullable(DateTime),
    endDate: Nullable(DateTime),
    userIds: Type.Array(Type.String({ format: 'uuid' })),
    start_date: Nullable(DateTime),
    end_date: Nullable(DateTime),
    user_ids: Type.Array(Type.String({ format: 'uuid' }), { description: 'HIPE alias of userIds' }),
    fileId: Nullable(Type.String({ format: 'uuid' })),
    stats: Type.Object(
      {
        rows: Nullable(Type.Integer()),
        startedAt: Nullable(Type.String()),
        finishedAt: Nullable(Type.String()),
        reason: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
    archived: Type.Boolean(),
    archivedAt: Nullable(DateTime),
    createdById: Nullable(Type.String({ format: 'uuid' })),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Export' },
);

const DateInput = Nullable(
  Type.String({ maxLength: 40, description: 'ISO 8601 date or timestamp; "" = no bound' }),
);
const CreateExportBody = Type.Object(
  {
    type: Type.Union([Type.Integer(), Type.String({ maxLength: 20 })], {
      description:
        'An import type code (16 companies, 17 contacts, 18 articles, 19 orders), as a number or text, or its name',
    }),
    start_date: Type.Optional(DateInput),
    end_date: Type.Optional(DateInput),
    user_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 500 })),
    startDate: Type.Optional(DateInput),
    endDate: Type.Optional(DateInput),
    userIds: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 500 })),
    delimiter: Type.Optional(
      Type.String({ maxLength: 20, description: '`,` (default) `;` `|` tab, or their names' }),
    ),
  },
  { additionalProperties: false },
);
const ExportListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    status: Type.Optional(Type.String({ maxLength: 50, description: 'Comma-separated status codes' })),
    type: Type.Optional(Type.String({ maxLength: 20 })),
    start: Type.Optional(Type.String({ maxLength: 40, description: 'Created from (inclusive)' })),
    end: Type.Optional(Type.String({ maxLength: 40, description: 'Created until (exclusive)' })),
    s: Type.Optional(Type.String({ maxLength: 200, description: 'A type code' })),
    filterId: Type.Optional(
      Type.String({ maxLength: 200, description: 'Accepted and ignored (HIPE saved filters)' }),
    ),
    sort: Type.Optional(Type.String({ pattern: '^(createdAt|updatedAt),(ASC|DESC|asc|desc)$' })),
  },
  { additionalProperties: false },
);

/** `/api/exports`: CSV exports in the imports' columns (HIPE client), admins like imports. */
export const exportsRoutes = (service: ExportService): FastifyPluginAsyncTypebox => {
  const tags = ['exports'];
  const config = { permission: 'exports:manage' as const };
  return async (app) => {
    app.addSchema(ExportSchema);
    const Export = Type.Ref('Export');
    app.get(
      '/exports/utils/get-types',
      {
        config,
        schema: {
          tags,
          operationId: 'getExportTypes',
          summary: 'The export types: the import types, whose columns an export writes',
          response: {
            200: Type.Array(
              Type.Object({ code: Type.String(), name: Type.String(), columns: Type.Array(Type.String()) }),
            ),
            ...problemResponses(),
          },
        },
      },
      async () =>
        IMPORT_TYPES.map((t) => ({ code: t.code, name: t.name, columns: t.columns.map((c) => c.name) })),
    );
    app.get(
      '/exports/utils/get-status',
      {
        config,
        schema: {
          tags,
          operationId: 'getExportStatuses',
          summary: 'The export status codes (the imports’: 1, 2, 5 and 7 are used)',
          response: {
            200: Type.Array(
              Type.Object({ code: Type.Integer(), name: Type.String(), description: Type.String() }),
            ),
            ...problemResponses(),
          },
        },
      },
      async () =>
        (Object.entries(IMPORT_STATUS) as [ImportStatusName, number][])
          .filter(([, code]) => [1, 2, 5, 7].includes(code))
          .map(([name, code]) => ({
            code,
            name,
            description:
              code === 5 ? 'Done: the file is ready (GET /exports/{id}/download)' : STATUS_DESCRIPTIONS[name],
          })),
    );
    app.post(
      '/exports',
      {
        config,
        schema: {
          tags,
          operationId: 'createExport',
          summary: 'Request a CSV export; a background job writes it (poll GET /exports/{id} until status 5)',
          description:
            'Writes the organisation’s live records of the type in the columns its import reads, created between ' +
            '`start_date` and `end_date` and by `user_ids` when given (HIPE’s names; ours `startDate`, `endDate`, `userIds`).',
          body: CreateExportBody,
          response: { 201: Export, ...problemResponses(422) },
        },
      },
      async (request, reply) => reply.code(201).send(await service.create(actorOf(request), request.body)),
    );
    app.get(
      '/exports',
      {
        config,
        schema: {
          tags,
          operationId: 'listExports',
          summary: 'List the exports (archived ones left out)',
          querystring: ExportListQuery,
          response: {
            200: Type.Object({
              data: Type.Array(Export),
              meta: Type.Object({
                page: Type.Integer(),
                limit: Type.Integer(),
                total: Type.Integer(),
                pageCount: Type.Integer(),
              }),
            }),
            ...problemResponses(),
          },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );
    app.get(
      '/exports/:id',
      {
        config,
        schema: {
          tags,
          operationId: 'getExport',
          summary: 'Read an export and its status',
          params: IdParams,
          response: { 200: Export, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );
    app.patch(
      '/exports/:id/archive',
      {
        config,
        schema: {
          tags,
          operationId: 'archiveExport',
          summary: 'Archive an export: it leaves the list, stays readable and downloadable; at any status',
          params: IdParams,
          response: { 200: Export, ...problemResponses() },
        },
      },
      async (request) => service.archive(actorOf(request), request.params.id),
    );
    app.get(
      '/exports/:id/download',
      {
        config,
        schema: {
          tags,
          operationId: 'downloadExport',
          summary: 'Download the CSV of a done export (409 export_not_ready before)',
          params: IdParams,
          response: {
            200: { description: 'The CSV file', content: { 'text/csv': { schema: { type: 'string' } } } },
            ...problemResponses(409),
          },
        },
      },
      async (request, reply) => {
        const { file, content } = await service.download(actorOf(request), request.params.id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition(file.filename))
          .header('x-content-type-options', 'nosniff')
          .send(content as never);
      },
    );
  };
};
