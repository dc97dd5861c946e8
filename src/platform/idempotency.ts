import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import type { AppContext } from '../context.ts';
import type { Db, Tx } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/idempotency.ts';
import { AppError, badRequest, problemDocument } from './errors.ts';
import type { Change } from './events.ts';
import { actorOf } from './route-security.ts';
import { createSecretBox } from './secret-box.ts';

/**
 * Idempotency keys (draft-ietf-httpapi-idempotency-key-header; docs/idempotency.md).
 *
 * A client may send `Idempotency-Key` on a create operation. The first request with a key claims
 * it in the database (`idempotency_keys`, per organisation and user) and runs; its answer (status,
 * body, the headers that describe it) is stored. A later request with the same key and the same
 * method, path and body gets that answer again, marked `Idempotent-Replayed: true`, without
 * running; with another method, path or body it gets 422; while the first still runs, 409. 5xx
 * answers and transient 4xx (408, 409, 425, 429) are not stored: the key is released and a retry
 * runs again. Keys expire after `IDEMPOTENCY_KEY_TTL_SECONDS`.
 *
 * The change a request makes commits with its key: inside the change's own transaction
 * (`ctx.change`, via a commit hook and the request's async context) the key gets a provisional
 * answer (409 `idempotency_answer_lost`, naming the records created) and stops being takeable, so
 * a node dying between that commit and the statement that stores the real answer cannot make a
 * retry run the change twice. The same statement fences the change: a request whose key a retry
 * took over (its lock ran out) rolls back instead of committing a second record.
 *
 * Which routes: every authenticated POST whose success answer is 201 or 202 (it creates something
 * or starts work), unless the route says `config: { idempotent: false }`; any route may opt in with
 * `idempotent: true`.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accept an Idempotency-Key (default: authenticated POST answering 201 or 202). */
    idempotent?: boolean;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_SWEEP_JOB = 'idempotency.sweep';

const KEY_CHARS = 'A-Za-z0-9._:~+/=-';
const KEY = new RegExp(`^[${KEY_CHARS}]{1,255}$`);
/** The header as the draft's sf-string (`"key"`) or, as most clients send it, bare. */
const HEADER_PATTERN = `^(?:"[${KEY_CHARS}]{1,255}"|[${KEY_CHARS}]{1,255})$`;
const KEY_RULE = 'must be 1 to 255 characters among A-Z a-z 0-9 - _ . : ~ + / =, optionally in double quotes';

/** Answers worth retrying as they are: not stored, the key is released. */
const TRANSIENT_STATUSES = new Set([408, 409, 425, 429]);
/** Headers of an answer that are part of it and replayed with it. */
const STORED_HEADERS = [
  'content-type',
  'content-disposition',
  'content-language',
  'location',
  'etag',
  'last-modified',
  'link',
];

/** The key of a request: undefined without the header, 400 when it is malformed or repeated. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const invalid = (message: string) =>
    badRequest(`Idempotency-Key ${message}`, [{ pointer: `/${IDEMPOTENCY_HEADER}`, message, in: 'headers' }]);
  if (Array.isArray(raw)) throw invalid('must be sent once');
  let value = raw.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (!KEY.test(value)) throw invalid(KEY_RULE);
  return value;
}

/** JSON with object keys sorted, so a retry that orders its properties differently still matches. */
function canonicalJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const record = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((k) => [k, sortKeys(record[k])]),
      );
    }
    return v;
  };
  return value === undefined ? '' : JSON.stringify(sortKeys(value));
}

/**
 * SHA-256 of a multipart body as it streams, with every occurrence of the boundary (chosen at
 * random by the client for each send) left out: the same parts sent again with another boundary
 * give the same fingerprint. Works across chunk edges by holding back boundary-length - 1 bytes.
 */
export class MultipartHasher {
  private readonly hash = createHash('sha256');
  private readonly marker: Buffer | undefined;
  private pending = Buffer.alloc(0);
  private result: string | undefined;

  constructor(prefix: string, boundary: string | undefined) {
    this.hash.update(prefix);
    this.marker = boundary ? Buffer.from(`--${boundary}`) : undefined;
  }

