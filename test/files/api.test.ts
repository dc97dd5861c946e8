import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, projects } from '../../src/db/schema/organisation-data.ts';
import { companies, companyUsers, events } from '../../src/db/schema/platform.ts';
import { normaliseMimeType, sanitiseFilename } from '../../src/modules/files/multipart.ts';
import { createFilesService } from '../../src/modules/files/service.ts';
import { contentDisposition } from '../../src/platform/content-disposition.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let sales2: Credentials;
let guest: Credentials;
let contact: Credentials;
let outsider: Credentials;
let project: string;
let secondProject: string;
let foreignProject: string;

async function makeProject(organisationId: string, name: string) {
  const [company] = await t.app.ctx.db
    .insert(companies)
    .values({ organisationId, name: `${name} Ltd` })
    .returning({ id: companies.id });
  const [row] = await t.app.ctx.db
    .insert(projects)
    .values({ organisationId, companyId: company!.id, name })
    .returning({ id: projects.id });
  return { companyId: company!.id, projectId: row!.id };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  sales2 = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  contact = await makeUser(t, admin, 'contact');
  outsider = await makeUser(t, admin, 'contact');
  const first = await makeProject(admin.organisationId, 'Gift boxes');
  project = first.projectId;
  secondProject = (await makeProject(admin.organisationId, 'Labels')).projectId;
  foreignProject = (await makeProject(other.organisationId, 'Theirs')).projectId;
  await t.app.ctx.db
    .insert(companyUsers)
    .values({ companyId: first.companyId, userId: contact.userId, organisationId: admin.organisationId });
});
afterAll(() => t.close());

/** A multipart body and its content-type, built by the platform's FormData encoder. */
async function multipart(
  parts: Record<string, string | { content: Uint8Array; filename: string; type?: string }>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.content)], { type: value.type ?? '' }),
        value.filename,
      );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

async function upload(who: Credentials, url: string, parts: Parameters<typeof multipart>[0], app = t.app) {
  const body = await multipart(parts);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...auth(who) },
  });
}

const { get, del, patch, post } = requests(() => t);
const filesUrl = (id = project) => `/api/projects/${id}/files`;
const commentsUrl = (id = project) => `/api/projects/${id}/comments`;

