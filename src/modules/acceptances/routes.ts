import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, problemResponses } from '../../platform/schemas.ts';
import {
  QuoteItemChildSchema,
  QuoteItemSchema,
  QuotePdfSchema,
  QuoteSchema,
  TokenParams,
} from '../quotes/schemas.ts';
import { AcceptanceSchema, AcceptBody, DeclineBody, GuestQuoteSchema } from './schemas.ts';
import type { AcceptanceService, RequestMeta } from './service.ts';

const PDF_RESPONSE = {
  description: 'The PAdES signed PDF (application/pdf)',
  content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
};

const metaOf = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? null,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
});

const sendPdf = (reply: FastifyReply, file: { filename: string; sha256: string; content: Buffer }) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(file.content.length))
    .header('content-disposition', contentDisposition(file.filename))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('etag', `"${file.sha256}"`)
    .send(file.content);

const ACCEPT_NOTE =
  'A buyer (contact) sends `typedName` and `confirm: true` (400 otherwise), optionally `poNumber`, `comment`, ' +
  '`option`, `localisationId` (the PDF shown) and `pdfSha256` (its hash as the client saw it: 409 ' +
  '`pdf_hash_mismatch` when it is not the stored PDF’s). Staff recording an answer received elsewhere may send ' +
  'no body (evidence marked `onBehalf`). The evidence (GET /quotes/{id}/acceptance) is written in the same ' +
  'transaction and carried by the quote’s event; the PAdES signed PDF follows.';

export const acceptancesRoutes =
  (service: AcceptanceService): FastifyPluginAsyncTypebox =>
  async (app) => {
    // The quote an answer returns: the quotes plugin's schemas, registered here too (plugins are encapsulated).
    for (const schema of [QuoteItemChildSchema, QuoteItemSchema, QuotePdfSchema, QuoteSchema])
      app.addSchema(schema);
    app.addSchema(AcceptanceSchema);
    const tags = ['quotes'];

    app.post(
      '/quotes/:id/accept',
      {
        config: { permission: 'quotes:respond' },
        schema: {
          tags,
          operationId: 'acceptQuote',
          summary: 'Accept (sign) a published quote, with the evidence of the signature',
          description: `By a contact of the quote’s company or by sales. Published -> signed; otherwise 409. ${ACCEPT_NOTE}`,
          params: IdParams,
          body: Type.Union([Type.Null(), AcceptBody], { description: 'The signature; staff may send none' }),
          response: { 200: Type.Ref('Quote'), ...problemResponses(409) },
        },
      },
      async (request) =>
        service.accept(actorOf(request), request.params.id, request.body ?? {}, metaOf(request)),
    );

    app.post(
      '/quotes/:id/decline',
      {
        config: { permission: 'quotes:respond' },
        schema: {
          tags,
          operationId: 'declineQuote',
          summary: 'Decline (reject) a published quote, with an optional reason',
          description:
            'By a contact of the quote’s company or by sales. Published -> rejected; otherwise 409. The answer is ' +
            'recorded as evidence like an acceptance (GET /quotes/{id}/acceptance).',
          params: IdParams,
          body: Type.Union([Type.Null(), DeclineBody], { description: 'Optional: `{ reason }`' }),
          response: { 200: Type.Ref('Quote'), ...problemResponses(409) },
        },
      },
      async (request) =>
        service.decline(actorOf(request), request.params.id, request.body ?? {}, metaOf(request)),
    );

    app.get(
      '/quotes/:id/acceptance',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'getQuoteAcceptance',
          summary: 'The evidence of the buyer’s answer (accept or decline) to a quote',
          description:
            'Who answered (user or guest link), e-mail, typed name, server time, IP, user agent, quote code and ' +
            'version, SHA-256 of the exact PDF shown, PO number, comment. Staff and the quote’s buyers; 404 ' +
            '`acceptance_not_found` before an answer.',
          params: IdParams,
          response: { 200: Type.Ref('QuoteAcceptance'), ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id),
    );

    app.get(
      '/quotes/:id/acceptance/signed-pdf',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'downloadSignedQuotePdf',
          summary: 'The PAdES B-B signed PDF of an accepted quote',
          description:
            'The PDF the buyer accepted, signed with the organisation’s certificate (SubFilter ETSI.CAdES.detached, ' +
            'self-signed: verifiers report the signature valid and the issuer unknown). 409 `quote_not_signed` ' +
            'for a declined quote, 404 `acceptance_not_found` before an answer.',
          params: IdParams,
          response: { 200: PDF_RESPONSE, ...problemResponses(409) },
        },
      },
      async (request, reply) => sendPdf(reply, await service.signedPdf(actorOf(request), request.params.id)),
    );
  };

