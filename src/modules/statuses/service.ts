import type { Static } from '@sinclair/typebox';
import type { AppContext, OrganisationSeeder } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { changedFields, type EventRecorder } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { DEFAULT_ORDER_STATUSES } from './defaults.ts';
import {
  clearDefaultStatus,
  countOtherLiveStatuses,
  findStatus,
  findStatusByLabel,
  insertStatuses,
  listLiveStatuses,
  listStatusesOfEntity,
  nextStatusPosition,
  STATUS_ENTITY,
  type StatusEntity,
  updateLiveStatus,
} from './repository.ts';
import { type CreateStatusBody, STATUS_PAGE, type UpdateStatusBody } from './schemas.ts';

export { DEFAULT_ORDER_STATUSES } from './defaults.ts';

/** Seeds the order workflow statuses of a new organisation, inside its creation transaction. */
export const seedStatuses: OrganisationSeeder = async (tx, organisation, record) => {
  const rows = await insertStatuses(
    tx,
    DEFAULT_ORDER_STATUSES.map((status, position) => ({
      organisationId: organisation.id,
      entity: 'order' as const,
      internalLabel: status.label,
      externalLabel: status.label,
      position,
      color: status.color,
      isDefault: position === 0,
      createdById: organisation.adminUserId,
    })),
  );
  for (const row of rows) {
    await record({ on: STATUS_ENTITY, type: 'CREATE', entityId: row.id, snapshot: row });
  }
};

/** Clears the current default of the entity (other than `exceptId`), recording the change. */
async function clearDefault(
  tx: Tx,
  record: EventRecorder,
  organisationId: string,
  entityName: StatusEntity,
  exceptId?: string,
) {
  const cleared = await clearDefaultStatus(tx, organisationId, entityName, exceptId);
  for (const row of cleared) {
    await record({
      on: STATUS_ENTITY,
      type: 'UPDATE',
      entityId: row.id,
      snapshot: row,
      updatedColumns: ['isDefault'],
    });
  }
}

async function assertLabelFree(
  tx: Tx,
  organisationId: string,
  entityName: StatusEntity,
  label: string,
  selfId?: string,
) {
  const existing = await findStatusByLabel(tx, organisationId, entityName, label);
  if (existing && existing.id !== selfId) {
    throw new AppError('duplicate_status', `A ${entityName} status labelled "${label}" already exists`);
  }
}

/**
 * A label sent as text or per language: the label (English, else the first non-empty one) and the
 * languages kept. Text keeps no languages ({}). Every language empty: 400.
 */
function labelOf(
  value: string | Record<string, string> | undefined,
  pointer: string,
): { label: string; labels: Record<string, string> } | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return { label: value.trim(), labels: {} };
  const labels = Object.fromEntries(
    Object.entries(value)
      .map(([language, text]) => [language, text.trim()] as const)
      .filter(([, text]) => text !== ''),
  );
  const label = labels.en ?? Object.values(labels)[0];
  if (!label) {
    throw badRequest('A label needs at least one non-empty language', [
      { pointer, message: 'needs at least one non-empty language', in: 'body' },
    ]);
  }
  return { label, labels };
}

