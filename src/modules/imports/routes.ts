import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { IMPORT_STATUS, type ImportStatusName } from '../../db/schema/imports.ts';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { createMailer } from '../../platform/mailer.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, Paginated, problemResponses } from '../../platform/schemas.ts';
import { registerEventResource } from '../events/resources.ts';
import { createChunkedFileStore } from '../files/chunks.ts';
import { DELIMITERS, IMPORT_TYPES, STATUS_DESCRIPTIONS, TERMINAL_STATUSES } from './catalog.ts';
import { createImportProcessor, IMPORT_JOB, type ImportJob, type ImportProcessor } from './processor.ts';
import { findImport, presentImport } from './repository.ts';
import {
  CreateImportBody,
  DelimiterSchema,
  ImportListQuery,
  ImportSchema,
  ImportStatsSchema,
  ImportStatusSchema,
  ImportTypeSchema,
} from './schemas.ts';
import { createImportService, type ImportService } from './service.ts';

type ImportsModule = { service: ImportService; processor: ImportProcessor };
const modules = new WeakMap<AppContext, ImportsModule>();

/**
 * The imports service and processor of an app, made once per context: defines the job, the
 * start-up recovery and the periodic sweep, and registers the event resource.
 */
export function importsModule(ctx: AppContext): ImportsModule {
  const existing = modules.get(ctx);
  if (existing) return existing;
  const store = createChunkedFileStore(ctx);
  const mailer = createMailer(ctx);
  const processor = createImportProcessor(ctx, { store, mailer });
  const service = createImportService(ctx, { store, processor });
  const module = { service, processor };
  modules.set(ctx, module);

  ctx.jobs.define<ImportJob>(
    IMPORT_JOB,
    async (jobs) => {
      for (const job of jobs) await processor.run(job.data.importId);
    },
    {
      // One queued and one running job per import (singletonKey = import id). The worker sends
      // pg-boss heartbeats while it runs: a job whose process died is retried after about a
      // minute (heartbeat + supervision), well before its expiry; the recovery sweep below,
      // driven by the import's own heartbeat, frees it sooner (IMPORT_STALE_AFTER_SECONDS).
      queue: {
        policy: 'stately',
        retryLimit: 3,
        retryDelay: 10,
        retryBackoff: true,
        expireInSeconds: 4 * 3600,
        heartbeatSeconds: 30,
      },
      work: { pollingIntervalSeconds: 0.5 },
    },
  );
  let sweep: NodeJS.Timeout | undefined;
  ctx.jobs.afterStart(async () => {
    await processor.recover(true);
    sweep = setInterval(() => {
      processor
        .recover(false)
        .catch((error) => ctx.log.error({ err: error }, 'import recovery sweep failed'));
    }, processor.sweepIntervalMs);
    sweep.unref();
  });
  ctx.onClose(async () => {
    if (sweep) clearInterval(sweep);
    await processor.stop();
    mailer.close();
  });
  registerEventResource('imports', async (db, organisationId, id) => {
    const row = await findImport(db, organisationId, id);
    return row ? presentImport(row) : undefined;
  });
  return module;
}

export const importsRoutes = (ctx: AppContext): FastifyPluginAsyncTypebox => {
  const { service } = importsModule(ctx);
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
