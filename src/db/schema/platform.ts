import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { deletedAt, id, organisationId, timestamps } from './columns.ts';

export const organisations = pgTable('organisations', {
  id: id(),
  name: text('name').notNull(),
  baseCurrency: text('base_currency').notNull().default('EUR'),
  ...timestamps(),
  deletedAt: deletedAt(),
});

export const ROLES = ['contact', 'superadmin', 'admin', 'sales', 'external_sales', 'guest'] as const;
export type Role = (typeof ROLES)[number];

export const users = pgTable(
  'users',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    role: text('role').$type<Role>().notNull(),
    /** Sign-in name, unique across the service; null for contacts who cannot sign in. */
    username: text('username'),
    email: text('email'),
    passwordHash: text('password_hash'),
    /**
     * Raised when the password changes: bearer tokens carry the version they were signed with
     * (claim `ver`) and an older one is refused (issue 14, defect 7).
     */
    tokenVersion: integer('token_version').notNull().default(0),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phoneNumber: text('phone_number'),
    mobilePhone: text('mobile_phone'),
    jobTitle: text('job_title'),
    language: text('language'),
    /** The kinds of notification e-mail the user opted out of (e.g. `quote_accepted`). */
    emailOptOuts: text('email_opt_outs').array().notNull().default(sql`'{}'::text[]`),
    externalId: text('external_id'),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    createdById: uuid('created_by_id'),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('users_username_live_uq')
      .on(sql`lower(${t.username})`)
      .where(sql`${t.deletedAt} is null and ${t.username} is not null`),
    uniqueIndex('users_email_live_uq')
      .on(t.organisationId, sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null and ${t.email} is not null`),
    uniqueIndex('users_external_id_live_uq')
      .on(t.organisationId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.externalId} is not null`),
    index('users_org_role_created_idx').on(t.organisationId, t.role, t.createdAt),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** SHA-256 of the token; the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull(),
    /** First characters of the token, so a user can tell their tokens apart. */
    prefix: text('prefix').notNull(),
    createdById: uuid('created_by_id'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    ...timestamps(),
  },
  (t) => [uniqueIndex('access_tokens_hash_uq').on(t.tokenHash), index('access_tokens_user_idx').on(t.userId)],
);

/**
 * Browser sessions opened by POST /api/session (docs/web.md, "Sessions"): every access token issued
 * for one carries its id (claim `sid`), and is refused once `ended_at` is set (sign-out, reuse of a
 * rotated refresh token), on every node. POST /api/session/refresh, authenticated by the session's
 * current refresh token (session_refresh_tokens), moves `expires_at` (the idle limit) forward, never
 * past `max_expires_at`. Bearer tokens of POST /api/sign-in belong to no session. A row past
 * `expires_at` can no longer be refreshed and is deleted when its user opens another session.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Until when the session can be refreshed: the idle limit from its last refresh. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The absolute limit from sign-in (SESSION_MAX_EXPIRES_IN); null for sessions older than it. */
    maxExpiresAt: timestamp('max_expires_at', { withTimezone: true, mode: 'date' }),
    /** The user's token version at sign-in: a password change ends the session's refreshes too. */
    tokenVersion: integer('token_version').notNull().default(0),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    /** Why it ended: `signed_out` or `refresh_reused` (a rotated refresh token came back). */
    endReason: text('end_reason'),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId, t.expiresAt)],
);

/**
 * The refresh tokens of a browser session (kept as SHA-256 hashes, 256 random bits each): one is
 * current (`used_at` null); a refresh marks it used and issues the next (rotation). A used one that
 * comes back after the grace period ends its whole session (reuse detection, docs/security.md).
 */
export const sessionRefreshTokens = pgTable(
  'session_refresh_tokens',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => userSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('session_refresh_tokens_hash_uq').on(t.tokenHash),
    index('session_refresh_tokens_session_idx').on(t.sessionId),
  ],
);

