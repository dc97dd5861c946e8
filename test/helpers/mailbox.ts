import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// No import of the app here: the e2e tests (a built service in a child process) use it too.

/** A message the mailbox received: its envelope sender and recipients, its raw text. */
export type Received = { from: string; to: string[]; data: string };
export type Mailbox = ReturnType<typeof mailbox>;

/**
 * A local SMTP server for the features that send e-mail (the outbox worker delivers to it):
 * `mails` keeps every message, oldest first; `waitFor` polls it because delivery is asynchronous.
 * Create it at the top of a file, `start` it in beforeAll (or through buildMailingApp), `close` it
 * in afterAll.
 */
export function mailbox() {
  const mails: Received[] = [];
  let smtp: SMTPServer | undefined;
  return {
    mails,
    /** Listens on a free port of 127.0.0.1; answers the SMTP URL to configure. */
    async start(): Promise<string> {
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              data: Buffer.concat(chunks).toString('utf8'),
            });
            callback();
          });
        },
      });
      smtp = server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve())),
    /** The first message that matches, once it has arrived (20 s at most). */
    async waitFor(match: (mail: Received) => boolean): Promise<Received> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = mails.find(match);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no such mail; got ${mails.map((m) => m.to.join(',')).join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** A quoted-printable body as text (soft line breaks joined, =XX bytes decoded as UTF-8). */
export const decodeQuotedPrintable = (data: string) =>
  Buffer.from(
    data
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The decoded text of a received message. */
export const textOf = (mail: Received) => decodeQuotedPrintable(mail.data);
