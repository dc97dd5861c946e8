import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { insertFile } from '../../src/modules/files/repository.ts';
import {
  findRealRun,
  IMPORT_PAGE,
  initialStats,
  insertImport,
  listImports,
  nextImportCode,
  updateImport,
} from '../../src/modules/imports/repository.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let a: Credentials;
let b: Credentials;
const db = () => t.app.ctx.db;

/** A new import of the organisation, numbered by nextImportCode, with its CSV file when named. */
function newImport(organisationId: string, options: { filename?: string; fromDryRunId?: string } = {}) {
  return db().transaction(async (tx) => {
    const id = randomUUID();
    const file = options.filename
      ? await insertFile(
          tx,
          {
            organisationId,
            entity: 'import',
            entityId: id,
            filename: options.filename,
            mimeType: 'text/csv',
            size: 1,
            sha256: 'x'.repeat(64),
          },
          Buffer.from('x'),
        )
      : undefined;
    return insertImport(tx, {
      id,
      organisationId,
      code: await nextImportCode(tx, organisationId),
      type: '1',
      delimiter: ',',
      fileId: file?.id,
      fromDryRunId: options.fromDryRunId,
      stats: initialStats(),
    });
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeOrganisation(t);
  b = await makeOrganisation(t);
});
afterAll(() => t?.close());

describe('imports repository', () => {
  it('numbers the imports of each organisation from 1', async () => {
    const first = await newImport(a.organisationId);
    const second = await newImport(a.organisationId);
    const other = await newImport(b.organisationId);
    expect([first.code, second.code, other.code]).toEqual([1, 2, 1]);
  });

  it("lists one organisation's unarchived imports, searched by code or file name", async () => {
    const org = await makeOrganisation(t);
    const customers = await newImport(org.organisationId, { filename: 'Customers_2026.csv' });
    const prices = await newImport(org.organisationId, { filename: 'prices.csv' });
    const archived = await newImport(org.organisationId, { filename: 'customers-old.csv' });
    await updateImport(db(), archived.id, { deletedAt: new Date() });
    await newImport(a.organisationId, { filename: 'customers.csv' });

    const page = resolvePage({ sort: 'code,ASC' }, IMPORT_PAGE);
    const all = await listImports(db(), org.organisationId, {}, page);
    expect(all).toMatchObject({ total: 2, rows: [{ id: customers.id }, { id: prices.id }] });
    const byName = await listImports(db(), org.organisationId, { term: 'customers_' }, page);
    expect(byName.rows.map((row) => row.id)).toEqual([customers.id]);
    const byCode = await listImports(db(), org.organisationId, { term: String(prices.code) }, page);
    expect(byCode.rows.map((row) => row.id)).toContain(prices.id);
    const requested = await listImports(db(), org.organisationId, { statuses: [IMPORT_STATUS.DONE] }, page);
    expect(requested.total).toBe(0);
  });

  it('finds the real run of a dry run within the organisation when asked', async () => {
    const dry = await newImport(a.organisationId);
    const real = await newImport(a.organisationId, { fromDryRunId: dry.id });
    expect((await findRealRun(db(), dry.id))?.id).toBe(real.id);
    expect((await findRealRun(db(), dry.id, a.organisationId))?.id).toBe(real.id);
    expect(await findRealRun(db(), dry.id, b.organisationId)).toBeUndefined();
  });
});
