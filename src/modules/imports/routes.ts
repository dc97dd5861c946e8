import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IMPORT_STATUS, type ImportStatusName } from '../../db/schema/imports.ts';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import { DELIMITERS, IMPORT_TYPES, STATUS_DESCRIPTIONS, TERMINAL_STATUSES } from './import-types.ts';
import {
  CreateImportBody,
  DelimiterSchema,
  ImportListQuery,
  ImportSchema,
  ImportStatsSchema,
  ImportStatusSchema,
  ImportTypeSchema,
} from './schemas.ts';
import type { ImportService } from './service.ts';

export const importsRoutes = (service: ImportService): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(ImportStatsSchema);
    app.addSchema(ImportSchema);
    const tags = ['imports'];
    const config = { permission: 'imports:manage' as const };
    const ImportRef = Type.Ref('Import');

    app.post(
      '/imports',
      {
        config,
        schema: {
          tags,
          operationId: 'createImport',
          summary: 'Upload a CSV file to import',
          description:
            'multipart/form-data: `type` (16 companies, 17 contacts, 18 articles, 19 orders, or their names), ' +
            '`delimiter` (comma, semicolon, tab, pipe or the character; default comma), optional `dryRun` and ' +
            '`allowDelete` (true/false), and the file in `csv` (UTF-8 with or without BOM, header row). The file is ' +
            'processed in the background: poll GET /api/imports/{id}. Larger than the configured limit: 413; ' +
            'not text: 400 `not_csv`. See docs/imports.md for the columns of each type.',
          body: CreateImportBody,
          response: { 201: ImportRef, ...problemResponses(413, 415) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request)),
    );

    app.get(
      '/imports',
      {
        config,
        schema: {
          tags,
          operationId: 'listImports',
          summary: 'List the imports of the organisation, newest first',
          querystring: ImportListQuery,
          response: { 200: Paginated(ImportRef), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/imports/utils/get-types',
      {
        config,
        schema: {
          tags,
          operationId: 'listImportTypes',
          summary: 'The import types and their columns',
          response: { 200: Type.Array(ImportTypeSchema), ...problemResponses() },
        },
      },
      async () =>
        IMPORT_TYPES.map((t) => ({
          code: t.code,
          name: t.name,
          description: t.description,
          requiredColumns: t.required,
          columns: t.columns,
          customFieldColumns: `cf.<key>, for the custom fields of entity ${t.customFieldEntity}`,
        })),
    );

    app.get(
      '/imports/utils/get-status',
      {
        config,
        schema: {
          tags,
          operationId: 'listImportStatuses',
          summary: 'The import status codes',
          response: { 200: Type.Array(ImportStatusSchema), ...problemResponses() },
        },
      },
      async () =>
        (Object.entries(IMPORT_STATUS) as [ImportStatusName, (typeof IMPORT_STATUS)[ImportStatusName]][]).map(
          ([name, code]) => ({
            code,
            name,
            description: STATUS_DESCRIPTIONS[name],
            terminal: TERMINAL_STATUSES.includes(code),
          }),
        ),
    );

    app.get(
      '/imports/utils/get-delimiters',
      {
        config,
        schema: {
          tags,
          operationId: 'listImportDelimiters',
          summary: 'The accepted delimiters',
          response: { 200: Type.Array(DelimiterSchema), ...problemResponses() },
        },
      },
      async () => [...DELIMITERS],
    );

    app.get(
      '/imports/:id',
      {
        config,
        schema: {
          tags,
          operationId: 'getImport',
          summary: 'An import and its progress',
          params: IdParams,
          response: { 200: ImportRef, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.get(
      '/imports/:id/download',
      {
        config,
        schema: {
          tags,
          operationId: 'downloadImportFile',
          summary: 'Download the file of an import, as uploaded',
          params: IdParams,
          response: {
            200: {
              description: 'The CSV file',
              content: { 'text/csv': { schema: { type: 'string' } } },
            },
            ...problemResponses(410),
          },
        },
      },
      async (request, reply) => {
        const { file, stream } = await service.download(actorOf(request), request.params.id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-length', String(file.size))
          .header('content-disposition', contentDisposition(file.filename))
          .header('x-content-type-options', 'nosniff')
          .header('etag', `"${file.sha256}"`)
          .send(stream as never);
      },
    );

    app.patch(
      '/imports/:id/archive',
      {
        config,
        schema: {
          tags,
          operationId: 'archiveImportFile',
          summary: 'Archive an import, whatever its status: it leaves the list, its file is released',
          description:
            'Answers the import; it is then absent from GET /api/imports (GET /api/imports/{id} still reads ' +
            'it). The stored file is released (`fileArchived` true) when the import has ended; a requested or ' +
            'running import is not stopped (cancel it first to stop it): it goes on to its end and keeps its ' +
            'file. Archiving again changes nothing.',
          params: IdParams,
          response: { 200: ImportRef, ...problemResponses(409) },
        },
      },
      async (request) => service.archive(actorOf(request), request.params.id),
    );

    app.post(
      '/imports/:id/run',
      {
        config,
        schema: {
          tags,
          operationId: 'runImportForReal',
          summary: 'Run a dry run for real, on its stored file (no new upload)',
          description:
            'Creates and queues a new import (201) of the same type, delimiter and allowDelete with `dryRun` false and ' +
            "`fromDryRunId` set, reading a copy of the dry run's stored file. Only a dry run that ended (4 SENT or " +
            '5 DONE, its file not refused): else 409 `import_not_runnable`; once per dry run (409 ' +
            '`dry_run_already_run`); 410 `file_archived` once its file was archived. See docs/imports.md.',
          params: IdParams,
          response: { 201: ImportRef, ...problemResponses(409, 410) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.runForReal(actorOf(request), request.params.id)),
    );

    app.post(
      '/imports/:id/cancel',
      {
        config,
        schema: {
          tags,
          operationId: 'cancelImport',
          summary: 'Cancel a requested or running import (status 3 ABORTED)',
          description:
            'A running import stops at its next batch; the batches committed before stay. Other statuses: 409.',
          params: IdParams,
          response: { 200: ImportRef, ...problemResponses(409) },
        },
      },
      async (request) => service.cancel(actorOf(request), request.params.id),
    );
  };
};
