import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { exports } from '../../db/schema/exports.ts';
import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { createExportRecovery, EXPORT_SWEEP_INTERVAL_MS } from './recovery.ts';
import { ExportSchema, exportsRoutes } from './routes.ts';
import { createExportService, EXPORT_ENTITY, EXPORT_JOB, type ExportJob, presentExport } from './service.ts';

/** An export's events deliver it as GET /exports/{id} does (presentExport). */
declareEntityPayload(EXPORT_ENTITY, { schema: ExportSchema });

export type ExportsModule = { service: ReturnType<typeof createExportService> };
const modules = new WeakMap<AppContext, ExportsModule>();

/** The exports service of an app, made once per context: defines the job and the event resource. */
export function exportsModule(ctx: AppContext): ExportsModule {
  const existing = modules.get(ctx);
  if (existing) return existing;
  const service = createExportService(ctx);
  modules.set(ctx, { service });
  ctx.jobs.define<ExportJob>(
    EXPORT_JOB,
    async (jobs) => {
      for (const job of jobs) await service.run(job.data.exportId);
    },
    {
      queue: { policy: 'stately', retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 3600 },
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
  registerEventResource('exports', async (db, organisationId, id) => {
    const [row] = await db
      .select()
      .from(exports)
      .where(and(eq(exports.id, id), eq(exports.organisationId, organisationId), isNull(exports.deletedAt)));
    return row ? presentExport(row) : undefined;
  });
  return modules.get(ctx)!;
}

export const exportsFeature: FeatureModule = {
  name: 'exports',
  wire: (ctx) => [{ plugin: exportsRoutes(ctx, exportsModule(ctx)) }],
};
