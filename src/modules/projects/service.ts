import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { liveStaffUsers } from '../../platform/references.ts';
import { assertUsableCompany } from '../companies/references.ts';
import { COMPANY_ENTITY } from '../companies/repository.ts';
import { validateCustomFields } from '../custom-fields/validate.ts';
import { findLiveStatus } from '../statuses/repository.ts';
import { resolvePipelineRefs, updatedPipelineRefs } from './pipeline-refs.ts';
import {
  findVisibleProject,
  insertProject,
  listVisibleProjects,
  PROJECT_ENTITY,
  PROJECT_PAGE,
  projectExternalIdTaken,
  softDeleteProject,
  updateProject,
} from './repository.ts';
import type { CreateProject, UpdateProject } from './schemas.ts';

export { PROJECT_PAGE };

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

/** `status=<uuid>,<uuid>`: any of the statuses (no filter when none is named). */
function statusIdsOf(value: string | undefined) {
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
  return ids.length ? ids : undefined;
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
      (await projectExternalIdTaken(tx, actor.organisationId, input.externalId, exceptId))
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
      const { rows, total } = await listVisibleProjects(
        db,
        actor,
        {
          search: query.search,
          companyId: query.companyId,
          externalId: query.externalId,
          managerId: query.manager,
          createdById: query.createdBy,
          statusIds: statusIdsOf(query.status),
          createdFrom: query.start ? new Date(query.start) : undefined,
          createdUntil: query.end ? new Date(query.end) : undefined,
        },
        page,
      );
      return pageResult(rows, total, page);
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
        const project = await insertProject(tx, {
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
        });
        await record({
          on: PROJECT_ENTITY,
          type: 'CREATE',
          entityId: project.id,
          snapshot: project,
          relation: COMPANY_ENTITY,
          relationId: project.companyId,
        });
        return project;
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
        const project = await updateProject(tx, actor.organisationId, id, {
          ...fields,
          customFields,
          updatedAt: new Date(),
        });
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
        const project = await softDeleteProject(tx, id);
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
