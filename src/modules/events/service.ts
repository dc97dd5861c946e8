import { and, count, eq, gt, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { type EventType, events } from '../../db/schema/platform.ts';
import type { Actor } from '../../platform/actor.ts';
import { notFound } from '../../platform/errors.ts';
import { presentEntity } from '../../platform/events.ts';
import { type PageOptions, type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { toDelivered } from './payload.ts';
import { eventResourceLoader } from './resources.ts';

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

export function createEventService(ctx: Pick<AppContext, 'db' | 'registry'>) {
  async function findEvent(actor: Actor, id: string) {
    const [row] = await ctx.db
      .select(eventColumns)
      .from(events)
      .where(and(eq(events.id, id), eq(events.organisationId, actor.organisationId)))
      .limit(1);
    if (!row) throw notFound('Event');
    return row;
  }

  return {
    async list(actor: Actor, query: PageQuery & EventFilters) {
      // Reading forward from a code is a sync: oldest first unless asked otherwise.
      const options: PageOptions =
        query.sinceCode !== undefined
          ? { ...EVENT_PAGE, defaultSort: { field: 'code', direction: 'ASC' } }
          : EVENT_PAGE;
      const page = resolvePage(query, options);
      const conditions: (SQL | undefined)[] = [
        eq(events.organisationId, actor.organisationId),
        query.entity ? eq(events.entity, query.entity.toUpperCase()) : undefined,
        query.type ? eq(events.type, query.type) : undefined,
        query.entityId ? eq(events.entityId, query.entityId) : undefined,
        query.eventName ? eq(events.eventName, query.eventName) : undefined,
        query.sinceCode !== undefined ? gt(events.code, query.sinceCode) : undefined,
      ];
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select(eventColumns)
          .from(events)
          .where(where)
          .orderBy(...page.orderBy)
          .limit(page.limit)
          .offset(page.offset),
        ctx.db.select({ total: count() }).from(events).where(where),
      ]);
      return pageResult(rows.map(toDelivered), Number(total?.total ?? 0), page);
    },

    async get(actor: Actor, id: string) {
      return toDelivered(await findEvent(actor, id));
    },

    /** The current state of the entity an event concerns (404 when deleted, foreign or unknown). */
    async resource(actor: Actor, eventId: string) {
      const event = await findEvent(actor, eventId);
      if (!event.entityId) throw notFound('Resource');
      const loader = eventResourceLoader(ctx.registry, event.tableName);
      if (!loader) throw notFound('Resource');
      const resource = await loader(ctx.db, actor.organisationId, event.entityId, actor);
      if (!resource) throw notFound('Resource');
      // A stored row read by the generic loader: as the entity's GET presenter shows it (the same
      // document as its events' `entity`); a registered loader answers in its module's own way.
      if (ctx.registry.registeredEventResource(event.tableName)) return resource;
      return presentEntity(ctx.registry, ctx.db, event.entity, resource);
    },
  };
}
