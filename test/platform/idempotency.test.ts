import { PassThrough } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { briefs } from '../../src/db/schema/briefs.ts';
import { idempotencyKeys } from '../../src/db/schema/idempotency.ts';
import { imports } from '../../src/db/schema/imports.ts';
import { companies, events } from '../../src/db/schema/platform.ts';
import { webhookDeliveries } from '../../src/db/schema/webhooks.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import {
  createIdempotencyStore,
  IDEMPOTENCY_SWEEP_JOB,
  MultipartHasher,
} from '../../src/platform/idempotency.ts';
import { multipart, until } from '../fixtures/imports.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
  testConfig,
} from '../helpers/app.ts';
import { expectProblem, type Json } from '../helpers/http.ts';
import { TEST_DATABASE_URL } from '../helpers/pg-admin.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let otherAdmin: Credentials;
/** The clock of the idempotency keys; tests move it forward. */
let clock = new Date();

beforeAll(async () => {
  t = await buildTestApp({ now: () => clock });
  admin = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  otherAdmin = await makeOrganisation(t);
});

afterAll(async () => {
  await t.close();
});

let counter = 0;
const newKey = () => `key-${Date.now().toString(36)}-${++counter}`;

const post = (who: Credentials, url: string, payload: unknown, key?: string, headers: Json = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...auth(who), ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers },
    payload: payload as Json,
  });

const companiesNamed = (organisationId: string, name: string) =>
  t.app.ctx.db
    .select()
    .from(companies)
    .where(and(eq(companies.organisationId, organisationId), eq(companies.name, name)));

const eventsOf = (entityId: string) =>
  t.app.ctx.db.select().from(events).where(eq(events.entityId, entityId));

const keyRow = async (who: Credentials, key: string) => {
  const [row] = await t.app.ctx.db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.organisationId, who.organisationId),
        eq(idempotencyKeys.userId, who.userId),
        eq(idempotencyKeys.key, key),
      ),
    );
  return row;
};

const importCount = async () =>
  (await t.app.ctx.db.select().from(imports).where(eq(imports.organisationId, admin.organisationId))).length;

