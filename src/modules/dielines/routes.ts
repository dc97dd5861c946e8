import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, problemResponses } from '../../platform/schemas.ts';
import { ElementIndexParams } from '../briefs/schemas.ts';
import { negotiateFormat, negotiatePdf } from './negotiation.ts';
import {
  BriefTemplateQuery,
  DIELINE_RESPONSE,
  DieLineFormatQuery,
  DieLineQuery,
  NOT_MODIFIED,
  PDF_RESPONSE,
  QuoteItemParams,
} from './schemas.ts';
import type { DieLineFile, DieLineService } from './service.ts';

const tags = ['die-lines'];

/** Whether If-None-Match names this ETag (weak comparison, RFC 9110 13.1.2). */
function notModified(request: FastifyRequest, etag: string) {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: DieLineFile) {
  // The current version changes when the brief is priced again: clients revalidate every time.
  reply.header('etag', file.etag).header('cache-control', 'private, no-cache').header('vary', 'Accept');
  if (notModified(request, file.etag)) return reply.code(304).send();
  return reply
    .header('content-type', file.mediaType)
    .header('content-length', String(file.content.length))
    .header('content-disposition', contentDisposition(file.filename))
    .header('x-content-type-options', 'nosniff')
    .send(file.content);
}

export const dieLineRoutes =
  (service: DieLineService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/briefs/:id/elements/:elementIndex/die-line',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefElementDieLineFile',
          summary: 'The die-line of an element as a PDF artwork template, a DXF or a CF2 file',
          description:
            'The format by `?format=pdf|dxf|cf2`, else by `Accept` (application/pdf, image/vnd.dxf, application/x-cf2; ' +
            '406 `not_acceptable` when it names none of them), else the PDF. `?version=` for a prediction version. ' +
            'Anyone who may read the brief may download it (the files carry no cost); 304 when `If-None-Match` holds the ETag. ' +
            'See docs/dielines.md for the layers, colours and standards.',
          params: ElementIndexParams,
          querystring: DieLineQuery,
          response: { 200: DIELINE_RESPONSE, 304: NOT_MODIFIED, ...problemResponses(406, 409) },
        },
      },
      async (request, reply) => {
        const format = negotiateFormat(request.query.format, request.headers.accept);
        const file = await service.briefElementFile(
          actorOf(request),
          request.params.id,
          request.params.elementIndex,
          format,
          request.query.version,
        );
        return sendFile(request, reply, file);
      },
    );

    app.get(
      '/briefs/:id/elements/:elementIndex/imposition-sheet',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefElementImpositionFile',
          summary: 'The imposition sheet of an element (every up, gripper, grain arrow) as PDF, DXF or CF2',
          description:
            'The selected process variant’s sheet, for the die-maker who builds the die for the whole sheet. ' +
            'Format, version, permissions, names, ETag and 304 as for the die-line (`-sheet` added to the file name); ' +
            'the CF2 calls the blank’s SUB once per up.',
          params: ElementIndexParams,
          querystring: DieLineQuery,
          response: { 200: DIELINE_RESPONSE, 304: NOT_MODIFIED, ...problemResponses(406, 409) },
        },
      },
      async (request, reply) => {
        const format = negotiateFormat(request.query.format, request.headers.accept);
        const file = await service.briefElementSheet(
          actorOf(request),
          request.params.id,
          request.params.elementIndex,
          format,
          request.query.version,
        );
        return sendFile(request, reply, file);
      },
    );

    app.get(
      '/briefs/:id/die-lines',
      {
        config: { permission: 'briefs:read' },
        schema: {
          tags,
          operationId: 'getBriefDieLineTemplate',
          summary: 'Every element of the brief in one PDF artwork template, one page per element',
          description:
            'The pages are the elements’ die-line templates (same layers, spot colours, bleed and title block), by ' +
            'position. PDF only (`?format=pdf` or an `Accept` that takes application/pdf; 406 otherwise); ' +
            '`?version=`, permissions, ETag and 304 as for an element’s die-line.',
          params: IdParams,
          querystring: BriefTemplateQuery,
          response: { 200: PDF_RESPONSE, 304: NOT_MODIFIED, ...problemResponses(406, 409) },
        },
      },
      async (request, reply) => {
        if (!request.query.format) negotiatePdf(request.headers.accept);
        const file = await service.briefTemplate(actorOf(request), request.params.id, request.query.version);
        return sendFile(request, reply, file);
      },
    );

    const itemNote =
      'The element line’s die-line as it was quoted: the brief version and the element position recorded on the ' +
      'line when it was added (the version it was priced from, else the current one then). Anyone who may read the ' +
      'quote may download it (a contact of its company; another company’s or tenant’s quote: 404); 404 for a ' +
      'line that is not an element of a brief. Format, names, ETag and 304 as for the brief element’s die-line.';
    for (const [kind, operationId, summary, method] of [
      [
        'die-line',
        'getQuoteItemDieLineFile',
        'The die-line of a quote line as PDF template, DXF or CF2',
        'quoteItemFile',
      ],
      [
        'imposition-sheet',
        'getQuoteItemImpositionFile',
        'The imposition sheet of a quote line as PDF, DXF or CF2',
        'quoteItemSheet',
      ],
    ] as const) {
      app.get(
        `/quotes/:id/quote-items/:itemId/${kind}`,
        {
          config: { permission: 'quotes:read' },
          schema: {
            tags,
            operationId,
            summary,
            description: itemNote,
            params: QuoteItemParams,
            querystring: DieLineFormatQuery,
            response: { 200: DIELINE_RESPONSE, 304: NOT_MODIFIED, ...problemResponses(406, 409) },
          },
        },
        async (request, reply) => {
          const format = negotiateFormat(request.query.format, request.headers.accept);
          const file = await service[method](
            actorOf(request),
            request.params.id,
            request.params.itemId,
            format,
          );
          return sendFile(request, reply, file);
        },
      );
    }

    const articleNote =
      'The die-line of the article’s brief element: for an element of a brief, that brief’s current version ' +
      '(or `?version=`); for a standalone element, its own newest prediction (or `?version=`), named after the ' +
      'article’s code. 404 when the article has no element, 409 `prediction_not_available` when it was never ' +
      'priced. Anyone who may read the article may download it. Format, names, ETag and 304 as for a brief element.';
    for (const [kind, operationId, summary, method] of [
      [
        'die-line',
        'getArticleDieLineFile',
        'The die-line of an article as PDF template, DXF or CF2',
        'articleFile',
      ],
      [
        'imposition-sheet',
        'getArticleImpositionFile',
        'The imposition sheet of an article as PDF, DXF or CF2',
        'articleSheet',
      ],
    ] as const) {
      app.get(
        `/articles/:id/${kind}`,
        {
          config: { permission: 'articles:read' },
          schema: {
            tags,
            operationId,
            summary,
            description: articleNote,
            params: IdParams,
            querystring: DieLineQuery,
            response: { 200: DIELINE_RESPONSE, 304: NOT_MODIFIED, ...problemResponses(406, 409) },
          },
        },
        async (request, reply) => {
          const format = negotiateFormat(request.query.format, request.headers.accept);
          const file = await service[method](
            actorOf(request),
            request.params.id,
            format,
            request.query.version,
          );
          return sendFile(request, reply, file);
        },
      );
    }
  };
