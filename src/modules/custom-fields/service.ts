import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { changedFields } from '../../platform/events.ts';
import { type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import {
  CUSTOM_FIELD_ENTITY,
  type CustomFieldType,
  findCustomField,
  findCustomFieldByKey,
  insertCustomField,
  listLiveCustomFields,
  nextCustomFieldPosition,
  updateLiveCustomField,
} from './repository.ts';
import {
  type CreateCustomFieldBody,
  CUSTOM_FIELD_PAGE,
  type CustomFieldListQuery,
  type UpdateCustomFieldBody,
} from './schemas.ts';

const HAS_OPTIONS: readonly CustomFieldType[] = ['select', 'multi-select'];

/** Options are required (non-empty, unique) for select types and refused for the others. */
function checkOptions(type: CustomFieldType, options: string[] | undefined, onCreate: boolean) {
  if (HAS_OPTIONS.includes(type)) {
    if (options === undefined && !onCreate) return undefined;
    if (!options || options.length === 0) {
      throw badRequest(`A ${type} field needs at least one option`, [
        { pointer: '/options', message: `is required for a ${type} field`, in: 'body' },
      ]);
    }
    const trimmed = options.map((o) => o.trim());
    const blank = trimmed.indexOf('');
    if (blank >= 0) {
      throw badRequest('Options must not be blank', [
        { pointer: `/options/${blank}`, message: 'must not be blank', in: 'body' },
      ]);
    }
    const seen = new Set<string>();
    for (const [index, option] of trimmed.entries()) {
      if (seen.has(option)) {
        throw badRequest(`The option "${option}" is repeated`, [
          { pointer: `/options/${index}`, message: 'repeats an earlier option', in: 'body' },
        ]);
      }
      seen.add(option);
    }
    return trimmed;
  }
  if (options !== undefined) {
    throw badRequest(`A ${type} field has no options`, [
      { pointer: '/options', message: `is only accepted for select and multi-select fields`, in: 'body' },
    ]);
  }
  return undefined;
}

export function createCustomFieldService(ctx: Pick<AppContext, 'db' | 'change'>) {
  return {
    async list(actor: Actor, query: PageQuery & Pick<Static<typeof CustomFieldListQuery>, 'entity'>) {
      const page = resolvePage(query, CUSTOM_FIELD_PAGE);
      const { rows, total } = await listLiveCustomFields(ctx.db, actor.organisationId, query.entity, page);
      return pageResult(rows, total, page);
    },

    async get(actor: Actor, id: string) {
      const row = await findCustomField(ctx.db, actor.organisationId, id);
      if (!row) throw notFound('Custom field');
      return row;
    },

    create: (actor: Actor, input: Static<typeof CreateCustomFieldBody>) =>
      ctx.change(actor, async (tx, record) => {
        const options = checkOptions(input.type, input.options, true);
        const taken = await findCustomFieldByKey(tx, actor.organisationId, input.entity, input.key);
        if (taken) {
          throw new AppError(
            'duplicate_custom_field',
            `The ${input.entity} custom field "${input.key}" already exists`,
          );
        }
        const position =
          input.position ?? (await nextCustomFieldPosition(tx, actor.organisationId, input.entity));
        const row = await insertCustomField(tx, {
          organisationId: actor.organisationId,
          entity: input.entity,
          key: input.key,
          label: input.label.trim(),
          type: input.type,
          options: options ?? null,
          required: input.required ?? false,
          position,
          createdById: actor.userId,
        });
        await record({ on: CUSTOM_FIELD_ENTITY, type: 'CREATE', entityId: row.id, snapshot: row });
        return row;
      }),

    /**
     * Label, options, required and position may change. Values already stored on records are not
     * rewritten: an option removed here stays on the records that have it until they are edited,
     * and a field made required is enforced on records created from now on.
     */
    update: (actor: Actor, id: string, input: Static<typeof UpdateCustomFieldBody>) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findCustomField(tx, actor.organisationId, id);
        if (!before) throw notFound('Custom field');
        const options = checkOptions(before.type, input.options, false);
        const row = await updateLiveCustomField(tx, actor.organisationId, id, {
          ...(input.label !== undefined ? { label: input.label.trim() } : {}),
          ...(options !== undefined ? { options } : {}),
          ...(input.required !== undefined ? { required: input.required } : {}),
          ...(input.position !== undefined ? { position: input.position } : {}),
          updatedAt: new Date(),
        });
        const updatedColumns = changedFields(before, row!);
        if (updatedColumns.length) {
          await record({
            on: CUSTOM_FIELD_ENTITY,
            type: 'UPDATE',
            entityId: id,
            snapshot: row,
            updatedColumns,
          });
        }
        return row!;
      }),

    /**
     * Soft delete. Values stored under the key stay on the records (not rewritten) but are no
     * longer accepted; a record update may remove one by sending the key with null.
     */
    remove: (actor: Actor, id: string) =>
      ctx.change(actor, async (tx, record) => {
        const before = await findCustomField(tx, actor.organisationId, id);
        if (!before) throw notFound('Custom field');
        await updateLiveCustomField(tx, actor.organisationId, id, {
          deletedAt: new Date(),
          updatedAt: new Date(),
        });
        await record({ on: CUSTOM_FIELD_ENTITY, type: 'DELETE', entityId: id, snapshot: before });
        return { id, deleted: true as const };
      }),
  };
}
