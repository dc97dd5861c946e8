/**
 * Exports beyond the node's replay (test/platform/hipe-compat.test.ts): custom field columns, and the
 * recovery of exports left behind by a crash. The job is driven by hand (service.run), the sweep
 * called directly with the time it runs at.
 */
import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exports } from '../../src/db/schema/exports.ts';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { events } from '../../src/db/schema/platform.ts';
import { exportsModule } from '../../src/modules/exports/module.ts';
import { createExportRecovery } from '../../src/modules/exports/recovery.ts';
import { EXPORT_ATTEMPTS, EXPORT_STALE_AFTER_MS } from '../../src/modules/exports/service.ts';
import { runImport } from '../fixtures/imports.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';
import { caller } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
});
afterAll(() => t.close());

const call = caller(() => t);

async function requestExport(who: Credentials, type: number) {
  const response = await call(who, 'POST', '/api/exports', { type });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}
const service = () => exportsModule.services(t.app.ctx).exports;
const rowOf = async (id: string) => (await t.app.ctx.db.select().from(exports).where(eq(exports.id, id)))[0]!;
/** Makes the export look as it would after a crash `ago` ms ago, in `status`. */
const leave = (id: string, status: number, ago: number, attempts = 0) =>
  t.app.ctx.db
    .update(exports)
    .set({ status, attempts, updatedAt: new Date(Date.now() - ago) })
    .where(eq(exports.id, id));

