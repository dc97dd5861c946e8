import type { AppContext } from '../../context.ts';
import { declareEntityPayload } from '../../platform/events.ts';
import { createMailer } from '../../platform/mailer.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { createChunkedFileStore } from '../files/chunks.ts';
import { createImportProcessor, IMPORT_JOB, type ImportJob, type ImportProcessor } from './processor.ts';
import { findImport, IMPORT_ENTITY, presentImport } from './repository.ts';
import { importsRoutes } from './routes.ts';
import { ImportSchema, ImportStatsSchema } from './schemas.ts';
import { createImportService, type ImportService } from './service.ts';

/** An import's events deliver it as GET /imports/{id} does (presentImport). */
declareEntityPayload(IMPORT_ENTITY, { schema: ImportSchema, refs: [ImportStatsSchema] });

export type ImportsModule = { service: ImportService; processor: ImportProcessor };
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

export const importsFeature: FeatureModule = {
  name: 'imports',
  wire: (ctx) => [{ plugin: importsRoutes(ctx, importsModule(ctx)) }],
};
