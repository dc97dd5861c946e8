/**
 * Fault suite: kill -9 of a service process (src/server.ts in a child process) during a burst of
 * writes and during webhook deliveries, then a new process on the same database.
 * - every write the service acknowledged (201) is there after the restart;
 * - every event is delivered to the receiver, and never more often than the service counted
 *   attempts (at least once: a repeat for an attempt the crash cut short).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../fixtures/imports.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import {
  ADMIN,
  client,
  createServiceStore,
  type ServiceProcess,
  type ServiceStore,
  signInOver,
  startService,
} from '../helpers/service-process.ts';

const env = {
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '5000',
  WEBHOOK_RETRY_DELAYS: '1s,1s,2s,2s,5s',
  WEBHOOK_POLL_INTERVAL_MS: '200',
  WEBHOOK_CONCURRENCY: '4',
};

describe('kill -9 of a service process', () => {
  let store: ServiceStore;
  let service: ServiceProcess | undefined;
  let receiver: Receiver;
  const base = () => service!.url;

  async function organisationAdmin(name: string) {
    const root = client(base, await signInOver(base, ADMIN.email, ADMIN.password));
    const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@fault.local`;
    const created = await root('POST', '/api/organisations', {
      name,
      admin: { email, password: 'fault-admin-password' },
    });
    expect(created.status, created.text).toBe(201);
    return { email, token: await signInOver(base, email, 'fault-admin-password') };
  }

  beforeAll(async () => {
    store = await createServiceStore();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await service?.crash();
    await receiver.close();
    await store.drop();
  });

  it('during a write burst loses no acknowledged write', { timeout: 180_000 }, async () => {
    service = await startService(store, env);
    const admin = await organisationAdmin('Write burst');
    const acknowledged: string[] = [];
    let crashed = false;
    // 16 writers, each sending companies one after another until the process is gone.
    const writer = async (w: number) => {
      const call = client(base, admin.token);
      for (let i = 0; !crashed; i++) {
        try {
          const answer = await call('POST', '/api/companies', { name: `Burst ${w}-${i}` });
          if (answer.status === 201) acknowledged.push(answer.json.id as string);
        } catch {
          return; // the connection died with the process: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 16 }, (_, w) => writer(w));
    await until(async () => acknowledged.length >= 300, 60_000);
    crashed = true;
    await service.crash();
    await Promise.all(writers);
    const count = acknowledged.length;

    service = await startService(store, env);
    const call = client(base, await signInOver(base, admin.email, 'fault-admin-password'));
    const missing: string[] = [];
    for (const id of acknowledged) {
      const answer = await call('GET', `/api/companies/${id}`);
      if (answer.status !== 200) missing.push(`${id}: ${answer.status}`);
    }
    expect(missing).toEqual([]);
    const list = await call('GET', '/api/companies?limit=1');
    expect(list.status, list.text).toBe(200);
    expect(count).toBeGreaterThanOrEqual(300);
    await service.stop();
    service = undefined;
  });

  it('during webhook deliveries delivers every event, repeated only as at-least-once allows', {
    timeout: 240_000,
  }, async () => {
    service = await startService(store, env);
    const admin = await organisationAdmin('Webhook crash');
    const call = client(base, admin.token);
    // Slow answers: with 4 deliveries at a time, the crash finds some of them in flight.
    receiver.always({ status: 200, body: 'ok', delayMs: 400 });
    const path = `/crash-${Date.now()}/`;
    const hook = await call('POST', '/api/webhooks', {
      name: 'crash',
      url: `${receiver.url}${path}`,
      events: ['event.companies.created'],
    });
    expect(hook.status, hook.text).toBe(201);
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call('POST', '/api/companies', { name: `Hooked ${batch}-${i}` }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(201);
        ids.push(answer.json.id as string);
      }
    }
    const ours = (r: { url: string }) => r.url.startsWith(path);
    await receiver.waitFor(30, { filter: ours, timeoutMs: 60_000 });
    await service.crash();

    service = await startService(store, env);
    // Every delivery ends succeeded, as the service reports it: the attempts the crash cut short
    // are due again once their lease (timeout + 60 s) has passed, or at once on PGlite, where the
    // new process knows it is the only one (well within the lease).
    await until(
      async () => {
        const answer = await call('GET', `/api/webhooks/${hook.json.id}/deliveries?status=succeeded&limit=1`);
        return answer.status === 200 && answer.json.meta.total === ids.length;
      },
      store.kind === 'pglite' ? 45_000 : 150_000,
    );
    type Delivered = { event: { id: string; entityId: string } };
    const received = receiver.requests.filter(ours).map((r) => JSON.parse(r.body) as Delivered);
    // Every event reached the receiver.
    expect([...new Set(received.map((r) => r.event.entityId))].sort()).toEqual([...ids].sort());
    // At least once, never more than the service attempted: an event is received again only for an
    // attempt the crash cut short (sent, outcome never recorded) or one that failed (a timeout
    // under load), and each of those counts in the delivery's `attempts`.
    const attempts = new Map<string, number>();
    for (let page = 1; ; page++) {
      const answer = await call('GET', `/api/webhooks/${hook.json.id}/deliveries?limit=100&page=${page}`);
      expect(answer.status, answer.text).toBe(200);
      for (const delivery of answer.json.data) attempts.set(delivery.eventId, delivery.attempts);
      if (!answer.json.meta.hasNextPage) break;
    }
    const receipts = new Map<string, number>();
    for (const r of received) receipts.set(r.event.id, (receipts.get(r.event.id) ?? 0) + 1);
    const excess = [...receipts].filter(([eventId, n]) => n > (attempts.get(eventId) ?? 0));
    expect(excess).toEqual([]);
    expect(received.length - receipts.size).toBeLessThan(ids.length / 4);
    await service.stop();
    service = undefined;
  });
});
