import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id } from './columns.ts';

export const EMAIL_STATUSES = ['pending', 'sent', 'stored', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * Every e-mail the service sends, kept as a record (and as the only copy when no SMTP server is
 * configured: `stored`). `failed` rows are those the SMTP server refused or could not take.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    organisationId: uuid('organisation_id'),
    /** What the message is about, e.g. `webhook_disabled`, `import_result`. */
    kind: text('kind').notNull(),
    to: jsonb('to').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status').$type<EmailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /**
     * Set on messages queued in a change's transaction (platform/mail-outbox.ts): when the
     * delivery worker may try (again). Null for messages the mailer sends at once.
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('email_outbox_org_created_idx').on(t.organisationId, t.createdAt),
    index('email_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending' and ${t.nextAttemptAt} is not null`),
  ],
);
