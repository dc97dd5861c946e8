import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { companies } from '../../src/db/schema/platform.ts';
import { webhookDeliveries, webhookDeliveryAttempts } from '../../src/db/schema/webhooks.ts';
import { organisationsModule } from '../../src/modules/organisations/module.ts';
import { webhooksModule } from '../../src/modules/webhooks/module.ts';
import { type ChangeActor, createChangeRunner, entity } from '../../src/platform/events.ts';
import { auth, type Credentials, SUPERADMIN, signIn, testConfig } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { TEST_DATABASE_URL } from '../helpers/pg-admin.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';

const COMPANY = entity('COMPANY', 'companies');

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

function config(webhooks: Partial<Config['webhooks']> = {}) {
  return testConfig({
    webhooks: {
      ...testConfig().webhooks,
      timeoutMs: 3000,
      retryDelaysMs: [100, 100, 100],
      pollIntervalMs: 100,
      concurrency: 32,
      secretGraceSeconds: 0,
      ...webhooks,
    },
  });
}

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const start = (database: Database, webhooks?: Partial<Config['webhooks']>) =>
  buildApp({ config: config(webhooks), database, runWorkers: true, logger: false, lazySchemas: true });

async function createCompany(change: App['ctx']['change'], who: ChangeActor & object, name: string) {
  return change(who, async (tx, record) => {
    const [row] = await tx.insert(companies).values({ organisationId: who.organisationId, name }).returning();
    await record({ on: COMPANY, type: 'CREATE', entityId: row!.id, snapshot: row });
    return row!;
  });
}

async function createWebhook(app: App, who: Credentials, path: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: auth(who),
    payload: { name: 'durable', url: `${receiver.url}${path}`, events: ['event.companies.created'] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; secret: string };
}

