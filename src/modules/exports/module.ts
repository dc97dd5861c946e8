import { defineModule } from '../../platform/module.ts';
import { filesModule } from '../files/module.ts';
import { createExportRecovery, EXPORT_SWEEP_INTERVAL_MS } from './recovery.ts';
import { findLiveExport } from './repository.ts';
import { ExportSchema, exportsRoutes } from './routes.ts';
import { createExportService, EXPORT_ENTITY, EXPORT_JOB, type ExportJob, presentExport } from './service.ts';

/** CSV exports: the export job, the recovery of exports a crash left behind, the event resource. */
export const exportsModule = defineModule({
  name: 'exports',
  services: (ctx) => ({ exports: createExportService(ctx, { files: filesModule.services(ctx).files }) }),
  wire: (ctx, services) => {
    const service = services.exports;
    ctx.jobs.define<ExportJob>(
      EXPORT_JOB,
      async (jobs) => {
        for (const job of jobs) await service.run(job.data.exportId);
      },
      {
        queue: {
          policy: 'stately',
          retryLimit: 3,
          retryDelay: 10,
          retryBackoff: true,
          expireInSeconds: 3600,
        },
      },
    );
    // Exports left behind by a crash go back to the queue (recovery.ts): at start-up, then every minute.
    const recovery = createExportRecovery(ctx);
    let sweep: NodeJS.Timeout | undefined;
    const recover = () =>
      recovery.recover().catch((error) => ctx.log.error({ err: error }, 'export recovery sweep failed'));
    ctx.jobs.afterStart(async () => {
      await recover();
      sweep = setInterval(recover, EXPORT_SWEEP_INTERVAL_MS);
      sweep.unref();
    });
    ctx.onClose(async () => {
      if (sweep) clearInterval(sweep);
    });
    // An export's events deliver it as GET /exports/{id} does (presentExport).
    ctx.registry.entityPayload(EXPORT_ENTITY, { schema: ExportSchema });
    ctx.registry.eventResource('exports', async (db, organisationId, id) => {
      const row = await findLiveExport(db, organisationId, id);
      return row ? presentExport(row) : undefined;
    });
    return [{ plugin: exportsRoutes(service) }];
  },
});
