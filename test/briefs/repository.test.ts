/**
 * The briefs repository's writes on the real database (PGlite, or PostgreSQL with DATABASE_URL):
 * a brief and its elements written by one statement, and the soft deletes that touch live rows only.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { briefCode } from '../../src/modules/briefs/mapping.ts';
import {
  allocateCodeNumber,
  findBriefRow,
  insertBriefWithElements,
  liveElementsOf,
  softDeleteLiveElementsOf,
  updateBrief,
  updateElement,
} from '../../src/modules/briefs/repository.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { insertCompany } from '../../src/modules/companies/repository.ts';
import type { Actor } from '../../src/platform/actor.ts';
import type { Credentials, TestApp } from '../helpers/app.ts';
import { carton } from '../helpers/briefs.ts';
import { requests } from '../helpers/http.ts';
import { buildTwoTenants } from '../helpers/tenants.ts';

describe('briefs repository', () => {
  let t: TestApp;
  const http = requests(() => t);
  let db: Db;
  let admin: Actor;
  let other: Actor;
  let credentials: Credentials;
  let briefId: string;

  beforeAll(async () => {
    ({ t, db, admin, other, credentials } = await buildTwoTenants());
    const catalogue = await loadCatalogue(db, admin.organisationId);
    const company = await insertCompany(db, { organisationId: admin.organisationId, name: 'Acme' });
    const created = await http.post(credentials, '/api/briefs', {
      name: 'Tea box',
      companyId: company.id,
      briefElements: [carton(catalogue, { position: 1, quantity: 2000 }), carton(catalogue)],
    });
    expect(created.statusCode, created.body).toBe(201);
    briefId = created.json().id;
  });
  afterAll(() => t.close());

  it('writes a brief and its elements in one statement; they read back in position order', async () => {
    const source = (await findBriefRow(db, admin.organisationId, briefId))!;
    const elements = await liveElementsOf(db, briefId);
    const codeNumber = await allocateCodeNumber(db, admin.organisationId);
    const id = uuidv7();
    const copies = [...elements].reverse().map((e) => ({ ...e, id: uuidv7(), briefId: id }));
    await insertBriefWithElements(
      db,
      { ...source, id, codeNumber, code: briefCode(codeNumber), name: 'Copy' },
      copies,
      undefined,
    );
    expect((await findBriefRow(db, admin.organisationId, id))?.name).toBe('Copy');
    expect(await findBriefRow(db, other.organisationId, id)).toBeUndefined();
    const read = await liveElementsOf(db, id);
    expect(read.map((e) => e.position)).toEqual([0, 1]);
    expect(read.map((e) => e.id).sort()).toEqual(copies.map((e) => e.id).sort());
  });

  it('soft-deletes the live elements only, and returns them', async () => {
    const [first, second] = await liveElementsOf(db, briefId);
    const at = new Date();
    const deleted = await updateElement(db, first!.id, { deletedAt: at, updatedAt: at });
    expect(deleted.deletedAt).toEqual(at);
    const removed = await softDeleteLiveElementsOf(db, briefId, new Date());
    expect(removed.map((e) => e.id)).toEqual([second!.id]);
    expect(await liveElementsOf(db, briefId)).toEqual([]);
    const brief = await updateBrief(db, briefId, { deletedAt: at, updatedAt: at });
    expect(brief.id).toBe(briefId);
    expect(await findBriefRow(db, admin.organisationId, briefId)).toBeUndefined();
  });
});
