import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exports } from '../../src/db/schema/exports.ts';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { claimExport, listExports, updateExport } from '../../src/modules/exports/repository.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let a: Credentials;
let b: Credentials;
const db = () => t.app.ctx.db;

async function exportRow(organisationId: string, values: Partial<typeof exports.$inferInsert> = {}) {
  const [row] = await db()
    .insert(exports)
    .values({
      organisationId,
      type: '1',
      stats: { rows: null, startedAt: null, finishedAt: null },
      ...values,
    })
    .returning();
  return row!;
}

const MINUTE = 60_000;
const ALL = { statuses: [], start: null, end: null };
const FIRST_PAGE = { limit: 50, offset: 0 };

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeOrganisation(t);
  b = await makeOrganisation(t);
});
afterAll(() => t?.close());

describe('exports repository', () => {
  it('claims a requested export once, and an in-progress one only once it is stale', async () => {
    const now = new Date();
    const staleBefore = new Date(now.getTime() - 15 * MINUTE);
    const requested = await exportRow(a.organisationId);
    expect((await claimExport(db(), requested.id, now, staleBefore))?.status).toBe(IMPORT_STATUS.IN_PROGRESS);
    expect(await claimExport(db(), requested.id, now, staleBefore)).toBeUndefined();

    const interrupted = await exportRow(a.organisationId, {
      status: IMPORT_STATUS.IN_PROGRESS,
      updatedAt: new Date(now.getTime() - 20 * MINUTE),
    });
    expect((await claimExport(db(), interrupted.id, now, staleBefore))?.updatedAt).toEqual(now);

    const done = await exportRow(a.organisationId, { status: IMPORT_STATUS.DONE });
    expect(await claimExport(db(), done.id, now, staleBefore)).toBeUndefined();
  });

  it("lists one organisation's live, unarchived exports in the asked order, ties by id", async () => {
    const at = new Date('2026-01-02T10:00:00Z');
    const older = await exportRow(b.organisationId, { createdAt: new Date('2026-01-01T10:00:00Z') });
    const tieOne = await exportRow(b.organisationId, { createdAt: at, type: '2' });
    const tieTwo = await exportRow(b.organisationId, { createdAt: at });
    const archived = await exportRow(b.organisationId);
    await updateExport(db(), archived.id, { archivedAt: new Date() });
    await exportRow(b.organisationId, { deletedAt: new Date() });
    await exportRow(a.organisationId);

    const ids = [tieOne.id, tieTwo.id].sort();
    const ascending = await listExports(
      db(),
      b.organisationId,
      ALL,
      { field: 'createdAt', ascending: true },
      FIRST_PAGE,
    );
    expect(ascending.rows.map((row) => row.id)).toEqual([older.id, ...ids]);
    expect(ascending.total).toBe(3);
    const descending = await listExports(
      db(),
      b.organisationId,
      ALL,
      { field: 'createdAt', ascending: false },
      FIRST_PAGE,
    );
    expect(descending.rows.map((row) => row.id)).toEqual([...ids, older.id]);

    const ofType = await listExports(
      db(),
      b.organisationId,
      { ...ALL, type: '2' },
      { field: 'createdAt', ascending: true },
      FIRST_PAGE,
    );
    expect(ofType.rows.map((row) => row.id)).toEqual([tieOne.id]);
    const paged = await listExports(
      db(),
      b.organisationId,
      ALL,
      { field: 'createdAt', ascending: true },
      {
        limit: 1,
        offset: 1,
      },
    );
    expect(paged).toMatchObject({ rows: [{ id: ids[0] }], total: 3 });
  });
});