describe('project files', () => {
  const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(5000)]);
  let fileId: string;

  it('uploads a file with its metadata and records the event', async () => {
    const response = await upload(sales, filesUrl(), {
      label: 'artwork',
      file: { content: bytes, filename: 'dieline v2.pdf', type: 'application/pdf' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json();
    expect(file).toMatchObject({
      entity: 'project',
      entityId: project,
      filename: 'dieline v2.pdf',
      mimeType: 'application/pdf',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      label: 'artwork',
      createdById: sales.userId,
    });
    fileId = file.id;
    const [event] = await t.app.ctx.db.select().from(events).where(eq(events.entityId, fileId));
    expect(event).toMatchObject({
      eventName: 'event.files.created',
      entity: 'FILE',
      relation: 'PROJECT',
      relationId: project,
    });
    expect(event?.payload).not.toHaveProperty('content');
  });

  it('lists the files of the project only', async () => {
    await upload(admin, filesUrl(secondProject), { file: { content: Buffer.from('x'), filename: 'x.txt' } });
    const response = await get(guest, filesUrl());
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json();
    expect(meta.total).toBe(1);
    expect(data.map((f: { id: string }) => f.id)).toEqual([fileId]);
    expect((await get(guest, `${filesUrl()}?label=artwork`)).json().meta.total).toBe(1);
    expect((await get(guest, `${filesUrl()}?label=other`)).json().meta.total).toBe(0);
  });

  it('downloads the exact bytes with type, disposition and length', async () => {
    const response = await get(guest, `${filesUrl()}/${fileId}`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(bytes)).toBe(true);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="dieline v2.pdf"; filename*=UTF-8''dieline%20v2.pdf`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps non-ASCII names and falls back to octet-stream for missing or odd types', async () => {
    const response = await upload(admin, filesUrl(), {
      file: { content: Buffer.from('données'), filename: 'C:\\fakepath\\étiquette "final".txt', type: '' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const file = response.json();
    expect(file.filename).toBe('étiquette "final".txt');
    expect(file.mimeType).toBe('application/octet-stream');
    expect(file.label).toBeNull();
    const download = await get(admin, `${filesUrl()}/${file.id}`);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="_tiquette _final_.txt"; filename*=UTF-8''%C3%A9tiquette%20%22final%22.txt`,
    );
    expect(download.rawPayload.toString('utf8')).toBe('données');
  });

  it('refuses bodies that are not a proper upload', async () => {
    const json = await post(admin, filesUrl(), { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect(json.headers['content-type']).toContain('application/problem+json');
    expect(json.json().code).toBe('unsupported_media_type');

    const missing = await upload(admin, filesUrl(), { label: 'no file' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ pointer: '/file', message: 'is required', in: 'body' }]);

    const empty = await upload(admin, filesUrl(), {
      file: { content: new Uint8Array(0), filename: 'e.txt' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0]).toMatchObject({ pointer: '/file', message: 'must not be empty' });

    const unknown = await upload(admin, filesUrl(), {
      colour: 'red',
      file: { content: Buffer.from('x'), filename: 'x.txt' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].pointer).toBe('/colour');

    const wrongField = await upload(admin, filesUrl(), {
      document: { content: Buffer.from('x'), filename: 'x' },
    });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().errors[0].pointer).toBe('/document');

    const longLabel = await upload(admin, filesUrl(), {
      label: 'x'.repeat(101),
      file: { content: Buffer.from('x'), filename: 'x.txt' },
    });
    expect(longLabel.statusCode).toBe(400);
    expect(longLabel.json().errors[0].pointer).toBe('/label');

    const malformed = await post(admin, filesUrl(), 'this is not multipart', {
      'content-type': 'multipart/form-data; boundary=xyz',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toContain('application/problem+json');

    const listed = (await get(admin, filesUrl())).json();
    expect(listed.meta.total).toBe(2);
  });

  it('answers 404 for another tenant’s project, a missing or deleted project, or another project’s file', async () => {
    const theirs = await upload(other, filesUrl(), {
      file: { content: Buffer.from('x'), filename: 'x.txt' },
    });
    expect(theirs.statusCode).toBe(404);
    expect((await get(other, filesUrl())).statusCode).toBe(404);
    expect((await get(other, `${filesUrl()}/${fileId}`)).statusCode).toBe(404);
    expect((await del(other, `${filesUrl()}/${fileId}`)).statusCode).toBe(404);
    expect((await get(admin, filesUrl(foreignProject))).statusCode).toBe(404);
    expect((await get(admin, `${filesUrl(secondProject)}/${fileId}`)).statusCode).toBe(404);
    expect((await get(admin, filesUrl('0190b6c8-0000-7000-8000-000000000000'))).statusCode).toBe(404);

    const gone = await makeProject(admin.organisationId, 'Deleted');
    await t.app.ctx.db.update(projects).set({ deletedAt: new Date() }).where(eq(projects.id, gone.projectId));
    expect((await get(admin, filesUrl(gone.projectId))).statusCode).toBe(404);
  });

  it('lets guests read but not write, and limits contacts to their companies’ projects', async () => {
    const refused = await upload(guest, filesUrl(), {
      file: { content: Buffer.from('x'), filename: 'x.txt' },
    });
    expect(refused.statusCode).toBe(403);
    expect((await del(guest, `${filesUrl()}/${fileId}`)).statusCode).toBe(403);

    expect((await get(contact, filesUrl())).statusCode).toBe(200);
    expect((await get(contact, `${filesUrl()}/${fileId}`)).statusCode).toBe(200);
    expect((await get(contact, filesUrl(secondProject))).statusCode).toBe(404);
    expect((await get(outsider, filesUrl())).statusCode).toBe(404);
    expect((await get(outsider, `${filesUrl()}/${fileId}`)).statusCode).toBe(404);

    const mine = await upload(contact, filesUrl(), {
      file: { content: Buffer.from('brief'), filename: 'b.txt' },
    });
    expect(mine.statusCode).toBe(201);
    // A contact deletes only its own uploads.
    expect((await del(contact, `${filesUrl()}/${fileId}`)).statusCode).toBe(403);
    expect((await del(contact, `${filesUrl()}/${mine.json().id}`)).statusCode).toBe(200);
  });

  it('soft-deletes a file: gone from listings and downloads, row kept, event recorded', async () => {
    const response = await del(sales2, `${filesUrl()}/${fileId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: fileId, deleted: true });
    expect((await get(admin, `${filesUrl()}/${fileId}`)).statusCode).toBe(404);
    expect((await get(admin, filesUrl())).json().data.map((f: { id: string }) => f.id)).not.toContain(fileId);
    expect((await del(admin, `${filesUrl()}/${fileId}`)).statusCode).toBe(404);
    const [row] = await t.app.ctx.db.select().from(files).where(eq(files.id, fileId));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const [event] = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, fileId), eq(events.type, 'DELETE')));
    expect(event?.eventName).toBe('event.files.deleted');
  });

  it('validates ids', async () => {
    const response = await get(admin, `${filesUrl()}/nope`);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ pointer: '/fileId', in: 'params' });
  });
});

describe('size limit', () => {
  let small: TestApp;
  let smallAdmin: Credentials;
  let smallProject: string;

  beforeAll(async () => {
    small = await buildTestApp({ config: { fileSizeLimitBytes: 2048 } });
    smallAdmin = small.root;
    const [company] = await small.app.ctx.db
      .insert(companies)
      .values({ organisationId: smallAdmin.organisationId, name: 'Small' })
      .returning({ id: companies.id });
    const [row] = await small.app.ctx.db
      .insert(projects)
      .values({ organisationId: smallAdmin.organisationId, companyId: company!.id, name: 'Small' })
      .returning({ id: projects.id });
    smallProject = row!.id;
  });
  afterAll(() => small.close());

  it('accepts a file of exactly the limit and refuses a larger one with 413 problem+json', async () => {
    const url = `/api/projects/${smallProject}/files`;
    const exact = await upload(
      smallAdmin,
      url,
      { file: { content: randomBytes(2048), filename: 'a.bin' } },
      small.app,
    );
    expect(exact.statusCode, exact.body).toBe(201);
    const over = await upload(
      smallAdmin,
      url,
      { file: { content: randomBytes(3000), filename: 'b.bin' } },
      small.app,
    );
    expect(over.statusCode).toBe(413);
    expect(over.headers['content-type']).toContain('application/problem+json');
    expect(over.json()).toMatchObject({ status: 413, code: 'file_too_large' });
    const listed = await small.app.inject({ method: 'GET', url, headers: auth(smallAdmin) });
    expect(listed.json().meta.total).toBe(1);
  });
});

describe('project comments', () => {
  let commentId: string;

  it('lets staff and linked contacts comment, and lists comments oldest first with their authors', async () => {
    const first = await post(sales, commentsUrl(), { body: '  Please check the bleed.  ' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      entity: 'project',
      entityId: project,
      body: 'Please check the bleed.',
      createdById: sales.userId,
      author: { id: sales.userId },
    });
    commentId = first.json().id;
    const second = await post(contact, commentsUrl(), { body: 'Done.' });
    expect(second.statusCode).toBe(201);

    const list = await get(guest, commentsUrl());
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((c: { body: string }) => c.body)).toEqual([
      'Please check the bleed.',
      'Done.',
    ]);
    expect(list.json().meta.total).toBe(2);
    expect((await get(admin, commentsUrl(secondProject))).json().meta.total).toBe(0);

    const [event] = await t.app.ctx.db.select().from(events).where(eq(events.entityId, commentId));
    expect(event).toMatchObject({
      eventName: 'event.comments.created',
      relation: 'PROJECT',
      relationId: project,
    });
  });

  it('refuses blank or unknown bodies, guests, outsiders and other tenants', async () => {
    for (const payload of [{ body: '' }, { body: '   ' }, {}, { body: 'x', pinned: true }]) {
      const response = await post(admin, commentsUrl(), payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors[0].pointer).toMatch(/^\/(body|pinned)$/);
    }
    const guestPost = await post(guest, commentsUrl(), { body: 'hi' });
    expect(guestPost.statusCode).toBe(403);
    const outsiderPost = await post(outsider, commentsUrl(), { body: 'hi' });
    expect(outsiderPost.statusCode).toBe(404);
    expect((await get(other, commentsUrl())).statusCode).toBe(404);
    expect((await get(outsider, commentsUrl())).statusCode).toBe(404);
  });

  it('lets only the author or an admin edit or delete a comment', async () => {
    const url = `${commentsUrl()}/${commentId}`;
    const editComment = (who: Credentials, body: string) => patch(who, url, { body });

    const stranger = await editComment(sales2, 'Hijacked');
    expect(stranger.statusCode).toBe(403);
    expect((await editComment(contact, 'Hijacked')).statusCode).toBe(403);
    expect((await editComment(guest, 'Hijacked')).statusCode).toBe(403);
    expect((await editComment(other, 'Hijacked')).statusCode).toBe(404);

    const own = await editComment(sales, 'Please check the bleed (3 mm).');
    expect(own.statusCode).toBe(200);
    expect(own.json().body).toBe('Please check the bleed (3 mm).');
    const moderated = await editComment(admin, 'Check the bleed.');
    expect(moderated.statusCode).toBe(200);
    expect(moderated.json()).toMatchObject({ body: 'Check the bleed.', createdById: sales.userId });

    expect((await del(sales2, url)).statusCode).toBe(403);
    expect((await del(other, url)).statusCode).toBe(404);
    expect((await del(sales, url)).statusCode).toBe(200);
    expect((await get(admin, commentsUrl())).json().data.map((c: { id: string }) => c.id)).not.toContain(
      commentId,
    );
    expect((await editComment(sales, 'again')).statusCode).toBe(404);
    expect((await del(sales, url)).statusCode).toBe(404);

    const events_ = await t.app.ctx.db
      .select({ type: events.type })
      .from(events)
      .where(eq(events.entityId, commentId));
    expect(events_.map((e) => e.type).sort()).toEqual(['CREATE', 'DELETE', 'UPDATE', 'UPDATE']);
  });

  it('lets an admin delete someone else’s comment', async () => {
    const contactComment = (await get(admin, commentsUrl())).json().data[0];
    expect(contactComment.createdById).toBe(contact.userId);
    expect((await del(admin, `${commentsUrl()}/${contactComment.id}`)).statusCode).toBe(200);
  });
});

describe('files service', () => {
  it('stores generated files inside a change for other modules, with their event', async () => {
    const service = createFilesService(t.app.ctx);
    const actor = { organisationId: admin.organisationId, userId: admin.userId };
    const content = Buffer.from('%PDF-1.7 generated');
    const stored = await t.app.ctx.change(actor, (tx, record) =>
      service.storeFile(
        tx,
        actor,
        {
          entity: 'project',
          entityId: secondProject,
          filename: 'quote-fr.pdf',
          mimeType: 'application/pdf',
          content,
          label: 'fr',
        },
        record,
      ),
    );
    expect(stored).toMatchObject({ size: content.length, label: 'fr', entityId: secondProject });
    const { file, content: read } = await service.read(actor, stored.id, {
      entity: 'project',
      entityId: secondProject,
    });
    expect(file.id).toBe(stored.id);
    expect(read.equals(content)).toBe(true);
    expect(
      (await service.listAll(actor, { entity: 'project', entityId: secondProject })).map((f) => f.label),
    ).toContain('fr');
    await expect(
      service.get({ ...actor, organisationId: other.organisationId }, stored.id),
    ).rejects.toMatchObject({
      status: 404,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of (await service.stream(actor, stored.id)).stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('rolls back the file with a failed change', async () => {
    const service = createFilesService(t.app.ctx);
    const actor = { organisationId: admin.organisationId, userId: admin.userId };
    let id = '';
    await expect(
      t.app.ctx.change(actor, async (tx, record) => {
        id = (
          await service.storeFile(
            tx,
            actor,
            {
              entity: 'project',
              entityId: project,
              filename: 'x',
              mimeType: 'text/plain',
              content: Buffer.from('x'),
            },
            record,
          )
        ).id;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await t.app.ctx.db.select().from(files).where(eq(files.id, id))).toEqual([]);
    expect(await t.app.ctx.db.select().from(events).where(eq(events.entityId, id))).toEqual([]);
  });

  it('sanitises names and types', () => {
    expect(sanitiseFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFilename('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(sanitiseFilename('..')).toBe('file');
    expect(sanitiseFilename(undefined)).toBe('file');
    expect(sanitiseFilename('x'.repeat(300))).toHaveLength(255);
    expect(normaliseMimeType('Text/HTML; charset=utf-8')).toBe('text/html');
    expect(normaliseMimeType('not a type')).toBe('application/octet-stream');
    expect(contentDisposition('a"b\\c.pdf')).toBe(
      `attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`,
    );
  });
});

describe('OpenAPI', () => {
  it('documents the attachment operations with a multipart body', async () => {
    const doc = (await get(null, '/api/openapi.json')).json();
    const upload = doc.paths['/api/projects/{id}/files'].post;
    expect(upload.operationId).toBe('uploadProjectFile');
    expect(upload.tags).toEqual(['projects']);
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.responses)).toEqual(
      expect.arrayContaining(['201', '401', '403', '404', '413', '415']),
    );
    const download = doc.paths['/api/projects/{id}/files/{fileId}'].get;
    expect(download.operationId).toBe('downloadProjectFile');
    expect(Object.keys(download.responses['200'].content)).toEqual(['application/octet-stream']);
    const mine = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).filter(
      ([path]) => /^\/api\/(statuses|currencies|custom-fields|projects\/\{id\}\/(files|comments))/.test(path),
    );
    expect(mine.length).toBe(11);
    for (const [path, item] of mine) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method} ${path}`;
        expect(op.operationId, where).toBeTruthy();
        expect(op.tags, where).toHaveLength(1);
        expect(op.summary, where).toBeTruthy();
        expect(op.security, where).toBeDefined();
        expect(Object.keys(op.responses as object), where).toEqual(
          expect.arrayContaining(['400', '401', '403', '404']),
        );
      }
    }
  });
});
