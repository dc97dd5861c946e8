import { and, asc, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  briefCodeCounters,
  briefCounts,
  briefElements,
  briefPredictions,
  briefs,
} from '../../db/schema/briefs.ts';
import { articles } from '../../db/schema/orders.ts';
import { projects, statuses } from '../../db/schema/organisation-data.ts';
import { companies, users } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { entity } from '../../platform/events.ts';
import type { BriefRow, ElementRow, PredictionRow } from './mapping.ts';

export const BRIEF_ENTITY = entity('BRIEF', 'briefs');
export const BRIEF_ELEMENT_ENTITY = entity('BRIEF_ELEMENT', 'brief_elements');
export const BRIEF_PREDICTION_ENTITY = entity('BRIEF_PREDICTION', 'brief_predictions');

/** Every column of a prediction except the large jsonb ones. */
const {
  input: _input,
  output: _output,
  valueAnalysis: _analysis,
  ...predictionSummaryColumns
} = getTableColumns(briefPredictions);

export { predictionSummaryColumns };
export type PredictionSummaryRow = Omit<PredictionRow, 'input' | 'output' | 'valueAnalysis'>;

/** Live briefs of the actor's organisation, limited to its companies for scoped roles. */
export function visibleBriefs(actor: Actor): SQL {
  return and(
    eq(briefs.organisationId, actor.organisationId),
    isNull(briefs.deletedAt),
    inCompanyScope(actor, briefs.companyId),
  )!;
}

/** The organisation's number of live briefs (brief_counts, kept by a trigger on briefs). */
export async function liveBriefCount(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ live: briefCounts.live })
    .from(briefCounts)
    .where(eq(briefCounts.organisationId, organisationId));
  return row?.live ?? 0;
}

