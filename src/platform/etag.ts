import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answer with a weak ETag of the body and 304 to an If-None-Match that names it (issue 31):
     * the read still runs, the client is spared the body (brief and quote reads).
     */
    etag?: boolean;
  }
}

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
}

/** The weak entity tag of a JSON text: the same content, whatever the encoding it is sent in. */
export const weakEtagOf = (payload: string) =>
  `W/"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;

async function weakEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const etag = weakEtagOf(payload);
  reply.header('etag', etag);
  if (!etagMatches(request.headers['if-none-match'], etag)) return payload;
  reply.code(304);
  reply.removeHeader('content-length');
  return '';
}

/**
 * Adds the hook to routes with `config.etag`, per route and before the compression hook (see
 * registerCompression, registered after this) so that the tag is of the JSON text itself.
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.etag) return;
    const hooks =
      route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...hooks, weakEtag];
  });
}
