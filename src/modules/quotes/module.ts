import type { AppContext } from '../../context.ts';
import { answerSerializer, presentEntity } from '../../platform/events.ts';
import { defineModule } from '../../platform/module.ts';
import { filesModule } from '../files/module.ts';
import { ordersModule } from '../orders/module.ts';
import { organisationsModule } from '../organisations/module.ts';
import { declareQuotePayloads } from './payloads.ts';
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
export const expireJobHandler = (ctx: Pick<AppContext, 'log'>, service: QuoteService) => async () => {
  const expired = await service.expireDue();
  if (expired) ctx.log.info({ expired }, 'quotes past their validity expired');
};

/** GET /quotes/{id}'s serialisation (its schema), for the quote's event resource. */
const asQuoteAnswer = answerSerializer(QuoteSchema, [QuoteItemSchema, QuoteItemChildSchema, QuotePdfSchema]);

export type QuotesServices = { quotes: QuoteService; pdfs: QuotePdfService };

/**
 * Quotes, their lines, PDFs and guest links: the expiry job and its schedule, the background
 * rendering of a published quote's PDFs, the event resources and payloads of the quote tables.
 */
export const quotesModule = defineModule<QuotesServices>({
  name: 'quotes',
  aliases: ['/quotes'],
  services: (ctx) => {
    const { settings } = organisationsModule.services(ctx);
    const quotes = createQuoteService({
      db: ctx.db,
      change: ctx.change,
      orders: ordersModule.services(ctx).orders,
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
    const pdfs = createQuotePdfService(ctx, { quotes, settings, files: filesModule.services(ctx).files });
    return { quotes, pdfs };
  },
  wire: (ctx, services) => {
    const { quotes, pdfs } = services;
    ctx.jobs.define(EXPIRE_JOB, expireJobHandler(ctx, quotes), {
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

    declareQuotePayloads(ctx.registry);
    // The quote as GET /quotes/{id} answers the admin asking (the same presenter).
    ctx.registry.eventResource('quotes', async (db, organisationId, id, actor) => {
      const found = await findQuoteWithRefs(db, organisationId, id);
      return found && actor ? asQuoteAnswer(await presentQuote(db, actor, found)) : undefined;
    });
    // A line as its events deliver it (GET's line for staff).
    ctx.registry.eventResource('quote_items', async (db, organisationId, id) => {
      const row = await findItemRow(db, organisationId, id);
      return row ? presentEntity(ctx.registry, db, QUOTE_ITEM_ENTITY.entity, row) : undefined;
    });
    ctx.registry.eventResource(QUOTE_GUEST_LINK_ENTITY.tableName, async (db, organisationId, id) => {
      const row = await findGuestLink(db, organisationId, id);
      return row ? presentLink(row) : undefined;
    });
    return [
      { plugin: quotesRoutes(services, filesModule.services(ctx)), aliased: true },
      { plugin: quotesPublicRoutes(services) },
    ];
  },
});
