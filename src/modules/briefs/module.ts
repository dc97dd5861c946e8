import { defineModule } from '../../platform/module.ts';
import { registerBriefElementLinker } from '../articles/brief-element-linker.ts';
import { createDetailsCache, type DetailsCache } from './details-cache.ts';
import { createElementService } from './elements.ts';
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

export type BriefsServices = {
  briefs: BriefService;
  elements: ReturnType<typeof createElementService>;
  /** The background pricing (its job is defined when the module is wired). */
  predictor: Predictor;
  /** GET /briefs/{id}/details answers kept per stamp and audience (details-cache.ts). */
  detailsCache: DetailsCache;
};

/**
 * Briefs and their elements, priced in the background: defines the pricing job and its recovery,
 * plugs the brief-element linker into articles, declares the event payloads and resources.
 */
export const briefsModule = defineModule<BriefsServices>({
  name: 'briefs',
  aliases: ['/briefs'],
  services: (ctx) => {
    const predictor = createPredictor(ctx);
    return {
      briefs: createBriefService({ db: ctx.db, change: ctx.change, enqueue: predictor.enqueue }),
      elements: createElementService(ctx, { enqueue: predictor.enqueue }),
      predictor,
      detailsCache: createDetailsCache(ctx.db),
    };
  },
  wire: (ctx, services) => {
    registerPredictor(ctx, services.predictor);
    registerBriefElementLinker(ctx, createBriefElementLinker());
    // The events of a brief deliver it as GET /briefs lists it (presentListItem: its elements and
    // prediction have their own events), an element as GET /briefs/{id} shows it (presentElement),
    // a prediction's totals as GET /briefs/{id} shows them (presentSummary).
    ctx.registry.entityPayload(BRIEF_ENTITY, { schema: BriefListItemSchema });
    ctx.registry.entityPayload(BRIEF_ELEMENT_ENTITY, { schema: BriefElementSchema });
    ctx.registry.entityPayload(BRIEF_PREDICTION_ENTITY, { schema: PredictionSummarySchema });
    ctx.registry.eventResource('briefs', async (db, organisationId, id) => {
      const found = await findBriefWithRefs(db, organisationId, id);
      if (!found) return undefined;
      const elements = await liveElementsOf(db, id);
      return {
        ...presentListItem(found.brief, found),
        briefElements: elements.map((e) => presentElement(e, found.brief.currency)),
      };
    });
    ctx.registry.eventResource('brief_elements', async (db, organisationId, id) => {
      const row = await findElementRow(db, organisationId, id);
      return row ? presentElement(row, null) : undefined;
    });
    ctx.registry.eventResource('brief_predictions', async (db, organisationId, id) => {
      const row = await findPredictionSummary(db, id);
      return row && row.organisationId === organisationId
        ? { ...presentSummary(row), briefId: row.briefId, briefElementId: row.briefElementId }
        : undefined;
    });
    return [{ plugin: briefsRoutes(services), aliased: true }, { plugin: briefElementsRoutes(services) }];
  },
});
