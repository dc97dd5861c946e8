import negotiate from '@fastify/accept-negotiator';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * HTTP compression of answers (issue 31; docs/decisions.md, "HTTP compression"): brotli or gzip as the
 * client's `Accept-Encoding` prefers (br first when both are equally welcome), for answers of at
 * least 1 KB whose media type is text: JSON and problem+json, CSV, HTML, CSS, JavaScript, XML and
 * SVG. Never for PDFs, raster images, archives or `application/octet-stream` (stored files of any
 * kind are served under their own type; those are compressed already or gain little, and
 * compressing them costs CPU for nothing), nor for event streams.
 *
 * The web app's assets are sent pre-compressed by @fastify/static (scripts/build.ts writes .br and
 * .gz files): the plugin leaves an answer that already has a `Content-Encoding` alone.
 */

/** Below this many bytes an answer goes as is: the headers would outweigh the saving. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

const TEXTUAL =
  /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:[\w.-]+\+)?(?:json|xml)|application\/(?:javascript|ecmascript|x-javascript)|image\/svg\+xml)\s*(?:;|$)/i;

/** What we compress with, most preferred first (brotli when the client welcomes both alike). */
const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

/** Whether an answer of this media type is compressed (when large enough). */
export const isCompressible = (contentType: string): boolean => TEXTUAL.test(contentType.trim());

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    encodings: ENCODINGS,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    // Only our list: the plugin's own default also compresses octet-stream and falls back to
    // mime-db for the rest, which would compress stored binaries.
    customTypes: isCompressible,
    // Request bodies are not inflated: clients send JSON and uploads as they are.
    globalDecompression: false,
  });
  // A strong ETag names exact bytes (RFC 9110, 8.8.1): once the body is compressed those are other
  // bytes, so the tag becomes weak. If-None-Match compares weakly, so 304s keep working. Added per
  // route after the plugin's own onSend (which it also adds per route), so that it sees the encoding.
  app.addHook('onRoute', (route) => {
    const hooks =
      route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...hooks, weakenCompressedEtag];
  });
}

async function weakenCompressedEtag(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const etag = reply.getHeader('etag');
  const encoding = reply.getHeader('content-encoding');
  if (typeof etag === 'string' && etag.startsWith('"') && encoding && encoding !== 'identity') {
    reply.header('etag', `W/${etag}`);
  }
  return payload;
}

/**
 * The encoding the plugin would compress a large enough textual answer to this request with, null
 * for none: the same negotiation as @fastify/compress 9 (`*` and `x-gzip` read as gzip, the
 * `x-no-compression` header honoured). For routes that keep an answer compressed ahead of time
 * (modules/briefs/details-cache.ts) and must send what the plugin would have sent.
 */
export function negotiatedEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string' || request.headers['x-no-compression'] !== undefined) return null;
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), ENCODINGS);
}

/** Adds accept-encoding to the answer's Vary header (as the plugin does when it compresses). */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const values = vary === undefined ? [] : String(vary).split(/\s*,\s*/);
  if (!values.some((v) => v.toLowerCase() === 'accept-encoding' || v === '*')) values.push('accept-encoding');
  reply.header('vary', values.join(', '));
}
