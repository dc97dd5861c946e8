/**
 * Fault suite: kill -9 of a service process in the middle of a CSV import. The service runs in
 * child processes (src/server.ts); the import must resume from its checkpoint within the stale
 * window after the crash (IMPORT_STALE_AFTER_SECONDS, small here) and write every row exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { multipart, until } from '../fixtures/imports.ts';
import {
  ADMIN,
  client,
  createServiceStore,
  type ServiceProcess,
  type ServiceStore,
  signInOver,
  startService,
} from '../helpers/service-process.ts';

const STALE_SECONDS = 10;
const ROWS = 6000;
const env = { IMPORT_STALE_AFTER_SECONDS: String(STALE_SECONDS), IMPORT_BATCH_SIZE: '25' };
const csv = () =>
  `externalId,name\n${Array.from({ length: ROWS }, (_, i) => `K${i},Killed company ${i}`).join('\n')}\n`;

describe('kill -9 during an import', () => {
  let store: ServiceStore;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    store = await createServiceStore();
  });
  afterAll(async () => {
    await service?.crash();
    await store.drop();
  });

  it('resumes within the stale window in a new process, and writes every row exactly once', {
    timeout: 240_000,
  }, async () => {
    service = await startService(store, env);
    const base = () => service!.url;
    const root = client(base, await signInOver(base, ADMIN.email, ADMIN.password));
    const email = `admin-${Date.now()}@fault.local`;
    const organisation = await root('POST', '/api/organisations', {
      name: 'Killed imports',
      admin: { email, password: 'fault-admin-password' },
    });
    expect(organisation.status, organisation.text).toBe(201);
    const admin = client(base, await signInOver(base, email, 'fault-admin-password'));
    const body = multipart({ type: '16' }, { content: csv() });
    const created = await admin('POST', '/api/imports', body.payload, body.headers);
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;

    const read = async () => (await admin('GET', `/api/imports/${id}`)).json;
    await until(async () => (await read()).stats.rowsRead >= 500, 120_000);
    await service.crash();
    const crashedAt = Date.now();

    service = await startService(store, env);
    const startedIn = Date.now() - crashedAt;
    const atCrash = await read();
    expect(atCrash.status).toBe(IMPORT_STATUS.IN_PROGRESS);
    expect(atCrash.stats.rowsRead).toBeLessThan(ROWS);
    // The resume (a new claim: stats.resumed) begins within the stale window of the crash; the
    // new process's own start-up time is not the service's to answer for.
    const resumed = await until(
      async () => {
        const record = await read();
        return (record.stats.resumed ?? 0) >= 1 && record;
      },
      STALE_SECONDS * 1000 + startedIn + 5000,
    );
    expect(resumed.stats.resumed).toBe(1);
    const done = await until(async () => {
      const record = await read();
      return record.status === IMPORT_STATUS.SENT && record;
    }, 120_000);
    expect(done.stats).toMatchObject({
      rowsTotal: ROWS,
      rowsRead: ROWS,
      created: ROWS,
      failed: 0,
      resumed: 1,
    });
    const organisationId = organisation.json.id as string;
    await service.stop();
    service = undefined;

    const database = await store.open();
    try {
      const [counts] = (
        await database.query<{ rows: number; keys: number; events: number }>(
          `select (select count(*)::int from companies where organisation_id = $1 and deleted_at is null) as rows,
                  (select count(distinct external_id)::int from companies where organisation_id = $1) as keys,
                  (select count(*)::int from events where organisation_id = $1 and entity = 'COMPANY' and type = 'CREATE') as events`,
          [organisationId],
        )
      ).rows;
      expect(counts).toEqual({ rows: ROWS, keys: ROWS, events: ROWS });
    } finally {
      await database.close();
    }
  });
});
