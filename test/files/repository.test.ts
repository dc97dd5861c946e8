import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AttachmentTarget,
  insertComment,
  insertFile,
  listAllFiles,
  listCommentsPage,
  listFilesPage,
  readFileContent,
  softDeleteComment,
  softDeleteFile,
} from '../../src/modules/files/repository.ts';
import { COMMENT_PAGE, FILE_PAGE } from '../../src/modules/files/schemas.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let a: Credentials;
let b: Credentials;
const db = () => t.app.ctx.db;

function file(
  organisationId: string,
  target: AttachmentTarget,
  filename: string,
  options: { label?: string; createdAt?: Date } = {},
) {
  const content = Buffer.from(filename);
  return insertFile(
    db(),
    {
      organisationId,
      ...target,
      filename,
      mimeType: 'text/plain',
      size: content.length,
      sha256: 'x'.repeat(64),
      label: options.label ?? null,
      createdAt: options.createdAt,
    },
    content,
  );
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeOrganisation(t);
  b = await makeOrganisation(t);
});
afterAll(() => t?.close());

describe('files repository', () => {
  it("stores the bytes with the file and lists a record's live files, by label, oldest first", async () => {
    const target: AttachmentTarget = { entity: 'project', entityId: randomUUID() };
    const plan = await file(a.organisationId, target, 'plan.pdf', {
      label: 'artwork',
      createdAt: new Date('2026-01-02T00:00:00Z'),
    });
    const note = await file(a.organisationId, target, 'note.txt', {
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const gone = await file(a.organisationId, target, 'gone.txt', { label: 'artwork' });
    await softDeleteFile(db(), a.organisationId, gone.id);
    await file(a.organisationId, { ...target, entityId: randomUUID() }, 'other record.txt');
    await file(b.organisationId, target, 'other tenant.txt');

    expect((await readFileContent(db(), plan.id))?.toString()).toBe('plan.pdf');
    expect((await listAllFiles(db(), a.organisationId, target)).map((f) => f.id)).toEqual([note.id, plan.id]);

    const page = resolvePage({ sort: 'filename,ASC' }, FILE_PAGE);
    const all = await listFilesPage(db(), a.organisationId, target, undefined, page);
    expect(all).toMatchObject({ total: 2, rows: [{ id: note.id }, { id: plan.id }] });
    const labelled = await listFilesPage(db(), a.organisationId, target, 'artwork', page);
    expect(labelled).toMatchObject({ total: 1, rows: [{ id: plan.id, label: 'artwork' }] });
  });

  it("deletes a file of the organisation only, and lists a record's live comments with their authors", async () => {
    const target: AttachmentTarget = { entity: 'project', entityId: randomUUID() };
    const kept = await file(a.organisationId, target, 'kept.txt');
    await softDeleteFile(db(), b.organisationId, kept.id);
    expect(await listAllFiles(db(), a.organisationId, target)).toHaveLength(1);

    const first = await insertComment(db(), {
      organisationId: a.organisationId,
      ...target,
      body: 'first',
      createdById: a.userId,
    });
    const removed = await insertComment(db(), {
      organisationId: a.organisationId,
      ...target,
      body: 'removed',
    });
    await softDeleteComment(db(), a.organisationId, target, removed.id);
    await insertComment(db(), { organisationId: b.organisationId, ...target, body: 'other tenant' });

    const comments = await listCommentsPage(db(), a.organisationId, target, resolvePage({}, COMMENT_PAGE));
    expect(comments.total).toBe(1);
    expect(comments.rows).toMatchObject([{ id: first.id, body: 'first', author: { id: a.userId } }]);
  });
});
