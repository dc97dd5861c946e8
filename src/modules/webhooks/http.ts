import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BlockedTargetError, hostnameOf, type TargetPolicy } from './ssrf.ts';

export type OutgoingRequest = {
  url: URL;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Aborts the call early (process shutdown). */
  signal?: AbortSignal;
};

export type AttemptOutcome = {
  startedAt: Date;
  durationMs: number;
  /** The receiver's status, or null when no response came (timeout, connection error, refused target). */
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** From a Retry-After header, in ms. */
  retryAfterMs: number | null;
};

export const EXCERPT_CHARS = 1024;
/** Bytes of a response read before the connection is dropped (a long body is not worth reading). */
const MAX_READ_BYTES = 64 * 1024;
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const trimmed = raw.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

function describe(error: unknown, timedOut: boolean, timeoutMs: number, aborted: boolean): string {
  if (timedOut) return `timeout: no complete response within ${timeoutMs} ms`;
  if (aborted) return 'interrupted: the delivering process stopped';
  if (error instanceof BlockedTargetError) return `refused target: ${error.message}`;
  const e = error as NodeJS.ErrnoException;
  const cause = (e?.cause as NodeJS.ErrnoException | undefined)?.code;
  return `${e?.code ?? cause ?? 'error'}: ${e?.message ?? String(error)}`.slice(0, 500);
}

/**
 * Makes webhook calls with node:http(s): keep-alive agents whose DNS lookup enforces the target
 * policy, no redirect following (a 3xx is reported as is), one timeout for the whole exchange,
 * and only the first bytes of the response kept.
 */
export function createSender(policy: TargetPolicy, options: { maxSockets: number }) {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets,
    maxFreeSockets: Math.min(options.maxSockets, 256),
    scheduling: 'lifo' as const,
    lookup: policy.lookup,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);

  function send(request: OutgoingRequest): Promise<AttemptOutcome> {
    const startedAt = new Date();
    const started = performance.now();
    const done = (partial: Omit<AttemptOutcome, 'startedAt' | 'durationMs'>): AttemptOutcome => ({
      startedAt,
      durationMs: Math.round(performance.now() - started),
      ...partial,
    });
    const host = hostnameOf(request.url);
    // The agent's lookup is not consulted for an address literal: check it here.
    if (isIP(host) && !policy.allows(host, host)) {
      const error = new BlockedTargetError(
        `${host} is a private, loopback or reserved address that webhooks may not call`,
      );
      return Promise.resolve(
        done({
          statusCode: null,
          error: describe(error, false, 0, false),
          responseExcerpt: null,
          retryAfterMs: null,
        }),
      );
    }

    return new Promise((resolve) => {
      let settled = false;
      let timedOut = false;
      const finish = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const isHttps = request.url.protocol === 'https:';
      const headers: Record<string, string | number> = { ...request.headers };
      if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
      let req: http.ClientRequest;
      let retriedFreshConnection = false;
      const fail = (error: unknown) =>
        finish(
          done({
            statusCode: null,
            error: describe(error, timedOut, request.timeoutMs, request.signal?.aborted ?? false),
            responseExcerpt: null,
            retryAfterMs: null,
          }),
        );
      const timer = setTimeout(() => {
        // Timers run before the I/O phase of the event loop: after a busy stretch (PGlite runs
        // queries on this thread), give a response that already arrived one I/O pass to be read.
        setImmediate(() => {
          if (settled) return;
          timedOut = true;
          req.destroy(new Error('timeout'));
        });
      }, request.timeoutMs);
      const onAbort = () => req.destroy(new Error('aborted'));
      request.signal?.addEventListener('abort', onAbort, { once: true });

      const start = () => {
        req = (isHttps ? https : http).request(request.url, {
          method: request.method,
          headers,
          agent: isHttps ? httpsAgent : httpAgent,
        });
        req.on('error', onError);
        req.on('response', onResponse);
        if (request.body !== undefined) req.end(request.body);
        else req.end();
      };
      const onError = (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the receiver closed at the same moment: the request never reached
        // it. Retry once on a fresh connection, as Node's documentation recommends (reusedSocket).
        if (
          req.reusedSocket &&
          !retriedFreshConnection &&
          !timedOut &&
          !request.signal?.aborted &&
          (error.code === 'ECONNRESET' || error.code === 'EPIPE')
        ) {
          retriedFreshConnection = true;
          start();
          return;
        }
        fail(error);
      };
      const onResponse = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = res.statusCode ?? 0;
        const complete = () => {
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
          let error: string | null = null;
          if (status >= 300 && status < 400) {
            error = `redirect not followed: ${status} to ${String(res.headers.location ?? '(no location)')}`;
          } else if (status < 200 || status >= 300) {
            error = `receiver answered ${status}`;
          }
          finish(
            done({
              statusCode: status,
              error,
              responseExcerpt: excerpt || null,
              retryAfterMs: parseRetryAfter(res.headers['retry-after']),
            }),
          );
        };
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_READ_BYTES) chunks.push(chunk);
          else {
            // Enough read: drop the connection rather than download a large body.
            complete();
            res.destroy();
          }
        });
        res.on('end', complete);
        res.on('error', (error) => (timedOut ? fail(error) : complete()));
        res.on('close', () => {
          if (!settled) {
            if (timedOut || request.signal?.aborted) fail(new Error('closed'));
            else complete();
          }
        });
      };
      start();
    });
  }

  return {
    send,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