describe('replay', () => {
  it('answers the same key and body with the stored answer, creating one row and one event', async () => {
    const key = newKey();
    const body = { name: 'Replayed Ltd', externalId: `ext-${key}`, email: 'buyer@replayed.test' };
    const first = await post(admin, '/api/companies', body, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // The same properties in another order are the same request.
    const reordered = { email: body.email, externalId: body.externalId, name: body.name };
    const second = await post(admin, '/api/companies', reordered, key);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.body).toBe(first.body);

    const rows = await companiesNamed(admin.organisationId, 'Replayed Ltd');
    expect(rows).toHaveLength(1);
    expect(await eventsOf(first.json().id)).toHaveLength(1);
  });

  it('accepts the key as the draft’s quoted string, the same key as bare', async () => {
    const key = newKey();
    const first = await post(admin, '/api/companies', { name: 'Quoted' }, `"${key}"`);
    const second = await post(admin, '/api/companies', { name: 'Quoted' }, key);
    expect(first.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
  });

  it('keeps the stored answer sealed in the database', async () => {
    const key = newKey();
    const first = await post(admin, '/api/companies', { name: 'Sealed Secret Name' }, key);
    const row = await keyRow(admin, key);
    expect(row?.state).toBe('completed');
    expect(row?.responseStatus).toBe(201);
    expect(row?.responseBody).toMatch(/^sealed:v1:/);
    expect(row?.responseBody).not.toContain(first.json().id);
  });

  it('changes nothing without a key: two requests create two records', async () => {
    await post(admin, '/api/companies', { name: 'No Key Twice' });
    await post(admin, '/api/companies', { name: 'No Key Twice' });
    expect(await companiesNamed(admin.organisationId, 'No Key Twice')).toHaveLength(2);
  });

  it('replays a stored 4xx answer of the handler (an unknown order)', async () => {
    const key = newKey();
    const body = { orderId: '0190a000-0000-7000-8000-000000000000', quantity: 1, unitPrice: 2 };
    const first = await post(admin, '/api/order-items', body, key);
    expect(first.statusCode).toBeGreaterThanOrEqual(400);
    expect(first.statusCode).toBeLessThan(500);
    const second = await post(admin, '/api/order-items', body, key);
    expect(second.statusCode).toBe(first.statusCode);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
  });
});

describe('answers that are not stored', () => {
  it('does not store a 409: the same key runs again once the conflict is gone', async () => {
    const externalId = `dup-${newKey()}`;
    const original = await post(admin, '/api/companies', { name: 'Holder', externalId });
    expect(original.statusCode).toBe(201);
    const key = newKey();
    const refused = await post(admin, '/api/companies', { name: 'Taker', externalId }, key);
    expectProblem(refused, 409);
    expect(await keyRow(admin, key)).toBeUndefined();

    const removed = await t.app.inject({
      method: 'PATCH',
      url: `/api/companies/${original.json().id}`,
      headers: auth(admin),
      payload: { externalId: `${externalId}-moved` },
    });
    expect(removed.statusCode).toBeLessThan(300);
    const retried = await post(admin, '/api/companies', { name: 'Taker', externalId }, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not store a 5xx: the key can be retried and then creates the record', async () => {
    const key = newKey();
    const body = { name: 'After The Outage' };
    await t.app.ctx.database.query('alter table companies rename to companies_away');
    try {
      const failed = await post(admin, '/api/companies', body, key);
      expectProblem(failed, 500, 'internal_error');
    } finally {
      await t.app.ctx.database.query('alter table companies_away rename to companies');
    }
    expect(await keyRow(admin, key)).toBeUndefined();
    const retried = await post(admin, '/api/companies', body, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await companiesNamed(admin.organisationId, body.name)).toHaveLength(1);
  });

  it('leaves a request refused by validation (400) without a key', async () => {
    const key = newKey();
    expectProblem(await post(admin, '/api/companies', { name: 'X', nope: 1 }, key), 400);
    expect(await keyRow(admin, key)).toBeUndefined();
    expect((await post(admin, '/api/companies', { name: 'Valid After 400' }, key)).statusCode).toBe(201);
  });
});

describe('over a real connection', () => {
  it('replays a multipart upload sent twice by fetch (a new boundary each time), and a file upload', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = (url: string, form: FormData, key: string) =>
      fetch(`${address}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'idempotency-key': key },
        body: form,
      });
    const importForm = () => {
      const form = new FormData();
      form.set('type', '16');
      form.set('csv', new Blob(['externalId,name\nF-1,Fetched Co\n'], { type: 'text/csv' }), 'data.csv');
      return form;
    };
    const key = newKey();
    const first = await send('/api/imports', importForm(), key);
    const firstBody = await first.text();
    expect(first.status, firstBody).toBe(201);
    const second = await send('/api/imports', importForm(), key);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.text()).toBe(firstBody);

    const company = await post(admin, '/api/companies', { name: 'With Files' });
    const fileForm = () => {
      const form = new FormData();
      form.set('label', 'spec');
      form.set(
        'file',
        new Blob([Buffer.alloc(200_000, 7)], { type: 'application/octet-stream' }),
        'spec.bin',
      );
      return form;
    };
    const project = await post(admin, '/api/projects', { name: 'Filed', companyId: company.json().id });
    const fileKey = newKey();
    const uploaded = await send(`/api/projects/${project.json().id}/files`, fileForm(), fileKey);
    const uploadedBody = await uploaded.text();
    expect(uploaded.status, uploadedBody).toBe(201);
    const again = await send(`/api/projects/${project.json().id}/files`, fileForm(), fileKey);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(uploadedBody);
    const files = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.json().id}/files`,
      headers: auth(admin),
    });
    expect(files.statusCode).toBe(200);
    const list = files.json();
    expect(Array.isArray(list) ? list : list.data).toHaveLength(1);
  });
});

describe('mismatch', () => {
  it('answers 422 to the same key with another body, and creates nothing', async () => {
    const key = newKey();
    expect((await post(admin, '/api/companies', { name: 'First Body' }, key)).statusCode).toBe(201);
    const other = await post(admin, '/api/companies', { name: 'Second Body' }, key);
    expectProblem(other, 422, 'idempotency_key_reused');
    expect(await companiesNamed(admin.organisationId, 'Second Body')).toHaveLength(0);
  });

  it('answers 422 to the same key on another operation', async () => {
    const key = newKey();
    const company = await post(admin, '/api/companies', { name: 'Path One' }, key);
    expect(company.statusCode).toBe(201);
    const project = await post(
      admin,
      '/api/projects',
      { name: 'Path One', companyId: company.json().id },
      key,
    );
    expectProblem(project, 422, 'idempotency_key_reused');
  });
});