describe('durability', () => {
  it('a restart in the middle of retries loses nothing, and events written while stopped are delivered', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      // A long first backoff: the retry falls due while no process is running.
      const first = await start(database, { retryDelaysMs: [1500, 100] });
      await organisationsModule.services(first.ctx).organisations.bootstrap();
      const root = await signIn(first, SUPERADMIN.email, SUPERADMIN.password);
      const path = '/restart/';
      const hook = await createWebhook(first, root, path);
      receiver.script(path, { status: 500, body: 'not now' });
      const company = await createCompany(first.ctx.change, root, 'Before restart');
      await receiver.waitFor(1, { filter: (r) => r.url.startsWith(path) });
      const [pending] = await until(async () => {
        const rows = await first.ctx.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, hook.id));
        return rows[0]?.lastStatusCode === 500 && rows;
      });
      expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
      await first.close();

      // While no process runs: another event is committed (outbox only).
      const offline = await createCompany(
        createChangeRunner(database, first.ctx.registry),
        root,
        'While stopped',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests.filter((r) => r.url.startsWith(path))).toHaveLength(1);

      const second = await start(database, { retryDelaysMs: [1500, 100] });
      try {
        const calls = await receiver.waitFor(3, { filter: (r) => r.url.startsWith(path) });
        const bodies = calls.map((call) => JSON.parse(call.body));
        expect(bodies.map((b) => b.event.entityId).sort()).toEqual(
          [company.id, company.id, offline.id].sort(),
        );
        const rows = await until(async () => {
          const list = await second.ctx.db
            .select()
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.webhookId, hook.id));
          return list.length === 2 && list.every((row) => row.status === 'succeeded') && list;
        });
        const retried = rows.find((row) => row.id === pending!.id)!;
        expect(retried.attempts).toBe(2);
        const attempts = await second.ctx.db
          .select()
          .from(webhookDeliveryAttempts)
          .where(eq(webhookDeliveryAttempts.deliveryId, retried.id));
        expect(attempts.map((a) => [a.attempt, a.statusCode]).sort()).toEqual([
          [1, 500],
          [2, 200],
        ]);
        const retriedCalls = calls.filter((call) => JSON.parse(call.body).event.entityId === company.id);
        expect(retriedCalls).toHaveLength(2);
        expect(retriedCalls[1]!.headers['webhook-id']).toBe(retriedCalls[0]!.headers['webhook-id']);
      } finally {
        await second.close();
      }
    } finally {
      await drop();
    }
  }, 120_000);

  it.skipIf(!TEST_DATABASE_URL)(
    'two processes on one PostgreSQL send each attempt once (PostgreSQL only)',
    async () => {
      const { database, drop } = await openTestDatabase();
      const url = (database.pool!.options as { connectionString: string }).connectionString;
      const otherPool = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
      const settings = { pollIntervalMs: 50, concurrency: 64, retryDelaysMs: [50, 50, 50, 50] };
      const a = await start(database, settings);
      const b = await start(otherPool, settings);
      try {
        await organisationsModule.services(a.ctx).organisations.bootstrap();
        const root = await signIn(a, SUPERADMIN.email, SUPERADMIN.password);
        const path = '/two-workers/';
        const hook = await createWebhook(a, root, path);
        const isCall = (r: { url: string }) => r.url.startsWith(path);
        // Some failures so that retries are claimed by both processes too.
        receiver.script(path, ...Array.from({ length: 30 }, () => ({ status: 500 })));
        const total = 300;
        const writes: Promise<unknown>[] = [];
        for (let i = 0; i < total; i++) {
          const app = i % 2 === 0 ? a : b;
          writes.push(createCompany(app.ctx.change, root, `Company ${i}`));
          if (writes.length >= 20) await Promise.all(writes.splice(0));
        }
        await Promise.all(writes);
        const deliveries = await until(async () => {
          const rows = await a.ctx.db
            .select()
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.webhookId, hook.id));
          return rows.length === total && rows.every((row) => row.status === 'succeeded') && rows;
        }, 30_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const calls = receiver.requests.filter(isCall);
        expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(total);
        // One HTTP call per attempt: per event, the receiver saw every answered attempt and no more
        // calls than attempts were made (a timed-out call may not have reached it).
        const { rows: attempts } = await a.ctx.database.query<{
          event_id: string;
          n: number;
          answered: number;
        }>(
          `select d.event_id, count(at.id)::int as n, count(at.status_code)::int as answered
           from webhook_deliveries d join webhook_delivery_attempts at on at.delivery_id = d.id
           where d.webhook_id = $1 group by d.event_id`,
          [hook.id],
        );
        expect(attempts).toHaveLength(total);
        const callsByEvent = new Map<string, number>();
        for (const call of calls) {
          const id = String(call.headers['webhook-id']);
          callsByEvent.set(id, (callsByEvent.get(id) ?? 0) + 1);
        }
        for (const { event_id, n, answered } of attempts) {
          expect(callsByEvent.get(event_id) ?? 0).toBeGreaterThanOrEqual(answered);
          expect(callsByEvent.get(event_id) ?? 0).toBeLessThanOrEqual(n);
        }
        const attemptCount = deliveries.reduce((sum, d) => sum + d.attempts, 0);
        expect(calls.length).toBeLessThanOrEqual(attemptCount);
        expect(calls.length).toBeGreaterThanOrEqual(total + 30);
        const { rows: duplicates } = await a.ctx.database.query(
          `select delivery_id, attempt from webhook_delivery_attempts where webhook_id = $1
           group by delivery_id, attempt having count(*) > 1`,
          [hook.id],
        );
        expect(duplicates).toEqual([]);
        // Both processes did part of the work.
        expect(webhooksModule.services(a.ctx).runtime.stats.attempts).toBeGreaterThan(0);
        expect(webhooksModule.services(b.ctx).runtime.stats.attempts).toBeGreaterThan(0);
        expect(
          webhooksModule.services(a.ctx).runtime.stats.attempts +
            webhooksModule.services(b.ctx).runtime.stats.attempts,
        ).toBe(attemptCount);
      } finally {
        await a.close();
        await b.close();
        await otherPool.close();
        await drop();
      }
    },
    120_000,
  );
});
