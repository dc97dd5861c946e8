import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'pqs-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generated secrets', () => {
  it('generates the JWT secret and the encryption key once under DATA_DIR, private to the owner', () => {
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKey.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKey).not.toBe(first.jwtSecret);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.encryptionKey).toBe(first.encryptionKey);
    expect(readFileSync(join(dir, 'encryption-key'), 'utf8')).toBe(first.encryptionKey);
    expect(statSync(join(dir, 'encryption-key')).mode & 0o077).toBe(0);
  });

  it('takes the values given in the environment, and refuses short ones', () => {
    const given = loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: 'k'.repeat(32), JWT_SECRET: 'j'.repeat(32) });
    expect(given).toMatchObject({ encryptionKey: 'k'.repeat(32), jwtSecret: 'j'.repeat(32) });
    expect(() => loadConfig({ DATA_DIR: dir, ENCRYPTION_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'short' })).toThrow(ConfigError);
  });
});

describe('request timeouts (issue 23)', () => {
  it('defaults to 30 s for a whole request and 10 s for its headers, and refuses headers longer than the request', () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
    });
    expect(loadConfig({ DATA_DIR: dir, REQUEST_TIMEOUT_MS: '5000' })).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 5000,
    });
    expect(() => loadConfig({ DATA_DIR: dir, REQUEST_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ DATA_DIR: dir, REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' }),
    ).toThrow(ConfigError);
  });
});