describe('export CSV: custom field columns', () => {
  it('writes one cf.<key> column per live definition of the entity, as the import reads it', async () => {
    for (const field of [
      { key: 'segment', type: 'select', options: ['retail', 'industry'] },
      { key: 'tags', type: 'multi-select', options: ['a', 'b', 'c'] },
      { key: 'vip', type: 'boolean' },
    ]) {
      const created = await call(admin, 'POST', '/api/custom-fields', {
        entity: 'company',
        label: field.key,
        ...field,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const company = await call(admin, 'POST', '/api/companies', {
      name: 'Acme',
      externalId: 'ACME',
      customFields: { segment: 'retail', tags: ['a', 'c'], vip: true },
    });
    expect(company.statusCode, company.body).toBe(201);
    await call(admin, 'POST', '/api/companies', { name: 'Bare', externalId: 'BARE' });
    const id = await requestExport(admin, 16);
    await service().run(id);
    const download = await call(admin, 'GET', `/api/exports/${id}/download`);
    expect(download.statusCode).toBe(200);
    const [header, ...rows] = parse(download.body) as string[][];
    expect(header!.slice(-3)).toEqual(['cf.segment', 'cf.tags', 'cf.vip']);
    const byName = new Map(rows.map((r) => [r[1], r.slice(-3)]));
    expect(byName.get('Acme')).toEqual(['retail', 'a|c', 'true']);
    expect(byName.get('Bare')).toEqual(['', '', '']);
    // Another tenant's definitions are not its columns.
    const theirs = await requestExport(other, 16);
    await service().run(theirs);
    const [otherHeader] = parse(
      (await call(other, 'GET', `/api/exports/${theirs}/download`)).body,
    ) as string[][];
    expect(otherHeader!.some((c) => c.startsWith('cf.'))).toBe(false);
  });
});

describe('export CSV: formula injection (probe 3)', () => {
  /** Names a spreadsheet would run as a formula (OWASP CSV injection), and their escaped cells. */
  const HOSTILE: Array<[string, string]> = [
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['+SUM(1,2)', "'+SUM(1,2)"],
    ['-2+3+cmd|x', "'-2+3+cmd|x"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ["'=already quoted", "''=already quoted"],
    ["Plain O'Brien", "Plain O'Brien"],
  ];

  async function organisationWithFields() {
    const who = await makeOrganisation(t);
    for (const field of [
      { key: 'score', type: 'number' },
      { key: 'note', type: 'string' },
    ]) {
      const created = await call(who, 'POST', '/api/custom-fields', {
        entity: 'company',
        label: field.key,
        ...field,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    return who;
  }

  async function exportCompanies(who: Credentials) {
    const id = await requestExport(who, 16);
    await service().run(id);
    const download = await call(who, 'GET', `/api/exports/${id}/download`);
    expect(download.statusCode).toBe(200);
    return download.body;
  }

  it("prefixes text cells starting with = + - @ tab or CR with ', and leaves numbers as numbers", async () => {
    const who = await organisationWithFields();
    const names = [...HOSTILE.map(([name]) => name), '\tTabbed', '\rReturned'];
    for (const [i, name] of names.entries()) {
      const created = await call(who, 'POST', '/api/companies', {
        name,
        externalId: `F${i}`,
        phoneNumber: '+33 1 23 45 67 89',
        customFields: { score: -12.5, note: '=1+2' },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const [header, ...rows] = parse(await exportCompanies(who)) as string[][];
    const column = (name: string) => header!.indexOf(name);
    const byKey = new Map(rows.map((row) => [row[column('externalId')], row]));
    for (const [i, [, cell]] of HOSTILE.entries()) {
      expect(byKey.get(`F${i}`)![column('name')]).toBe(cell);
    }
    expect(byKey.get(`F${HOSTILE.length}`)![column('name')]).toBe("'\tTabbed");
    expect(byKey.get(`F${HOSTILE.length + 1}`)![column('name')]).toBe("'\rReturned");
    for (const row of rows) {
      expect(row[column('phoneNumber')]).toBe("'+33 1 23 45 67 89");
      expect(row[column('cf.note')]).toBe("'=1+2");
      // A number column: a negative number is a number, not a formula, and stays one.
      expect(row[column('cf.score')]).toBe('-12.5');
    }
    // No cell of the file starts with a formula character.
    for (const row of rows) {
      for (const [index, cell] of row.entries()) {
        if (index !== column('cf.score')) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });

  it('imports an exported file back as it was: the escaping quote is dropped, once', async () => {
    const who = await organisationWithFields();
    for (const [i, [name]] of HOSTILE.entries()) {
      const created = await call(who, 'POST', '/api/companies', {
        name,
        externalId: `R${i}`,
        vatNumber: '-VAT-1',
        customFields: { score: -12.5, note: '@note' },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const record = await runImport(t.app, who, await exportCompanies(who));
    expect(record.stats).toMatchObject({ rowsTotal: HOSTILE.length, unchanged: HOSTILE.length, failed: 0 });
    const listed = await call(who, 'GET', '/api/companies?limit=100');
    const companies = (listed.json().data ?? listed.json()) as Array<Record<string, unknown>>;
    expect(companies.map((c) => c.name).sort()).toEqual(HOSTILE.map(([name]) => name).sort());
    for (const company of companies) {
      expect(company).toMatchObject({ vatNumber: '-VAT-1', customFields: { score: -12.5, note: '@note' } });
    }
  });
});

describe('export recovery after a crash', () => {
  it('hands an interrupted export back to the queue, and the next run writes it', async () => {
    const id = await requestExport(admin, 18);
    await leave(id, IMPORT_STATUS.IN_PROGRESS, EXPORT_STALE_AFTER_MS + 60_000);
    expect(await createExportRecovery(t.app.ctx).recover()).toBeGreaterThanOrEqual(1);
    expect(await rowOf(id)).toMatchObject({
      status: IMPORT_STATUS.REQUESTED,
      attempts: 1,
      stats: { reason: expect.stringContaining('interrupted') },
    });
    await service().run(id);
    expect(await rowOf(id)).toMatchObject({ status: IMPORT_STATUS.DONE, fileId: expect.any(String) });
  });

  it('ends in 7 CRASH (with an event) once the interrupted run was its last attempt', async () => {
    const id = await requestExport(admin, 17);
    await leave(id, IMPORT_STATUS.IN_PROGRESS, EXPORT_STALE_AFTER_MS + 60_000, EXPORT_ATTEMPTS - 1);
    await createExportRecovery(t.app.ctx).recover();
    expect(await rowOf(id)).toMatchObject({ status: IMPORT_STATUS.CRASH, attempts: EXPORT_ATTEMPTS });
    const changes = await t.app.ctx.db
      .select()
      .from(events)
      .where(eq(events.entityId, id))
      .orderBy(asc(events.code));
    expect(changes.map((e) => e.type)).toEqual(['CREATE', 'UPDATE']);
    expect((await call(admin, 'GET', `/api/exports/${id}`)).json()).toMatchObject({
      status: 7,
      statusName: 'CRASH',
    });
    // A crashed export is not run again.
    await service().run(id);
    expect((await rowOf(id)).status).toBe(IMPORT_STATUS.CRASH);
  });

  it('leaves running and fresh exports alone; a run never takes an export another run holds', async () => {
    const running = await requestExport(admin, 16);
    await leave(running, IMPORT_STATUS.IN_PROGRESS, 60_000);
    const fresh = await requestExport(admin, 16);
    await createExportRecovery(t.app.ctx).recover();
    expect(await rowOf(running)).toMatchObject({ status: IMPORT_STATUS.IN_PROGRESS, attempts: 0 });
    expect(await rowOf(fresh)).toMatchObject({ status: IMPORT_STATUS.REQUESTED, attempts: 0 });
    // A second run (a pg-boss retry) while the first still holds it: nothing written.
    await service().run(running);
    expect(await rowOf(running)).toMatchObject({ status: IMPORT_STATUS.IN_PROGRESS, fileId: null });
  });

  it('queues again a requested export whose job was lost, without counting an attempt', async () => {
    const id = await requestExport(admin, 19);
    await leave(id, IMPORT_STATUS.REQUESTED, 5 * 60_000);
    const before = await rowOf(id);
    expect(await createExportRecovery(t.app.ctx).recover()).toBeGreaterThanOrEqual(1);
    const after = await rowOf(id);
    expect(after).toMatchObject({ status: IMPORT_STATUS.REQUESTED, attempts: 0 });
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    await service().run(id);
    expect((await rowOf(id)).status).toBe(IMPORT_STATUS.DONE);
  });
});