/**
 * Password-reset tokens (POST /api/password-reset/request, docs/auth.md): a token is e-mailed once
 * and kept here only as its SHA-256; it works once (`used_at`) and until `expires_at`.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_uq').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Failed sign-in counters per account and per client address, shared by every node. */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true, mode: 'date' }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
});

export const EVENT_TYPES = ['CREATE', 'UPDATE', 'DELETE'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The transactional outbox: one row per change of a business entity, written in the same
 * transaction as the change. `code` is strictly increasing in commit-visible order per sequence.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    code: bigserial('code', { mode: 'number' }).notNull(),
    organisationId: organisationId(),
    eventName: text('event_name').notNull(),
    category: text('category').notNull(),
    type: text('type').$type<EventType>().notNull(),
    entity: text('entity').notNull(),
    tableName: text('table_name').notNull(),
    entityId: uuid('entity_id'),
    relation: text('relation'),
    relationId: uuid('relation_id'),
    fieldName: text('field_name'),
    updatedColumns: jsonb('updated_columns').$type<string[]>(),
    updatedRelations: jsonb('updated_relations').$type<string[]>(),
    process: text('process'),
    version: text('version').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    actorId: uuid('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * Set once the webhook dispatcher has fanned the event out to the matching webhooks. A flag per
     * event (not a cursor over `code`) so that an event whose transaction commits after one with a
     * higher code is never skipped.
     */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('events_code_uq').on(t.code),
    index('events_org_code_idx').on(t.organisationId, t.code),
    index('events_org_entity_idx').on(t.organisationId, t.entity, t.entityId),
    index('events_undispatched_idx').on(t.code).where(sql`${t.dispatchedAt} is null`),
  ],
);

export const companies = pgTable(
  'companies',
  {
    id: id(),
    organisationId: organisationId().references(() => organisations.id),
    name: text('name').notNull(),
    externalId: text('external_id'),
    parentId: uuid('parent_id'),
    email: text('email'),
    phoneNumber: text('phone_number'),
    website: text('website'),
    vatNumber: text('vat_number'),
    /** Sales to this customer carry no VAT (e.g. an exempt body); the reason is printed on its quotes. */
    vatExempt: boolean('vat_exempt').notNull().default(false),
    vatExemptionReason: text('vat_exemption_reason'),
    /** The user of the organisation who manages the account (HIPE `managedById`). */
    managedById: uuid('managed_by_id'),
    /** Users of the organisation who collaborate on the account (HIPE `collaboratorIds`). */
    collaboratorIds: uuid('collaborator_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** The company's usual currency (a currency of the organisation). */
    currencyId: uuid('currency_id'),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
    createdById: uuid('created_by_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('companies_external_id_live_uq')
      .on(t.organisationId, t.externalId)
      .where(sql`${t.deletedAt} is null and ${t.externalId} is not null`),
    // The list's default sort (name, then id) over live companies: the ids of a page come from an
    // index-only scan, whatever its offset (issue 31). Trigram indexes for `$cont` searches are
    // hand-written in migration heavy_lists (pg_trgm).
    index('companies_org_name_idx').on(t.organisationId, t.name, t.id).where(sql`${t.deletedAt} is null`),
    index('companies_parent_idx').on(t.parentId),
  ],
);

/** Links a user (contact or external sales) to the companies they work with. */
export const companyUsers = pgTable(
  'company_users',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    organisationId: organisationId(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] }), index('company_users_user_idx').on(t.userId)],
);

/**
 * The number of live rows (deleted_at is null) of an organisation per listed table (`entity`:
 * 'quotes', 'companies'), kept by a deferred constraint trigger on each table (migration
 * heavy_lists, hand-written like brief_counts'). A list of the whole organisation thus knows its
 * exact total without counting, and reads a page past the middle from the far end (issue 31).
 */
export const liveCounts = pgTable(
  'live_counts',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    entity: text('entity').notNull(),
    live: integer('live').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.entity] })],
);
