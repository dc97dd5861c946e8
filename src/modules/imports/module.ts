import { createMailer } from '../../platform/mailer.ts';
import { defineModule } from '../../platform/module.ts';
import { createChunkedFileStore } from '../files/chunks.ts';
import { createImportProcessor, IMPORT_JOB, type ImportJob, type ImportProcessor } from './processor.ts';
import { findImport, IMPORT_ENTITY, presentImport } from './repository.ts';
import { importsRoutes } from './routes.ts';
import { ImportSchema, ImportStatsSchema } from './schemas.ts';
import { createImportService, type ImportService } from './service.ts';

export type ImportsServices = { imports: ImportService; processor: ImportProcessor };

/**
 * CSV imports: the import job, the start-up recovery and the periodic sweep, the event resource.
 * The processor and its mailer stop with the app.
 */
export const importsModule = defineModule<ImportsServices>({
  name: 'imports',
  services: (ctx) => {
    const store = createChunkedFileStore(ctx);
    const mailer = createMailer(ctx);
    const processor = createImportProcessor(ctx, { store, mailer });
    ctx.onClose(async () => {
      await processor.stop();
      mailer.close();
    });
    return { imports: createImportService(ctx, { store, processor }), processor };
  },
  wire: (ctx, { imports, processor }) => {
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
    });
    // An import's events deliver it as GET /imports/{id} does (presentImport).
    ctx.registry.entityPayload(IMPORT_ENTITY, { schema: ImportSchema, refs: [ImportStatsSchema] });
    ctx.registry.eventResource('imports', async (db, organisationId, id) => {
      const row = await findImport(db, organisationId, id);
      return row ? presentImport(row) : undefined;
    });
    return [{ plugin: importsRoutes(imports) }];
  },
});
