/**
 * The background pricing of briefs created with POST /briefs/async: a durable pg-boss job per
 * brief (`briefs.predict`, singleton per brief), a start-up recovery and a periodic sweep that
 * re-queue briefs left PENDING or IN_PROGRESS without a live job. See docs/briefs.md.
 *
 *   PENDING --job claims--> IN_PROGRESS --priced--> COMPLETED
 *                                       --engine refuses / attempts exhausted--> FAILED
 */
import type { JobWithMetadata } from 'pg-boss';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { EventRecorder } from '../../platform/events.ts';
import { PricingError, priceBrief } from '../../pricing/index.ts';
import { loadCatalogue } from '../catalogue/loader.ts';
import { type BriefRow, elementValuesOf, engineBrief } from './mapping.ts';
import { listLiveBriefsIn, lockBrief } from './prediction-repository.ts';
import { applyBriefPrediction, failureReasonOf } from './prediction-writes.ts';
import { presentListItem } from './presenters.ts';
import { BRIEF_ENTITY, liveElementsOf, nextVersion, updateBrief } from './repository.ts';

export const PREDICT_JOB = 'briefs.predict';
export type PredictJob = { briefId: string; organisationId: string; revision: number };

/** Runs of the job for one revision before the brief is given up as FAILED. */
export const MAX_PREDICTION_ATTEMPTS = 5;
/** A brief waiting this long (PENDING or IN_PROGRESS) is re-queued by the periodic sweep. */
const STALE_MS = 30_000;
const SWEEP_INTERVAL_MS = 60_000;
const UNFINISHED = ['PENDING', 'IN_PROGRESS'] as const;

