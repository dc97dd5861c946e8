import { setMaxListeners } from 'node:events';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import type { EventType } from '../../db/schema/platform.ts';
import type { WebhookAuthType, WebhookCredentials, WebhookMethod } from '../../db/schema/webhooks.ts';
import { createSecretBox, type SecretBox } from '../../platform/secret-box.ts';
import { deliveredJson } from '../events/payload.ts';
import type { Bookkeeping } from './bookkeeping.ts';
import type { AttemptOutcome, OutgoingRequest, Sender } from './http.ts';
import type { WebhookService } from './service.ts';
import { signatureHeaders } from './signing.ts';

/**
 * The delivery machinery, in two loops that every process with workers runs:
 *
 * - **dispatcher**: one SQL statement takes a batch of events not yet dispatched
 *   (`FOR UPDATE SKIP LOCKED`), marks them dispatched and inserts one delivery per matching enabled
 *   webhook (patterns compiled to a regular expression matched in SQL). A per-event flag rather
 *   than a cursor: an event whose transaction commits after one with a higher code is still found.
 * - **deliverer**: one SQL statement claims due deliveries (`SKIP LOCKED`), increments `attempts`
 *   and pushes `next_attempt_at` past the attempt's timeout (a lease: if the process dies, the
 *   delivery is due again after it). The HTTP calls run outside any transaction; their outcomes
 *   are written in batches by one statement that only applies while `attempts` still equals the
 *   attempt number (a fence against a late writer).
 *
 * Both are woken at once in the process that commits events (`ctx.change.onCommitted`) and poll
 * every `pollIntervalMs` for work written by other processes and for due retries.
 */

const UUID_V7_SQL = `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
  substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6),
  52, 1), 53, 1), 'hex')::uuid`;

/** What an attempt needs: the delivery (c), its webhook (w) and its event (e). */
const SEND_COLUMNS = `c.id, c.attempts, c.organisation_id, c.webhook_id, c.created_at as delivery_created_at,
  w.url, w.http_method, w.authentication_type, w.credentials, w.secret,
  case when w.previous_secret_expires_at > now() then w.previous_secret end as previous_secret,
  (w.enabled and w.deleted_at is null) as active,
  e.id as event_id, e.code, e.event_name, e.category, e.type, e.entity, e.table_name, e.entity_id,
  e.relation, e.relation_id, e.field_name, e.updated_columns, e.updated_relations, e.process, e.version,
  e.payload, e.created_at as event_created_at`;

/**
 * Fans a batch of undispatched events out to the matching webhooks, and claims at once as many of
 * the new deliveries as this process has free slots ($2; lease $3 ms), so a fresh event costs one
 * statement before its call. Always answers one row with the counts; claimed deliveries fill the
 * other columns.
 */
const DISPATCH_SQL = `
with batch as (
  select * from events
  where dispatched_at is null
  order by code
  limit $1
  for update skip locked
), marked as (
  update events e set dispatched_at = now() from batch b where e.id = b.id returning 1
), matched as (
  select b.id as event_id, b.organisation_id, b.code, b.event_name, w.id as webhook_id,
    row_number() over (order by b.code, w.id) as rn
  from batch b
  join webhooks w on w.organisation_id = b.organisation_id and w.enabled and w.deleted_at is null
    and b.event_name ~ w.events_regex
), queued as (
  insert into webhook_deliveries
    (id, organisation_id, webhook_id, event_id, event_code, event_name, status, attempts, next_attempt_at,
     last_attempt_at, created_at, updated_at)
  select ${UUID_V7_SQL}, m.organisation_id, m.webhook_id, m.event_id, m.code, m.event_name, 'pending',
    case when m.rn <= $2 then 1 else 0 end,
    case when m.rn <= $2 then now() + $3::int * interval '1 millisecond' else now() end,
    case when m.rn <= $2 then now() end,
    now(), now()
  from matched m
  on conflict do nothing
  returning id, attempts, organisation_id, webhook_id, event_id, created_at
)
select counts.dispatched, counts.queued, claimed.*
from (select (select count(*) from marked)::int as dispatched, (select count(*) from queued)::int as queued) counts
left join (
  select ${SEND_COLUMNS}
  from queued c
  join webhooks w on w.id = c.webhook_id
  join batch e on e.id = c.event_id
  where c.attempts = 1
) claimed on true`;

