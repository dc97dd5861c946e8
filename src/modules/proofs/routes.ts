import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../platform/content-disposition.ts';
import { actorOf } from '../../platform/route-security.ts';
import { IdParams, problemResponses } from '../../platform/schemas.ts';
import {
  DecisionBody,
  GuestDecisionBody,
  GuestProofParams,
  ItemParams,
  PreviewQuery,
  ProofLinesSchema,
  ProofParams,
  ProofSchema,
} from './schemas.ts';
import type { ProofService, RequestMeta } from './service.ts';

const TokenParams = Type.Object({ token: Type.String({ minLength: 20, maxLength: 100 }) });

const binary = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', contentMediaType: mediaType } } },
});

const metaOf = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? null,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
});

const send = (
  reply: FastifyReply,
  file: { mediaType: string; filename?: string; etag: string; content: Buffer; inline?: boolean },
) => {
  reply
    .header('content-type', file.mediaType)
    .header('content-length', String(file.content.length))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-cache')
    .header('etag', file.etag);
  if (file.filename)
    reply.header(
      'content-disposition',
      contentDisposition(file.filename, file.inline ? 'inline' : undefined),
    );
  return reply.send(file.content);
};

const UPLOAD_BODY = {
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        nullable: true,
        properties: {
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The artwork' },
        },
        required: ['file'],
      },
    },
  },
} as const;