describe('scope', () => {
  it('keeps keys per organisation: the same key in two organisations creates one record in each', async () => {
    const key = newKey();
    const mine = await post(admin, '/api/companies', { name: 'Shared Key Co' }, key);
    const theirs = await post(otherAdmin, '/api/companies', { name: 'Shared Key Co' }, key);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(theirs.json().organisationId ?? otherAdmin.organisationId).toBe(otherAdmin.organisationId);
    // And another body with that key in the other organisation is no mismatch either.
    const again = await post(otherAdmin, '/api/companies', { name: 'Shared Key Co' }, key);
    expect(again.json().id).toBe(theirs.json().id);
  });

  it('keeps keys per user: another user of the organisation with the same key is a new request', async () => {
    const key = newKey();
    const byAdmin = await post(admin, '/api/companies', { name: 'Per User Co' }, key);
    const bySales = await post(sales, '/api/companies', { name: 'Per User Co' }, key);
    expect(byAdmin.statusCode).toBe(201);
    expect(bySales.statusCode).toBe(201);
    expect(bySales.headers['idempotent-replayed']).toBeUndefined();
    expect(bySales.json().id).not.toBe(byAdmin.json().id);
    expect(await companiesNamed(admin.organisationId, 'Per User Co')).toHaveLength(2);
  });
});

describe('expiry', () => {
  it('treats a key older than IDEMPOTENCY_KEY_TTL_SECONDS as new, and the sweep deletes it', async () => {
    const key = newKey();
    const body = { name: 'Expiring Co' };
    const first = await post(admin, '/api/companies', body, key);
    expect(first.statusCode).toBe(201);
    const ttl = t.app.ctx.config.idempotency.ttlSeconds;
    expect(ttl).toBe(86_400);

    clock = new Date(clock.getTime() + (ttl - 1) * 1000);
    const within = await post(admin, '/api/companies', body, key);
    expect(within.headers['idempotent-replayed']).toBe('true');

    const store = createIdempotencyStore(t.app.ctx.db);
    const otherKey = newKey();
    await post(admin, '/api/companies', { name: 'Swept Co' }, otherKey);

    clock = new Date(clock.getTime() + 2000);
    const after = await post(admin, '/api/companies', body, key);
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json().id).not.toBe(first.json().id);
    expect(await companiesNamed(admin.organisationId, body.name)).toHaveLength(2);

    // The sweep deletes what expired (not `otherKey`, one second old, nor the key just reused).
    clock = new Date(clock.getTime() + ttl * 1000 - 1000);
    const swept = await store.sweep(clock);
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await keyRow(admin, otherKey)).toBeUndefined();
    expect(await keyRow(admin, key)).toBeDefined();
  });
});

describe('header validation', () => {
  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a space', 'two words'],
    ['a non-ASCII character', 'clé'],
    ['two keys', 'a, b'],
    ['an unterminated quote', '"abc'],
  ])('refuses a key with %s (400 with a pointer), creating nothing', async (_what, value) => {
    const name = `Bad Key ${_what}`;
    const response = await post(admin, '/api/companies', { name }, value);
    const problem = expectProblem(response, 400);
    expect(problem.errors?.[0]?.pointer).toBe('/idempotency-key');
    expect(await companiesNamed(admin.organisationId, name)).toHaveLength(0);
  });

  it('accepts 255 characters', async () => {
    const key = `${newKey()}-`.padEnd(255, 'x');
    expect((await post(admin, '/api/companies', { name: 'Long Key' }, key)).statusCode).toBe(201);
  });

  it('checks the credential before the key (401 without one)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: { 'idempotency-key': 'not valid!' },
      payload: { name: 'x' },
    });
    expectProblem(response, 401);
  });
});