/** Claims due deliveries ($1 at most; lease $2 ms): increments `attempts`, the fencing token. */
const CLAIM_SQL = `
with due as (
  select id from webhook_deliveries
  where status = 'pending' and next_attempt_at <= now()
  order by next_attempt_at
  limit $1
  for update skip locked
), claimed as (
  update webhook_deliveries d
  set attempts = d.attempts + 1, next_attempt_at = now() + $2::int * interval '1 millisecond',
      last_attempt_at = now(), updated_at = now()
  from due where d.id = due.id
  returning d.id, d.attempts, d.organisation_id, d.webhook_id, d.event_id, d.created_at
)
select ${SEND_COLUMNS}
from claimed c
join webhooks w on w.id = c.webhook_id
left join events e on e.id = c.event_id`;

/**
 * PGlite only (one process owns the database): the deliveries a previous process claimed and never
 * recorded an outcome for ($1: when this process started) were cut short by its end, so they are
 * due at once instead of after their lease. A delivery claimed by this process has a later
 * `last_attempt_at`; one waiting for a retry has its attempt recorded.
 */
const RELEASE_ORPHANS_SQL = `
update webhook_deliveries d set next_attempt_at = now(), updated_at = now()
where d.status = 'pending' and d.attempts > 0 and d.next_attempt_at > now() and d.last_attempt_at < $1
  and not exists (
    select 1 from webhook_delivery_attempts a where a.delivery_id = d.id and a.attempt = d.attempts)`;

const RECORD_SQL = `
with r as (
  select * from jsonb_to_recordset($1::jsonb) as x(
    id uuid, attempt int, attempt_id uuid, organisation_id uuid, webhook_id uuid, status text, delay_ms int,
    status_code int, error text, excerpt text, started_at timestamptz, duration_ms int, record_attempt boolean)
), updated as (
  update webhook_deliveries d
  set status = r.status,
      next_attempt_at = case when r.status = 'pending' then now() + r.delay_ms * interval '1 millisecond'
                             else d.next_attempt_at end,
      last_status_code = r.status_code,
      last_error = r.error,
      completed_at = case when r.status = 'pending' then null else now() end,
      updated_at = now()
  from r
  where d.id = r.id and d.attempts = r.attempt and d.status = 'pending'
  returning d.id
), recorded as (
  insert into webhook_delivery_attempts
    (id, organisation_id, delivery_id, webhook_id, attempt, started_at, duration_ms, status_code, error,
     response_excerpt, created_at)
  select r.attempt_id, r.organisation_id, r.id, r.webhook_id, r.attempt, r.started_at, r.duration_ms,
    r.status_code, r.error, r.excerpt, now()
  from r where r.record_attempt
  on conflict do nothing
  returning 1
), succeeded as (
  update webhooks w set last_success_at = now()
  where w.id in (select r.webhook_id from r where r.status = 'succeeded')
    and (w.last_success_at is null or w.last_success_at < now() - interval '1 second')
  returning 1
)
select (select count(*) from updated)::int as updated`;

type ClaimedRow = {
  id: string;
  attempts: number;
  organisation_id: string;
  webhook_id: string;
  delivery_created_at: Date;
  url: string;
  http_method: WebhookMethod;
  authentication_type: WebhookAuthType;
  credentials: WebhookCredentials | null;
  secret: string;
  previous_secret: string | null;
  active: boolean;
  event_id: string | null;
  code: number | string;
  event_name: string;
  category: string;
  type: EventType;
  entity: string;
  table_name: string;
  entity_id: string | null;
  relation: string | null;
  relation_id: string | null;
  field_name: string | null;
  updated_columns: string[] | null;
  updated_relations: string[] | null;
  process: string | null;
  version: string;
  payload: Record<string, unknown> | null;
  event_created_at: Date;
};

type Outcome = {
  id: string;
  attempt: number;
  attempt_id: string;
  organisation_id: string;
  webhook_id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  delay_ms: number;
  status_code: number | null;
  error: string | null;
  excerpt: string | null;
  started_at: string;
  duration_ms: number;
  record_attempt: boolean;
  /** Follow-up after recording: disable the webhook. */
  disable?: { reason: 'gone' | 'failing'; deliveryCreatedAt: Date };
};

const USER_AGENT = 'packaging-quote-service-webhooks/1.0';

