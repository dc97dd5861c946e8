/**
 * Fault suite: kill -9 of a service process between the commit of a create and the statement that
 * stores the answer of its Idempotency-Key (probe 3 of issue 23). The test holds that statement in
 * a database trigger and kills the process while it waits; a retry with the same key on a new
 * process, once the dead request's lock ran out, must not create the record a second time.
 * PostgreSQL only: there the test can watch the service's statement and end its connection; on
 * PGlite the database lives inside the killed process (test/platform/idempotency.test.ts covers the same
 * path on both databases with a fault injected in process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { until } from '../fixtures/imports.ts';
import { TEST_DATABASE_URL } from '../helpers/pg-admin.ts';
import {
  ADMIN,
  client,
  createServiceStore,
  type ServiceProcess,
  type ServiceStore,
  signInOver,
  startService,
} from '../helpers/service-process.ts';

const LOCK_SECONDS = 5;
const env = { IDEMPOTENCY_LOCK_SECONDS: String(LOCK_SECONDS) };

describe.skipIf(!TEST_DATABASE_URL)('kill -9 between a create and its stored idempotent answer', () => {
  let store: ServiceStore;
  let db: Database;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    store = await createServiceStore();
    db = await store.open();
    // Storing the first answer of a `crash-...` key waits (until the test ends the connection).
    await db.query('create sequence hold_idempotent_answer_once');
    await db.query(`
      create function hold_idempotent_answer() returns trigger language plpgsql as $$
      begin
        if new.key like 'crash-%' and new.state = 'completed'
          and nextval('hold_idempotent_answer_once') = 1 then
          perform pg_sleep(600);
        end if;
        return new;
      end $$`);
    await db.query(
      'create trigger hold_idempotent_answer before update on idempotency_keys ' +
        'for each row execute function hold_idempotent_answer()',
    );
  });
  afterAll(async () => {
    await service?.crash();
    await db?.close();
    await store.drop();
  });

  /** The service's statement storing the answer, waiting in the trigger. */
  const heldStatements = async () =>
    (
      await db.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep' and query ilike '%idempotency_keys%'`,
      )
    ).rows;
  const companiesNamed = async (name: string) =>
    (await db.query('select id from companies where name = $1 and deleted_at is null', [name])).rows;

  it('answers the retry without creating the record again', { timeout: 180_000 }, async () => {
    service = await startService(store, env);
    const base = () => service!.url;
    const root = client(base, await signInOver(base, ADMIN.email, ADMIN.password));
    const email = `admin-${Date.now()}@fault.local`;
    const organisation = await root('POST', '/api/organisations', {
      name: 'Killed idempotency',
      admin: { email, password: 'fault-admin-password' },
    });
    expect(organisation.status, organisation.text).toBe(201);
    const admin = client(base, await signInOver(base, email, 'fault-admin-password'));

    const key = `crash-${Date.now()}`;
    const body = { name: 'Killed Between Commit And Answer' };
    const first = admin('POST', '/api/companies', body, { 'idempotency-key': key }).catch(() => undefined);
    await until(async () => (await heldStatements()).length > 0, 30_000);
    expect(await companiesNamed(body.name)).toHaveLength(1);
    await service.crash();
    expect(await first).toBeUndefined(); // no answer reached the client
    // PostgreSQL notices the dead client when it next reads from it; here at once.
    for (const { pid } of await heldStatements()) await db.query('select pg_terminate_backend($1)', [pid]);

    service = await startService(store, env);
    // Until the dead request's lock runs out the key is still in use; then the retry is answered.
    const retried = await until(async () => {
      const answer = await admin('POST', '/api/companies', body, { 'idempotency-key': key });
      return answer.json?.code !== 'idempotency_key_in_use' && answer;
    }, 30_000);
    expect(retried.status, retried.text).toBe(409);
    expect(retried.json.code).toBe('idempotency_answer_lost');
    const created = await companiesNamed(body.name);
    expect(created).toHaveLength(1);
    expect(retried.json.detail).toContain(created[0]!.id);
  });
});
