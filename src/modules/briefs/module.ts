import type { AppContext } from '../../context.ts';
import { declareEntityPayload } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerBriefElementLinker } from '../articles/brief-element-linker.ts';
import { registerEventResource } from '../events/resources.ts';
import { createBriefElementLinker } from './linker.ts';
import { presentElement } from './mapping.ts';
import { createPredictor, type Predictor, registerPredictor } from './predictor.ts';
import { presentListItem, presentSummary } from './presenters.ts';
import {
  BRIEF_ELEMENT_ENTITY,
  BRIEF_ENTITY,
  BRIEF_PREDICTION_ENTITY,
  findBriefWithRefs,
  findElementRow,
  findPredictionSummary,
  liveElementsOf,
} from './repository.ts';
import { briefElementsRoutes, briefsRoutes } from './routes.ts';
import { BriefElementSchema, BriefListItemSchema, PredictionSummarySchema } from './schemas.ts';
import { type BriefService, createBriefService } from './service.ts';

/**
 * The events of a brief deliver it as GET /briefs lists it (presentListItem: its elements and
 * prediction have their own events), an element as GET /briefs/{id} shows it (presentElement),
 * a prediction's totals as GET /briefs/{id} shows them (presentSummary).
 */
declareEntityPayload(BRIEF_ENTITY, { schema: BriefListItemSchema });
declareEntityPayload(BRIEF_ELEMENT_ENTITY, { schema: BriefElementSchema });
declareEntityPayload(BRIEF_PREDICTION_ENTITY, { schema: PredictionSummarySchema });

export type BriefsModule = { service: BriefService; predictor: Predictor };
const modules = new WeakMap<AppContext, BriefsModule>();

/**
 * The briefs service and its background pricing, made once per app: defines the pricing job and
 * its recovery, plugs the brief-element linker into articles, registers the event resources.
 */
export function briefsModule(ctx: AppContext): BriefsModule {
  const existing = modules.get(ctx);
  if (existing) return existing;
  const predictor = createPredictor(ctx);
  const service = createBriefService({ db: ctx.db, change: ctx.change, enqueue: predictor.enqueue });
  const module = { service, predictor };
  modules.set(ctx, module);
  registerPredictor(ctx, predictor);
  registerBriefElementLinker(ctx, createBriefElementLinker());
  registerEventResource('briefs', async (db, organisationId, id) => {
    const found = await findBriefWithRefs(db, organisationId, id);
    if (!found) return undefined;
    const elements = await liveElementsOf(db, id);
    return {
      ...presentListItem(found.brief, found),
      briefElements: elements.map((e) => presentElement(e, found.brief.currency)),
    };
  });
  registerEventResource('brief_elements', async (db, organisationId, id) => {
    const row = await findElementRow(db, organisationId, id);
    return row ? presentElement(row, null) : undefined;
  });
  registerEventResource('brief_predictions', async (db, organisationId, id) => {
    const row = await findPredictionSummary(db, id);
    return row && row.organisationId === organisationId
      ? { ...presentSummary(row), briefId: row.briefId, briefElementId: row.briefElementId }
      : undefined;
  });
  return module;
}

export const briefsFeature: FeatureModule = {
  name: 'briefs',
  aliases: ['/briefs'],
  wire: (ctx) => {
    const wired = briefsModule(ctx);
    return [{ plugin: briefsRoutes(ctx, wired), aliased: true }, { plugin: briefElementsRoutes(ctx, wired) }];
  },
};
