import { defineModule } from '../../platform/module.ts';
import { filesModule } from '../files/module.ts';
import { quotesModule } from '../quotes/module.ts';
import { findProofById, PROOF_ENTITY } from './repository.ts';
import { proofPublicRoutes, proofRoutes } from './routes.ts';
import { ProofSchema } from './schemas.ts';
import { createProofService, PREFLIGHT_JOB, type PreflightJobData, presentProof } from './service.ts';

/**
 * Artwork, preflight and proofs of quote lines, and the proof gate of the quote's conversion
 * (docs/proofs.md). Defines the durable preflight job and re-queues unfinished preflights at start.
 */
export const proofsModule = defineModule({
  name: 'proofs',
  services: (ctx) => ({
    proofs: createProofService(ctx, {
      quotes: quotesModule.services(ctx).quotes,
      files: filesModule.services(ctx).files,
    }),
  }),
  wire: (ctx, { proofs }) => {
    ctx.jobs.define<PreflightJobData>(
      PREFLIGHT_JOB,
      async (jobs) => {
        for (const job of jobs) await proofs.runPreflight(job.data);
      },
      { queue: { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 } },
    );
    ctx.jobs.afterStart(async () => {
      await proofs.recoverPending();
    });
    // A proof's events deliver it as GET /quotes/{id}/proofs lists each version (presentProof).
    ctx.registry.entityPayload(PROOF_ENTITY, { schema: ProofSchema });
    ctx.registry.eventResource(PROOF_ENTITY.tableName, async (db, organisationId, id) => {
      const row = await findProofById(db, organisationId, id);
      return row ? presentProof(row) : undefined;
    });
    return [{ plugin: proofRoutes(proofs) }, { plugin: proofPublicRoutes(proofs) }];
  },
});