/** Builds the HTTP request of one attempt: payload, signature and the webhook's own authentication. */
export function buildRequest(
  row: ClaimedRow,
  box: SecretBox,
  timeoutMs: number,
  signal?: AbortSignal,
): OutgoingRequest {
  const eventId = row.event_id!;
  const method = row.http_method.toUpperCase() as OutgoingRequest['method'];
  const url = new URL(row.url);
  const withBody = method !== 'GET' && method !== 'DELETE';
  let body: string | undefined;
  if (withBody) {
    body = deliveredJson({
      id: eventId,
      code: Number(row.code),
      eventName: row.event_name,
      category: row.category,
      type: row.type,
      entity: row.entity,
      tableName: row.table_name,
      entityId: row.entity_id,
      relation: row.relation,
      relationId: row.relation_id,
      fieldName: row.field_name,
      updatedColumns: row.updated_columns,
      updatedRelations: row.updated_relations,
      process: row.process,
      version: row.version,
      payload: row.payload,
      createdAt: new Date(row.event_created_at),
    });
  } else {
    // No body: the event travels by reference; the signature covers the webhook-id (the event id).
    url.searchParams.set('eventId', eventId);
    url.searchParams.set('eventName', row.event_name);
    url.searchParams.set('eventCode', String(row.code));
  }
  // Stored sealed (platform/secret-box.ts): opened only to sign and authenticate this request.
  const secrets = (row.previous_secret ? [row.secret, row.previous_secret] : [row.secret]).map(box.open);
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    ...signatureHeaders(eventId, body ?? '', secrets),
  };
  if (withBody) headers['content-type'] = 'application/json';
  const credentials = row.credentials as Record<string, string> | null;
  if (row.authentication_type === 'basic' && credentials) {
    headers.authorization = `Basic ${Buffer.from(`${credentials.username}:${box.open(credentials.password!)}`).toString('base64')}`;
  } else if (row.authentication_type === 'header' && credentials) {
    headers[credentials.name!.toLowerCase()] = box.open(credentials.token!);
  }
  return { url, method, headers, body, timeoutMs, signal };
}

const jitter = (ms: number) => Math.round(ms * (0.8 + Math.random() * 0.4));

/** What an attempt's outcome means for its delivery. */
export function decide(
  outcome: AttemptOutcome,
  attempt: number,
  retryDelaysMs: number[],
  interrupted: boolean,
): Pick<Outcome, 'status' | 'delay_ms'> & { disable?: 'gone' | 'failing' } {
  const status = outcome.statusCode;
  if (status !== null && status >= 200 && status < 300) return { status: 'succeeded', delay_ms: 0 };
  if (status === 410) return { status: 'failed', delay_ms: 0, disable: 'gone' };
  if (interrupted) return { status: 'pending', delay_ms: 0 };
  if (attempt > retryDelaysMs.length) return { status: 'failed', delay_ms: 0, disable: 'failing' };
  const backoff = jitter(retryDelaysMs[attempt - 1]!);
  return { status: 'pending', delay_ms: Math.max(backoff, outcome.retryAfterMs ?? 0) };
}

type Loop = { start(): void; wake(): void; stop(): Promise<void> };

function createLoop(
  step: () => Promise<boolean>,
  intervalMs: () => number,
  onError: (error: unknown) => void,
  /** After a wake-up from idle, wait this long first so that one step serves several wake-ups. */
  lingerMs = 0,
): Loop {
  let running = false;
  let woken = false;
  let waiter: (() => void) | undefined;
  let finished: Promise<void> = Promise.resolve();
  async function run() {
    while (running) {
      woken = false;
      let again = false;
      try {
        again = await step();
      } catch (error) {
        onError(error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, intervalMs())));
      }
      if (!running) break;
      if (again || woken) continue;
      const byWake = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), intervalMs());
        waiter = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      waiter = undefined;
      if (byWake && lingerMs > 0 && running) await new Promise((resolve) => setTimeout(resolve, lingerMs));
    }
  }
  return {
    start() {
      if (running) return;
      running = true;
      finished = run();
    },
    wake() {
      woken = true;
      waiter?.();
    },
    async stop() {
      running = false;
      waiter?.();
      await finished;
    },
  };
}

export type DeliveryRuntime = {
  start(): void;
  stop(): Promise<void>;
  /** New events were committed: dispatch them now. */
  wakeDispatcher(): void;
  /** Deliveries are waiting: claim them now. */
  wakeDeliverer(): void;
  readonly running: boolean;
  /** For tests and benchmarks: counters since start. */
  stats: { dispatched: number; queued: number; attempts: number; succeeded: number };
};

