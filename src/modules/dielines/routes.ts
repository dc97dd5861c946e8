import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { problemResponses } from '../../platform/schemas.ts';
import { ElementIndexParams } from '../briefs/schemas.ts';
import { negotiateFormat } from './negotiation.ts';
import { DIELINE_RESPONSE, DieLineQuery, NOT_MODIFIED } from './schemas.ts';
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
  };
