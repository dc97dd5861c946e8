import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { emailOutbox } from '../db/schema/mail.ts';
import { type Mail, smtpTransport } from './mailer.ts';

/*
 * The durable e-mail outbox: a change queues its messages in its own transaction (`queueMail`), so
 * a message exists exactly when the change committed; a worker (`deliverDueMail`, the
 * `mail.deliver` job) sends them afterwards and retries those the SMTP server could not take.
 * platform/mailer.ts remains for messages sent at once outside any change.
 */

/** The pg-boss queue of the delivery worker. */
export const MAIL_DELIVER_JOB = 'mail.deliver';
/** How many times a message is tried before it is left `failed`. */
export const MAIL_MAX_ATTEMPTS = 5;
/** Delay before the n-th retry (seconds): 1 min, 5 min, 30 min, 2 h. */
const RETRY_DELAYS_S = [60, 300, 1800, 7200];
/** How long a worker holds a message it is sending before another may take it (a dead worker). */
const LEASE_MS = 5 * 60_000;

/** The transactions that queued mail, so the commit hook can wake the worker. */
const queuedIn = new WeakSet<object>();

/** Queues a message in the change's transaction: sent by the worker once the change commits. */
export async function queueMail(tx: Tx, mail: Mail, config: Pick<Config, 'smtpUrl'>) {
  const to = [...new Set(mail.to.map((address) => address.trim()).filter(Boolean))];
  const deliverable = Boolean(config.smtpUrl && to.length);
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      organisationId: mail.organisationId ?? null,
      kind: mail.kind,
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      // Without SMTP the outbox row is the message (`stored`), as with the mailer.
      status: deliverable ? 'pending' : 'stored',
      nextAttemptAt: deliverable ? new Date() : null,
    })
    .returning({ id: emailOutbox.id });
  if (deliverable) queuedIn.add(tx);
  return row!.id;
}

/** Whether this transaction queued a message to deliver (read by the commit hook). */
export const queuedMailIn = (tx: object) => queuedIn.has(tx);

/**
 * Sends every due message, one at a time: each is leased in a short transaction (SKIP LOCKED, so
 * several processes share the work), sent outside it, then marked sent, or retried later, or
 * failed after MAIL_MAX_ATTEMPTS. Answers how many were sent.
 */
export function createMailDelivery(deps: {
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>;
  db: Db;
  log: FastifyBaseLogger;
}) {
  const { config, db, log } = deps;
  const smtp = smtpTransport(config);
  const transporter = smtp.get;

  async function lease() {
    return db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.status, 'pending'),
            isNotNull(emailOutbox.nextAttemptAt),
            lte(emailOutbox.nextAttemptAt, new Date()),
          ),
        )
        .orderBy(emailOutbox.nextAttemptAt)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return undefined;
      await tx
        .update(emailOutbox)
        .set({ nextAttemptAt: new Date(Date.now() + LEASE_MS), attempts: sql`${emailOutbox.attempts} + 1` })
        .where(eq(emailOutbox.id, due.id));
      return { ...due, attempts: due.attempts + 1 };
    });
  }

  async function deliverDue(limit = 100): Promise<number> {
    if (!config.smtpUrl) return 0;
    let sent = 0;
    for (let i = 0; i < limit; i++) {
      const mail = await lease();
      if (!mail) break;
      try {
        await (await transporter()).sendMail({
          from: config.mailFrom,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
        });
        await db
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: new Date(), nextAttemptAt: null, error: null })
          .where(eq(emailOutbox.id, mail.id));
        sent++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const last = mail.attempts >= MAIL_MAX_ATTEMPTS;
        log.error(
          { err: error, emailId: mail.id, kind: mail.kind, attempt: mail.attempts },
          'e-mail not sent',
        );
        const delay = RETRY_DELAYS_S[Math.min(mail.attempts - 1, RETRY_DELAYS_S.length - 1)]!;
        await db
          .update(emailOutbox)
          .set({
            status: last ? 'failed' : 'pending',
            error: message.slice(0, 1000),
            nextAttemptAt: last ? null : new Date(Date.now() + delay * 1000),
          })
          .where(eq(emailOutbox.id, mail.id));
      }
    }
    return sent;
  }

  return {
    deliverDue,
    close() {
      smtp.close();
    },
  };
}
