/** The SQL of brief pricing: prediction versions, their value analysis and the background job's briefs. */
import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { briefPredictions, briefs, type PredictionStatus } from '../../db/schema/briefs.ts';
import type { ValueAnalysis } from '../../pricing/index.ts';
import { predictionSummaryColumns } from './repository.ts';

/** Inserts a prediction version; returns it without its large jsonb columns. */
export async function insertPredictionSummary(
  db: Executor,
  prediction: typeof briefPredictions.$inferInsert,
) {
  const [stored] = await db.insert(briefPredictions).values(prediction).returning(predictionSummaryColumns);
  return stored!;
}

/** Keeps a prediction's value analysis, unless one was kept already. */
export async function storeValueAnalysis(db: Executor, id: string, analysis: ValueAnalysis) {
  await db
    .update(briefPredictions)
    .set({ valueAnalysis: analysis })
    .where(and(eq(briefPredictions.id, id), isNull(briefPredictions.valueAnalysis)));
}

/** The brief of the organisation, locked for update (deleted ones too), if any. */
export async function lockBrief(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(briefs)
    .where(and(eq(briefs.id, id), eq(briefs.organisationId, organisationId)))
    .for('update');
  return row;
}

/** Up to 5000 live briefs in one of the statuses (only those not updated since `before`, when given). */
export function listLiveBriefsIn(db: Executor, statuses: readonly PredictionStatus[], before?: Date) {
  return db
    .select({ id: briefs.id, organisationId: briefs.organisationId, revision: briefs.revision })
    .from(briefs)
    .where(
      and(
        isNull(briefs.deletedAt),
        inArray(briefs.predictionStatus, [...statuses]),
        before ? lt(briefs.updatedAt, before) : undefined,
      ),
    )
    .limit(5000);
}