  push(chunk: Buffer) {
    if (this.result !== undefined) return;
    if (!this.marker) {
      this.hash.update(chunk);
      return;
    }
    const buffer = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const at = buffer.indexOf(this.marker, start);
      if (at < 0) break;
      this.hash.update(buffer.subarray(start, at));
      this.hash.update('\u0000boundary\u0000');
      start = at + this.marker.length;
    }
    const keep = Math.max(start, buffer.length - (this.marker.length - 1));
    this.hash.update(buffer.subarray(start, keep));
    this.pending = Buffer.from(buffer.subarray(keep));
  }

  digest(): string {
    if (this.result === undefined) {
      this.hash.update(this.pending);
      this.result = this.hash.digest('hex');
    }
    return this.result;
  }
}

function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

type Row = typeof idempotencyKeys.$inferSelect;
type Scope = { organisationId: string; userId: string; key: string };

/** The database side: claim, read, complete, release and sweep keys. */
export function createIdempotencyStore(db: Db) {
  /**
   * The key's own writes commit without waiting for the disk flush (`synchronous_commit = off`):
   * a claim is flushed anyway by the change that follows it, and losing the stored answer to a
   * database crash in the next fraction of a second is the limit docs/idempotency.md describes
   * (the key runs again after its lock). Waiting would cost two flushes per create (measured: a
   * create with a key took 17 ms instead of 6 on this machine's PostgreSQL; with this, see docs).
   */
  const write = <T>(work: (tx: Tx) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local synchronous_commit = off`);
      return work(tx);
    });
  const byAttempt = (scope: Scope, attempt: string) =>
    and(
      eq(idempotencyKeys.organisationId, scope.organisationId),
      eq(idempotencyKeys.userId, scope.userId),
      eq(idempotencyKeys.key, scope.key),
      eq(idempotencyKeys.attempt, attempt),
    );
  return {
    /**
     * Takes the key for this attempt when it is new, expired, or held by a request whose lock ran
     * out (its node died). One statement, so two nodes racing for a key cannot both win.
     */
    async claim(
      scope: Scope,
      claim: {
        attempt: string;
        fingerprint: string | null;
        now: Date;
        ttlSeconds: number;
        lockSeconds: number;
      },
    ): Promise<boolean> {
      const values = {
        ...scope,
        fingerprint: claim.fingerprint,
        state: 'running' as const,
        attempt: claim.attempt,
        lockedUntil: new Date(claim.now.getTime() + claim.lockSeconds * 1000),
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: claim.now,
        expiresAt: new Date(claim.now.getTime() + claim.ttlSeconds * 1000),
      };
      const { organisationId: _o, userId: _u, key: _k, ...update } = values;
      const rows = await write((tx) =>
        tx
          .insert(idempotencyKeys)
          .values(values)
          .onConflictDoUpdate({
            target: [idempotencyKeys.organisationId, idempotencyKeys.userId, idempotencyKeys.key],
            set: update,
            setWhere: or(
              lte(idempotencyKeys.expiresAt, claim.now),
              and(eq(idempotencyKeys.state, 'running'), lte(idempotencyKeys.lockedUntil, claim.now)),
            ),
          })
          .returning({ attempt: idempotencyKeys.attempt }),
      );
      return rows[0]?.attempt === claim.attempt;
    },

    async find(scope: Scope, now: Date): Promise<Row | undefined> {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.organisationId, scope.organisationId),
            eq(idempotencyKeys.userId, scope.userId),
            eq(idempotencyKeys.key, scope.key),
            gt(idempotencyKeys.expiresAt, now),
          ),
        );
      return row;
    },

    /**
     * Inside the creating transaction: the key's provisional answer, and the key no longer takeable
     * (`committed`). False when the key is no longer held by this attempt (a retry took it over once
     * the lock ran out, or it expired): the caller then rolls the change back.
     */
    async holdCommitted(
      tx: Tx,
      scope: Scope,
      attempt: string,
      answer: { fingerprint: string | null; status: number; headers: Record<string, string>; body: string },
    ): Promise<boolean> {
      const rows = await tx
        .update(idempotencyKeys)
        .set({
          state: 'committed',
          fingerprint: answer.fingerprint,
          responseStatus: answer.status,
          responseHeaders: answer.headers,
          responseBody: answer.body,
        })
        .where(and(byAttempt(scope, attempt), inArray(idempotencyKeys.state, ['running', 'committed'])))
        .returning({ attempt: idempotencyKeys.attempt });
      return rows.length > 0;
    },

    async complete(
      scope: Scope,
      attempt: string,
      answer: { fingerprint: string; status: number; headers: Record<string, string>; body: string },
    ) {
      await write((tx) =>
        tx
          .update(idempotencyKeys)
          .set({
            state: 'completed',
            fingerprint: answer.fingerprint,
            responseStatus: answer.status,
            responseHeaders: answer.headers,
            responseBody: answer.body,
          })
          .where(byAttempt(scope, attempt)),
      );
    },

    async release(scope: Scope, attempt: string) {
      await write((tx) => tx.delete(idempotencyKeys).where(byAttempt(scope, attempt)));
    },

    /** Deletes expired keys; returns how many. */
    async sweep(now: Date): Promise<number> {
      const rows = await db
        .delete(idempotencyKeys)
        .where(lte(idempotencyKeys.expiresAt, now))
        .returning({ key: idempotencyKeys.key });
      return rows.length;
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

/** What a request that holds a key carries until its answer is stored. */
type Held = {
  scope: Scope;
  attempt: string;
  fingerprint: string | null;
  hasher?: MultipartHasher;
  raw?: Readable;
  done: boolean;
  /** A change of the request committed: the key holds a provisional answer and is never released. */
  committed: boolean;
  /** The records its committed changes created (`COMPANY <id>`), named by the provisional answer. */
  created: string[];
  instance: string;
  requestId: string;
};

/** The most records a provisional answer names. */
const NAMED_RECORDS = 10;

function lostAnswerDetail(created: readonly string[]): string {
  const named = created.slice(0, NAMED_RECORDS).join(', ');
  const more = created.length > NAMED_RECORDS ? ` and ${created.length - NAMED_RECORDS} more` : '';
  const what = created.length ? `it created ${named}${more}` : 'its change was committed';
  return (
    `The request with this Idempotency-Key was carried out (${what}), but its answer could not be stored; ` +
    'it is not run again: read the records instead of sending the request again'
  );
}

/** Whether a route takes Idempotency-Key: see the module comment. */
export function isIdempotentRoute(route: RouteOptions): boolean {
  const config = (route.config ?? {}) as { idempotent?: boolean; permission?: string; public?: boolean };
  if (config.idempotent && (config.public || !config.permission)) {
    throw new Error(`Route ${String(route.method)} ${route.url} is idempotent but not authenticated`);
  }
  if (config.idempotent !== undefined) return config.idempotent;
  const methods = [route.method].flat().map(String);
  if (!methods.includes('POST') || config.public || !config.permission) return false;
  const statuses = Object.keys((route.schema?.response ?? {}) as object);
  return statuses.includes('201') || statuses.includes('202');
}

function asArray<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

const HEADER_DESCRIPTION =
  'Makes the request safe to retry (draft-ietf-httpapi-idempotency-key-header; docs/idempotency.md). ' +
  'The same key with the same method, path and body replays the stored answer (`Idempotent-Replayed: true`); ' +
  'with another body 422 `idempotency_key_reused`; while the first request runs 409 `idempotency_key_in_use`; ' +
  'when the first request’s change committed but its answer was lost (its node stopped), 409 `idempotency_answer_lost`. ' +
  'Keys are kept per organisation and user for IDEMPOTENCY_KEY_TTL_SECONDS (default 24 h). ' +
  'Up to 255 characters among A-Z a-z 0-9 - _ . : ~ + / =, bare or as a quoted string; a UUID is recommended.';

/** Adds the header to the route's OpenAPI operation (and its validation) and the answers it may cause. */
function documentRoute(route: RouteOptions) {
  if (!route.schema) return;
  const header = Type.Optional(Type.String({ pattern: HEADER_PATTERN, description: HEADER_DESCRIPTION }));
  const existing = route.schema.headers as { properties?: Record<string, unknown> } | undefined;
  if (existing && !existing.properties) return;
  const headers = existing
    ? { ...existing, properties: { ...existing.properties, [IDEMPOTENCY_HEADER]: header } }
    : Type.Object({ [IDEMPOTENCY_HEADER]: header });
  const response = { ...((route.schema.response ?? {}) as Record<string, unknown>) };
  for (const status of ['409', '422']) if (!(status in response)) response[status] = Type.Ref('Problem');
  route.schema = { ...route.schema, headers, response };
}

/**
 * Registers the mechanism: call before the modules' routes are registered. `now` is the clock
 * (tests move it to check expiry).
 */
export function registerIdempotency(
  app: FastifyInstance,
  ctx: AppContext,
  options: { now?: () => Date } = {},
) {
  const now = options.now ?? (() => new Date());
  const store = createIdempotencyStore(ctx.db);
  const box = createSecretBox(ctx.config.encryptionKey);
  const { ttlSeconds, lockSeconds } = ctx.config.idempotency;
  const held = new WeakMap<FastifyRequest, Held>();
  /** The key a request holds, for the changes its handler makes (see the commit hook below). */
  const keyContext = new AsyncLocalStorage<Held>();

  ctx.jobs.define(IDEMPOTENCY_SWEEP_JOB, async () => {
    const deleted = await store.sweep(now());
    if (deleted) ctx.log.info({ deleted }, 'expired idempotency keys deleted');
  });
  ctx.jobs.afterStart(() => ctx.jobs.schedule(IDEMPOTENCY_SWEEP_JOB, '*/15 * * * *'));

  const release = async (request: FastifyRequest, state: Held) => {
    state.done = true;
    await store.release(state.scope, state.attempt).catch((error) => {
      request.log.error({ err: error }, 'could not release an idempotency key');
    });
  };

  /**
   * Gives the key up without a stored answer: released when nothing was committed (a retry runs
   * again); once a change committed, kept with its provisional answer (a retry must not run again).
   */
  const giveUp = async (request: FastifyRequest, state: Held, why: string) => {
    if (!state.committed) return release(request, state);
    state.done = true;
    request.log.warn(
      { idempotencyKey: state.scope.key },
      `the change committed but its answer is not stored (${why}): the key keeps its provisional answer`,
    );
  };

  /**
   * In the transaction of every change a request holding a key makes: the provisional answer, and
   * the fence (a request that lost its key to a retry rolls back).
   */
  ctx.change.beforeCommit(async (tx: Tx, recorded: readonly Change[]) => {
    const state = keyContext.getStore();
    if (!state || state.done) return undefined;
    const created = [
      ...state.created,
      ...recorded.filter((c) => c.type === 'CREATE').map((c) => `${c.on.entity} ${c.entityId}`),
    ];
    const fingerprint =
      state.fingerprint ?? (state.hasher && state.raw?.readableEnded ? state.hasher.digest() : null);
    const answer = problemDocument('idempotency_answer_lost', lostAnswerDetail(created), {
      instance: state.instance,
      requestId: state.requestId,
    });
    const holds = await store.holdCommitted(tx, state.scope, state.attempt, {
      fingerprint,
      status: 409,
      headers: { 'content-type': 'application/problem+json; charset=utf-8' },
      body: box.seal(Buffer.from(JSON.stringify(answer)).toString('base64')),
    });
    if (!holds) {
      throw new AppError(
        'idempotency_key_in_use',
        'This request held its Idempotency-Key longer than IDEMPOTENCY_LOCK_SECONDS and a retry took the key over; ' +
          'nothing was changed: retry to get the answer of that retry',
        { headers: { 'retry-after': '1' } },
      );
    }
    return () => {
      state.committed = true;
      state.created = created;
    };
  });

  async function replay(reply: FastifyReply, row: Row) {
    reply.code(row.responseStatus ?? 200);
    for (const [name, value] of Object.entries(row.responseHeaders ?? {})) reply.header(name, value);
    reply.header(REPLAYED_HEADER, 'true');
    return reply.send(Buffer.from(box.open(row.responseBody ?? ''), 'base64'));
  }

  /** No upload the service accepts is larger: a body beyond this cannot match a stored request. */
  const streamedLimit =
    Math.max(ctx.config.imports.sizeLimitBytes, ctx.config.fileSizeLimitBytes) + 1024 * 1024;

  /** Reads a body the handler will not read (the request is answered from the store). */
  async function hashUnreadBody(request: FastifyRequest, hasher: MultipartHasher): Promise<string> {
    let size = 0;
    for await (const chunk of request.raw as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > streamedLimit) {
        throw new AppError('payload_too_large', `The body is larger than ${streamedLimit} bytes`);
      }
      hasher.push(chunk);
    }
    return hasher.digest();
  }

  async function preHandler(request: FastifyRequest, reply: FastifyReply) {
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === undefined) return;
    const actor = actorOf(request);
    const scope: Scope = { organisationId: actor.organisationId, userId: actor.userId, key };
    const prefix = `${request.method}\n${request.url}\n`;
    const streamed = request.isMultipart?.() === true;
    const boundary = boundaryOf(request.headers['content-type']);
    const fingerprint = streamed
      ? null
      : createHash('sha256')
          .update(`${prefix}json\n${canonicalJson(request.body)}`)
          .digest('hex');

    // A key released by its holder between our claim and our read is claimed again (a few rounds).
    for (let round = 0; round < 3; round++) {
      const attempt = randomUUID();
      const at = now();
      if (await store.claim(scope, { attempt, fingerprint, now: at, ttlSeconds, lockSeconds })) {
        const state: Held = {
          scope,
          attempt,
          fingerprint,
          done: false,
          committed: false,
          created: [],
          instance: request.url.split('?')[0] ?? request.url,
          requestId: request.id,
        };
        held.set(request, state);
        if (streamed) {
          // Hash the parts as the handler streams them; pause first so that no chunk flows before
          // the handler's parser is attached (piping resumes the stream).
          const raw = request.raw as Readable;
          const hasher = new MultipartHasher(`${prefix}multipart\n`, boundary);
          raw.pause();
          raw.on('data', (chunk: Buffer) => hasher.push(chunk));
          Object.assign(state, { hasher, raw });
        }
        return;
      }
      const row = await store.find(scope, at);
      if (!row) continue;
      // A committed key whose holder is still within its lock is about to store the real answer.
      if (row.state === 'running' || (row.state === 'committed' && row.lockedUntil > at)) {
        throw new AppError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed; retry once it has been answered',
          { headers: { 'retry-after': '1' } },
        );
      }
      const presented = streamed
        ? await hashUnreadBody(request, new MultipartHasher(`${prefix}multipart\n`, boundary))
        : fingerprint;
      // Unknown only for an upload whose change committed before its body was read to the end.
      if (row.fingerprint !== null && presented !== row.fingerprint) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with another request (method, path or body); ' +
            'send a new key for a different request',
        );
      }
      return replay(reply, row);
    }
    throw new AppError('idempotency_key_in_use', 'This Idempotency-Key is contended; retry', {
      headers: {
        'retry-after': '1',
      },
    });
  }

  /** Runs the rest of the request (its handler's changes) in the context of the key it holds. */
  function enterKeyContext(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    const state = held.get(request);
    if (state) keyContext.run(state, done);
    else done();
  }

  /** Stores the answer of the request that holds a key, before it goes out. */
  async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const state = held.get(request);
    if (!state || state.done) return payload;
    const status = reply.statusCode;
    if (status >= 500 || TRANSIENT_STATUSES.has(status)) {
      await giveUp(request, state, `answered ${status}`);
      return payload;
    }
    try {
      let fingerprint = state.fingerprint;
      if (state.hasher && state.raw) {
        const raw = state.raw;
        // A successful handler has read its parts; let what follows the last one arrive.
        if (!raw.readableEnded && status < 300) {
          await new Promise<void>((resolve) => {
            raw.once('end', resolve);
            raw.once('close', resolve);
            raw.resume();
          });
        }
        fingerprint = raw.readableEnded ? state.hasher.digest() : null;
      }
      const body =
        payload === undefined || payload === null
          ? Buffer.alloc(0)
          : typeof payload === 'string' || Buffer.isBuffer(payload)
            ? Buffer.from(payload)
            : undefined; // a stream cannot be kept
      if (!fingerprint || !body) {
        await giveUp(request, state, body ? 'the body was not read to the end' : 'a streamed answer');
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of STORED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await store.complete(state.scope, state.attempt, {
        fingerprint,
        status,
        headers,
        body: box.seal(body.toString('base64')),
      });
      state.done = true;
    } catch (error) {
      // The answer goes out; a committed change keeps its provisional answer for a retry.
      request.log.error({ err: error }, 'could not store the answer of an idempotency key');
      await giveUp(request, state, 'the database refused it');
    }
    return payload;
  }

  /** A request that ended without passing onSend (aborted) gives its key up. */
  async function onResponse(request: FastifyRequest) {
    const state = held.get(request);
    if (state && !state.done) await giveUp(request, state, 'the request was aborted');
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isIdempotentRoute(route)) return;
    documentRoute(route);
    route.preHandler = [preHandler, enterKeyContext, ...asArray(route.preHandler)];
    route.onSend = [...asArray(route.onSend), onSend];
    route.onResponse = [...asArray(route.onResponse), onResponse];
  });

  return store;
}
