import { setMaxListeners } from 'node:events';
import { v7 as uuidv7 } from 'uuid';
import type { AppContext } from '../../context.ts';
import { createSecretBox } from '../../platform/secret-box.ts';
import { buildRequest, decide } from './attempt.ts';
import type { Bookkeeping } from './bookkeeping.ts';
import {
  CLAIM_SQL,
  type ClaimedRow,
  DISPATCH_SQL,
  type Outcome,
  RECORD_SQL,
  RELEASE_ORPHANS_SQL,
} from './delivery-repository.ts';
import type { AttemptOutcome, Sender } from './http.ts';
import type { WebhookService } from './service.ts';

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
 *
 * Their statements are in delivery-repository.ts; an attempt's request and retry decision in attempt.ts.
 */

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
