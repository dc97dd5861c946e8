import { Type } from '@sinclair/typebox';
import { STATUS_ENTITIES, statuses } from '../../db/schema/organisation-data.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

export const StatusEntitySchema = StringEnum(STATUS_ENTITIES, {
  description: 'The kind of record the status applies to',
});

const Label = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Colour as #RRGGBB' });
const Position = Type.Integer({ minimum: 0, maximum: 10_000, description: 'Order in the workflow, from 0' });

export const StatusSchema = Type.Object(
  {
    id: Uuid,
    entity: StatusEntitySchema,
    internalLabel: Type.String({ description: 'Label shown to the organisation’s staff' }),
    externalLabel: Type.String({ description: 'Label shown to clients (contacts)' }),
    position: Type.Integer(),
    color: Nullable(Type.String()),
    isDefault: Type.Boolean({ description: 'Given to new records of the entity without a status' }),
    createdById: Nullable(Uuid),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Status', description: 'A configurable status of orders, quotes, briefs, articles or projects' },
);

export const CreateStatusBody = Type.Object(
  {
    entity: StatusEntitySchema,
    internalLabel: Label,
    externalLabel: Type.Optional(Label),
    position: Type.Optional(Position),
    color: Type.Optional(Nullable(Color)),
    isDefault: Type.Optional(
      Type.Boolean({
        description: 'Makes this the default status of the entity (the previous one stops being)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateStatusBody = Type.Object(
  {
    internalLabel: Type.Optional(Label),
    externalLabel: Type.Optional(Label),
    position: Type.Optional(Position),
    color: Type.Optional(Nullable(Color)),
    isDefault: Type.Optional(
      Type.Boolean({
        description:
          'true makes this the default; false is refused on the default (mark another one instead)',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const STATUS_PAGE = {
  defaultLimit: 100,
  maxLimit: 500,
  sortFields: {
    position: statuses.position,
    internalLabel: statuses.internalLabel,
    entity: statuses.entity,
    createdAt: statuses.createdAt,
    updatedAt: statuses.updatedAt,
  },
  tieBreaker: statuses.id,
  defaultSort: { field: 'position', direction: 'ASC' as const },
};

export const StatusListQuery = pageQuerySchema(STATUS_PAGE, { entity: Type.Optional(StatusEntitySchema) });