export async function findBriefRow(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<BriefRow | undefined> {
  const query = db
    .select()
    .from(briefs)
    .where(and(eq(briefs.id, id), eq(briefs.organisationId, organisationId), isNull(briefs.deletedAt)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** The brief with its project, company and status (one statement). */
export async function findBriefWithRefs(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({
      brief: briefs,
      project: { id: projects.id, name: projects.name, companyId: projects.companyId },
      company: { id: companies.id, name: companies.name },
      status: {
        id: statuses.id,
        internalLabel: statuses.internalLabel,
        externalLabel: statuses.externalLabel,
      },
    })
    .from(briefs)
    .leftJoin(projects, eq(projects.id, briefs.projectId))
    .leftJoin(companies, eq(companies.id, briefs.companyId))
    .leftJoin(statuses, eq(statuses.id, briefs.statusId))
    .where(and(eq(briefs.id, id), eq(briefs.organisationId, organisationId), isNull(briefs.deletedAt)))
    .limit(1);
  return row;
}

export type BriefWithRefs = NonNullable<Awaited<ReturnType<typeof findBriefWithRefs>>>;

export function liveElementsOf(db: Executor, briefId: string): Promise<ElementRow[]> {
  return db
    .select()
    .from(briefElements)
    .where(and(eq(briefElements.briefId, briefId), isNull(briefElements.deletedAt)))
    .orderBy(asc(briefElements.position), asc(briefElements.id));
}

export async function findElementRow(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(briefElements)
    .where(
      and(
        eq(briefElements.id, id),
        eq(briefElements.organisationId, organisationId),
        isNull(briefElements.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

/** Whether a live element (of a live brief, or standalone) exists in the organisation. */
export async function liveElementExists(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({ id: briefElements.id })
    .from(briefElements)
    .leftJoin(briefs, eq(briefs.id, briefElements.briefId))
    .where(
      and(
        eq(briefElements.id, id),
        eq(briefElements.organisationId, organisationId),
        isNull(briefElements.deletedAt),
        sql`(${briefElements.briefId} is null or ${briefs.deletedAt} is null)`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Whether a live article of one of these companies links the (standalone) element. */
export async function elementLinkedToCompanies(
  db: Executor,
  organisationId: string,
  elementId: string,
  companyIds: string[],
) {
  if (!companyIds.length) return false;
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(
      and(
        eq(articles.organisationId, organisationId),
        eq(articles.briefElementId, elementId),
        isNull(articles.deletedAt),
        inArray(articles.companyId, companyIds),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The next code number of the organisation, in one autocommit statement (run it outside the
 * brief's transaction): the counter row is locked only for this statement. The first allocation
 * of an organisation starts after its highest existing code.
 */
export async function allocateCodeNumber(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .insert(briefCodeCounters)
    .values({
      organisationId,
      lastNumber: sql`(select coalesce(max(${briefs.codeNumber}), 0) + 1 from ${briefs} where ${briefs.organisationId} = ${organisationId})`,
    })
    .onConflictDoUpdate({
      target: briefCodeCounters.organisationId,
      set: { lastNumber: sql`${briefCodeCounters.lastNumber} + 1` },
    })
    .returning({ n: briefCodeCounters.lastNumber });
  return row!.n;
}

/** The next version number of a brief's (or standalone element's) predictions. */
export async function nextVersion(tx: Executor, owner: { briefId?: string; briefElementId?: string }) {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(max(${briefPredictions.version}), 0)::int + 1` })
    .from(briefPredictions)
    .where(
      owner.briefId
        ? eq(briefPredictions.briefId, owner.briefId)
        : eq(briefPredictions.briefElementId, owner.briefElementId!),
    );
  return row!.n;
}

export async function findPredictionSummary(db: Executor, id: string) {
  const [row] = await db
    .select(predictionSummaryColumns)
    .from(briefPredictions)
    .where(eq(briefPredictions.id, id))
    .limit(1);
  return row as PredictionSummaryRow | undefined;
}

/** A prediction of a brief with its output: the given version, else the current one. */
export async function findBriefPrediction(
  db: Executor,
  brief: Pick<BriefRow, 'id' | 'currentPredictionId'>,
  version?: number,
): Promise<PredictionRow | undefined> {
  if (version === undefined && !brief.currentPredictionId) return undefined;
  const [row] = await db
    .select()
    .from(briefPredictions)
    .where(
      version === undefined
        ? eq(briefPredictions.id, brief.currentPredictionId!)
        : and(eq(briefPredictions.briefId, brief.id), eq(briefPredictions.version, version)),
    )
    .limit(1);
  return row;
}

/**
 * The versions of a brief, newest first: totals, the request each priced (`input`, small beside the
 * output, which is left out) and who priced it (a user of the organisation, by name).
 */
export function predictionVersions(db: Executor, briefId: string) {
  return db
    .select({
      ...predictionSummaryColumns,
      input: briefPredictions.input,
      createdByName: sql<
        string | null
      >`coalesce(nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''), ${users.email}, ${users.username})`,
    })
    .from(briefPredictions)
    .leftJoin(
      users,
      and(
        eq(users.id, briefPredictions.createdById),
        eq(users.organisationId, briefPredictions.organisationId),
      ),
    )
    .where(eq(briefPredictions.briefId, briefId))
    .orderBy(desc(briefPredictions.version));
}

/** A live project of the organisation with its company's name (null when either is gone). */
export async function findLiveProjectWithCompany(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select({
      project: { id: projects.id, name: projects.name, companyId: projects.companyId },
      company: { id: companies.id, name: companies.name },
    })
    .from(projects)
    .innerJoin(companies, and(eq(companies.id, projects.companyId), isNull(companies.deletedAt)))
    .where(and(eq(projects.id, id), eq(projects.organisationId, organisationId), isNull(projects.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Writes a new brief, its elements and its prediction (when priced) in one statement of
 * data-modifying CTEs. (getSQL(): an embedded query builder would be parenthesised, which INSERT
 * cannot be.)
 */
export async function insertBriefWithElements(
  db: Executor,
  brief: BriefRow,
  elements: ElementRow[],
  prediction: typeof briefPredictions.$inferInsert | undefined,
) {
  const insertBrief = db.insert(briefs).values(brief).getSQL();
  const insertElements = db.insert(briefElements).values(elements).getSQL();
  await db.execute(
    prediction
      ? sql`with b as (${insertBrief}), e as (${insertElements}) ${db.insert(briefPredictions).values(prediction).getSQL()}`
      : sql`with b as (${insertBrief}) ${insertElements}`,
  );
}

/** Updates the brief (found and checked by the caller); returns the whole row. */
export async function updateBrief(db: Executor, id: string, values: Partial<BriefRow>) {
  const [row] = await db.update(briefs).set(values).where(eq(briefs.id, id)).returning();
  return row!;
}

export async function insertElement(db: Executor, values: typeof briefElements.$inferInsert) {
  const [row] = await db.insert(briefElements).values(values).returning();
  return row!;
}

/** Updates an element (found and checked by the caller); returns the whole row. */
export async function updateElement(db: Executor, id: string, values: Partial<ElementRow>) {
  const [row] = await db.update(briefElements).set(values).where(eq(briefElements.id, id)).returning();
  return row!;
}

/** Soft-deletes the brief's live elements; returns them. */
export function softDeleteLiveElementsOf(db: Executor, briefId: string, at: Date) {
  return db
    .update(briefElements)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(briefElements.briefId, briefId), isNull(briefElements.deletedAt)))
    .returning();
}