/** Artwork, preflight and proofs of quote lines (docs/proofs.md). */
export const proofRoutes =
  (service: ProofService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(ProofSchema);
    app.addSchema(ProofLinesSchema);
    const tags = ['proofs'];

    app.get(
      '/quotes/:id/proofs',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'listQuoteProofs',
          summary: 'The lines of a quote with their artwork proof versions and the conversion gate',
          description:
            'Every leaf line of the quote, its proof versions (newest first, each with its preflight findings and ' +
            'decision) and `proofsPending`, the lines with artwork whose latest proof is not approved: while it is ' +
            'above 0 the quote is not converted into an order (409 `proofs_not_approved`). Staff and the quote’s buyers.',
          params: IdParams,
          response: { 200: Type.Ref('ArtworkProofLines'), ...problemResponses() },
        },
      },
      async (request) => service.list(actorOf(request), request.params.id),
    );

    app.post(
      '/quotes/:id/items/:itemId/artwork',
      {
        config: { permission: 'files:write' },
        schema: {
          tags,
          operationId: 'uploadQuoteLineArtwork',
          summary: 'Upload artwork for a quote line: a new proof version, preflighted in the background',
          description:
            'multipart/form-data with the file in the field `file`: PDF, PNG, JPEG or TIFF recognised by its content ' +
            '(415 `unsupported_artwork` otherwise), within the file size limit (413). By sales and by the buyer (a ' +
            'contact of the quote’s company), on a leaf line of a published or signed quote not yet converted (409 ' +
            '`artwork_closed`). The answer has `preflightState: pending`; the findings and the proof PDF follow ' +
            '(poll GET /quotes/{id}/proofs/{proofId}).',
          params: ItemParams,
          body: UPLOAD_BODY,
          response: { 201: Type.Ref('ArtworkProof'), ...problemResponses(409, 413, 415) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await service.upload(actorOf(request), request.params.id, request.params.itemId, request)),
    );

    app.get(
      '/quotes/:id/proofs/:proofId',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'getQuoteProof',
          summary: 'One proof version: preflight findings, proof PDF link, decision and its evidence',
          params: ProofParams,
          response: { 200: Type.Ref('ArtworkProof'), ...problemResponses() },
        },
      },
      async (request) => service.get(actorOf(request), request.params.id, request.params.proofId),
    );

    app.get(
      '/quotes/:id/proofs/:proofId/pdf',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'downloadQuoteProofPdf',
          summary: 'The proof PDF: the artwork on the die-line template, with the findings',
          description:
            'The die-line is on the optional-content layer "Die-line". The ETag is the SHA-256 a decision may send ' +
            'as `proofSha256`. 409 `proof_not_ready` while it is being made.',
          params: ProofParams,
          response: { 200: binary('application/pdf', 'The proof PDF'), ...problemResponses(409) },
        },
      },
      async (request, reply) => {
        const file = await service.proofPdf(actorOf(request), request.params.id, request.params.proofId);
        return send(reply, {
          mediaType: 'application/pdf',
          filename: file.filename,
          etag: `"${file.sha256}"`,
          content: file.content,
          inline: true,
        });
      },
    );

    app.get(
      '/quotes/:id/proofs/:proofId/artwork',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'downloadQuoteProofArtwork',
          summary: 'The artwork of a proof version as uploaded',
          params: ProofParams,
          response: { 200: binary('application/octet-stream', 'The artwork file'), ...problemResponses() },
        },
      },
      async (request, reply) => {
        const file = await service.artwork(actorOf(request), request.params.id, request.params.proofId);
        return send(reply, {
          mediaType: file.mimeType,
          filename: file.filename,
          etag: `"${file.sha256}"`,
          content: file.content,
        });
      },
    );

    app.get(
      '/quotes/:id/proofs/:proofId/preview.png',
      {
        config: { permission: 'quotes:read' },
        schema: {
          tags,
          operationId: 'getQuoteProofPreview',
          summary: 'The artwork’s first page as PNG, over the die-line’s bounding box',
          description:
            '`fit=blank` (default when the line has a die-line): exactly the blank (the die-line’s bounding box, ' +
            'without the bleed), corner to corner, the artwork placed as the proof places it (centred, at its print ' +
            'size; white where it does not reach): a texture a flat or folded preview lays over the die-line. ' +
            '`fit=page`: the whole first page. At most 2048 px a side; headers `x-blank-width-mm` and ' +
            '`x-blank-height-mm` give the size it covers. 409 `proof_not_ready` during preflight.',
          params: ProofParams,
          querystring: PreviewQuery,
          response: { 200: binary('image/png', 'PNG image'), ...problemResponses(409) },
        },
      },
      async (request, reply) => {
        const preview = await service.preview(
          actorOf(request),
          request.params.id,
          request.params.proofId,
          request.query.fit,
        );
        if (preview.fit === 'blank' && preview.blank) {
          reply
            .header('x-blank-width-mm', String(preview.blank.widthMm))
            .header('x-blank-height-mm', String(preview.blank.heightMm));
        }
        return send(reply, { mediaType: 'image/png', etag: preview.etag, content: preview.png });
      },
    );

    app.post(
      '/quotes/:id/proofs/:proofId/decision',
      {
        config: { permission: 'quotes:respond' },
        schema: {
          tags,
          operationId: 'decideQuoteProof',
          summary: 'Approve a proof or request changes, with the evidence of the decision',
          description:
            'By the buyer (a contact of the quote’s company) or staff for them: `decision` `approved` (with ' +
            '`confirm: true`) or `changes_requested` (with a `comment`), the `typedName`, and optionally ' +
            '`proofSha256`, the hash of the proof PDF shown (409 `proof_hash_mismatch` when it is not the stored ' +
            'one’s). Only the latest version of a line, once (409 `proof_superseded`), once its proof is made (409 ' +
            '`proof_not_ready`). The evidence (user, role, typed name, server time, IP, user agent, proof SHA-256) ' +
            'is recorded with the decision and carried by its event (event.artwork_proofs.updated).',
          params: ProofParams,
          body: DecisionBody,
          response: { 200: Type.Ref('ArtworkProof'), ...problemResponses(409) },
        },
      },
      async (request) =>
        service.decide(
          actorOf(request),
          request.params.id,
          request.params.proofId,
          request.body,
          metaOf(request),
        ),
    );
  };

