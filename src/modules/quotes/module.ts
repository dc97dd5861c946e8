import type { AppContext } from '../../context.ts';
import { answerSerializer, presentEntity } from '../../platform/events.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { registerEventResource } from '../events/resources.ts';
import { ordersModule } from '../orders/module.ts';
import { organisationSettingsModule } from '../organisations/module.ts';
import './payloads.ts';
import {
  createQuotePdfService,
  PDF_JOB,
  type PdfJobData,
  presentLink,
  type QuotePdfService,
} from './pdf-service.ts';
import {
  findGuestLink,
  findItemRow,
  findQuoteWithRefs,
  QUOTE_GUEST_LINK_ENTITY,
  QUOTE_ITEM_ENTITY,
} from './repository.ts';
import { quotesPublicRoutes, quotesRoutes } from './routes.ts';
import { QuoteItemChildSchema, QuoteItemSchema, QuotePdfSchema, QuoteSchema } from './schemas.ts';
import { createQuoteService, presentQuote, type QuoteService } from './service.ts';

/** The pg-boss queue of the expiry sweep, and how often it runs. */
export const EXPIRE_JOB = 'quotes.expire';
export const EXPIRE_CRON = '*/5 * * * *';

/** The handler of the expiry job: expires every published quote past its validity. */
export const expireJobHandler = (ctx: AppContext, service: QuoteService) => async () => {
  const expired = await service.expireDue();
  if (expired) ctx.log.info({ expired }, 'quotes past their validity expired');
};

/** GET /quotes/{id}'s serialisation (its schema), for the quote's event resource. */
const asQuoteAnswer = answerSerializer(QuoteSchema, [QuoteItemSchema, QuoteItemChildSchema, QuotePdfSchema]);

export type QuotesModule = { service: QuoteService; pdfs: QuotePdfService };
const modules = new WeakMap<AppContext, QuotesModule>();

/**
 * The quote services, made once per app: defines the expiry job and its schedule, registers the
 * event resources of the quote tables.
 */
export function quotesModule(ctx: AppContext): QuotesModule {
  const existing = modules.get(ctx);
  if (existing) return existing;
  const settings = organisationSettingsModule(ctx).settings;
  const service = createQuoteService({
    db: ctx.db,
    change: ctx.change,
    orders: ordersModule(ctx).orders,
    seller: settings,
    // The stored PDFs of a published quote are rendered in the background, so that the first
    // reader finds them (docs/quotes.md, "Stored PDFs"); one job per publish.
    onPublished: async (actor, quoteId) => {
      const data: PdfJobData = { organisationId: actor.organisationId, quoteId, userId: actor.userId };
      // The publish has committed: a queue failure must not turn it into an error; the first
      // request renders the PDF instead.
      await ctx.jobs
        .send(PDF_JOB, data, { singletonKey: quoteId })
        .catch((error) =>
          ctx.log.warn({ err: error, quoteId }, 'could not queue the PDFs of a published quote'),
        );
    },
  });
  const pdfs = createQuotePdfService(ctx, service, settings);
  const module = { service, pdfs };
  modules.set(ctx, module);

  ctx.jobs.define(EXPIRE_JOB, expireJobHandler(ctx, service), {
    queue: { policy: 'singleton', retryLimit: 1, expireInSeconds: 600 },
  });
  ctx.jobs.afterStart(async () => {
    await ctx.jobs.schedule(EXPIRE_JOB, EXPIRE_CRON);
  });
  ctx.jobs.define<PdfJobData>(
    PDF_JOB,
    async (jobs) => {
      for (const job of jobs) await pdfs.storeAfterPublish(job.data);
    },
    { queue: { retryLimit: 3, retryDelay: 30, expireInSeconds: 300 } },
  );

  // The quote as GET /quotes/{id} answers the admin asking (the same presenter).
  registerEventResource('quotes', async (db, organisationId, id, actor) => {
    const found = await findQuoteWithRefs(db, organisationId, id);
    return found && actor ? asQuoteAnswer(await presentQuote(db, actor, found)) : undefined;
  });
  // A line as its events deliver it (GET's line for staff).
  registerEventResource('quote_items', async (db, organisationId, id) => {
    const row = await findItemRow(db, organisationId, id);
    return row ? presentEntity(db, QUOTE_ITEM_ENTITY.entity, row) : undefined;
  });
  registerEventResource(QUOTE_GUEST_LINK_ENTITY.tableName, async (db, organisationId, id) => {
    const row = await findGuestLink(db, organisationId, id);
    return row ? presentLink(row) : undefined;
  });
  return module;
}

export const quotesFeature: FeatureModule = {
  name: 'quotes',
  aliases: ['/quotes'],
  wire: (ctx) => {
    const wired = quotesModule(ctx);
    return [{ plugin: quotesRoutes(ctx, wired), aliased: true }, { plugin: quotesPublicRoutes(ctx, wired) }];
  },
};
