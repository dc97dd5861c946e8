import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  type CustomFieldEntity,
  type CustomFieldType,
  customFieldDefinitions,
} from '../../db/schema/organisation-data.ts';
import { entity } from '../../platform/events.ts';
import { CustomFieldSchema } from './schemas.ts';

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
