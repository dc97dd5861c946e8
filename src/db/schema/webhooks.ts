import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';
import { organisations } from './platform.ts';

export const WEBHOOK_AUTH_TYPES = ['none', 'basic', 'header'] as const;
export type WebhookAuthType = (typeof WEBHOOK_AUTH_TYPES)[number];
export const WEBHOOK_METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** basic: username/password; header: name/token; none: null. */
export type WebhookCredentials =
  | { username: string; password: string }
  | { name: string; token: string }
  | Record<string, never>;

/** A subscription of an organisation: where to send which events, and how to authenticate. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    /** The patterns as given (`event.**`, `event.orders.*`, `event.orders.created`). */
    events: jsonb('events').$type<string[]>().notNull(),
    /** The patterns compiled to one anchored regular expression, matched in SQL by the dispatcher. */
    eventsRegex: text('events_regex').notNull(),
    authenticationType: text('authentication_type').$type<WebhookAuthType>().notNull().default('none'),
    credentials: jsonb('credentials').$type<WebhookCredentials>(),
    httpMethod: text('http_method').$type<WebhookMethod>().notNull().default('post'),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the service disabled it (`gone`: the receiver answered 410; `failing`: retries exhausted). */
    disabledReason: text('disabled_reason'),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    /** Standard Webhooks signing secret (`whsec_...`), shown once at creation and rotation. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, still used to sign until previousSecretExpiresAt. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('webhooks_org_created_idx').on(t.organisationId, t.createdAt),
    index('webhooks_org_active_idx').on(t.organisationId).where(sql`${t.enabled} and ${t.deletedAt} is null`),
  ],
);

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to send to one webhook. `attempts` counts claims and fences the worker that holds the
 * current one: a worker only records its outcome while `attempts` still equals its attempt number.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    organisationId: organisationId(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id),
    eventId: uuid('event_id').notNull(),
    eventCode: bigint('event_code', { mode: 'number' }).notNull(),
    eventName: text('event_name').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due; while an attempt runs, when its lease expires. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    /** The delivery this one re-sends by hand. */
    replayOf: uuid('replay_of'),
    ...timestamps(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
    uniqueIndex('webhook_deliveries_event_uq').on(t.webhookId, t.eventId).where(sql`${t.replayOf} is null`),
  ],
);

/** One HTTP call of a delivery. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: id(),
    organisationId: organisationId(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    webhookId: uuid('webhook_id').notNull(),
    attempt: integer('attempt').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_delivery_attempts_uq').on(t.deliveryId, t.attempt)],
);
