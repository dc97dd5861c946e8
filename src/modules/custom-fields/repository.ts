import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  type CustomFieldEntity,
  type CustomFieldType,
  customFieldDefinitions,
} from '../../db/schema/organisation-data.ts';
import { entity } from '../../platform/events.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import { CustomFieldSchema } from './schemas.ts';

export type { CustomFieldType };

export const CUSTOM_FIELD_ENTITY = entity('CUSTOM_FIELD', 'custom_fields', 'custom_field_definitions', {
  schema: CustomFieldSchema,
});

export const customFieldColumns = {
  id: customFieldDefinitions.id,
  entity: customFieldDefinitions.entity,
  key: customFieldDefinitions.key,
  label: customFieldDefinitions.label,
  type: customFieldDefinitions.type,
  options: customFieldDefinitions.options,
  required: customFieldDefinitions.required,
  position: customFieldDefinitions.position,
  createdById: customFieldDefinitions.createdById,
  createdAt: customFieldDefinitions.createdAt,
  updatedAt: customFieldDefinitions.updatedAt,
};

export type CustomFieldRow = {
  id: string;
  entity: CustomFieldEntity;
  key: string;
  label: string;
  type: CustomFieldType;
  options: string[] | null;
  required: boolean;
  position: number;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export const liveCustomFields = (organisationId: string) =>
  and(eq(customFieldDefinitions.organisationId, organisationId), isNull(customFieldDefinitions.deletedAt));

export async function findCustomField(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select(customFieldColumns)
    .from(customFieldDefinitions)
    .where(and(eq(customFieldDefinitions.id, id), liveCustomFields(organisationId)))
    .limit(1);
  return row as CustomFieldRow | undefined;
}

export async function findCustomFieldByKey(
  db: Executor,
  organisationId: string,
  entityName: CustomFieldEntity,
  key: string,
) {
  const [row] = await db
    .select({ id: customFieldDefinitions.id })
    .from(customFieldDefinitions)
    .where(
      and(
        eq(customFieldDefinitions.entity, entityName),
        eq(customFieldDefinitions.key, key),
        liveCustomFields(organisationId),
      ),
    )
    .limit(1);
  return row;
}

/** A page of the organisation's live custom fields (of one entity when given), with the total. */
export async function listLiveCustomFields(
  db: Executor,
  organisationId: string,
  of: CustomFieldEntity | undefined,
  page: Pick<PageRequest, 'orderBy' | 'limit' | 'offset'>,
) {
  const where = and(liveCustomFields(organisationId), of ? eq(customFieldDefinitions.entity, of) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select(customFieldColumns)
      .from(customFieldDefinitions)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ count: count() }).from(customFieldDefinitions).where(where),
  ]);
  return { rows: rows as CustomFieldRow[], total: total?.count ?? 0 };
}

/** The position after the last live field of the entity (0 for the first). */
export async function nextCustomFieldPosition(db: Executor, organisationId: string, of: CustomFieldEntity) {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${customFieldDefinitions.position}) + 1, 0)::int` })
    .from(customFieldDefinitions)
    .where(and(liveCustomFields(organisationId), eq(customFieldDefinitions.entity, of)));
  return row?.next ?? 0;
}

export async function insertCustomField(db: Executor, values: typeof customFieldDefinitions.$inferInsert) {
  const [row] = await db.insert(customFieldDefinitions).values(values).returning(customFieldColumns);
  return row as CustomFieldRow;
}

/** Updates a live custom field of the organisation; undefined when it is not one. */
export async function updateLiveCustomField(
  db: Executor,
  organisationId: string,
  id: string,
  values: Partial<typeof customFieldDefinitions.$inferInsert>,
) {
  const [row] = await db
    .update(customFieldDefinitions)
    .set(values)
    .where(and(eq(customFieldDefinitions.id, id), liveCustomFields(organisationId)))
    .returning(customFieldColumns);
  return row as CustomFieldRow | undefined;
}

export type CustomFieldDefinition = Pick<
  typeof customFieldDefinitions.$inferSelect,
  'key' | 'label' | 'type' | 'options' | 'required'
>;

/** The live custom field definitions of an entity of the organisation, by key. */
export async function liveDefinitions(
  db: Executor,
  organisationId: string,
  entity: CustomFieldEntity,
): Promise<Map<string, CustomFieldDefinition>> {
  const rows = await db
    .select({
      key: customFieldDefinitions.key,
      label: customFieldDefinitions.label,
      type: customFieldDefinitions.type,
      options: customFieldDefinitions.options,
      required: customFieldDefinitions.required,
    })
    .from(customFieldDefinitions)
    .where(
      and(
        eq(customFieldDefinitions.organisationId, organisationId),
        eq(customFieldDefinitions.entity, entity),
        isNull(customFieldDefinitions.deletedAt),
      ),
    );
  return new Map(rows.map((d) => [d.key, d]));
}
