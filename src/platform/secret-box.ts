import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Marks a sealed value; a stored value without it predates sealing and is read as it is. */
const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SecretBox = {
  /** AES-256-GCM with a random IV: `sealed:v1:<base64url(iv | tag | ciphertext)>`. */
  seal(plaintext: string): string;
  /** The plaintext of a sealed value; throws when it was sealed with another key or altered. */
  open(stored: string): string;
};

/**
 * Seals the secrets the service must be able to read back to use them (webhook signing secrets,
 * the passwords and tokens it sends to webhook receivers), so a copy of the database or a backup
 * does not hand them out. The key is derived from ENCRYPTION_KEY (HKDF-SHA256), which stays out of
 * the database.
 */
export function createSecretBox(encryptionKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'stored-secrets v1', 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new Error('A stored secret cannot be opened: it was sealed with another ENCRYPTION_KEY');
      }
    },
  };
}
