import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organisationId } from './columns.ts';

/**
 * Idempotency keys (docs/idempotency.md): one row per key a user sent on a create operation, kept
 * in the database so every node answers a retry the same way. While the first request runs the
 * row is `running` (held by `attempt` until `locked_until`); when its change commits, the same
 * transaction makes it `committed` with a provisional answer (409 `idempotency_answer_lost`);
 * once answered it is `completed` and holds the answer. Answers are sealed with ENCRYPTION_KEY.
 * Rows past `expires_at` count as absent and are deleted by a scheduled sweep.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    organisationId: organisationId(),
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body (multipart: the parts); null until a streamed body is read. */
    fingerprint: text('fingerprint'),
    state: text('state').$type<'running' | 'committed' | 'completed'>().notNull(),
    /** The request that holds a running key; only it may complete or release the row. */
    attempt: uuid('attempt').notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** The answer's bytes, base64, sealed (secret-box): answers may carry secrets and personal data. */
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.userId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
