import { defineModule } from '../../platform/module.ts';
import { findOne, liveOf } from './repository.ts';
import { RESOURCES } from './resources.ts';
import { corrugatedRoutes } from './routes.ts';
import { ANSWERS } from './schemas.ts';
import { createCorrugatedService } from './service.ts';

/** The corrugated resources of HIPE's n8n node over the estimating catalogue. */
export const corrugatedModule = defineModule({
  name: 'corrugated',
  services: (ctx) => ({ corrugated: createCorrugatedService(ctx) }),
  wire: (ctx, { corrugated }) => {
    for (const resource of RESOURCES) {
      // Each resource's events deliver what its GET answers (`show`, already the snapshot)...
      ctx.registry.entityPayload(resource.entity, { schema: ANSWERS[resource.path]! });
      // ...and so does its event resource.
      ctx.registry.eventResource(resource.entity.tableName, async (db, organisationId, id) => {
        const where = liveOf(organisationId, resource.kind, await resource.scope?.(db, organisationId));
        const row = await findOne(db, where, id);
        if (!row) return undefined;
        const lookups = (await resource.lookups?.(db, organisationId)) ?? new Map();
        return resource.show(row, lookups);
      });
    }
    return [{ plugin: corrugatedRoutes(corrugated) }];
  },
});