/**
 * A guest link made for proofs (`proofs: true` on POST /quotes/{id}/guest-links; public, under
 * /api only: the link's token is the credential): its quote's proofs, their files, and the
 * guest's decision with the evidence (the link, the e-mail typed, the typed name, server time, IP,
 * user agent, the proof PDF's SHA-256). 404 unknown token or another quote's proof, 410 revoked or
 * expired, 403 `guest_link_not_for_proofs` for a link that shares the quote only.
 */
export const proofPublicRoutes =
  (service: ProofService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(ProofSchema);
    app.addSchema(ProofLinesSchema);
    const tags = ['proofs'];
    const errors = {
      400: Type.Ref('Problem'),
      403: Type.Ref('Problem'),
      404: Type.Ref('Problem'),
      409: Type.Ref('Problem'),
      410: Type.Ref('Problem'),
    };
    const noStore = (reply: FastifyReply) =>
      reply
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex, nofollow');

    app.get(
      '/public/quotes/:token/proofs',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'listQuoteProofsAsGuest',
          summary: 'The proofs of a guest link made for proofs (no credentials)',
          description: 'As GET /quotes/{id}/proofs, with the files at the link’s public addresses.',
          params: TokenParams,
          response: { 200: Type.Ref('ArtworkProofLines'), ...errors },
        },
      },
      async (request, reply) => {
        noStore(reply);
        return service.guestList(request.params.token);
      },
    );

    app.post(
      '/public/quotes/:token/proofs/:proofId/decision',
      {
        config: { public: true },
        schema: {
          tags,
          operationId: 'decideQuoteProofAsGuest',
          summary: 'Approve a proof or request changes through a guest link made for proofs',
          description:
            'As POST /quotes/{id}/proofs/{proofId}/decision, with the guest’s `email` (required). The evidence ' +
            'names the guest link and the e-mail (`decision.guestLinkId`, `decision.email`, role `guest`).',
          params: GuestProofParams,
          body: GuestDecisionBody,
          response: { 200: Type.Ref('ArtworkProof'), ...errors },
        },
      },
      async (request, reply) => {
        noStore(reply);
        return service.guestDecide(
          request.params.token,
          request.params.proofId,
          request.body,
          metaOf(request),
        );
      },
    );

    for (const [what, path, operationId, mediaType] of [
      ['pdf', 'pdf', 'downloadQuoteProofPdfAsGuest', 'application/pdf'],
      ['preview', 'preview.png', 'getQuoteProofPreviewAsGuest', 'image/png'],
      ['artwork', 'artwork', 'downloadQuoteProofArtworkAsGuest', 'application/octet-stream'],
    ] as const) {
      app.get(
        `/public/quotes/:token/proofs/:proofId/${path}`,
        {
          config: { public: true },
          schema: {
            tags,
            operationId,
            summary: `The ${what === 'pdf' ? 'proof PDF' : what === 'preview' ? 'artwork preview PNG' : 'artwork as uploaded'} of a proof, through a guest link made for proofs`,
            params: GuestProofParams,
            ...(what === 'preview' ? { querystring: PreviewQuery } : {}),
            response: { 200: binary(mediaType, 'The file'), ...errors },
          },
        },
        async (request, reply) => {
          noStore(reply);
          const { token, proofId } = request.params as { token: string; proofId: string };
          const fit = (request.query as { fit?: 'blank' | 'page' } | undefined)?.fit;
          const file = await service.guestFile(token, proofId, what, fit);
          if (file.kind === 'pdf')
            return send(reply, {
              mediaType: 'application/pdf',
              filename: file.filename,
              etag: `"${file.sha256}"`,
              content: file.content,
              inline: true,
            });
          if (file.kind === 'preview')
            return send(reply, { mediaType: 'image/png', etag: file.etag, content: file.png });
          return send(reply, {
            mediaType: file.mimeType,
            filename: file.filename,
            etag: `"${file.sha256}"`,
            content: file.content,
          });
        },
      );
    }
  };
