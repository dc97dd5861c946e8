import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { createFilesService } from '../files/service.ts';
import { quotesModule } from '../quotes/module.ts';
import { findProofById, PROOF_ENTITY } from './repository.ts';
import { proofPublicRoutes, proofRoutes } from './routes.ts';
import { ProofSchema } from './schemas.ts';
import { createProofService, PREFLIGHT_JOB, type PreflightJobData, presentProof } from './service.ts';

/**
 * Artwork, preflight and proofs of quote lines, and the proof gate of the quote's conversion
 * (docs/proofs.md). Defines the durable preflight job and re-queues unfinished preflights at start.
 */
/** A proof's events deliver it as GET /quotes/{id}/proofs lists each version (presentProof). */
declareEntityPayload(PROOF_ENTITY, { schema: ProofSchema });

export const proofsFeature: FeatureModule = {
  name: 'proofs',
  wire: (ctx) => {
    const service = createProofService(ctx, {
      quotes: quotesModule(ctx).service,
      files: createFilesService(ctx),
    });
    ctx.jobs.define<PreflightJobData>(
      PREFLIGHT_JOB,
      async (jobs) => {
        for (const job of jobs) await service.runPreflight(job.data);
      },
      { queue: { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 } },
    );
    ctx.jobs.afterStart(async () => {
      await service.recoverPending();
    });
    registerEventResource(PROOF_ENTITY.tableName, async (db, organisationId, id) => {
      const row = await findProofById(db, organisationId, id);
      return row ? presentProof(row) : undefined;
    });
    return [{ plugin: proofRoutes(service) }, { plugin: proofPublicRoutes(service) }];
  },
};
