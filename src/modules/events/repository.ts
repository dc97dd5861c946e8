import { and, count, eq, gt, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type EventType, events } from '../../db/schema/platform.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';

export const EVENT_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: { code: events.code, createdAt: events.createdAt },
  tieBreaker: events.code,
  defaultSort: { field: 'code', direction: 'DESC' },
};

export type EventFilters = {
  entity?: string;
  type?: EventType;
  entityId?: string;
  eventName?: string;
  sinceCode?: number;
};

const eventColumns = {
  id: events.id,
  code: events.code,
  eventName: events.eventName,
  category: events.category,
  type: events.type,
  entity: events.entity,
  tableName: events.tableName,
  entityId: events.entityId,
  relation: events.relation,
  relationId: events.relationId,
  fieldName: events.fieldName,
  updatedColumns: events.updatedColumns,
  updatedRelations: events.updatedRelations,
  process: events.process,
  version: events.version,
  payload: events.payload,
  createdAt: events.createdAt,
};

export async function findOrganisationEvent(db: Executor, organisationId: string, id: string) {
  const [row] = await db
    .select(eventColumns)
    .from(events)
    .where(and(eq(events.id, id), eq(events.organisationId, organisationId)))
    .limit(1);
  return row;
}

/** One page of the organisation's events matching the filters (the entity compared upper-case), and their total. */
export async function listEvents(
  db: Executor,
  organisationId: string,
  filters: EventFilters,
  page: PageRequest,
) {
  const conditions: (SQL | undefined)[] = [
    eq(events.organisationId, organisationId),
    filters.entity ? eq(events.entity, filters.entity.toUpperCase()) : undefined,
    filters.type ? eq(events.type, filters.type) : undefined,
    filters.entityId ? eq(events.entityId, filters.entityId) : undefined,
    filters.eventName ? eq(events.eventName, filters.eventName) : undefined,
    filters.sinceCode !== undefined ? gt(events.code, filters.sinceCode) : undefined,
  ];
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select(eventColumns)
      .from(events)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(events).where(where),
  ]);
  return { rows, total: Number(total?.total ?? 0) };
}
