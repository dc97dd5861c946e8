import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pipelineSteps, pipelines } from '../../db/schema/pipelines.ts';

export type PipelineRow = typeof pipelines.$inferSelect;
export type PipelineStepRow = typeof pipelineSteps.$inferSelect;

/** The live steps of the pipelines, in their order. */
export function listLiveSteps(db: Executor, pipelineIds: string[]) {
  return db
    .select()
    .from(pipelineSteps)
    .where(and(inArray(pipelineSteps.pipelineId, pipelineIds), isNull(pipelineSteps.deletedAt)))
    .orderBy(asc(pipelineSteps.position), asc(pipelineSteps.id));
}

export async function findLivePipeline(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(pipelines)
    .where(
      and(eq(pipelines.id, id), eq(pipelines.organisationId, organisationId), isNull(pipelines.deletedAt)),
    );
  return row;
}

/** The organisation's live pipelines (of one type when given), by type and position. */
export function listLivePipelines(db: Executor, organisationId: string, type?: string) {
  return db
    .select()
    .from(pipelines)
    .where(
      and(
        eq(pipelines.organisationId, organisationId),
        isNull(pipelines.deletedAt),
        type ? eq(pipelines.type, type) : undefined,
      ),
    )
    .orderBy(asc(pipelines.type), asc(pipelines.position), asc(pipelines.id));
}

export async function insertPipeline(db: Executor, values: typeof pipelines.$inferInsert) {
  const [row] = await db.insert(pipelines).values(values).returning();
  return row!;
}

export function insertPipelineSteps(db: Executor, values: (typeof pipelineSteps.$inferInsert)[]) {
  return db.insert(pipelineSteps).values(values).returning();
}
