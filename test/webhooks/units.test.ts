import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/modules/webhooks/attempt.ts';
import { createSender, parseRetryAfter } from '../../src/modules/webhooks/http.ts';
import { compilePatterns, isValidPattern, matchesPatterns } from '../../src/modules/webhooks/patterns.ts';
import { newWebhookSecret, signatureHeaders } from '../../src/modules/webhooks/signing.ts';
import { BlockedTargetError, createTargetPolicy, isPublicAddress } from '../../src/modules/webhooks/ssrf.ts';

describe('event patterns', () => {
  it.each([
    [['event.**'], 'event.orders.created', true],
    [['event.**'], 'event.corrugated_material_compositions.updated', true],
    [['event.orders.*'], 'event.orders.deleted', true],
    [['event.orders.*'], 'event.order_items.created', false],
    [['event.orders.*'], 'event.orders', false],
    [['event.*.deleted'], 'event.quotes.deleted', true],
    [['event.*.deleted'], 'event.quotes.updated', false],
    [['event.orders.created'], 'event.orders.created', true],
    [['event.orders.created'], 'event.orders.createdx', false],
    [['event.orders.created', 'event.quotes.*'], 'event.quotes.updated', true],
    [['event.orders.**'], 'event.orders.created', true],
  ])('%j matches %s: %s', (patterns, name, expected) => {
    expect(matchesPatterns(patterns, name)).toBe(expected);
  });

  it('treats a dot literally', () => {
    expect(compilePatterns(['event.orders.created'])).toBe('^(event\\.orders\\.created)$');
    expect(matchesPatterns(['event.orders.created'], 'eventXordersXcreated')).toBe(false);
  });

  it.each(['event', 'orders.*', 'event.', 'event..x', 'event.***', 'event.Orders', 'event.a b', 'event.(x)'])(
    'refuses the pattern %s',
    (pattern) => expect(isValidPattern(pattern)).toBe(false),
  );
});

describe('SSRF policy', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.0.0.8', false],
    ['172.20.1.1', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd12:3456::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['64:ff9b::a00:1', false],
    ['2002:c0a8:0101::1', false],
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    // Issue 14, defect 8: IPv4-compatible (deprecated ::/96) and other IPv4-carrying IPv6 forms.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::a00:1', false],
    ['::a9fe:a9fe', false],
    ['::ffff:0:7f00:1', false],
    ['64:ff9b:1::7f00:1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::1', false],
    ['2002:a9fe:a9fe::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false],
    ['fe80::1%eth0', false],
    ['2001:db8::1', false],
    ['5f00::1', false],
    ['64:ff9b::808:808', true],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses webhook URLs to IPv4-compatible and mapped IPv6 forms of private addresses', async () => {
    const policy = createTargetPolicy([]);
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[0:0:0:0:0:0:127.0.0.1]/',
    ]) {
      await expect(policy.check(new URL(url)), url).rejects.toBeInstanceOf(BlockedTargetError);
    }
  });

  it('allows listed hosts, addresses and ranges only', async () => {
    const policy = createTargetPolicy(['10.1.0.0/16', 'internal.example', '*.corp.example', '::1']);
    await expect(policy.check(new URL('http://10.1.2.3/'))).resolves.toBeUndefined();
    await expect(policy.check(new URL('http://10.2.0.1/'))).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(policy.check(new URL('http://[::1]:8080/'))).resolves.toBeUndefined();
    await expect(policy.check(new URL('http://internal.example/'))).resolves.toBeUndefined();
    await expect(policy.check(new URL('http://a.corp.example/'))).resolves.toBeUndefined();
    await expect(policy.check(new URL('http://127.0.0.1/'))).rejects.toBeInstanceOf(BlockedTargetError);
    // Resolved names are checked on every address they resolve to.
    await expect(createTargetPolicy([]).check(new URL('http://localhost/'))).rejects.toBeInstanceOf(
      BlockedTargetError,
    );
  });

  it('refuses at connection time a name that resolves to a private address (DNS rebinding)', async () => {
    const server = http.createServer((_req, res) => res.end('should not be reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    let reached = false;
    server.on('request', () => {
      reached = true;
    });
    try {
      const sender = createSender(createTargetPolicy([]), { maxSockets: 4 });
      for (const url of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`]) {
        const outcome = await sender.send({
          url: new URL(url),
          method: 'POST',
          headers: {},
          body: '{}',
          timeoutMs: 2000,
        });
        expect(outcome.statusCode).toBeNull();
        expect(outcome.error).toContain('refused target');
      }
      sender.close();
      expect(reached).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe('retry decisions', () => {
  const outcome = (statusCode: number | null, retryAfterMs: number | null = null) => ({
    startedAt: new Date(),
    durationMs: 1,
    statusCode,
    error: statusCode === 200 ? null : 'x',
    responseExcerpt: null,
    retryAfterMs,
  });
  const delays = [1000, 60_000];

  it('succeeds on 2xx, gives up and disables on 410', () => {
    expect(decide(outcome(204), 1, delays, false)).toEqual({ status: 'succeeded', delay_ms: 0 });
    expect(decide(outcome(410), 1, delays, false)).toMatchObject({ status: 'failed', disable: 'gone' });
  });

  it('backs off with ±20% jitter, honours a longer Retry-After, then fails', () => {
    for (let i = 0; i < 50; i++) {
      const { delay_ms } = decide(outcome(500), 2, delays, false);
      expect(delay_ms).toBeGreaterThanOrEqual(48_000);
      expect(delay_ms).toBeLessThanOrEqual(72_000);
    }
    expect(decide(outcome(503, 600_000), 1, delays, false).delay_ms).toBe(600_000);
    expect(decide(outcome(null), 3, delays, false)).toMatchObject({ status: 'failed', disable: 'failing' });
    expect(decide(outcome(302), 1, delays, false).status).toBe('pending');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter('999999999')).toBe(24 * 3600 * 1000);
  });

  it('the default schedule spreads eleven attempts over about a day', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    const { retryDelaysMs } = loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: 'test/.tmp' }).webhooks;
    expect(retryDelaysMs).toHaveLength(10);
    const hours = retryDelaysMs.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThan(28);
  });
});

describe('signatures', () => {
  it('produce headers that standardwebhooks verifies, with every listed secret', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const payload = JSON.stringify({ eventName: 'event.orders.created' });
    const headers = signatureHeaders('msg_1', payload, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(payload, headers)).toEqual({ eventName: 'event.orders.created' });
    expect(new Webhook(previous).verify(payload, headers)).toEqual({ eventName: 'event.orders.created' });
    expect(() => new Webhook(newWebhookSecret()).verify(payload, headers)).toThrow();
  });
});
