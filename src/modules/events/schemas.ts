import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../db/schema/platform.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../platform/schemas.ts';

export const EventTypeSchema = StringEnum(EVENT_TYPES, { description: 'CREATE, UPDATE or DELETE' });

export const AnyObject = Type.Object({}, { additionalProperties: true });

export const EventSchema = Type.Object(
  {
    eventName: Type.String({ description: '`event.<entity_plural>.<verb>`, e.g. `event.orders.created`' }),
    event: Type.Object({
      id: Uuid,
      code: Type.Integer({ description: 'Increasing number, assigned when the event is written' }),
      createdAt: DateTime,
      version: Type.String({ description: 'Version of the event format' }),
      type: EventTypeSchema,
      category: Type.String({ description: 'The event name without `event.`' }),
      entity: Type.String({ description: 'Entity type, upper case (ORDER, ORDER_ITEM, COMPANY...)' }),
      tableName: Type.String(),
      entityId: Nullable(Uuid),
      relation: Nullable(Type.String({ description: 'Entity type of the parent when a child changed' })),
      relationId: Nullable(Uuid),
      fieldName: Nullable(Type.String()),
      updatedColumns: Nullable(Type.Array(Type.String())),
      updatedRelations: Nullable(Type.Array(Type.String())),
      process: Nullable(Type.String({ description: 'Brief process, for brief-related events' })),
    }),
    entity: Nullable(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'The entity after the change (before it, for a deletion)',
        },
      ),
    ),
  },
  { $id: 'Event', description: 'A change event, in the form webhooks deliver it' },
);
