import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../../src/db/schema/mail.ts';
import { companies, events } from '../../src/db/schema/platform.ts';
import { webhookDeliveries, webhooks } from '../../src/db/schema/webhooks.ts';
import { entity } from '../../src/platform/events.ts';
import {
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
  testConfig,
} from '../helpers/app.ts';
import { eventChecker } from '../helpers/event-schemas.ts';
import { requests } from '../helpers/http.ts';
import { type ReceivedRequest, type Receiver, type Reply, startReceiver } from '../helpers/receiver.ts';

const COMPANY = entity('COMPANY', 'companies');

let t: TestApp;
const http = requests(() => t);
let receiver: Receiver;

beforeAll(async () => {
  t = await buildTestApp({
    runWorkers: true,
    config: {
      webhooks: {
        ...testConfig().webhooks,
        timeoutMs: 3000,
        retryDelaysMs: [150, 150],
        pollIntervalMs: 100,
        concurrency: 32,
        secretGraceSeconds: 3600,
      },
    },
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A company written straight through ctx.change with its event, so no other module is needed. */
async function createCompany(who: Credentials, name = 'ACME') {
  return t.app.ctx.change(who, async (tx, record) => {
    const [row] = await tx.insert(companies).values({ organisationId: who.organisationId, name }).returning();
    await record({ on: COMPANY, type: 'CREATE', entityId: row!.id, snapshot: row });
    return row!;
  });
}

async function updateCompany(who: Credentials, id: string, name: string) {
  return t.app.ctx.change(who, async (tx, record) => {
    const [row] = await tx
      .update(companies)
      .set({ name, updatedAt: new Date() })
      .where(eq(companies.id, id))
      .returning();
    await record({ on: COMPANY, type: 'UPDATE', entityId: id, snapshot: row, updatedColumns: ['name'] });
    return row!;
  });
}

async function deleteCompany(who: Credentials, id: string) {
  return t.app.ctx.change(who, async (tx, record) => {
    const [row] = await tx
      .update(companies)
      .set({ deletedAt: new Date() })
      .where(eq(companies.id, id))
      .returning();
    await record({ on: COMPANY, type: 'DELETE', entityId: id, snapshot: row });
  });
}

/** A path of its own on the receiver per webhook, so tests sharing the receiver tell calls apart. */
let hookCounter = 0;
async function createWebhook(who: Credentials, body: Record<string, unknown> = {}) {
  const path = `/hook-${++hookCounter}/`;
  const response = await http.post(who, '/api/webhooks', {
    name: 'ERP',
    url: `${receiver.url}${path}`,
    events: ['event.**'],
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  const webhook = response.json();
  return {
    ...webhook,
    path,
    /** Whether a received request is a call of this webhook. */
    calls: (r: ReceivedRequest) => r.url.startsWith(path),
    /** Scripts the receiver's next answers to this webhook. */
    next: (...replies: Reply[]) => receiver.script(path, ...replies),
  };
}

const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;

async function deliveriesOf(who: Credentials, webhookId: string) {
  const response = await http.get(who, `/api/webhooks/${webhookId}/deliveries`);
  expect(response.statusCode).toBe(200);
  return response.json().data as Array<Record<string, unknown>>;
}

async function deliveryWith(who: Credentials, webhookId: string, deliveryId: string) {
  const response = await http.get(who, `/api/webhooks/${webhookId}/deliveries/${deliveryId}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('webhook management', () => {
  let admin: Credentials;
  beforeAll(async () => {
    admin = await makeOrganisation(t);
  });

  it('creates a webhook with a whsec_ secret shown once and credentials masked everywhere', async () => {
    const response = await http.post(admin, '/api/webhooks', {
      name: 'ERP sync',
      url: `${receiver.url}/erp`,
      events: ['event.orders.*', 'event.companies.created'],
      authenticationType: 'basic',
      credentials: { username: 'erp', password: 'p4ssw0rd-secret' },
      httpMethod: 'PUT',
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(created).toMatchObject({
      name: 'ERP sync',
      events: ['event.orders.*', 'event.companies.created'],
      authenticationType: 'basic',
      credentials: { username: 'erp', password: '********' },
      httpMethod: 'put',
      enabled: true,
    });
    expect(response.body).not.toContain('p4ssw0rd-secret');

    const read = await http.get(admin, `/api/webhooks/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('secret');
    expect(read.body).not.toContain('p4ssw0rd-secret');
    expect(read.json().credentials).toEqual({ username: 'erp', password: '********' });

    const list = await http.get(admin, '/api/webhooks?limit=1');
    expect(list.json().meta).toMatchObject({ page: 1, limit: 1 });
    expect(list.body).not.toContain('p4ssw0rd-secret');
    expect(list.body).not.toContain(created.secret);

    // The webhook's own event carries the masked view too.
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, created.id), eq(events.type, 'CREATE')));
    expect(event?.eventName).toBe('event.webhooks.created');
    expect(JSON.stringify(event?.payload)).not.toContain('p4ssw0rd-secret');
  });

  it('updates, switches authentication, enables, disables and deletes', async () => {
    const hook = await createWebhook(admin);
    const patch = (payload: Record<string, unknown>) =>
      http.patch(admin, `/api/webhooks/${hook.id}`, payload);

    const renamed = await patch({ name: 'Renamed', events: ['event.*.deleted'] });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', events: ['event.*.deleted'] });

    const needsCredentials = await patch({ authenticationType: 'header' });
    expect(needsCredentials.statusCode).toBe(400);
    expect(needsCredentials.json().errors[0].pointer).toBe('/credentials');

    const header = await patch({
      authenticationType: 'header',
      credentials: { name: 'X-Api-Key', token: 'tok-123456' },
    });
    expect(header.statusCode).toBe(200);
    expect(header.json().credentials).toEqual({ name: 'X-Api-Key', token: '********' });

    const disabled = await http.post(admin, `/api/webhooks/${hook.id}/disable`);
    expect(disabled.json()).toMatchObject({ enabled: false, disabledReason: 'manual' });
    const enabled = await http.post(admin, `/api/webhooks/${hook.id}/enable`);
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null });

    const removed = await http.del(admin, `/api/webhooks/${hook.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ id: hook.id, deleted: true });
    const again = await http.del(admin, `/api/webhooks/${hook.id}`);
    expect(again.statusCode).toBe(404);
    const gone = await http.get(admin, `/api/webhooks/${hook.id}`);
    expect(gone.statusCode).toBe(404);
  });

  it.each([
    [{ events: ['orders.*'] }, '/events/0'],
    [{ events: ['event.orders.***'] }, '/events/0'],
    [{ events: ['event.**', 'event.Orders.created'] }, '/events/1'],
    [{ events: [] }, '/events'],
    [{ url: 'ftp://127.0.0.1/x' }, '/url'],
    [{ url: 'not a url' }, '/url'],
    [{ url: 'http://user:pw@127.0.0.1/x' }, '/url'],
    [{ httpMethod: 'head' }, '/httpMethod'],
    [{ authenticationType: 'basic', credentials: { username: 'u' } }, '/credentials/password'],
    [{ authenticationType: 'none', credentials: { username: 'u', password: 'p' } }, '/credentials/username'],
    [
      { authenticationType: 'header', credentials: { name: 'Content-Type', token: 'x' } },
      '/credentials/name',
    ],
    [
      { authenticationType: 'header', credentials: { name: 'webhook-signature', token: 'x' } },
      '/credentials/name',
    ],
    [{ authenticationType: 'header', credentials: { name: 'Bad Header', token: 'x' } }, '/credentials/name'],
    [{ surprise: true }, '/surprise'],
  ])('refuses an invalid webhook %j (400 at %s)', async (body, pointer) => {
    const response = await http.post(admin, '/api/webhooks', {
      name: 'x',
      url: `${receiver.url}/x`,
      events: ['event.**'],
      ...body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it.each([
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00::1]/hook',
    'http://[::ffff:192.168.1.1]/hook',
    'http://0.0.0.0:8080/',
  ])('refuses a private, link-local or reserved target %s (SSRF)', async (url) => {
    const response = await http.post(admin, '/api/webhooks', { name: 'x', url, events: ['event.**'] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'url_not_allowed' });
  });

  it('is for admins only, and another organisation’s webhook is not found', async () => {
    const hook = await createWebhook(admin);
    const sales = await makeUser(t, admin, 'sales');
    for (const [method, url] of [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks'],
      ['GET', `/api/webhooks/${hook.id}`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
      ['GET', '/api/events'],
    ] as const) {
      const response = await http.send(method, sales, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    const unauthenticated = await http.get(null, '/api/webhooks');
    expect(unauthenticated.statusCode).toBe(401);

    const other = await makeOrganisation(t);
    for (const [method, url] of [
      ['GET', `/api/webhooks/${hook.id}`],
      ['PATCH', `/api/webhooks/${hook.id}`],
      ['DELETE', `/api/webhooks/${hook.id}`],
      ['POST', `/api/webhooks/${hook.id}/disable`],
      ['POST', `/api/webhooks/${hook.id}/rotate-secret`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
    ] as const) {
      const response = await http.send(
        method,
        other,
        url,
        method === 'PATCH' ? { name: 'stolen' } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await http.get(other, '/api/webhooks');
    expect(list.json().data.map((w: { id: string }) => w.id)).not.toContain(hook.id);
  });
});

describe('delivery', () => {
  let admin: Credentials;
  beforeAll(async () => {
    admin = await makeOrganisation(t);
  });

  it('posts the delivered payload, signed per Standard Webhooks, with basic authentication', async () => {
    const hook = await createWebhook(admin, {
      events: ['event.companies.*'],
      authenticationType: 'basic',
      credentials: { username: 'erp', password: 's3cret' },
    });
    const company = await createCompany(admin, 'Signed Ltd');
    const [request] = await receiver.waitFor(1, { filter: hook.calls });
    expect(request!.method).toBe('POST');
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('erp:s3cret').toString('base64')}`);
    expect(request!.headers['content-type']).toBe('application/json');

    const verified = new Webhook(hook.secret).verify(request!.body, headersOf(request!));
    expect(verified).toMatchObject({
      eventName: 'event.companies.created',
      event: {
        type: 'CREATE',
        category: 'companies.created',
        entity: 'COMPANY',
        tableName: 'companies',
        entityId: company.id,
        version: '1.0',
        relation: null,
      },
      entity: { id: company.id, name: 'Signed Ltd' },
    });
    const body = JSON.parse(request!.body);
    expect(request!.headers['webhook-id']).toBe(body.event.id);
    expect(typeof body.event.code).toBe('number');
    expect(new Date(body.event.createdAt).toISOString()).toBe(body.event.createdAt);

    // A tampered body or another secret does not verify.
    expect(() =>
      new Webhook(hook.secret).verify(request!.body.replace('Signed', 'Forged'), headersOf(request!)),
    ).toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`).verify(
        request!.body,
        headersOf(request!),
      ),
    ).toThrow();

    const [delivery] = await until(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(delivery).toMatchObject({
      eventName: 'event.companies.created',
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it('sends the configured header credential', async () => {
    const hook = await createWebhook(admin, {
      events: ['event.companies.created'],
      authenticationType: 'header',
      credentials: { name: 'X-Api-Key', token: 'key-0123456789' },
      httpMethod: 'patch',
    });
    await createCompany(admin);
    const [request] = await receiver.waitFor(1, { filter: hook.calls });
    expect(request!.method).toBe('PATCH');
    expect(request!.headers['x-api-key']).toBe('key-0123456789');
    expect(request!.headers.authorization).toBeUndefined();
    // Stored sealed: the token and the signing secret are not in the database in clear.
    const [stored] = await t.app.ctx.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(JSON.stringify(stored)).not.toContain('key-0123456789');
    expect(JSON.stringify(stored)).not.toContain(hook.secret);
    expect(stored!.credentials).toMatchObject({
      name: 'X-Api-Key',
      token: expect.stringMatching(/^sealed:v1:/),
    });
    expect(stored!.secret).toMatch(/^sealed:v1:/);
    expect(new Webhook(hook.secret).verify(request!.body, headersOf(request!))).toMatchObject({
      eventName: 'event.companies.created',
    });
  });

  it('sends no credential with authenticationType none', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'], httpMethod: 'put' });
    await createCompany(admin);
    const [request] = await receiver.waitFor(1, { filter: hook.calls });
    expect(request!.method).toBe('PUT');
    expect(request!.headers.authorization).toBeUndefined();
    expect(new Webhook(hook.secret).verify(request!.body, headersOf(request!))).toBeTruthy();
  });

  it.each(['get', 'delete'])(
    'sends %s calls without a body, the event by reference in the query',
    async (method) => {
      const hook = await createWebhook(admin, { events: ['event.companies.created'], httpMethod: method });
      const company = await createCompany(admin);
      const [request] = await receiver.waitFor(1, { filter: hook.calls });
      expect(request!.method).toBe(method.toUpperCase());
      expect(request!.body).toBe('');
      const query = new URL(request!.url, 'http://x').searchParams;
      expect(query.get('eventName')).toBe('event.companies.created');
      expect(query.get('eventId')).toBe(request!.headers['webhook-id']);
      // The signature covers the webhook-id (the event id) and timestamp with an empty payload.
      new Webhook(hook.secret).verify('', headersOf(request!));
      const resource = await http.get(admin, `/api/events/ressources/${query.get('eventId')}`);
      expect(resource.json()).toMatchObject({ id: company.id });
    },
  );

  it('matches patterns: one entity, one verb, exact names', async () => {
    const updates = await createWebhook(admin, { events: ['event.companies.updated'] });
    const deletes = await createWebhook(admin, { events: ['event.*.deleted'] });
    const orders = await createWebhook(admin, { events: ['event.orders.*'] });
    const company = await createCompany(admin);
    await updateCompany(admin, company.id, 'Renamed');
    await deleteCompany(admin, company.id);
    const [updated] = await receiver.waitFor(1, { filter: updates.calls });
    const [deleted] = await receiver.waitFor(1, { filter: deletes.calls });
    expect(JSON.parse(updated!.body)).toMatchObject({
      eventName: 'event.companies.updated',
      event: { updatedColumns: ['name'] },
      entity: { name: 'Renamed' },
    });
    expect(JSON.parse(deleted!.body).eventName).toBe('event.companies.deleted');
    // Settle, then nothing else arrived for them.
    await until(async () => (await deliveriesOf(admin, deletes.id)).every((d) => d.status === 'succeeded'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests.filter(updates.calls)).toHaveLength(1);
    expect(receiver.requests.filter(deletes.calls)).toHaveLength(1);
    expect(receiver.requests.filter(orders.calls)).toHaveLength(0);
  });

  it('retries after a 500, then succeeds; every attempt is recorded', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    hook.next({ status: 500, body: 'database down' });
    await createCompany(admin);
    const calls = await receiver.waitFor(2, { filter: hook.calls });
    expect(calls[0]!.headers['webhook-id']).toBe(calls[1]!.headers['webhook-id']);
    const [delivery] = await until(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(delivery).toMatchObject({
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    const detail = await deliveryWith(admin, hook.id, delivery!.id as string);
    expect(detail.attempts).toHaveLength(2);
    expect(detail.attempts[1]).toMatchObject({
      attempt: 1,
      statusCode: 500,
      responseExcerpt: 'database down',
    });
    expect(detail.attempts[1].error).toContain('500');
    expect(detail.attempts[0]).toMatchObject({ attempt: 2, statusCode: 200, error: null });
    expect(detail.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    const attempts = await http.get(admin, `/api/webhooks/${hook.id}/deliveries/${delivery!.id}/attempts`);
    expect(attempts.json()).toHaveLength(2);
  });

  it('honours Retry-After', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    hook.next({ status: 503, headers: { 'retry-after': '1' } });
    await createCompany(admin);
    const calls = await receiver.waitFor(2, { filter: hook.calls });
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up on a call that takes longer than the timeout, and retries it', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    hook.next({ status: 200, delayMs: 5000 });
    await createCompany(admin);
    const [delivery] = await until(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    const detail = await deliveryWith(admin, hook.id, delivery!.id as string);
    const first = detail.attempts.find((a: { attempt: number }) => a.attempt === 1);
    expect(first).toMatchObject({ statusCode: null });
    expect(first.error).toContain('timeout');
    expect(first.durationMs).toBeGreaterThanOrEqual(2990);
    expect(first.durationMs).toBeLessThan(4900);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    hook.next({ status: 302, headers: { location: `${receiver.url}/redirected-target` } });
    await createCompany(admin);
    const [delivery] = await until(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    const detail = await deliveryWith(admin, hook.id, delivery!.id as string);
    const first = detail.attempts.find((a: { attempt: number }) => a.attempt === 1);
    expect(first).toMatchObject({ statusCode: 302 });
    expect(first.error).toContain('redirect not followed');
    expect(receiver.requests.filter((r) => r.url.startsWith('/redirected-target'))).toHaveLength(0);
  });

  it('disables the webhook on 410 Gone and tells the admins by e-mail', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    hook.next({ status: 410 });
    await createCompany(admin);
    const disabled = await until(async () => {
      const response = await http.get(admin, `/api/webhooks/${hook.id}`);
      return response.json().enabled === false && response.json();
    });
    expect(disabled).toMatchObject({ disabledReason: 'gone' });
    const [delivery] = await deliveriesOf(admin, hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });
    const mail = await until(async () => {
      const rows = await t.app.ctx.db
        .select()
        .from(emailOutbox)
        .where(
          and(eq(emailOutbox.organisationId, admin.organisationId), eq(emailOutbox.kind, 'webhook_disabled')),
        );
      return rows.find((row) => row.text.includes(hook.id));
    });
    expect(mail).toMatchObject({ status: 'stored', to: [admin.email] });
    expect(mail.subject).toContain(hook.name);

    // Disabled: new events are not queued for it.
    await createCompany(admin);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await deliveriesOf(admin, hook.id)).toHaveLength(1);
    expect(receiver.requests.filter(hook.calls)).toHaveLength(1);
  });

  it('after persistent failure marks the delivery failed, disables the webhook and notifies', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    hook.next({ status: 500 }, { status: 502 }, { status: 500 });
    await createCompany(admin);
    const disabled = await until(async () => {
      const [row] = await t.app.ctx.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
      return row?.enabled === false && row;
    });
    expect(disabled.disabledReason).toBe('failing');
    const [delivery] = await deliveriesOf(admin, hook.id);
    // 1 attempt + 2 retries (retryDelaysMs has two delays in this file).
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 500 });
    await until(async () => {
      const rows = await t.app.ctx.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.kind, 'webhook_disabled'));
      return rows.some((row) => row.text.includes(hook.id) && row.text.includes('about a day'));
    });
  });

  it('replays a delivery by hand with the same webhook-id', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    await createCompany(admin);
    const [first] = await receiver.waitFor(1, { filter: hook.calls });
    const [delivery] = await until(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    const replay = await http.post(admin, `/api/webhooks/${hook.id}/deliveries/${delivery!.id}/replay`);
    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toMatchObject({
      replayOf: delivery!.id,
      status: 'pending',
      eventId: delivery!.eventId,
    });
    const calls = await receiver.waitFor(2, { filter: hook.calls });
    expect(calls[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(calls[1]!.body).toBe(first!.body);

    const unknown = await http.post(admin, `/api/webhooks/${hook.id}/deliveries/${hook.id}/replay`);
    expect(unknown.statusCode).toBe(404);
  });

  it('sends a test event to that webhook only, whatever its patterns', async () => {
    const hook = await createWebhook(admin, { events: ['event.orders.created'] });
    const bystander = await createWebhook(admin, { events: ['event.**'] });
    const sent = await http.post(admin, `/api/webhooks/${hook.id}/test`);
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toMatchObject({
      webhookId: hook.id,
      eventName: 'event.webhooks.test',
      status: 'pending',
    });
    const [request] = await receiver.waitFor(1, { filter: hook.calls });
    const verified = new Webhook(hook.secret).verify(request!.body, headersOf(request!)) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({
      eventName: 'event.webhooks.test',
      event: { entity: 'WEBHOOK', entityId: hook.id, category: 'webhooks.test' },
      entity: { id: hook.id, url: hook.url },
    });
    expect(JSON.stringify(verified.entity)).not.toContain('whsec_');
    await until(async () => (await deliveriesOf(admin, hook.id))[0]?.status === 'succeeded');
    const others = await deliveriesOf(admin, bystander.id);
    expect(others.map((d) => d.eventName)).not.toContain('event.webhooks.test');

    const sales = await makeUser(t, admin, 'sales');
    const refused = await http.post(sales, `/api/webhooks/${hook.id}/test`);
    expect(refused.statusCode).toBe(403);
    const other = await makeOrganisation(t);
    const foreign = await http.post(other, `/api/webhooks/${hook.id}/test`);
    expect(foreign.statusCode).toBe(404);
    await http.post(admin, `/api/webhooks/${hook.id}/disable`);
    const disabled = await http.post(admin, `/api/webhooks/${hook.id}/test`);
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json()).toMatchObject({ code: 'webhook_disabled' });
  });

  it('rotates the secret and signs with both secrets during the grace period', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.created'] });
    const rotated = await http.post(admin, `/api/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const { secret, previousSecretExpiresAt } = rotated.json();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);
    expect(new Date(previousSecretExpiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    await createCompany(admin);
    const [request] = await receiver.waitFor(1, { filter: hook.calls });
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    new Webhook(secret).verify(request!.body, headersOf(request!));
    new Webhook(hook.secret).verify(request!.body, headersOf(request!));

    // Without grace, the old secret stops at once.
    const hard = await http.post(admin, `/api/webhooks/${hook.id}/rotate-secret?gracePeriodSeconds=0`);
    const newest = hard.json().secret;
    await createCompany(admin);
    const calls = await receiver.waitFor(2, { filter: hook.calls });
    new Webhook(newest).verify(calls[1]!.body, headersOf(calls[1]!));
    expect(() => new Webhook(secret).verify(calls[1]!.body, headersOf(calls[1]!))).toThrow();
  });

  it('a rolled-back change leaves no event and sends nothing', async () => {
    const hook = await createWebhook(admin, { events: ['event.companies.*'] });
    let companyId = '';
    await expect(
      t.app.ctx.change(admin, async (tx, record) => {
        const [row] = await tx
          .insert(companies)
          .values({ organisationId: admin.organisationId, name: 'Ghost' })
          .returning();
        companyId = row!.id;
        await record({ on: COMPANY, type: 'CREATE', entityId: row!.id, snapshot: row });
        throw new Error('business rule refused');
      }),
    ).rejects.toThrow('business rule refused');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await t.app.ctx.db.select().from(events).where(eq(events.entityId, companyId))).toHaveLength(0);
    expect(await deliveriesOf(admin, hook.id)).toHaveLength(0);
    expect(receiver.requests.filter(hook.calls)).toHaveLength(0);
    const [row] = await t.app.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.organisationId, admin.organisationId))
      .limit(1);
    expect(row?.eventName).not.toBe('Ghost');
  });

  it('delivers every event of a burst, one call per recorded attempt', async () => {
    const own = await makeOrganisation(t);
    const hook = await createWebhook(own, { events: ['event.companies.created'] });
    await Promise.all(Array.from({ length: 40 }, (_, i) => createCompany(own, `Burst ${i}`)));
    await receiver.waitFor(40, { filter: hook.calls });
    const deliveries = await until(async () => {
      const rows = await t.app.ctx.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, hook.id));
      return rows.length === 40 && rows.every((row) => row.status === 'succeeded') && rows;
    });
    const calls = receiver.requests.filter(hook.calls);
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(40);
    // At least once, and never twice for one attempt: per event, the receiver saw at least every
    // answered attempt and at most every attempt (a call that timed out on this busy single-threaded
    // test process may not have reached the receiver).
    const { rows: attempts } = await t.app.ctx.database.query<{
      event_id: string;
      n: number;
      answered: number;
    }>(
      `select d.event_id, count(a.id)::int as n, count(a.status_code)::int as answered
       from webhook_deliveries d join webhook_delivery_attempts a on a.delivery_id = d.id
       where d.webhook_id = $1 group by d.event_id`,
      [hook.id],
    );
    expect(attempts).toHaveLength(40);
    for (const { event_id, n, answered } of attempts) {
      const received = calls.filter((c) => c.headers['webhook-id'] === event_id).length;
      expect(received).toBeGreaterThanOrEqual(answered);
      expect(received).toBeLessThanOrEqual(n);
    }
    expect(calls.length).toBeLessThanOrEqual(deliveries.reduce((sum, d) => sum + d.attempts, 0));
  });
});