export function createPredictor(ctx: Pick<AppContext, 'db' | 'change' | 'jobs' | 'log'>) {
  const actorOf = (row: Pick<BriefRow, 'organisationId' | 'createdById'>) => ({
    organisationId: row.organisationId,
    userId: row.createdById,
  });

  async function lock(tx: Tx, job: PredictJob) {
    const row = await lockBrief(tx, job.organisationId, job.briefId);
    const current =
      row &&
      !row.deletedAt &&
      row.revision === job.revision &&
      UNFINISHED.includes(row.predictionStatus as 'PENDING');
    return current ? row : undefined;
  }

  async function fail(tx: Tx, record: EventRecorder, row: BriefRow, reason: string) {
    const failed = await updateBrief(tx, row.id, {
      predictionStatus: 'FAILED',
      hasPrice: false,
      failureReason: reason,
      updatedAt: new Date(),
    });
    await record({
      on: BRIEF_ENTITY,
      type: 'UPDATE',
      entityId: row.id,
      snapshot: presentListItem(failed, { project: null }),
      updatedColumns: ['predictionStatus', 'failureReason'],
      process: 'PREDICTION',
    });
  }

  /** PENDING -> IN_PROGRESS (or a stale IN_PROGRESS taken over); false when nothing is to be done. */
  async function claim(job: PredictJob): Promise<boolean> {
    return ctx.change({ organisationId: job.organisationId, userId: null }, async (tx, record) => {
      const row = await lock(tx, job);
      if (!row) return false;
      if (row.predictionAttempts >= MAX_PREDICTION_ATTEMPTS) {
        await fail(tx, record, row, `Pricing did not complete after ${row.predictionAttempts} attempts`);
        return false;
      }
      const claimed = await updateBrief(tx, row.id, {
        predictionStatus: 'IN_PROGRESS',
        predictionAttempts: row.predictionAttempts + 1,
        updatedAt: new Date(),
      });
      if (row.predictionStatus === 'PENDING') {
        await record({
          on: BRIEF_ENTITY,
          type: 'UPDATE',
          entityId: row.id,
          snapshot: presentListItem(claimed, { project: null }),
          updatedColumns: ['predictionStatus'],
          process: 'PREDICTION',
        });
      }
      return true;
    });
  }

  /** Prices the claimed brief: COMPLETED with a new prediction version, or FAILED with the reason. */
  async function price(job: PredictJob) {
    await ctx.change({ organisationId: job.organisationId, userId: null }, async (tx, record) => {
      const row = await lock(tx, job);
      if (!row) return;
      const elements = await liveElementsOf(tx, row.id);
      const catalogue = await loadCatalogue(tx, row.organisationId);
      const input = engineBrief(row, elements.map(elementValuesOf));
      let output: ReturnType<typeof priceBrief>;
      try {
        output = priceBrief(input, catalogue);
      } catch (error) {
        if (!(error instanceof PricingError)) throw error;
        await fail(tx, record, row, failureReasonOf(error));
        return;
      }
      const priced = await applyBriefPrediction(tx, record, row, elements, input, output, {
        version: await nextVersion(tx, { briefId: row.id }),
        createdById: row.createdById,
      });
      await record({
        on: BRIEF_ENTITY,
        type: 'UPDATE',
        entityId: row.id,
        snapshot: presentListItem(priced.brief, { project: null }),
        updatedColumns: [
          'predictionStatus',
          'hasPrice',
          'currentPredictionId',
          'currentVersion',
          'totalPrice',
        ],
        process: 'PREDICTION',
      });
    });
  }

  /** One job: claim, price; an unexpected error is retried by pg-boss, and FAILED on the last try. */
  async function run(
    job: Pick<JobWithMetadata<PredictJob>, 'data'> &
      Partial<
        Pick<JobWithMetadata<PredictJob>, 'id' | 'name' | 'expireInSeconds' | 'retryCount' | 'retryLimit'>
      >,
  ) {
    const data = job.data;
    if (!(await claim(data))) return;
    try {
      await price(data);
    } catch (error) {
      const last = job.retryCount === undefined || job.retryCount >= (job.retryLimit ?? 0);
      ctx.log.error({ err: error, briefId: data.briefId, last }, 'brief pricing failed');
      if (!last) throw error;
      await ctx.change(
        actorOf({ organisationId: data.organisationId, createdById: null }),
        async (tx, record) => {
          const row = await lock(tx, data);
          if (row) await fail(tx, record, row, failureReasonOf(error));
        },
      );
    }
  }

  async function enqueue(brief: { id: string; organisationId: string; revision: number }) {
    await ctx.jobs.send<PredictJob>(
      PREDICT_JOB,
      { briefId: brief.id, organisationId: brief.organisationId, revision: brief.revision },
      { singletonKey: brief.id },
    );
  }

  /**
   * Re-queues briefs waiting for pricing. At start-up every one (a process that stopped may have
   * left them); then those untouched for a while. A queued or running job of the same brief makes
   * the send a no-op (stately queue, singletonKey = brief id).
   */
  async function recover(startup: boolean): Promise<number> {
    const rows = await listLiveBriefsIn(
      ctx.db,
      UNFINISHED,
      startup ? undefined : new Date(Date.now() - STALE_MS),
    );
    for (const row of rows) await enqueue(row);
    if (rows.length) ctx.log.info({ queued: rows.length, startup }, 'briefs queued for pricing recovery');
    return rows.length;
  }

  return { run, enqueue, recover, claim, price };
}

export type Predictor = ReturnType<typeof createPredictor>;

/** Defines the job, the start-up recovery and the periodic sweep (once per app). */
export function registerPredictor(ctx: Pick<AppContext, 'jobs' | 'log' | 'onClose'>, predictor: Predictor) {
  ctx.jobs.define<PredictJob>(
    PREDICT_JOB,
    async (jobs) => {
      for (const job of jobs) await predictor.run(job);
    },
    {
      // Heartbeats: the job of a process that died is retried after about a minute, not at its expiry.
      queue: { policy: 'stately', retryLimit: 2, retryDelay: 1, expireInSeconds: 300, heartbeatSeconds: 30 },
      work: { pollingIntervalSeconds: 0.5, includeMetadata: true },
    },
  );
  let sweep: NodeJS.Timeout | undefined;
  ctx.jobs.afterStart(async () => {
    await predictor.recover(true);
    sweep = setInterval(() => {
      predictor.recover(false).catch((error) => ctx.log.error({ err: error }, 'brief pricing sweep failed'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
  });
  ctx.onClose(async () => {
    if (sweep) clearInterval(sweep);
  });
}
