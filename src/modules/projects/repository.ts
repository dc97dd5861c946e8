import { and, eq, gte, ilike, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { projects } from '../../db/schema/organisation-data.ts';
import { pipelineSteps } from '../../db/schema/pipelines.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { externalIdTaken } from '../../platform/references.ts';
import { ProjectSchema } from './schemas.ts';

export const PROJECT_PAGE = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: {
    name: projects.name,
    code: projects.code,
    createdAt: projects.createdAt,
    updatedAt: projects.updatedAt,
  },
  tieBreaker: projects.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' as const },
};

export const PROJECT_ENTITY = entity('PROJECT', 'projects', 'projects', { schema: ProjectSchema });

export const projectColumns = {
  id: projects.id,
  organisationId: projects.organisationId,
  companyId: projects.companyId,
  name: projects.name,
  code: projects.code,
  description: projects.description,
  externalId: projects.externalId,
  statusId: projects.statusId,
  managerId: projects.managerId,
  dueDate: projects.dueDate,
  estimatedValues: projects.estimatedValues,
  opportunityPipelineId: projects.opportunityPipelineId,
  opportunityStepId: projects.opportunityStepId,
  customFields: projects.customFields,
  createdById: projects.createdById,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
  deletedAt: projects.deletedAt,
};

/**
 * Live projects of the actor's organisation whose company is live and visible to the actor:
 * archiving a company hides its projects.
 */
export function visibleProjects(actor: Actor): SQL {
  return and(
    eq(projects.organisationId, actor.organisationId),
    isNull(projects.deletedAt),
    sql`exists (select 1 from ${companies} where ${companies.id} = ${projects.companyId} and ${companies.deletedAt} is null)`,
    inCompanyScope(actor, projects.companyId),
  )!;
}

export async function findVisibleProject(db: Executor, actor: Actor, id: string) {
  const [row] = await db
    .select(projectColumns)
    .from(projects)
    .where(and(eq(projects.id, id), visibleProjects(actor)))
    .limit(1);
  return row;
}

/** Case-insensitive "contains" on name, code or external id. */
export function projectTextSearch(text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    ilike(projects.name, pattern),
    ilike(projects.code, pattern),
    ilike(projects.externalId, pattern),
  )!;
}

export type ProjectFilter = {
  search?: string;
  companyId?: string;
  externalId?: string;
  managerId?: string;
  createdById?: string;
  /** Any of these statuses. */
  statusIds?: string[];
  createdFrom?: Date;
  createdUntil?: Date;
};

/** A page of the projects the actor may see that match the filter, with the total. */
export async function listVisibleProjects(
  db: Executor,
  actor: Actor,
  filter: ProjectFilter,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const where = and(
    visibleProjects(actor),
    filter.search ? projectTextSearch(filter.search) : undefined,
    filter.companyId ? eq(projects.companyId, filter.companyId) : undefined,
    filter.externalId ? eq(projects.externalId, filter.externalId) : undefined,
    filter.managerId ? eq(projects.managerId, filter.managerId) : undefined,
    filter.createdById ? eq(projects.createdById, filter.createdById) : undefined,
    filter.statusIds ? inArray(projects.statusId, filter.statusIds) : undefined,
    filter.createdFrom ? gte(projects.createdAt, filter.createdFrom) : undefined,
    filter.createdUntil ? lte(projects.createdAt, filter.createdUntil) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select(projectColumns)
      .from(projects)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(projects).where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Whether another project of the organisation has this externalId. */
export function projectExternalIdTaken(
  db: Executor,
  organisationId: string,
  externalId: string,
  exceptId?: string,
) {
  return externalIdTaken(db, projects, organisationId, externalId, exceptId);
}

export async function insertProject(db: Executor, values: typeof projects.$inferInsert) {
  const [project] = await db.insert(projects).values(values).returning(projectColumns);
  return project!;
}

/** Updates a project of the organisation; undefined when there is none. */
export async function updateProject(
  db: Executor,
  organisationId: string,
  id: string,
  values: Partial<typeof projects.$inferInsert>,
) {
  const [project] = await db
    .update(projects)
    .set(values)
    .where(and(eq(projects.id, id), eq(projects.organisationId, organisationId)))
    .returning(projectColumns);
  return project;
}

/** Soft-deletes a live project; undefined when it was not live. */
export async function softDeleteProject(db: Executor, id: string) {
  const now = new Date();
  const [project] = await db
    .update(projects)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(projects.id, id), sql`${projects.deletedAt} is null`))
    .returning(projectColumns);
  return project;
}

/** A live pipeline step of the organisation (its pipeline), for the references a project names. */
export async function findLivePipelineStep(db: Executor, organisationId: string, id: string) {
  const [step] = await db
    .select({ pipelineId: pipelineSteps.pipelineId })
    .from(pipelineSteps)
    .where(
      and(
        eq(pipelineSteps.id, id),
        eq(pipelineSteps.organisationId, organisationId),
        isNull(pipelineSteps.deletedAt),
      ),
    );
  return step;
}
