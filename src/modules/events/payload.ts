import type { EventType } from '../../db/schema/platform.ts';

/** The columns of an event row that make up its delivered form. */
export type EventRecord = {
  id: string;
  code: number;
  eventName: string;
  category: string;
  type: EventType;
  entity: string;
  tableName: string;
  entityId: string | null;
  relation: string | null;
  relationId: string | null;
  fieldName: string | null;
  updatedColumns: string[] | null;
  updatedRelations: string[] | null;
  process: string | null;
  version: string;
  payload: Record<string, unknown> | null;
  createdAt: Date;
};

/** An event as webhooks deliver it and the event log lists it (spec "Delivered payload"). */
export type DeliveredEvent = {
  eventName: string;
  event: {
    id: string;
    code: number;
    createdAt: Date;
    version: string;
    type: EventType;
    category: string;
    entity: string;
    tableName: string;
    entityId: string | null;
    relation: string | null;
    relationId: string | null;
    fieldName: string | null;
    updatedColumns: string[] | null;
    updatedRelations: string[] | null;
    process: string | null;
  };
  /** The entity's state after the change (before it, for a deletion), when recorded. */
  entity: Record<string, unknown> | null;
};

export function toDelivered(row: EventRecord): DeliveredEvent {
  return {
    eventName: row.eventName,
    event: {
      id: row.id,
      code: Number(row.code),
      createdAt: row.createdAt,
      version: row.version,
      type: row.type,
      category: row.category,
      entity: row.entity,
      tableName: row.tableName,
      entityId: row.entityId,
      relation: row.relation,
      relationId: row.relationId,
      fieldName: row.fieldName,
      updatedColumns: row.updatedColumns,
      updatedRelations: row.updatedRelations,
      process: row.process,
    },
    entity: row.payload,
  };
}

/** The JSON body of a delivery: the same document as `GET /api/events/{id}`. */
export const deliveredJson = (row: EventRecord) => JSON.stringify(toDelivered(row));
