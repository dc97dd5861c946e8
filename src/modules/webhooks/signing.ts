import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const signers = new Map<string, Webhook>();
function signer(secret: string): Webhook {
  let webhook = signers.get(secret);
  if (!webhook) {
    if (signers.size > 10_000) signers.clear();
    webhook = new Webhook(secret);
    signers.set(secret, webhook);
  }
  return webhook;
}

/**
 * The Standard Webhooks headers for one message: `webhook-signature` holds one `v1,<base64>`
 * signature per valid secret (the current one, then the previous one during its grace period),
 * separated by spaces, so receivers that still know only the old secret keep verifying.
 */
export function signatureHeaders(
  messageId: string,
  payload: string,
  secrets: string[],
  at: Date = new Date(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': secrets
      .map((secret) => signer(secret).sign(messageId, timestamp, payload))
      .join(' '),
  };
}