describe('event log and event resources', () => {
  let admin: Credentials;
  let other: Credentials;
  beforeAll(async () => {
    admin = await makeOrganisation(t);
    other = await makeOrganisation(t);
  });

  it('lists the organisation’s events with filters and sinceCode, and reads one', async () => {
    const company = await createCompany(admin, 'Logged');
    await updateCompany(admin, company.id, 'Logged 2');
    const list = await http.get(admin, `/api/events?entity=COMPANY&entityId=${company.id}`);
    expect(list.statusCode).toBe(200);
    const { data, meta } = list.json();
    expect(meta).toMatchObject({ total: 2, page: 1, limit: 25, hasNextPage: false });
    // Newest first by default.
    expect(data.map((e: { eventName: string }) => e.eventName)).toEqual([
      'event.companies.updated',
      'event.companies.created',
    ]);
    expect(data[0].event.code).toBeGreaterThan(data[1].event.code);
    expect(data[0].entity).toMatchObject({ name: 'Logged 2' });

    const since = await http.get(admin, `/api/events?sinceCode=${data[1].event.code}&entityId=${company.id}`);
    expect(since.json().data.map((e: { event: { id: string } }) => e.event.id)).toEqual([data[0].event.id]);

    const updates = await http.get(admin, `/api/events?type=UPDATE&entityId=${company.id}`);
    expect(updates.json().meta.total).toBe(1);

    const one = await http.get(admin, `/api/events/${data[1].event.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ eventName: 'event.companies.created', entity: { name: 'Logged' } });

    const foreign = await http.get(other, `/api/events/${data[1].event.id}`);
    expect(foreign.statusCode).toBe(404);
    const theirs = await http.get(other, `/api/events?entityId=${company.id}`);
    expect(theirs.json().meta.total).toBe(0);

    const bad = await http.get(admin, '/api/events?type=UPSERT');
    expect(bad.statusCode).toBe(400);
  });

  it('answers the current state of a live entity, 404 once deleted or for another organisation', async () => {
    const company = await createCompany(admin, 'Before');
    const [created] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, company.id), eq(events.type, 'CREATE')));
    await updateCompany(admin, company.id, 'After');
    const resource = (who: Credentials) => http.get(who, `/api/events/ressources/${created!.id}`);

    const live = await resource(admin);
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({
      id: company.id,
      name: 'After',
      organisationId: admin.organisationId,
    });

    expect((await resource(other)).statusCode).toBe(404);

    await deleteCompany(admin, company.id);
    const deleted = await resource(admin);
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json().code).toBe('not_found');

    const unknown = await http.get(admin, `/api/events/ressources/${company.id}`);
    expect(unknown.statusCode).toBe(404);
  });

  it('serves users without secrets and webhooks without credentials as resources', async () => {
    const [userEvent] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.organisationId, admin.organisationId), eq(events.entity, 'USER')))
      .limit(1);
    const user = await http.get(admin, `/api/events/ressources/${userEvent!.id}`);
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ id: admin.userId, email: admin.email });
    expect(user.json()).not.toHaveProperty('passwordHash');

    const hook = await createWebhook(admin, {
      authenticationType: 'header',
      credentials: { name: 'X-Key', token: 'very-secret-token' },
    });
    const [hookEvent] = await t.app.ctx.db.select().from(events).where(eq(events.entityId, hook.id));
    const resource = await http.get(admin, `/api/events/ressources/${hookEvent!.id}`);
    expect(resource.statusCode).toBe(200);
    expect(resource.body).not.toContain('very-secret-token');
    expect(resource.body).not.toContain(hook.secret);
    expect(resource.json()).toMatchObject({ id: hook.id, credentials: { name: 'X-Key', token: '********' } });

    const organisationEvent = await http.get(admin, '/api/events?entity=ORGANISATION');
    const orgEventId = organisationEvent.json().data[0].event.id;
    const org = await http.get(admin, `/api/events/ressources/${orgEventId}`);
    expect(org.json()).toMatchObject({ id: admin.organisationId });
  });
});

describe('delivered payloads', () => {
  it('every entity delivered by the tests above matches its schema in the OpenAPI document', async () => {
    const check = eventChecker(t.app.swagger() as never);
    const bodies = receiver.requests
      .filter((request) => request.body.startsWith('{'))
      .map((request) => JSON.parse(request.body) as { event: { entity: string } });
    expect(bodies.length).toBeGreaterThan(20);
    const entities = new Set(bodies.map((body) => body.event.entity));
    expect(entities).toEqual(new Set(['COMPANY', 'WEBHOOK']));
    expect(bodies.flatMap(check)).toEqual([]);
    // The events the API lists are the same documents: those of a new organisation (its seeds).
    const admin = await makeOrganisation(t);
    const listed = await http.get(admin, '/api/events?limit=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.flatMap(check)).toEqual([]);
  });
});
