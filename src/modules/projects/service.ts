import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { projects } from '../../db/schema/organisation-data.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { externalIdTaken, liveStaffUsers } from '../../platform/references.ts';
import { assertUsableCompany } from '../companies/references.ts';
import { COMPANY_ENTITY } from '../companies/repository.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { findLiveStatus } from '../statuses/repository.ts';
import { resolvePipelineRefs, updatedPipelineRefs } from './pipeline-refs.ts';
import {
  findVisibleProject,
  PROJECT_ENTITY,
  projectColumns,
  projectTextSearch,
  visibleProjects,
} from './repository.ts';
import type { CreateProject, UpdateProject } from './schemas.ts';

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

export type ProjectListQuery = PageQuery & {
  search?: string;
  companyId?: string;
  externalId?: string;
  manager?: string;
  createdBy?: string;
  status?: string;
  start?: string;
  end?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `status=<uuid>,<uuid>`: any of the statuses. */
function statusFilter(value: string | undefined) {
  if (!value) return undefined;
  const ids = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) {
    throw badRequest('status must be comma-separated status ids', [
      { pointer: '/status', message: 'must be comma-separated UUIDs', in: 'query' },
    ]);
  }
  return ids.length ? inArray(projects.statusId, ids) : undefined;
}

export function createProjectService(ctx: Pick<AppContext, 'db' | 'change'>) {
  const { db } = ctx;

  async function checkReferences(
    tx: Executor,
    actor: Actor,
    input: { externalId?: string | null; statusId?: string | null; managerId?: string | null },
    exceptId?: string,
  ) {
    if (input.managerId)
      await liveStaffUsers(tx, actor.organisationId, [input.managerId], () => '/managerId');
    if (input.statusId && !(await findLiveStatus(tx, actor.organisationId, 'project', input.statusId))) {
      throw new AppError('unknown_status', 'The status does not exist', {
        issues: [
          { pointer: '/statusId', message: 'is not a project status of the organisation', in: 'body' },
        ],
      });
    }
    if (
      input.externalId &&
      (await externalIdTaken(tx, projects, actor.organisationId, input.externalId, exceptId))
    ) {
      throw new AppError(
        'external_id_taken',
        'A project with this externalId already exists in the organisation',
      );
    }
  }

  return {
    async get(actor: Actor, id: string) {
      const project = await findVisibleProject(db, actor, id);
      if (!project) throw notFound('Project');
      return project;
    },

    async list(actor: Actor, query: ProjectListQuery) {
      const page = resolvePage(query, PROJECT_PAGE);
      const where = and(
        visibleProjects(actor),
        query.search ? projectTextSearch(query.search) : undefined,
        query.companyId ? eq(projects.companyId, query.companyId) : undefined,
        query.externalId ? eq(projects.externalId, query.externalId) : undefined,
        query.manager ? eq(projects.managerId, query.manager) : undefined,
        query.createdBy ? eq(projects.createdById, query.createdBy) : undefined,
        statusFilter(query.status),
        query.start ? gte(projects.createdAt, new Date(query.start)) : undefined,
        query.end ? lte(projects.createdAt, new Date(query.end)) : undefined,
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
      return pageResult(rows, count?.total ?? 0, page);
    },

    create(actor: Actor, input: CreateProject) {
      return ctx.change(actor, async (tx, record) => {
        await assertUsableCompany(tx, actor, input.companyId);
        await checkReferences(tx, actor, input);
        const pipelineRefs = await resolvePipelineRefs(tx, actor.organisationId, input);
        const customFields = await validateCustomFields(
          tx,
          actor.organisationId,
          'project',
          input.customFields,
        );
        const [project] = await tx
          .insert(projects)
          .values({
            organisationId: actor.organisationId,
            companyId: input.companyId,
            name: input.name,
            code: input.code ?? null,
            description: input.description ?? null,
            externalId: input.externalId ?? null,
            statusId: input.statusId ?? null,
            managerId: input.managerId ?? null,
            dueDate: input.dueDate ? new Date(input.dueDate) : null,
            estimatedValues: input.estimatedValues ?? null,
            ...pipelineRefs,
            customFields,
            createdById: actor.userId,
          })
          .returning(projectColumns);
        await record({
          on: PROJECT_ENTITY,
          type: 'CREATE',
          entityId: project!.id,
          snapshot: project,
          relation: COMPANY_ENTITY,
          relationId: project!.companyId,
        });
        return project!;
      });
    },

    update(actor: Actor, id: string, input: UpdateProject) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findVisibleProject(tx, actor, id);
        if (!current) throw notFound('Project');
        if (input.companyId && input.companyId !== current.companyId) {
          await assertUsableCompany(tx, actor, input.companyId);
        }
        await checkReferences(
          tx,
          actor,
          {
            externalId: input.externalId !== current.externalId ? input.externalId : undefined,
            statusId: input.statusId !== current.statusId ? input.statusId : undefined,
            managerId: input.managerId !== current.managerId ? input.managerId : undefined,
          },
          id,
        );
        const customFields = await validateCustomFields(
          tx,
          actor.organisationId,
          'project',
          input.customFields,
          current.customFields,
        );
        const { customFields: _ignored, dueDate, ...rest } = input;
        const fields = {
          ...rest,
          ...(await updatedPipelineRefs(tx, actor.organisationId, current, input)),
          ...(dueDate !== undefined ? { dueDate: dueDate === null ? null : new Date(dueDate) } : {}),
        };
        const changed = changedFields(current, { ...current, ...fields, customFields });
        if (changed.length === 0) return current;
        const [project] = await tx
          .update(projects)
          .set({ ...fields, customFields, updatedAt: new Date() })
          .where(and(eq(projects.id, id), eq(projects.organisationId, actor.organisationId)))
          .returning(projectColumns);
        await record({
          on: PROJECT_ENTITY,
          type: 'UPDATE',
          entityId: id,
          snapshot: project,
          relation: COMPANY_ENTITY,
          relationId: project!.companyId,
          updatedColumns: changed,
        });
        return project!;
      });
    },

    remove(actor: Actor, id: string) {
      return ctx.change(actor, async (tx, record) => {
        const current = await findVisibleProject(tx, actor, id);
        if (!current) throw notFound('Project');
        const now = new Date();
        const [project] = await tx
          .update(projects)
          .set({ deletedAt: now, updatedAt: now })
          .where(and(eq(projects.id, id), sql`${projects.deletedAt} is null`))
          .returning(projectColumns);
        if (!project) throw notFound('Project');
        await record({
          on: PROJECT_ENTITY,
          type: 'DELETE',
          entityId: id,
          snapshot: project,
          relation: COMPANY_ENTITY,
          relationId: project.companyId,
        });
        return { id, deleted: true as const };
      });
    },
  };
}