/** The guest routes (public, under /api only): the link's token is the credential. */
export const acceptancesPublicRoutes =
  (service: AcceptanceService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(AcceptanceSchema);
    app.addSchema(GuestQuoteSchema);
    const tags = ['quotes'];
    const headers = (reply: FastifyReply) =>
      reply
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex, nofollow');
    const errors = {
      400: Type.Ref('Problem'),
      404: Type.Ref('Problem'),
      409: Type.Ref('Problem'),
      410: Type.Ref('Problem'),
    };

    app.get(
      '/public/quotes/:token',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'getQuoteAsGuest',
          summary: 'The quote behind a guest link: what the guest reviews and answers (no credentials)',
          description: '404 for an unknown token, 410 for a revoked or expired link.',
          params: TokenParams,
          response: { 200: Type.Ref('GuestQuote'), ...errors },
        },
      },
      async (request, reply) => {
        headers(reply);
        return service.guestView(request.params.token);
      },
    );

    app.post(
      '/public/quotes/:token/accept',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'acceptQuoteAsGuest',
          summary: 'Accept the quote of a guest link, with the evidence of the signature',
          description:
            '`typedName`, `email` and `confirm: true` are required (400); the language is the link’s unless ' +
            '`localisationId` chooses another. Otherwise as POST /quotes/{id}/accept.',
          params: TokenParams,
          body: AcceptBody,
          response: { 200: Type.Ref('GuestQuote'), ...errors },
        },
      },
      async (request, reply) => {
        headers(reply);
        return service.guestAnswer(request.params.token, 'accepted', request.body, metaOf(request));
      },
    );

    app.post(
      '/public/quotes/:token/decline',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'declineQuoteAsGuest',
          summary: 'Decline the quote of a guest link, with a reason',
          params: TokenParams,
          body: Type.Union([Type.Null(), DeclineBody]),
          response: { 200: Type.Ref('GuestQuote'), ...errors },
        },
      },
      async (request, reply) => {
        headers(reply);
        return service.guestAnswer(request.params.token, 'declined', request.body ?? {}, metaOf(request));
      },
    );

    app.get(
      '/public/quotes/:token/logo',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'getSellerLogoAsGuest',
          summary: 'The seller’s logo on a guest link’s page',
          params: TokenParams,
          response: {
            200: {
              description: 'The PNG or JPEG image',
              content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
            },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        headers(reply);
        const { file, content } = await service.guestLogo(request.params.token);
        return reply
          .header('content-type', file.mimeType)
          .header('content-length', String(content.length))
          .header('x-content-type-options', 'nosniff')
          .send(content);
      },
    );

    app.get(
      '/public/quotes/:token/signed-pdf',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'downloadSignedQuotePdfAsGuest',
          summary: 'The PAdES signed PDF of the quote a guest accepted',
          params: TokenParams,
          response: { 200: PDF_RESPONSE, ...errors },
        },
      },
      async (request, reply) => {
        headers(reply);
        return sendPdf(reply, await service.guestSignedPdf(request.params.token));
      },
    );
  };
