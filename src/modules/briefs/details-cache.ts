import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
import { type Actor, assertCompanyVisible } from '../../platform/actor.ts';
import { type Audience, audienceOf } from '../../platform/audience.ts';
import {
  COMPRESSION_THRESHOLD_BYTES,
  negotiatedEncoding,
  varyOnEncoding,
} from '../../platform/compression.ts';
import { notFound } from '../../platform/errors.ts';
import { etagMatches, weakEtagOf } from '../../platform/etag.ts';
import { type DetailsStampQuery, prepareDetailsStamp } from './details-repository.ts';

/**
 * GET /briefs/{id}/details answered from memory (issue 31).
 *
 * The answer is built from the brief's stored prediction (about 200 KB of jsonb for three
 * elements): loading, parsing, filtering for the audience, serialising and compressing it cost
 * 30-50 times a read of the brief's row. Yet it changes only when the brief, its elements or the
 * names it shows change. Each read now runs one statement (details-repository.ts): the brief's company,
 * for the caller's visibility, and a stamp of everything the answer is built from. When this node
 * has sent the answer for that stamp and the caller's audience, the stored JSON text (or its
 * brotli bytes, when the client would have got brotli) goes out as is, with its ETag.
 *
 * Otherwise the route answers as before and the text it sent is kept: captured in the route's
 * first onSend hook, after every preSerialization hook and the response serializer, so what a hit
 * sends is byte for byte what the full path would send. The stamp is read before the answer is
 * built, so an answer is never kept under a newer stamp than its data.
 *
 * Answers are kept per audience (a buyer's never carries costs, platform/audience.ts) in a
 * bounded LRU of this process; several nodes each keep their own, all checked against the database
 * on every read. Only the default answer (current prediction, selected variants) is kept:
 * `?version=` and `?include=` take the full path.
 */

type Entry = { stamp: string; json: string; etag: string; brotli: Buffer | null };

/** Bytes of answers kept (text and brotli); a 3-element brief's answer is about 70 KB. */
const MAX_BYTES = 32 * 1024 * 1024;

/** Kept once, sent many times: a higher quality than the plugin's per-request 4 pays off. */
const BROTLI = {
  params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 9 },
};
const compress = promisify(brotliCompress);

const keyOf = (audience: Audience, id: string) => `${audience}:${id}`;

export function createDetailsCache(db: Db) {
  const answers = new LRUCache<string, Entry>({
    maxSize: MAX_BYTES,
    sizeCalculation: (entry) => entry.json.length + (entry.brotli?.length ?? 0),
  });
  /** Requests on the full path: where to keep their answer, under the stamp read before it. */
  const pending = new WeakMap<FastifyRequest, { key: string; stamp: string }>();
  let stampQuery: DetailsStampQuery | undefined;

  /** The kept answer, in the encoding the compression plugin would have chosen. */
  function send(request: FastifyRequest, reply: FastifyReply, entry: Entry) {
    reply.header('content-type', 'application/json; charset=utf-8').header('etag', entry.etag);
    if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send('');
    if (entry.brotli && negotiatedEncoding(request) === 'br') {
      varyOnEncoding(reply);
      return reply.header('content-encoding', 'br').send(entry.brotli);
    }
    return reply.send(entry.json);
  }

  return {
    /**
     * Sends the kept answer when it is current, else returns false: the caller answers in full
     * and `keep` (the route's onSend hook) stores what it sent. 404 for a brief the caller may
     * not see, as the full path.
     */
    async trySend(request: FastifyRequest, reply: FastifyReply, actor: Actor, id: string): Promise<boolean> {
      stampQuery ??= prepareDetailsStamp(db);
      const [row] = await stampQuery.execute({ id, organisationId: actor.organisationId });
      if (!row) throw notFound('Brief');
      assertCompanyVisible(actor, row.companyId, 'Brief');
      const key = keyOf(audienceOf(actor), id);
      const entry = answers.get(key);
      if (entry?.stamp === row.stamp) {
        await send(request, reply, entry);
        return true;
      }
      pending.set(request, { key, stamp: row.stamp });
      return false;
    },

    /** onSend of the route: keeps the JSON text of a full-path answer (200 only). */
    async keep(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
      const target = pending.get(request);
      if (!target || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      pending.delete(request);
      const brotli =
        Buffer.byteLength(payload) >= COMPRESSION_THRESHOLD_BYTES ? await compress(payload, BROTLI) : null;
      answers.set(target.key, { stamp: target.stamp, json: payload, etag: weakEtagOf(payload), brotli });
      return payload;
    },
  };
}

export type DetailsCache = ReturnType<typeof createDetailsCache>;
