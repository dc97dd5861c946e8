import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { etagMatches } from '../../platform/etag.ts';
import { AFTER_QUERY_DESCRIPTION, LIST_COUNT_CAP } from '../../platform/list-paging.ts';
import { pageQuerySchema } from '../../platform/pagination.ts';
import { actorOf } from '../../platform/route-security.ts';
import { CountedPage, IdParams, problemResponses, Uuid } from '../../platform/schemas.ts';
import { type AttachmentServices, registerAttachmentRoutes } from '../files/attachments.ts';
import type { QuotesServices } from './module.ts';
import {
  AddItemsBody,
  ConversionSchema,
  ConvertBody,
  CreatedGuestLinkSchema,
  CreateGuestLinkBody,
  CreateQuoteBody,
  GeneratePdfBody,
  GuestLinkSchema,
  ItemParams,
  LinkParams,
  LocalisationParams,
  PatchQuoteBody,
  QuoteItemChildSchema,
  QuoteItemSchema,
  QuotePdfSchema,
  QuoteSchema,
  QuoteSummarySchema,
  TokenParams,
  UpdateItemBody,
  UpdateQuoteBody,
} from './schemas.ts';
import { QUOTE_PAGE } from './service.ts';

const PDF_RESPONSE = {
  description: 'The PDF (application/pdf)',
  content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
};

const sendPdf = (
  reply: FastifyReply,
  pdf: { file: { filename: string; sha256: string }; content: Buffer },
  disposition: 'attachment' | 'inline' = 'attachment',
) => {
  const etag = `"${pdf.file.sha256}"`;
  // Kept by the client, asked again each time (a guest link says no-store itself).
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
  // A stored PDF does not change under its tag: a client that has it gets 304 and no body.
  if (etagMatches(reply.request.headers['if-none-match'], etag)) {
    return reply.status(304).header('etag', etag).send();
  }
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(pdf.content.length))
    .header(
      'content-disposition',
      disposition === 'attachment'
        ? contentDisposition(pdf.file.filename)
        : contentDisposition(pdf.file.filename).replace(/^attachment/, 'inline'),
    )
    .header('x-content-type-options', 'nosniff')
    .header('etag', etag)
    .send(pdf.content);
};

const ListQuery = pageQuerySchema(QUOTE_PAGE, {
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or code' }),
  ),
  status: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Comma-separated states (draft, published, signed, rejected, expired); matches any',
    }),
  ),
  projectId: Type.Optional(Uuid),
  companyId: Type.Optional(Uuid),
  after: Type.Optional(Type.String({ format: 'uuid', description: AFTER_QUERY_DESCRIPTION })),
});

const STATES_NOTE =
  'States (the lifecycle table of docs/quotes.md): draft -> published (PUT state, all items priced, assigns the ' +
  'code and locks the quote) -> signed | rejected (accept / decline, or PUT state) | expired (automatic once ' +
  'validUntil has passed). Any other transition answers 409 `invalid_transition`; a change of a quote that is ' +
  'not a draft 409 `quote_locked`. `allowedActions` in the answer lists what the caller may do next.';