describe('concurrency', () => {
  it('answers 409 while the first request with the key runs, then replays its answer (multipart)', async () => {
    const key = newKey();
    const before = await importCount();
    const body = multipart({ type: '16' }, { content: 'externalId,name\nC-1,Streamed Co\n' });
    const headers = { ...auth(admin), ...body.headers, 'idempotency-key': key };
    // The first request's body arrives in two pieces; it holds the key while it waits for the rest.
    const stream = new PassThrough();
    const half = Math.floor(body.payload.length / 2);
    stream.write(body.payload.subarray(0, half));
    const first = t.app.inject({ method: 'POST', url: '/api/imports', headers, payload: stream });
    await until(async () => (await keyRow(admin, key))?.state === 'running');

    const concurrent = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers,
      payload: body.payload,
    });
    expectProblem(concurrent, 409, 'idempotency_key_in_use');

    stream.end(body.payload.subarray(half));
    const answered = await first;
    expect(answered.statusCode, answered.body).toBe(201);

    // The same parts sent again under another boundary: the stored answer.
    const resent = multipart({ type: '16' }, { content: 'externalId,name\nC-1,Streamed Co\n' });
    expect(resent.boundary).not.toBe(body.boundary);
    const retry = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...auth(admin), ...resent.headers, 'idempotency-key': key },
      payload: resent.payload,
    });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(answered.json().id);
    expect(await importCount()).toBe(before + 1);

    // Other parts under that key: 422.
    const changed = multipart({ type: '16' }, { content: 'externalId,name\nC-2,Other Co\n' });
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...auth(admin), ...changed.headers, 'idempotency-key': key },
      payload: changed.payload,
    });
    expectProblem(mismatch, 422, 'idempotency_key_reused');
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'on PostgreSQL: a JSON create held by a lock answers the second request 409',
    async () => {
      const key = newKey();
      const client = await t.app.ctx.database.pool!.connect();
      try {
        await client.query('begin');
        await client.query('lock table companies in share mode');
        const first = post(admin, '/api/companies', { name: 'Locked Co' }, key);
        await until(async () => (await keyRow(admin, key))?.state === 'running');
        const second = await post(admin, '/api/companies', { name: 'Locked Co' }, key);
        expectProblem(second, 409, 'idempotency_key_in_use');
        expect(second.headers['retry-after']).toBe('1');
        await client.query('commit');
        expect((await first).statusCode).toBe(201);
      } finally {
        await client.query('rollback').catch(() => {});
        client.release();
      }
      expect(await companiesNamed(admin.organisationId, 'Locked Co')).toHaveLength(1);
    },
  );

  it('lets a retry take over a key whose holder died (lock ran out)', async () => {
    const key = newKey();
    await t.app.ctx.db.insert(idempotencyKeys).values({
      organisationId: admin.organisationId,
      userId: admin.userId,
      key,
      fingerprint: null,
      state: 'running',
      attempt: '00000000-0000-4000-8000-000000000000',
      lockedUntil: new Date(clock.getTime() + 1000),
      createdAt: clock,
      expiresAt: new Date(clock.getTime() + 86_400_000),
    });
    expectProblem(
      await post(admin, '/api/companies', { name: 'Orphan Co' }, key),
      409,
      'idempotency_key_in_use',
    );
    clock = new Date(clock.getTime() + 2000);
    const taken = await post(admin, '/api/companies', { name: 'Orphan Co' }, key);
    expect(taken.statusCode).toBe(201);
    expect((await keyRow(admin, key))?.state).toBe('completed');
  });
});

