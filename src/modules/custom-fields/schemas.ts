import { Type } from '@sinclair/typebox';
import {
  CUSTOM_FIELD_ENTITIES,
  CUSTOM_FIELD_TYPES,
  customFieldDefinitions,
} from '../../db/schema/organisation-data.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

export const CustomFieldEntitySchema = StringEnum(CUSTOM_FIELD_ENTITIES, {
  description: 'The kind of record the field belongs to',
});
export const CustomFieldTypeSchema = StringEnum(CUSTOM_FIELD_TYPES, {
  description:
    'Value type: boolean, string, select (one option, a string), multi-select (string[] of options), number',
});

const Label = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 500,
  description:
    'The allowed values: required (non-empty, unique) for select and multi-select, refused otherwise',
});
const Position = Type.Integer({ minimum: 0, maximum: 10_000 });

export const CustomFieldSchema = Type.Object(
  {
    id: Uuid,
    entity: CustomFieldEntitySchema,
    key: Type.String({ description: 'The property name in the records’ `customFields` objects' }),
    label: Type.String(),
    type: CustomFieldTypeSchema,
    options: Nullable(Type.Array(Type.String())),
    required: Type.Boolean({ description: 'A value must be given when a record is created' }),
    position: Type.Integer(),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'CustomFieldDefinition', description: 'A custom field definition' },
);

export const CreateCustomFieldBody = Type.Object(
  {
    entity: CustomFieldEntitySchema,
    key: Type.String({
      pattern: '^[a-zA-Z][a-zA-Z0-9_]{0,63}$',
      description: 'Letter first, then letters, digits or _ (at most 64); unique per entity',
    }),
    label: Label,
    type: CustomFieldTypeSchema,
    options: Type.Optional(Options),
    required: Type.Optional(Type.Boolean({ default: false })),
    position: Type.Optional(Position),
  },
  { additionalProperties: false },
);

export const UpdateCustomFieldBody = Type.Object(
  {
    label: Type.Optional(Label),
    options: Type.Optional(Options),
    required: Type.Optional(Type.Boolean()),
    position: Type.Optional(Position),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'The entity, key and type of a field cannot change: delete it and create another',
  },
);

export const CUSTOM_FIELD_PAGE = {
  defaultLimit: 100,
  maxLimit: 500,
  sortFields: {
    position: customFieldDefinitions.position,
    key: customFieldDefinitions.key,
    label: customFieldDefinitions.label,
    entity: customFieldDefinitions.entity,
    createdAt: customFieldDefinitions.createdAt,
    updatedAt: customFieldDefinitions.updatedAt,
  },
  tieBreaker: customFieldDefinitions.id,
  defaultSort: { field: 'position', direction: 'ASC' as const },
};

export const CustomFieldListQuery = pageQuerySchema(CUSTOM_FIELD_PAGE, {
  entity: Type.Optional(CustomFieldEntitySchema),
});
