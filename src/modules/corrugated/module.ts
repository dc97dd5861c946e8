import type { AppContext } from '../../context.ts';
import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { RESOURCES } from './resources.ts';
import { corrugatedRoutes } from './routes.ts';
import { ANSWERS } from './schemas.ts';
import { createCorrugatedService } from './service.ts';
import { findOne, liveOf } from './store.ts';

/** Each resource's events deliver what its GET answers (`show`, already the snapshot). */
for (const resource of RESOURCES) declareEntityPayload(resource.entity, { schema: ANSWERS[resource.path]! });

export type CorrugatedModule = { service: ReturnType<typeof createCorrugatedService> };

/** The corrugated resources of HIPE's n8n node over the estimating catalogue: one event resource each. */
export function wireCorrugated(ctx: AppContext): CorrugatedModule {
  for (const resource of RESOURCES) {
    registerEventResource(resource.entity.tableName, async (db, organisationId, id) => {
      const where = liveOf(organisationId, resource.kind, await resource.scope?.(db, organisationId));
      const row = await findOne(db, where, id);
      if (!row) return undefined;
      const lookups = (await resource.lookups?.(db, organisationId)) ?? new Map();
      return resource.show(row, lookups);
    });
  }
  return { service: createCorrugatedService(ctx) };
}

export const corrugatedModule: FeatureModule = {
  name: 'corrugated',
  wire: (ctx) => [{ plugin: corrugatedRoutes(wireCorrugated(ctx)) }],
};