describe('a crash between the commit and the stored answer (probe 3)', () => {
  /**
   * Fault injection in the database: for keys named `crash-...`, storing the answer and releasing
   * the key both fail, so after the create commits the key row stays exactly as the creating
   * request left it, as when its node dies between the commit and the answer's own statement.
   */
  async function withLostAnswers(run: () => Promise<void>) {
    await t.app.ctx.database.query(`
      create or replace function idempotency_fault() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          if old.key like 'crash-%' then raise exception 'fault injected: the node is gone'; end if;
          return old;
        end if;
        if new.key like 'crash-%' and new.state = 'completed' then
          raise exception 'fault injected: the node is gone';
        end if;
        return new;
      end $$`);
    await t.app.ctx.database.query(
      'create trigger idempotency_fault before update or delete on idempotency_keys ' +
        'for each row execute function idempotency_fault()',
    );
    try {
      await run();
    } finally {
      await t.app.ctx.database.query('drop trigger idempotency_fault on idempotency_keys');
      await t.app.ctx.database.query('drop function idempotency_fault()');
    }
  }
  const afterTheLock = () =>
    new Date(clock.getTime() + (t.app.ctx.config.idempotency.lockSeconds + 1) * 1000);

  it('does not create the record again on a retry once the lock ran out', async () => {
    await withLostAnswers(async () => {
      const key = `crash-${newKey()}`;
      const body = { name: 'Crashed After Commit Co' };
      const first = await post(admin, '/api/companies', body, key);
      expect(first.statusCode).toBe(201);
      const created = await companiesNamed(admin.organisationId, body.name);
      expect(created).toHaveLength(1);

      // The node is gone; its lock on the key runs out; the client retries (on another node).
      clock = afterTheLock();
      const retried = await post(admin, '/api/companies', body, key);
      expectProblem(retried, 409, 'idempotency_answer_lost');
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.json().detail).toContain(created[0]!.id);
      expect(await companiesNamed(admin.organisationId, body.name)).toHaveLength(1);
      // Another body under that key is still refused as a reuse.
      expectProblem(
        await post(admin, '/api/companies', { name: 'Other' }, key),
        422,
        'idempotency_key_reused',
      );
    });
  });

  it('covers the writes that record no event: a webhook test event and a delivery replay', async () => {
    const hook = await post(admin, '/api/webhooks', {
      name: 'Crash hook',
      url: 'http://127.0.0.1:9/hook',
      events: ['event.companies.created'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const id = hook.json().id as string;
    const deliveries = async () =>
      (await t.app.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, id))).length;
    await withLostAnswers(async () => {
      const testKey = `crash-${newKey()}`;
      const sent = await post(admin, `/api/webhooks/${id}/test`, undefined, testKey);
      expect(sent.statusCode, sent.body).toBe(202);
      const replayKey = `crash-${newKey()}`;
      const replayUrl = `/api/webhooks/${id}/deliveries/${sent.json().id}/replay`;
      expect((await post(admin, replayUrl, undefined, replayKey)).statusCode).toBe(202);
      expect(await deliveries()).toBe(2);

      clock = afterTheLock();
      expectProblem(
        await post(admin, `/api/webhooks/${id}/test`, undefined, testKey),
        409,
        'idempotency_answer_lost',
      );
      expectProblem(await post(admin, replayUrl, undefined, replayKey), 409, 'idempotency_answer_lost');
      expect(await deliveries()).toBe(2);
    });
  });

  it('does not commit the create of a request whose key was taken over (its lock ran out)', async () => {
    const key = newKey();
    const before = await importCount();
    const body = multipart({ type: '16' }, { content: 'externalId,name\nS-1,Slow Co\n' });
    const headers = { ...auth(admin), ...body.headers, 'idempotency-key': key };
    // The first request holds the key while its body is slow to arrive; its lock runs out.
    const stream = new PassThrough();
    const half = Math.floor(body.payload.length / 2);
    stream.write(body.payload.subarray(0, half));
    const slow = t.app.inject({ method: 'POST', url: '/api/imports', headers, payload: stream });
    await until(async () => (await keyRow(admin, key))?.state === 'running');
    clock = afterTheLock();
    const taker = await t.app.inject({ method: 'POST', url: '/api/imports', headers, payload: body.payload });
    expect(taker.statusCode, taker.body).toBe(201);

    stream.end(body.payload.subarray(half));
    expectProblem(await slow, 409, 'idempotency_key_in_use');
    expect(await importCount()).toBe(before + 1);
    const retry = await t.app.inject({ method: 'POST', url: '/api/imports', headers, payload: body.payload });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(taker.json().id);
  });
});

