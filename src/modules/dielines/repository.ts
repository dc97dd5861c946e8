/**
 * Where the die-line of a quote item or an article comes from: the prediction version and the
 * element's position (docs/dielines.md, "Quote items and articles"). Visibility is the caller's.
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { briefElements, briefPredictions, briefs } from '../../db/schema/briefs.ts';
import { quoteItems } from '../../db/schema/quotes.ts';
import type { PredictionRow } from '../briefs/mapping.ts';

/** A live item of the quote (same organisation), else undefined. */
export async function findQuoteItem(db: Executor, organisationId: string, quoteId: string, itemId: string) {
  const [row] = await db
    .select({
      id: quoteItems.id,
      briefId: quoteItems.briefId,
      briefElementId: quoteItems.briefElementId,
      elementPosition: quoteItems.elementPosition,
      briefVersion: quoteItems.briefVersion,
    })
    .from(quoteItems)
    .where(
      and(
        eq(quoteItems.id, itemId),
        eq(quoteItems.quoteId, quoteId),
        eq(quoteItems.organisationId, organisationId),
        isNull(quoteItems.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

/** A brief of the organisation, deleted or not (a quote keeps its lines when a brief goes). */
export async function findBriefOf(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({
      id: briefs.id,
      code: briefs.code,
      name: briefs.name,
      currentPredictionId: briefs.currentPredictionId,
      predictionStatus: briefs.predictionStatus,
    })
    .from(briefs)
    .where(and(eq(briefs.id, id), eq(briefs.organisationId, organisationId)))
    .limit(1);
  return row;
}

/** An element of the organisation (its brief and its position now), deleted or not. */
export async function findElementOf(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({
      id: briefElements.id,
      briefId: briefElements.briefId,
      position: briefElements.position,
      deletedAt: briefElements.deletedAt,
    })
    .from(briefElements)
    .where(and(eq(briefElements.id, id), eq(briefElements.organisationId, organisationId)))
    .limit(1);
  return row;
}

/** A prediction by id (of the organisation). */
export async function predictionById(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<PredictionRow | undefined> {
  const [row] = await db
    .select()
    .from(briefPredictions)
    .where(and(eq(briefPredictions.id, id), eq(briefPredictions.organisationId, organisationId)))
    .limit(1);
  return row;
}

/**
 * A version of a brief's predictions, or of a standalone element's; without `version` the newest.
 */
export async function predictionOfOwner(
  db: Executor,
  owner: { briefId: string } | { briefElementId: string },
  version?: number,
): Promise<PredictionRow | undefined> {
  const ownerIs =
    'briefId' in owner
      ? eq(briefPredictions.briefId, owner.briefId)
      : eq(briefPredictions.briefElementId, owner.briefElementId);
  const [row] = await db
    .select()
    .from(briefPredictions)
    .where(version === undefined ? ownerIs : and(ownerIs, eq(briefPredictions.version, version)))
    .orderBy(desc(briefPredictions.version))
    .limit(1);
  return row;
}
