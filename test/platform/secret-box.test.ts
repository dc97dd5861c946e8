import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/platform/secret-box.ts';

const KEY = 'secret-box-test-key-secret-box-test-key-01';

describe('secret box (stored secrets sealed with ENCRYPTION_KEY)', () => {
  it('opens what it sealed, with a fresh IV each time, and never shows the plaintext', () => {
    const box = createSecretBox(KEY);
    for (const plaintext of ['whsec_abc', 'p@ss: wörd ✓', '', 'x'.repeat(5000)]) {
      const first = box.seal(plaintext);
      const second = box.seal(plaintext);
      expect(first).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
      expect(first).not.toBe(second);
      if (plaintext) expect(first).not.toContain(plaintext);
      expect(box.open(first)).toBe(plaintext);
      expect(box.open(second)).toBe(plaintext);
    }
  });

  it('refuses a value sealed with another key or altered', () => {
    const sealed = createSecretBox(KEY).seal('whsec_abc');
    expect(() => createSecretBox(`${KEY}-other`).open(sealed)).toThrow(/another ENCRYPTION_KEY/);
    const body = sealed.slice('sealed:v1:'.length);
    const flipped = body.slice(0, -2) + (body.at(-2) === 'A' ? 'B' : 'A') + body.at(-1);
    expect(() => createSecretBox(KEY).open(`sealed:v1:${flipped}`)).toThrow(/cannot be opened/);
  });

  it('reads a value stored before sealing as it is', () => {
    expect(createSecretBox(KEY).open('whsec_legacy')).toBe('whsec_legacy');
  });
});