describe('which operations', () => {
  it('documents the header on create operations only, with their 409 and 422', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const operations = new Map<string, Json>();
    for (const methods of Object.values(document.paths as Record<string, Record<string, Json>>))
      for (const [method, operation] of Object.entries(methods))
        operations.set(operation.operationId, { ...operation, method });
    const hasHeader = (id: string) =>
      ((operations.get(id)?.parameters ?? []) as Json[]).some(
        (p) => p.in === 'header' && p.name === 'idempotency-key',
      );
    for (const id of [
      'createCompany',
      'createContact',
      'createBrief',
      'createBriefAsync',
      'createQuote',
      'createOrder',
      'createOrderItem',
      'addOrderItems',
      'createImport',
      'createWebhook',
      'createArticle',
      'createProject',
      'createUser',
      'convertQuoteToOrder',
    ]) {
      expect(hasHeader(id), id).toBe(true);
      expect(Object.keys(operations.get(id)?.responses ?? {}), id).toEqual(
        expect.arrayContaining(['409', '422']),
      );
    }
    for (const id of ['signIn', 'createAccessToken', 'createQuoteGuestLink', 'acceptQuote', 'listCompanies'])
      expect(hasHeader(id), id).toBe(false);
  });

  it('ignores the header where the answer carries a secret kept as a hash (access tokens)', async () => {
    const key = newKey();
    const url = `/api/access-token/user/${admin.userId}`;
    const first = await post(admin, url, { name: 'ERP' }, key);
    const second = await post(admin, url, { name: 'ERP' }, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().id).not.toBe(first.json().id);
    expect(await keyRow(admin, key)).toBeUndefined();
  });

  it('serves the unprefixed aliases too (POST /orders)', async () => {
    const key = newKey();
    const body = { externalId: `alias-${key}`, billedAmount: 10 };
    const first = await post(admin, '/orders', body, key);
    const second = await post(admin, '/orders', body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
  });

  it('schedules the sweep of expired keys', async () => {
    const schedules = await t.app.ctx.jobs.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain(IDEMPOTENCY_SWEEP_JOB);
  });

  it('replays the 202 of POST /briefs/async: one brief, priced once', async () => {
    const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    const idOf = (list: { id: string; code: string }[], code: string) =>
      list.find((r) => r.code === code)!.id;
    const [company] = await t.app.ctx.db
      .insert(companies)
      .values({ organisationId: admin.organisationId, name: 'Brief Buyer' })
      .returning();
    const body = {
      name: 'Idempotent tea box',
      companyId: company!.id,
      briefElements: [
        {
          position: 0,
          productId: idOf(catalogue.products, 'STE'),
          lengthDimension: 120,
          widthDimension: 40,
          heightDimension: 180,
          materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
          wantDecoration: true,
          sidePrinted: 'RECTO',
          rectoColorCount: 4,
          versoColorCount: 0,
        },
      ],
    };
    const key = newKey();
    const first = await post(admin, '/api/briefs/async', body, key);
    expect(first.statusCode, first.body).toBe(202);
    const second = await post(admin, '/api/briefs/async', body, key);
    expect(second.statusCode).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
    const rows = await t.app.ctx.db.select().from(briefs).where(eq(briefs.name, body.name));
    expect(rows).toHaveLength(1);
  });
});

describe('several nodes', () => {
  it('answers a retry on another node (another app on the same database) from the stored answer', async () => {
    const other = await buildApp({
      config: testConfig(),
      database: t.app.ctx.database,
      runWorkers: false,
      logger: false,
      now: () => clock,
      lazySchemas: true,
    });
    try {
      const key = newKey();
      const first = await post(admin, '/api/companies', { name: 'Two Nodes Co' }, key);
      expect(first.statusCode).toBe(201);
      const retried = await other.inject({
        method: 'POST',
        url: '/api/companies',
        headers: { ...auth(admin), 'idempotency-key': key },
        payload: { name: 'Two Nodes Co' },
      });
      expect(retried.statusCode).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.body).toBe(first.body);
      expect(await companiesNamed(admin.organisationId, 'Two Nodes Co')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('MultipartHasher', () => {
  it('gives the same digest whatever the boundary and however the body is cut', () => {
    const a = multipart({ type: '16' }, { content: 'x'.repeat(1000) });
    const b = multipart({ type: '16' }, { content: 'x'.repeat(1000) });
    const digest = (body: typeof a, cut: number) => {
      const hasher = new MultipartHasher('p', body.boundary);
      for (let i = 0; i < body.payload.length; i += cut) hasher.push(body.payload.subarray(i, i + cut));
      return hasher.digest();
    };
    const reference = digest(a, a.payload.length);
    for (const cut of [1, 3, 7, 50, 333]) {
      expect(digest(a, cut)).toBe(reference);
      expect(digest(b, cut)).toBe(reference);
    }
    const c = multipart({ type: '17' }, { content: 'x'.repeat(1000) });
    expect(digest(c, 5)).not.toBe(reference);
  });
});
