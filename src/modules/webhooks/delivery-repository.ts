import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { type EventType, events } from '../../db/schema/platform.ts';
import {
  type DeliveryStatus,
  type WebhookAuthType,
  type WebhookCredentials,
  type WebhookMethod,
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../db/schema/webhooks.ts';
import type { PageOptions, PageRequest } from '../../platform/pagination.ts';

/*
 * The bookkeeping statements of the delivery runtime (delivery.ts), each one round trip: fan
 * events out to deliveries, claim due deliveries under a lease, release a dead process's claims,
 * record attempts' outcomes fenced by the attempt number; and the rows they exchange.
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
export const DISPATCH_SQL = `
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
export const CLAIM_SQL = `
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
export const RELEASE_ORPHANS_SQL = `
update webhook_deliveries d set next_attempt_at = now(), updated_at = now()
where d.status = 'pending' and d.attempts > 0 and d.next_attempt_at > now() and d.last_attempt_at < $1
  and not exists (
    select 1 from webhook_delivery_attempts a where a.delivery_id = d.id and a.attempt = d.attempts)`;

export const RECORD_SQL = `
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

export type ClaimedRow = {
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

export type Outcome = {
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

/*
 * The deliveries as the API shows them (deliveries.ts): lists, one with its attempts, and the
 * deliveries made by hand (replays, test events).
 */

export const DELIVERY_PAGE: PageOptions = {
  defaultLimit: 25,
  maxLimit: 100,
  sortFields: { createdAt: webhookDeliveries.createdAt, eventCode: webhookDeliveries.eventCode },
  tieBreaker: webhookDeliveries.id,
  defaultSort: { field: 'createdAt', direction: 'DESC' },
};

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  eventCode: webhookDeliveries.eventCode,
  eventName: webhookDeliveries.eventName,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastError: webhookDeliveries.lastError,
  completedAt: webhookDeliveries.completedAt,
  replayOf: webhookDeliveries.replayOf,
  createdAt: webhookDeliveries.createdAt,
  updatedAt: webhookDeliveries.updatedAt,
};
export type DeliveryRow = { [K in keyof typeof deliveryColumns]: (typeof webhookDeliveries.$inferSelect)[K] };

const attemptColumns = {
  id: webhookDeliveryAttempts.id,
  attempt: webhookDeliveryAttempts.attempt,
  startedAt: webhookDeliveryAttempts.startedAt,
  durationMs: webhookDeliveryAttempts.durationMs,
  statusCode: webhookDeliveryAttempts.statusCode,
  error: webhookDeliveryAttempts.error,
  responseExcerpt: webhookDeliveryAttempts.responseExcerpt,
};

/** One page of the webhook's deliveries (optionally of one status or event), and their total. */
export async function listDeliveriesPage(
  db: Executor,
  organisationId: string,
  webhookId: string,
  filters: { status?: DeliveryStatus; eventId?: string },
  page: PageRequest,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = and(
    eq(webhookDeliveries.webhookId, webhookId),
    eq(webhookDeliveries.organisationId, organisationId),
    filters.status ? eq(webhookDeliveries.status, filters.status) : undefined,
    filters.eventId ? eq(webhookDeliveries.eventId, filters.eventId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .where(where)
      .orderBy(...page.orderBy)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: Number(total?.total ?? 0) };
}

/** A delivery of the organisation's webhook, or undefined. */
export async function findDelivery(
  db: Executor,
  organisationId: string,
  webhookId: string,
  deliveryId: string,
) {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.organisationId, organisationId),
      ),
    )
    .limit(1);
  return row;
}

/** The attempts of a delivery, latest first. */
export function attemptsOfDelivery(db: Executor, deliveryId: string) {
  return db
    .select(attemptColumns)
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.deliveryId, deliveryId))
    .orderBy(desc(webhookDeliveryAttempts.attempt));
}

/** Inserts a delivery; answers it. */
export async function insertDelivery(tx: Executor, values: typeof webhookDeliveries.$inferInsert) {
  const [row] = await tx.insert(webhookDeliveries).values(values).returning(deliveryColumns);
  return row!;
}

/** Inserts an event; answers what a delivery of it copies. */
export async function insertEvent(tx: Executor, values: typeof events.$inferInsert) {
  const [event] = await tx
    .insert(events)
    .values(values)
    .returning({ id: events.id, code: events.code, eventName: events.eventName });
  return event!;
}