export function createStatusService(ctx: Pick<AppContext, 'db' | 'change'>) {
  return {
    async list(actor: Actor, query: PageQuery & { entity?: StatusEntity }) {
      const page = resolvePage(query, STATUS_PAGE);
      const { rows, total } = await listLiveStatuses(ctx.db, actor.organisationId, query.entity, page);
      return pageResult(rows, total, page);
    },

    listOfEntity: (actor: Actor, entityName: StatusEntity) =>
      listStatusesOfEntity(ctx.db, actor.organisationId, entityName),

    async get(actor: Actor, id: string) {
      const row = await findStatus(ctx.db, actor.organisationId, id);
      if (!row) throw notFound('Status');
      return row;
    },

    create: (actor: Actor, input: Static<typeof CreateStatusBody>) =>
      ctx.change(actor, async (tx, record) => {
        const internal = labelOf(input.internalLabel, '/internalLabel')!;
        const external = labelOf(input.externalLabel, '/externalLabel');
        const internalLabel = internal.label;
        await assertLabelFree(tx, actor.organisationId, input.entity, internalLabel);
        if (input.isDefault) await clearDefault(tx, record, actor.organisationId, input.entity);
        const position = input.position ?? (await nextStatusPosition(tx, actor.organisationId, input.entity));
        const [row] = await insertStatuses(tx, [
          {
            organisationId: actor.organisationId,
            entity: input.entity,
            internalLabel,
            externalLabel: external?.label ?? internalLabel,
            internalLabels: internal.labels,
            externalLabels: external?.labels ?? internal.labels,
            position,
            color: input.color ? input.color.toUpperCase() : null,
            fgColor: input.fgColor ? input.fgColor.toUpperCase() : null,
            isDefault: input.isDefault ?? false,
            isCompleted: input.isCompleted ?? false,
            isOverdue: input.isOverdue ?? false,
            externalId: input.externalId ?? null,
            createdById: actor.userId,
          },
        ]);
        await record({ on: STATUS_ENTITY, type: 'CREATE', entityId: row!.id, snapshot: row });
        return row!;
      }),

    update: (actor: Actor, id: string, input: Static<typeof UpdateStatusBody>) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findStatus(tx, actor.organisationId, id);
        if (!before) throw notFound('Status');
        if (input.isDefault === false && before.isDefault) {
          throw new AppError(
            'default_status',
            'A default status cannot be unset; mark another status of the entity as the default instead',
          );
        }
        if (input.entity !== undefined && input.entity !== before.entity) {
          throw badRequest(`The status belongs to ${before.entity}: a status keeps its entity`, [
            { pointer: '/entity', message: `must be ${before.entity}, the entity of the status`, in: 'body' },
          ]);
        }
        const internal = labelOf(input.internalLabel, '/internalLabel');
        const external = labelOf(input.externalLabel, '/externalLabel');
        const internalLabel = internal?.label;
        if (internalLabel !== undefined) {
          await assertLabelFree(tx, actor.organisationId, before.entity, internalLabel, id);
        }
        if (input.isDefault && !before.isDefault) {
          await clearDefault(tx, record, actor.organisationId, before.entity, id);
        }
        const row = await updateLiveStatus(tx, actor.organisationId, id, {
          ...(internal ? { internalLabel: internal.label, internalLabels: internal.labels } : {}),
          ...(external ? { externalLabel: external.label, externalLabels: external.labels } : {}),
          ...(input.position !== undefined ? { position: input.position } : {}),
          ...(input.color !== undefined ? { color: input.color ? input.color.toUpperCase() : null } : {}),
          ...(input.fgColor !== undefined
            ? { fgColor: input.fgColor ? input.fgColor.toUpperCase() : null }
            : {}),
          ...(input.isDefault !== undefined ? { isDefault: input.isDefault } : {}),
          ...(input.isCompleted !== undefined ? { isCompleted: input.isCompleted } : {}),
          ...(input.isOverdue !== undefined ? { isOverdue: input.isOverdue } : {}),
          ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
          updatedAt: new Date(),
        });
        const updatedColumns = changedFields(before, row!);
        if (updatedColumns.length) {
          await record({ on: STATUS_ENTITY, type: 'UPDATE', entityId: id, snapshot: row, updatedColumns });
        }
        return row!;
      }),

    /**
     * Soft delete. Records that reference the status (orders...) keep their `statusId`; the
     * status simply stops being offered and accepted for new assignments (findLiveStatus).
     * The default status cannot be deleted while other statuses of its entity remain.
     */
    remove: (actor: Actor, id: string) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findStatus(tx, actor.organisationId, id);
        if (!before) throw notFound('Status');
        if (before.isDefault) {
          if ((await countOtherLiveStatuses(tx, actor.organisationId, before.entity, id)) > 0) {
            throw new AppError(
              'default_status',
              'The default status cannot be deleted; mark another status of the entity as the default first',
            );
          }
        }
        await updateLiveStatus(tx, actor.organisationId, id, {
          deletedAt: new Date(),
          updatedAt: new Date(),
        });
        await record({ on: STATUS_ENTITY, type: 'DELETE', entityId: id, snapshot: before });
        return { id, deleted: true as const };
      }),
  };
}
