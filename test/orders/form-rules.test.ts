import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { importsModule } from '../../src/modules/imports/module.ts';
import { runImport, upload } from '../fixtures/imports.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';
import { caller, created, expectProblem } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
const call = caller(() => t);

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
});
afterAll(async () => {
  await t?.close();
});

describe('order dates in order (issue 26)', () => {
  it('refuses a delivery before the order date on create and update, with a pointer', async () => {
    const late = await call(admin, 'POST', '/api/orders', {
      billedAmount: 10,
      orderDate: '2026-03-10',
      expectedDeliveryDate: '2026-03-01',
    });
    const problem = expectProblem(late, 400, 'dates_out_of_order');
    expect(problem.errors?.[0]).toMatchObject({
      pointer: '/expectedDeliveryDate',
      keyword: 'dateOrder',
      params: { after: 'orderDate' },
    });

    const order = await created(
      await call(admin, 'POST', '/api/orders', {
        billedAmount: 10,
        orderDate: '2026-03-10',
        expectedDeliveryDate: '2026-03-10T08:00:00Z',
      }),
    );
    // The sent date against the stored one.
    const actual = await call(admin, 'PATCH', `/api/orders/${order.id}`, {
      actualDeliveryDate: '2026-03-09',
    });
    expect(expectProblem(actual, 400, 'dates_out_of_order').errors?.[0]?.pointer).toBe('/actualDeliveryDate');
    const moved = await call(admin, 'PATCH', `/api/orders/${order.id}`, { orderDate: '2026-04-01' });
    expect(expectProblem(moved, 400, 'dates_out_of_order').errors?.[0]?.pointer).toBe(
      '/expectedDeliveryDate',
    );
    // Nothing changed.
    const read = (await call(admin, 'GET', `/api/orders/${order.id}`)).json();
    expect(read.orderDate).toContain('2026-03-10');
    expect(read.actualDeliveryDate).toBeNull();
    // Clearing the order date lifts the rule; a later delivery is fine.
    expect(
      (await call(admin, 'PATCH', `/api/orders/${order.id}`, { actualDeliveryDate: '2026-03-12' }))
        .statusCode,
    ).toBe(200);
    // Another tenant's order stays 404.
    expect(
      (await call(other, 'PATCH', `/api/orders/${order.id}`, { orderDate: '2026-01-01' })).statusCode,
    ).toBe(404);
  });

  it('refuses such a row in an order import', async () => {
    const record = await runImport(
      t.app,
      admin,
      'externalId,billedAmount,orderDate,expectedDeliveryDate\nO-1,5,2026-05-02,2026-05-01\nO-2,5,2026-05-01,2026-05-02\n',
      { type: 'orders' },
    );
    expect(record.stats.created).toBe(1);
    expect(record.stats.failed).toBe(1);
    expect(record.stats.errors[0]).toMatchObject({ row: 2, column: 'expectedDeliveryDate' });
  });
});

describe('an empty contact (issue 26)', () => {
  it('is refused on create and when an update empties it', async () => {
    const empty = await call(admin, 'POST', '/api/users/contacts', {});
    const problem = expectProblem(empty, 400, 'empty_contact');
    expect(problem.errors?.map((e) => e.pointer)).toContain('/lastName');
    const blanks = await call(admin, 'POST', '/api/users/contacts', {
      firstName: '  ',
      collaborationIds: [],
    });
    expectProblem(blanks, 400, 'empty_contact');

    const contact = await created(await call(admin, 'POST', '/api/users/contacts', { lastName: 'Martin' }));
    const emptied = await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, { lastName: null });
    expectProblem(emptied, 400, 'empty_contact');
    const renamed = await call(admin, 'PATCH', `/api/users/contacts/${contact.id}`, {
      lastName: null,
      phoneNumber: '+33 1 23 45 67 89',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});

describe('run a dry run for real (issue 26)', () => {
  const csv = 'externalId,name\nRR-1,Real One\nRR-2,Real Two\n';

  it('starts a real run from the dry run without a new upload, once', async () => {
    const dry = await runImport(t.app, admin, csv, { dryRun: true });
    expect(dry.status).toBe(IMPORT_STATUS.SENT);
    expect(dry.stats.created).toBe(2);
    // A dry run not yet run for real says so: "Run for real" is offered.
    expect((await call(admin, 'GET', `/api/imports/${dry.id}`)).json().realRunId).toBeNull();
    const before = (await call(admin, 'GET', '/api/companies?s={"externalId":"RR-1"}')).json();
    expect(before).toHaveLength(0);

    const run = await call(admin, 'POST', `/api/imports/${dry.id}/run`);
    const real = await created(run);
    expect(real).toMatchObject({
      dryRun: false,
      fromDryRunId: dry.id,
      type: dry.type,
      status: IMPORT_STATUS.REQUESTED,
    });
    expect(real.fileId).not.toBe(dry.fileId);
    await importsModule.services(t.app.ctx).processor.run(real.id);
    const done = (await call(admin, 'GET', `/api/imports/${real.id}`)).json();
    expect(done.status).toBe(IMPORT_STATUS.SENT);
    expect(done.stats.created).toBe(2);
    expect((await call(admin, 'GET', '/api/companies?s={"externalId":"RR-1"}')).json()).toHaveLength(1);

    expectProblem(await call(admin, 'POST', `/api/imports/${dry.id}/run`), 409, 'dry_run_already_run');
    // The dry run names its real run (the app links to it and no longer offers "Run for real").
    expect((await call(admin, 'GET', `/api/imports/${dry.id}`)).json().realRunId).toBe(real.id);
    expect((await call(admin, 'GET', `/api/imports/${real.id}`)).json()).not.toHaveProperty('realRunId');
    // The dry run's file can be archived without harming the real run's copy.
    expect((await call(admin, 'PATCH', `/api/imports/${dry.id}/archive`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/api/imports/${real.id}/download`)).body).toContain('RR-2');
  });

  it('refuses a real import, an unfinished dry run, an archived one, another tenant and other roles', async () => {
    const real = await runImport(t.app, admin, 'externalId,name\nRR-3,Three\n');
    expectProblem(await call(admin, 'POST', `/api/imports/${real.id}/run`), 409, 'import_not_runnable');

    const waiting = await created(
      await upload(t.app, admin, 'externalId,name\nRR-4,Four\n', { dryRun: true }),
    );
    expectProblem(await call(admin, 'POST', `/api/imports/${waiting.id}/run`), 409, 'import_not_runnable');

    const archived = await runImport(t.app, admin, 'externalId,name\nRR-5,Five\n', { dryRun: true });
    await call(admin, 'PATCH', `/api/imports/${archived.id}/archive`);
    expectProblem(await call(admin, 'POST', `/api/imports/${archived.id}/run`), 404, 'not_found');

    const dry = await runImport(t.app, admin, 'externalId,name\nRR-6,Six\n', { dryRun: true });
    expectProblem(await call(other, 'POST', `/api/imports/${dry.id}/run`), 404, 'not_found');
    const sales = await makeUser(t, admin, 'sales');
    expectProblem(await call(sales, 'POST', `/api/imports/${dry.id}/run`), 403, 'forbidden');
    expectProblem(await call(undefined, 'POST', `/api/imports/${dry.id}/run`), 401);
    expect(auth(admin)).toBeTruthy();
  });
});
