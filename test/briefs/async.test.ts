/**
 * POST /briefs/async with real job workers: the spec's polling flow, retries that end FAILED, and
 * pricing that survives a restart of the process (the job is in the database; briefs left without
 * a job are re-queued at start-up).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { briefs, companies } from '../../src/db/schema/index.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { organisationsModule } from '../../src/modules/organisations/module.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  PASSWORD,
  SUPERADMIN,
  signIn,
  type TestApp,
  testConfig,
} from '../helpers/app.ts';
import { carton } from '../helpers/briefs.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { requests } from '../helpers/http.ts';

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function tenant(app: App, admin: Credentials) {
  const catalogue = await loadCatalogue(app.ctx.db, admin.organisationId);
  const [company] = await app.ctx.db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Acme' })
    .returning();
  return { catalogue, companyId: company!.id };
}

describe('the polling flow with POST /briefs/async (workers running)', () => {
  let t: TestApp;
  const http = requests(() => t);
  let admin: Credentials;
  let catalogue: Catalogue;
  let companyId: string;

  beforeAll(async () => {
    t = await buildTestApp({ runWorkers: true });
    admin = await makeOrganisation(t);
    ({ catalogue, companyId } = await tenant(t.app, admin));
  });
  afterAll(() => t.close());

  const get = (url: string) => http.get(admin, url);

  it('create, poll until COMPLETED with a price, then read details, process and value analysis', async () => {
    const created = await http.post(admin, '/briefs/async', {
      name: 'Async tea box',
      companyId,
      briefElements: [carton(catalogue)],
    });
    expect(created.statusCode, created.body).toBe(202);
    const brief = created.json();
    expect(brief).toMatchObject({ predictionStatus: 'PENDING', hasPrice: false, prediction: null });

    const seen = new Set<string>();
    const done = await until(async () => {
      const polled = (await get(`/briefs/${brief.id}`)).json();
      seen.add(polled.predictionStatus);
      return polled.predictionStatus === 'COMPLETED' && polled.hasPrice && polled;
    });
    expect(done).toMatchObject({ currentVersion: 1, currency: 'EUR', failureReason: null });
    expect(done.prediction.totalPrice).toBeGreaterThan(0);
    expect(done.briefElements[0].briefElementPrice.unitPrice).toBeGreaterThan(0);
    expect([...seen].every((s) => ['PENDING', 'IN_PROGRESS', 'COMPLETED'].includes(s))).toBe(true);

    const details = (await get(`/briefs/${brief.id}/details`)).json();
    expect(details.briefPrice.totalPrice).toBe(done.prediction.totalPrice);
    expect(details.briefComputed.briefElements[0].position).toBe(0);
    const process = (await get(`/briefs/${brief.id}/process/0`)).json();
    expect(process.predictionOperationSequence.length).toBeGreaterThan(0);
    expect(process.predictionRequestId).toBe(done.prediction.id);
    const analysis = (await get(`/briefs/${brief.id}/value-analysis`)).json();
    expect(analysis.elements[0].optimisations).toHaveLength(7); // six levers + GANG_RUN (issue 18)
  });

  it('retries an unexpected failure and ends FAILED with a reason, never stuck', async () => {
    await t.app.ctx.database.query(`create or replace function test_refuse_doomed() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from briefs where id = new.brief_id and name = 'Doomed') then raise exception 'disk full'; end if;
        return new;
      end $$`);
    await t.app.ctx.database.query(
      'create trigger test_refuse_doomed before insert on brief_predictions for each row execute function test_refuse_doomed()',
    );
    try {
      const created = await http.post(admin, '/api/briefs/async', {
        name: 'Doomed',
        companyId,
        briefElements: [carton(catalogue)],
      });
      expect(created.statusCode).toBe(202);
      const failed = await until(async () => {
        const polled = (await get(`/api/briefs/${created.json().id}`)).json();
        return polled.predictionStatus === 'FAILED' && polled;
      }, 30_000);
      expect(failed).toMatchObject({ hasPrice: false, failureReason: 'internal error while pricing' });
      const [row] = await t.app.ctx.db.select().from(briefs).where(eq(briefs.id, failed.id));
      expect(row!.predictionAttempts).toBe(3);
    } finally {
      await t.app.ctx.database.query('drop trigger test_refuse_doomed on brief_predictions');
    }
  });
});

describe('background pricing across a restart', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let app: App | undefined;
  const config = testConfig();

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await app?.close();
    await drop();
  });

  it('prices a brief queued before the stop, and re-queues briefs left without a job', {
    timeout: 90_000,
  }, async () => {
    // A process without workers accepts three briefs, then stops.
    let current = await buildApp({ config, database, runWorkers: false, logger: false, lazySchemas: true });
    app = current;
    await organisationsModule.services(current.ctx).organisations.bootstrap();
    const root = await signIn(current, SUPERADMIN.email, SUPERADMIN.password);
    const admin = await makeOrganisation({ app: current, root, close: async () => {} });
    const { catalogue, companyId } = await tenant(current, admin);
    const ids: string[] = [];
    for (const name of ['Queued', 'Lost job', 'Crashed mid-pricing']) {
      const response = await current.inject({
        method: 'POST',
        url: '/api/briefs/async',
        headers: auth(admin),
        payload: { name, companyId, briefElements: [carton(catalogue)] },
      });
      expect(response.statusCode, response.body).toBe(202);
      ids.push(response.json().id);
    }
    await current.close();
    app = undefined;
    // What a crash leaves: the job of the second brief is gone; the third was claimed by a worker
    // that died (IN_PROGRESS) and its job is gone too.
    await database.query(
      `delete from pgboss.job where name = 'briefs.predict' and data->>'briefId' in ($1, $2)`,
      [ids[1], ids[2]],
    );
    await database.db
      .update(briefs)
      .set({ predictionStatus: 'IN_PROGRESS', predictionAttempts: 1 })
      .where(eq(briefs.id, ids[2]!));
    const { rows } = await database.query<{ n: number }>(
      `select count(*)::int n from pgboss.job where name = 'briefs.predict' and state = 'created'`,
    );
    expect(rows[0]!.n).toBe(1);

    // A new process with workers prices all three.
    current = await buildApp({ config, database, runWorkers: true, logger: false, lazySchemas: true });
    app = current;
    const again = await signIn(current, admin.email, PASSWORD);
    for (const id of ids) {
      const done = await until(async () => {
        const polled = (
          await current.inject({ method: 'GET', url: `/api/briefs/${id}`, headers: auth(again) })
        ).json();
        return polled.predictionStatus === 'COMPLETED' && polled.hasPrice && polled;
      });
      expect(done.currentVersion).toBe(1);
    }
    await current.close();
    app = undefined;
  });
});