export const quotesRoutes = (
  { quotes: service, pdfs }: QuotesServices,
  attachments: AttachmentServices,
): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.addSchema(QuoteItemChildSchema);
    app.addSchema(QuoteItemSchema);
    app.addSchema(QuotePdfSchema);
    app.addSchema(QuoteSummarySchema);
    app.addSchema(QuoteSchema);
    app.addSchema(GuestLinkSchema);
    const Quote = Type.Ref('Quote');
    const tags = ['quotes'];

    app.post(
      '/quotes',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'createQuote',
          summary: 'Create a draft quote from briefs and/or articles',
          description:
            'Each brief of `briefIds` gives a parent item and one child item per element, priced from the brief’s ' +
            'current prediction (not valid while it has none). `items` take articles (`articleId`, `quantity`, ' +
            'optional `price`, default the article price), whole briefs (`briefId`) or single elements ' +
            '(`briefElementId`). At least one item is required (400 `quote_without_items`). The project, contact ' +
            'and address must belong to the company (422). Contact details default to the contact’s.',
          body: CreateQuoteBody,
          response: { 201: Quote, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(actorOf(request), request.body)),
    );

    app.get(
      '/quotes',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'listQuotes',
          summary: 'List quotes with filters, pagination and sorting',
          description:
            'Default: page 1, limit 25 (maximum 100), sorted by createdAt DESC. Contacts see the quotes of their ' +
            'companies that are no longer drafts; external sales those of their companies. Quotes past their ' +
            'validity are expired before the list is read. `meta.total` is exact for the unfiltered list ' +
            `and up to ${LIST_COUNT_CAP.toLocaleString('en')} matching quotes; beyond, it is a lower bound and ` +
            '`meta.totalIsExact` is false. `meta.hasNextPage` is always exact.',
          querystring: ListQuery,
          response: {
            200: CountedPage(Type.Ref('QuoteSummary'), { cap: LIST_COUNT_CAP, alwaysSaysExact: true }),
            ...problemResponses(),
          },
        },
      },
      async (request) => service.list(actorOf(request), request.query),
    );

    app.get(
      '/quotes/:id',
      {
        config: { permission: 'quotes:read', etag: true },
        schema: {
          tags,
          operationId: 'getQuote',
          summary: 'Get a quote with its items (tree), project, company, contact, address and PDFs',
          description:
            '`allowedActions` lists what this caller may do next (from the lifecycle table: their permissions, the ' +
            'state, the validity, an order already made); `order` names the order the quote became.',
          params: IdParams,
          response: { 200: Quote, ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.put(
      '/quotes/:id',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'updateQuote',
          summary: 'Edit a draft and/or change the state of a quote',
          description:
            `${STATES_NOTE} Publishing without a complete pricing answers 422 \`pricing_incomplete\`; without a ` +
            `validUntil the quote is valid 30 days. \`rejectionReason\` goes with \`state: rejected\`.`,
          params: IdParams,
          body: UpdateQuoteBody,
          response: { 200: Quote, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.patch(
      '/quotes/:id',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'patchQuote',
          summary: 'Edit the fields of a draft quote (name, validity, contact, address...)',
          description:
            'The fields of `PUT /quotes/{id}` without a state change: each sent field is changed, the others kept; ' +
            '`null` clears a nullable one. The contact and address must be of the quote’s company (422), another ' +
            'tenant’s answers 422 like a missing one. A quote that is not a draft answers 409 `quote_locked`.',
          params: IdParams,
          body: PatchQuoteBody,
          response: { 200: Quote, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.update(actorOf(request), request.params.id, request.body),
    );

    app.patch(
      '/quotes/:id/quote-items/:itemId',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'updateQuoteItem',
          summary: 'Edit a line of a draft quote',
          description:
            'One change of a line: `quantity` (a brief element is priced again by the engine, 422 ' +
            '`repricing_failed` when it cannot be), `price` (a unit price override; the engine’s price is kept ' +
            'beside it and shown to staff with the margin; `null` goes back to it), `discountPercent` or ' +
            '`discountAmount` (not both: 400; above the line: 422 `invalid_discount`), `comment`, `optional` (shown, ' +
            'not counted in the total nor ordered), `position` (among its siblings), `groupLabel`. Money does not ' +
            'apply to a group line (422 `line_not_priced`). The line, its parent and the quote totals are recomputed ' +
            'in the same transaction (docs/quotes.md, rounding rule). Not a draft: 409 `quote_locked`.',
          params: ItemParams,
          body: UpdateItemBody,
          response: { 200: Quote, ...problemResponses(409, 422) },
        },
      },
      async (request) =>
        service.updateItem(actorOf(request), request.params.id, request.params.itemId, request.body),
    );

    app.post(
      '/quotes/:id/quote-items',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'addQuoteItems',
          summary: 'Add items to a draft quote',
          description:
            'Each item needs a brief reference (`briefId` for a whole brief, `briefElementId` for one element, ' +
            'placed under its brief’s parent item) or an `articleId` (400 otherwise). The quote totals follow.',
          params: IdParams,
          body: AddItemsBody,
          response: { 200: Quote, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.addItems(actorOf(request), request.params.id, request.body.items),
    );

    app.delete(
      '/quotes/:id/quote-items/:itemId',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'removeQuoteItem',
          summary: 'Remove an item of a draft quote (a parent with its children)',
          description:
            'A parent item goes with its children; a parent whose last child is removed goes too. The last item ' +
            'of a quote cannot be removed (422 `quote_without_items`).',
          params: ItemParams,
          response: { 200: Quote, ...problemResponses(409, 422) },
        },
      },
      async (request) => service.removeItem(actorOf(request), request.params.id, request.params.itemId),
    );

    // POST /quotes/:id/accept and /decline: src/modules/acceptances (they record the buyer's evidence).

    app.post(
      '/quotes/:id/revisions',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'reviseQuote',
          summary: 'Duplicate a quote that is no longer a draft into a new draft revision',
          description:
            'The revision copies the fields and items (prices as they were), gets version = the highest of ' +
            'its lineage + 1 and parentQuoteId = this quote. A draft is edited, not revised, and a quote converted ' +
            'into an order is not revised (409 `invalid_transition`).',
          params: IdParams,
          response: { 201: Quote, ...problemResponses(409) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.revise(actorOf(request), request.params.id)),
    );

    app.post(
      '/quotes/:id/order',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'convertQuoteToOrder',
          summary: 'Make the order of a signed quote (once)',
          description:
            'Each quote item becomes an order item (parent/child kept); an element item takes the company’s ' +
            'article linked to the element, or a new one (code from the quote code); tooling and delivery become ' +
            '`service` lines under their item (positions 1 and 2). The quote keeps `orderId`. 409 ' +
            '`quote_not_signed` unless signed, 409 `already_converted` the second time.',
          params: IdParams,
          body: Type.Union([Type.Null(), ConvertBody], {
            description: 'Optional: `{ customFields }` of the order (required order custom fields go here)',
          }),
          response: { 201: ConversionSchema, ...problemResponses(409) },
        },
      },
      async (request, reply) => {
        // Custom field values are checked against the definitions by the order insert.
        const input = (request.body ?? {}) as { customFields?: Record<string, unknown> };
        const result = await service.convertToOrder(actorOf(request), request.params.id, input);
        reply.status(201);
        return result;
      },
    );

    app.post(
      '/quotes/:id/generate-pdf',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'generateQuotePdf',
          summary: 'Render the PDF of a published quote in a language, store it and return it',
          description:
            'Stored as the quote’s file labelled with the language (a new rendering replaces it). A quote that ' +
            'is not published answers 409 `quote_not_published`; an unknown language 400.',
          params: IdParams,
          body: GeneratePdfBody,
          response: { 201: PDF_RESPONSE, ...problemResponses(409) },
        },
      },
      async (request, reply) => {
        const result = await pdfs.generate(actorOf(request), request.params.id, request.body.localisationId);
        reply
          .status(201)
          .header('location', `/api/quotes/${request.params.id}/localisation/${result.file.label}`);
        return sendPdf(reply, result);
      },
    );

    app.get(
      '/quotes/:id/preview/:localisationId',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'previewQuotePdf',
          summary: 'Render the PDF of a quote as it is now (drafts too), without storing it',
          description:
            'For checking a draft before publishing. Renders go through a bounded pool per node ' +
            '(PDF_RENDER_CONCURRENCY at once, PDF_RENDER_QUEUE waiting): beyond, 429 `pdf_render_busy` with ' +
            '`Retry-After`. A published quote’s PDF is better read from GET /quotes/{id}/localisation/{localisationId} (stored).',
          params: LocalisationParams,
          response: { 200: PDF_RESPONSE, ...problemResponses(429) },
        },
      },
      async (request, reply) =>
        sendPdf(
          reply,
          await pdfs.preview(actorOf(request), request.params.id, request.params.localisationId),
          'inline',
        ),
    );

    app.get(
      '/quotes/:id/localisation/:localisationId',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'downloadQuotePdf',
          summary: 'Download the PDF of a quote in a language',
          description:
            'A published quote’s PDF is rendered once and stored (after the publish, by a job, or by the first ' +
            'request), and rendered again only when the quote or its template changes; it is served with its ' +
            '`ETag`, and `If-None-Match` answers 304. Another state serves the PDF stored while it was published: ' +
            '404 `pdf_not_generated` when there is none (a draft).',
          params: LocalisationParams,
          response: { 200: PDF_RESPONSE, ...problemResponses() },
        },
      },
      async (request, reply) =>
        sendPdf(
          reply,
          await pdfs.download(actorOf(request), request.params.id, request.params.localisationId),
        ),
    );

    app.post(
      '/quotes/:id/guest-links',
      {
        // The answer carries the link's token, which is kept only as a hash: never stored for replay.
        config: { permission: 'quotes:write', idempotent: false },
        schema: {
          tags,
          operationId: 'createQuoteGuestLink',
          summary: 'Create a link that serves the quote’s PDF in a language without credentials',
          description:
            'The token is shown once (only its hash is kept). The link works until `expiresAt` (default 30 days, ' +
            'at most 366) or until revoked. A published quote without a PDF in that language gets it generated.',
          params: IdParams,
          body: CreateGuestLinkBody,
          response: { 201: CreatedGuestLinkSchema, ...problemResponses(409, 422) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await pdfs.createLink(actorOf(request), request.params.id, request.body)),
    );

    app.get(
      '/quotes/:id/guest-links',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'listQuoteGuestLinks',
          summary: 'List the guest links of a quote',
          params: IdParams,
          response: { 200: Type.Array(Type.Ref('QuoteGuestLink')), ...problemResponses() },
        },
      },
      async (request) => pdfs.listLinks(actorOf(request), request.params.id),
    );

    app.delete(
      '/quotes/:id/guest-links/:linkId',
      {
        config: { permission: 'quotes:write' },
        schema: {
          tags,
          operationId: 'revokeQuoteGuestLink',
          summary: 'Revoke a guest link',
          params: LinkParams,
          response: { 200: Type.Ref('QuoteGuestLink'), ...problemResponses() },
        },
      },
      async (request) => pdfs.revokeLink(actorOf(request), request.params.id, request.params.linkId),
    );

    // Questions and answers about a quote (buyer and seller): comments only, the quote's files are
    // its stored PDFs. A new comment notifies the quote's sales owner (notifications module).
    registerAttachmentRoutes(app, attachments, {
      entity: 'quote',
      path: '/quotes/:id',
      tags,
      files: false,
      assertParentVisible: async (actor, id) => {
        await service.visibleWithRefs(actor, id);
      },
    });
  };
};

/** The public route of guest links (served under /api only). */
export const quotesPublicRoutes = ({ pdfs }: QuotesServices): FastifyPluginAsyncTypebox => {
  return async (app) => {
    app.get(
      '/public/quotes/pdf/:token',
      {
        config: { public: true },
        schema: {
          tags: ['quotes'],
          operationId: 'getQuotePdfAsGuest',
          summary: 'The PDF of a guest link (no credentials)',
          description: '404 for an unknown token, 410 for a revoked or expired link.',
          params: TokenParams,
          response: { 200: PDF_RESPONSE, 404: Type.Ref('Problem'), 410: Type.Ref('Problem') },
        },
      },
      async (request, reply) => {
        const pdf = await pdfs.servePublic(request.params.token);
        reply
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .header('x-robots-tag', 'noindex, nofollow');
        return sendPdf(reply, pdf, 'inline');
      },
    );
  };
};