export function createDeliveryRuntime(
  ctx: Pick<AppContext, 'config' | 'log'>,
  bookkeeping: Pick<Bookkeeping, 'query'>,
  service: Pick<WebhookService, 'disableBySystem'>,
  sender: Sender,
  options: { soleProcess?: boolean } = {},
): DeliveryRuntime {
  const createdAt = new Date();
  const settings = ctx.config.webhooks;
  const log = ctx.log;
  const box = createSecretBox(ctx.config.encryptionKey);
  const DISPATCH_BATCH = 1000;
  const CLAIM_BATCH = 500;
  const RECORD_BATCH = 1000;
  /** Claim again once this many slots are free, not at every finished call (fewer, larger claims). */
  const REFILL = Math.max(1, Math.floor(settings.concurrency / 4));
  /**
   * Wait this long for more outcomes before writing a batch that is not full: fewer, larger
   * statements. Only the bookkeeping waits (the call is made); leases are far longer.
   */
  const RECORD_LINGER_MS = 10;
  const stats = { dispatched: 0, queued: 0, attempts: 0, succeeded: 0 };
  let running = false;
  let inFlight = 0;
  const inFlightDone = new Set<Promise<void>>();
  let shutdown = new AbortController();
  const outcomes: Outcome[] = [];
  let recording: Promise<void> | undefined;
  const followUps = new Set<Promise<void>>();
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAt = Number.POSITIVE_INFINITY;

  /** Slots promised to a claim statement in progress, so two statements never overbook. */
  let reserved = 0;
  const freeSlots = () => settings.concurrency - inFlight - reserved;
  const lease = () => settings.timeoutMs + 60_000;

  const dispatcher = createLoop(
    async () => {
      const slots = Math.max(0, Math.min(freeSlots(), CLAIM_BATCH));
      reserved += slots;
      let rows: Array<Partial<ClaimedRow> & { dispatched: number; queued: number }>;
      try {
        ({ rows } = await bookkeeping.query(
          DISPATCH_SQL,
          [DISPATCH_BATCH, slots, lease()],
          'webhook_dispatch',
        ));
      } finally {
        reserved -= slots;
      }
      const { dispatched, queued } = rows[0] ?? { dispatched: 0, queued: 0 };
      stats.dispatched += dispatched;
      stats.queued += queued;
      let claimed = 0;
      for (const row of rows) {
        if (!row.id) continue;
        claimed++;
        startAttempt(row as ClaimedRow);
      }
      if (queued > claimed) deliverer.wake();
      return dispatched === DISPATCH_BATCH;
    },
    () => settings.pollIntervalMs,
    (error) => log.error({ err: error }, 'webhook dispatch failed'),
    settings.dispatchDelayMs,
  );

  const deliverer = createLoop(
    async () => {
      const limit = Math.min(freeSlots(), CLAIM_BATCH);
      if (limit <= 0) return false; // woken again when enough attempts finish
      reserved += limit;
      let rows: ClaimedRow[];
      try {
        ({ rows } = await bookkeeping.query<ClaimedRow>(CLAIM_SQL, [limit, lease()], 'webhook_claim'));
      } finally {
        reserved -= limit;
      }
      for (const row of rows) startAttempt(row);
      return rows.length === limit;
    },
    () => settings.pollIntervalMs,
    (error) => log.error({ err: error }, 'webhook delivery claim failed'),
  );

  function startAttempt(row: ClaimedRow) {
    const base = {
      id: row.id,
      attempt: row.attempts,
      attempt_id: uuidv7(),
      organisation_id: row.organisation_id,
      webhook_id: row.webhook_id,
    };
    if (!row.active || !row.event_id) {
      pushOutcome({
        ...base,
        status: row.active ? 'failed' : 'cancelled',
        delay_ms: 0,
        status_code: null,
        error: row.active ? 'the event no longer exists' : 'webhook disabled',
        excerpt: null,
        started_at: new Date().toISOString(),
        duration_ms: 0,
        record_attempt: false,
      });
      return;
    }
    inFlight++;
    stats.attempts++;
    const signal = shutdown.signal;
    const attempt = (async () => {
      let outcome: AttemptOutcome;
      try {
        outcome = await sender.send(buildRequest(row, box, settings.timeoutMs, signal));
      } catch (error) {
        outcome = {
          startedAt: new Date(),
          durationMs: 0,
          statusCode: null,
          error: `error: ${(error as Error)?.message ?? String(error)}`.slice(0, 500),
          responseExcerpt: null,
          retryAfterMs: null,
        };
      }
      const decision = decide(outcome, row.attempts, settings.retryDelaysMs, signal.aborted);
      if (decision.status === 'succeeded') stats.succeeded++;
      pushOutcome({
        ...base,
        status: decision.status,
        delay_ms: decision.delay_ms,
        status_code: outcome.statusCode,
        error: outcome.error,
        excerpt: outcome.responseExcerpt,
        started_at: outcome.startedAt.toISOString(),
        duration_ms: outcome.durationMs,
        record_attempt: true,
        disable: decision.disable
          ? { reason: decision.disable, deliveryCreatedAt: new Date(row.delivery_created_at) }
          : undefined,
      });
    })().finally(() => {
      inFlight--;
      inFlightDone.delete(attempt);
      if (running && freeSlots() >= REFILL) deliverer.wake();
    });
    inFlightDone.add(attempt);
  }

  function pushOutcome(outcome: Outcome) {
    outcomes.push(outcome);
    recording ??= record().finally(() => {
      recording = undefined;
    });
  }

  /** Writes the outcomes gathered so far, one statement per batch, until none is left. */
  async function record() {
    let failures = 0;
    while (outcomes.length) {
      if (outcomes.length < RECORD_BATCH && RECORD_LINGER_MS > 0) {
        await new Promise((resolve) => setTimeout(resolve, RECORD_LINGER_MS));
      }
      const batch = outcomes.splice(0, RECORD_BATCH);
      try {
        await bookkeeping.query(
          RECORD_SQL,
          [JSON.stringify(batch.map(({ disable: _disable, ...columns }) => columns))],
          'webhook_record',
        );
        failures = 0;
      } catch (error) {
        // Kept for another try; if this process dies first, the claims' leases expire and the
        // deliveries are attempted again (at least once).
        outcomes.unshift(...batch);
        failures++;
        log.error({ err: error, failures }, 'recording webhook attempts failed');
        if (failures >= 5 && !running) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 200 * 2 ** failures)));
        continue;
      }
      const soonest = Math.min(
        ...batch.filter((o) => o.status === 'pending').map((o) => o.delay_ms),
        Number.POSITIVE_INFINITY,
      );
      if (soonest < settings.pollIntervalMs) wakeDelivererIn(soonest);
      for (const outcome of batch) {
        if (!outcome.disable) continue;
        // Not awaited: disabling sends mail, which must not hold up recording other outcomes.
        const followUp: Promise<void> = disable(outcome).finally(() => followUps.delete(followUp));
        followUps.add(followUp);
      }
    }
  }

  async function disable(outcome: Outcome) {
    const { reason, deliveryCreatedAt } = outcome.disable!;
    try {
      if (reason === 'failing') {
        // A delivery that exhausted its retries disables the webhook only if nothing got through
        // since it was created: one poisonous event does not switch off a working receiver.
        const { rows } = await bookkeeping.query<{ last_success_at: Date | null }>(
          'select last_success_at from webhooks where id = $1',
          [outcome.webhook_id],
        );
        const last = rows[0]?.last_success_at;
        if (last && new Date(last) > deliveryCreatedAt) return;
      }
      await service.disableBySystem(
        outcome.organisation_id,
        outcome.webhook_id,
        reason,
        outcome.error ?? `receiver answered ${outcome.status_code}`,
      );
    } catch (error) {
      log.error({ err: error, webhookId: outcome.webhook_id }, 'disabling a webhook failed');
    }
  }

  function wakeDelivererIn(ms: number) {
    if (!running) return;
    const at = Date.now() + ms;
    if (retryTimer && at >= retryAt) return;
    if (retryTimer) clearTimeout(retryTimer);
    retryAt = at;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      retryAt = Number.POSITIVE_INFINITY;
      deliverer.wake();
    }, ms + 5);
  }

  return {
    stats,
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      shutdown = new AbortController();
      setMaxListeners(0, shutdown.signal); // one listener per call in flight
      dispatcher.start();
      deliverer.start();
      if (options.soleProcess) {
        bookkeeping
          .query<{ n: number }>(RELEASE_ORPHANS_SQL, [createdAt])
          .then(() => deliverer.wake())
          .catch((error) =>
            log.error({ err: error }, 'webhook deliveries of a previous process not released'),
          );
      }
    },
    wakeDispatcher: () => running && dispatcher.wake(),
    wakeDeliverer: () => running && deliverer.wake(),
    async stop() {
      if (!running) return;
      running = false;
      if (retryTimer) clearTimeout(retryTimer);
      await Promise.all([dispatcher.stop(), deliverer.stop()]);
      // Let calls in flight finish for a while, then interrupt them (recorded, due again at once).
      const grace = Math.min(settings.timeoutMs, 5000);
      const settled = Promise.all([...inFlightDone]);
      const timer = setTimeout(() => shutdown.abort(), grace);
      await settled;
      clearTimeout(timer);
      while (recording) await recording;
      await Promise.all([...followUps]);
    },
  };
}
