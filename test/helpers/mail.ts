import type { Config } from '../../src/config.ts';
import { buildTestApp } from './app.ts';
import type { Mailbox } from './mailbox.ts';

export { decodeQuotedPrintable, type Mailbox, mailbox, type Received, textOf } from './mailbox.ts';

/**
 * The test app with its workers running and its mail sent to `box`, from the address and with the
 * public URL the mail tests read back in links.
 */
export async function buildMailingApp(box: Mailbox, config: Partial<Config> = {}) {
  return buildTestApp({
    runWorkers: true,
    config: {
      smtpUrl: await box.start(),
      mailFrom: 'quotes@service.test',
      publicBaseUrl: 'https://quotes.example',
      ...config,
    },
  });
}
