import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedRequest = {
  method: string;
  /** Path and query string as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
};

/** What the receiver answers to one request. */
export type Reply = {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (to trigger the sender's timeout). */
  delayMs?: number;
};

/**
 * A real HTTP server on 127.0.0.1 with an ephemeral port that records every request and answers
 * 200, or what the test scripts: `reply.next(...)` queues answers for the next requests,
 * `reply.always(...)` sets the default.
 */
export type Receiver = {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Answers for the next requests, in order; then the default. */
  next(...replies: Reply[]): void;
  /** Answers for the next requests whose path starts with `path`, before any other rule. */
  script(path: string, ...replies: Reply[]): void;
  /** The answer once the queue is empty. */
  always(reply: Reply): void;
  /** Resolves when at least `count` requests (matching `filter`) have been received. */
  waitFor(
    count: number,
    options?: { timeoutMs?: number; filter?: (r: ReceivedRequest) => boolean },
  ): Promise<ReceivedRequest[]>;
  clear(): void;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const queue: Reply[] = [];
  const scripts = new Map<string, Reply[]>();
  const scripted = (url: string) => {
    for (const [path, replies] of scripts) if (url.startsWith(path) && replies.length) return replies.shift();
    return undefined;
  };
  let fallback: Reply = { status: 200, body: 'ok' };
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      for (const waiter of waiters) waiter();
      const reply = scripted(req.url ?? '') ?? queue.shift() ?? fallback;
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    next: (...replies) => void queue.push(...replies),
    script: (path, ...replies) => {
      scripts.set(path, [...(scripts.get(path) ?? []), ...replies]);
    },
    always: (reply) => {
      fallback = reply;
    },
    clear: () => {
      requests.length = 0;
      queue.length = 0;
      scripts.clear();
    },
    waitFor(count, options = {}) {
      const { timeoutMs = 15_000, filter = () => true } = options;
      const matching = () => requests.filter(filter);
      if (matching().length >= count) return Promise.resolve(matching());
      return new Promise((resolve, reject) => {
        const check = () => {
          if (matching().length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(matching());
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: ${matching().length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
