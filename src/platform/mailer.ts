import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type EmailStatus, emailOutbox } from '../db/schema/mail.ts';

export type Mail = {
  /** The tenant the message concerns (null for service-level messages). */
  organisationId?: string | null;
  /** What the message is about, e.g. `webhook_disabled`, `import_result`. */
  kind: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
};

export type MailResult = { id: string; status: EmailStatus; error?: string };

export type Mailer = {
  /**
   * Records the message in `email_outbox`, then sends it over SMTP when `SMTP_URL` is set (status
   * `sent` or `failed`), or keeps it there and logs it (status `stored`). Never throws for a
   * delivery problem: the outbox row says what happened.
   */
  send(mail: Mail): Promise<MailResult>;
  close(): void;
};

/**
 * The SMTP transport of SMTP_URL, made on first use (nodemailer itself is loaded then: about 13 MB
 * a process without mail to send does not hold, issue 31). Bounded waits: a silent SMTP server must
 * not hold up the work that sends mail.
 */
export function smtpTransport(config: Pick<Config, 'smtpUrl'>) {
  let transport: Transporter | undefined;
  return {
    get: async () => {
      if (!transport) {
        const { default: nodemailer } = await import('nodemailer');
        transport ??= nodemailer.createTransport({
          url: config.smtpUrl!,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        } as Parameters<typeof nodemailer.createTransport>[0]);
      }
      return transport;
    },
    close: () => {
      transport?.close();
      transport = undefined;
    },
  };
}

/**
 * The service's one way to send e-mail. Call it outside database transactions: the SMTP exchange
 * must not hold a transaction (PGlite has one connection).
 */
export function createMailer(deps: {
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>;
  db: Db;
  log: FastifyBaseLogger;
}) {
  const { config, db, log } = deps;
  const smtp = smtpTransport(config);
  const transporter = smtp.get;

  const mailer: Mailer = {
    async send(mail) {
      const to = [...new Set(mail.to.map((address) => address.trim()).filter(Boolean))];
      const [row] = await db
        .insert(emailOutbox)
        .values({
          organisationId: mail.organisationId ?? null,
          kind: mail.kind,
          to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? null,
          status: config.smtpUrl && to.length ? 'pending' : 'stored',
        })
        .returning({ id: emailOutbox.id });
      const id = row!.id;
      if (!config.smtpUrl || to.length === 0) {
        log.info({ emailId: id, kind: mail.kind, to, subject: mail.subject }, 'e-mail stored in the outbox');
        return { id, status: 'stored' };
      }
      try {
        await (await transporter()).sendMail({
          from: config.mailFrom,
          to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
        });
        await db
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: new Date(), attempts: 1 })
          .where(eq(emailOutbox.id, id));
        return { id, status: 'sent' };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error({ err: error, emailId: id, kind: mail.kind }, 'e-mail could not be sent');
        await db
          .update(emailOutbox)
          .set({ status: 'failed', error: message.slice(0, 1000), attempts: 1 })
          .where(eq(emailOutbox.id, id));
        return { id, status: 'failed', error: message };
      }
    },
    close() {
      smtp.close();
    },
  };
  return mailer;
}
