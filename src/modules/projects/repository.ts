import { and, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { projects } from '../../db/schema/organisation-data.ts';
import { companies } from '../../db/schema/platform.ts';
import { type Actor, inCompanyScope } from '../../platform/actor.ts';
import { entity } from '../../platform/events.ts';
import { ProjectSchema } from './schemas.ts';

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
