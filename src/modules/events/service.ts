import type { AppContext } from '../../context.ts';
import type { Actor } from '../../platform/actor.ts';
import { notFound } from '../../platform/errors.ts';
import { presentEntity } from '../../platform/events.ts';
import { type PageOptions, type PageQuery, pageResult, resolvePage } from '../../platform/pagination.ts';
import { toDelivered } from './payload.ts';
import { EVENT_PAGE, type EventFilters, findOrganisationEvent, listEvents } from './repository.ts';
import { eventResourceLoader } from './resource-repository.ts';

export { EVENT_PAGE, type EventFilters } from './repository.ts';

export function createEventService(ctx: Pick<AppContext, 'db' | 'registry'>) {
  async function findEvent(actor: Actor, id: string) {
    const row = await findOrganisationEvent(ctx.db, actor.organisationId, id);
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
      const { rows, total } = await listEvents(ctx.db, actor.organisationId, query, page);
      return pageResult(rows.map(toDelivered), total, page);
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
