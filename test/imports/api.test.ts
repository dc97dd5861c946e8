import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileChunks, IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { articles, orderItems, orders } from '../../src/db/schema/orders.ts';
import { companies, companyUsers, events, users } from '../../src/db/schema/platform.ts';
import { multipart, runImport, upload } from '../fixtures/imports.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests } from '../helpers/http.ts';

let t: TestApp;
const http = requests(() => t);
let admin: Credentials;

beforeAll(async () => {
  t = await buildTestApp({
    config: { imports: { sizeLimitBytes: 64 * 1024, batchSize: 4, staleAfterSeconds: 120 } },
  });
  admin = await makeOrganisation(t);
  for (const field of [
    { entity: 'company', key: 'vip', label: 'VIP', type: 'boolean' },
    { entity: 'company', key: 'score', label: 'Score', type: 'number' },
    {
      entity: 'company',
      key: 'tags',
      label: 'Tags',
      type: 'multi-select',
      options: ['red', 'green', 'blue'],
    },
  ]) {
    const response = await http.post(admin, '/api/custom-fields', field);
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

const liveCompanies = (who: Credentials) =>
  t.app.ctx.db
    .select()
    .from(companies)
    .where(and(eq(companies.organisationId, who.organisationId), isNull(companies.deletedAt)))
    .orderBy(companies.externalId);

const eventCount = async (who: Credentials, entity?: string) => {
  const [row] = await t.app.ctx.db
    .select({ n: count() })
    .from(events)
    .where(
      and(eq(events.organisationId, who.organisationId), entity ? eq(events.entity, entity) : undefined),
    );
  return row!.n;
};

describe('companies (type 16)', () => {
  it('creates companies with parents (also earlier in the file) and typed custom fields, then SENT', async () => {
    const org = await makeOrganisation(t);
    for (const field of [
      { entity: 'company', key: 'vip', label: 'VIP', type: 'boolean' },
      { entity: 'company', key: 'tags', label: 'Tags', type: 'multi-select', options: ['red', 'green'] },
    ]) {
      await http.post(org, '/api/custom-fields', field);
    }
    const csv =
      '\uFEFFexternalId,name,parentExternalId,email,cf.vip,cf.tags\n' +
      'P1,Parent One,,p1@example.com,yes,red|green\n' +
      'C1,"Child, One",P1,,0,\n' +
      'C2,Child Two,C1,,true,green\n';
    const record = await runImport(t.app, org, csv);
    expect(record.status).toBe(IMPORT_STATUS.SENT);
    expect(record.statusName).toBe('SENT');
    expect(record.code).toBe(1);
    expect(record.type).toBe('16');
    expect(record.stats).toMatchObject({
      rowsTotal: 3,
      rowsRead: 3,
      created: 3,
      updated: 0,
      failed: 0,
      errors: [],
    });
    expect(record.stats.notification.status).toBe('stored');
    const rows = await liveCompanies(org);
    const byKey = Object.fromEntries(rows.map((r) => [r.externalId, r]));
    expect(byKey.C1!.name).toBe('Child, One');
    expect(byKey.C1!.parentId).toBe(byKey.P1!.id);
    expect(byKey.C2!.parentId).toBe(byKey.C1!.id);
    expect(byKey.P1!.customFields).toEqual({ vip: true, tags: ['red', 'green'] });
    expect(byKey.C1!.customFields).toEqual({ vip: false });
    expect(await eventCount(org, 'COMPANY')).toBe(3);
    const importEvents = await t.app.ctx.db
      .select({ name: events.eventName })
      .from(events)
      .where(and(eq(events.organisationId, org.organisationId), eq(events.entity, 'IMPORT')))
      .orderBy(events.code);
    expect(importEvents.map((e) => e.name)).toEqual([
      'event.imports.created',
      'event.imports.updated', // IN_PROGRESS
      'event.imports.updated', // DONE
      'event.imports.updated', // SENT
    ]);
  });

  it('updates what changed, leaves the rest unchanged, and only touches the columns of the header', async () => {
    const org = await makeOrganisation(t);
    await runImport(
      t.app,
      org,
      'externalId,name,website,vatNumber\nA,Alpha,a.example,VAT-A\nB,Beta,,\nC,Gamma,,\n',
    );
    const before = await eventCount(org, 'COMPANY');
    const record = await runImport(t.app, org, 'externalId;name\nA;Alpha\nB;Beta Two\nC;Gamma\nD;Delta\n', {
      delimiter: 'semicolon',
    });
    expect(record.delimiter).toBe(';');
    expect(record.stats).toMatchObject({ created: 1, updated: 1, unchanged: 2, failed: 0 });
    const rows = await liveCompanies(org);
    expect(rows.map((r) => [r.externalId, r.name, r.website, r.vatNumber])).toEqual([
      ['A', 'Alpha', 'a.example', 'VAT-A'],
      ['B', 'Beta Two', null, null],
      ['C', 'Gamma', null, null],
      ['D', 'Delta', null, null],
    ]);
    const changes = await t.app.ctx.db
      .select({ type: events.type, columns: events.updatedColumns })
      .from(events)
      .where(and(eq(events.organisationId, org.organisationId), eq(events.entity, 'COMPANY')))
      .orderBy(events.code)
      .offset(before);
    expect(changes).toEqual([
      { type: 'CREATE', columns: null },
      { type: 'UPDATE', columns: ['name'] },
    ]);
  });

  it('collects per-row errors with line numbers and columns, and imports the other rows', async () => {
    const csv = [
      'externalId,name,email,parentExternalId,cf.vip,cf.score,cf.tags',
      'E1,Good,,,,,',
      ',No key,,,,,',
      'E3,,,,,,',
      'E4,Bad mail,not-an-email,,,,',
      'E5,Bad parent,,NOPE,,,',
      'E6,Bad values,,,maybe,12abc,purple',
      'E7,"Multi',
      'line",,,,,',
      'E8,Short row',
      'E9,Also good,,E1,1,2.5,red|blue',
    ].join('\r\n');
    const record = await runImport(t.app, admin, csv);
    expect(record.status).toBe(IMPORT_STATUS.SENT);
    expect(record.stats).toMatchObject({ rowsTotal: 9, created: 3, failed: 6 });
    expect(record.stats.errors).toEqual([
      { row: 3, column: 'externalId', message: 'is required' },
      { row: 4, column: 'name', message: 'is required to create a company' },
      { row: 5, column: 'email', message: 'is not an e-mail address' },
      {
        row: 6,
        column: 'parentExternalId',
        message: 'no company has the external id "NOPE" (it must exist or come earlier in the file)',
      },
      { row: 7, column: 'cf.vip', message: 'must be true/false, 1/0 or yes/no' },
      { row: 7, column: 'cf.score', message: 'must be a number' },
      { row: 7, column: 'cf.tags', message: 'has unknown options: purple; allowed: red, green, blue' },
      // Rows are records: the quoted line break of E7 does not shift the numbering.
      { row: 9, column: null, message: 'the record has 2 values but the header has 7 columns' },
    ]);
    const [e9] = await t.app.ctx.db
      .select()
      .from(companies)
      .where(and(eq(companies.organisationId, admin.organisationId), eq(companies.externalId, 'E9')));
    expect(e9!.customFields).toEqual({ vip: true, score: 2.5, tags: ['red', 'blue'] });
    const [e7] = await t.app.ctx.db
      .select()
      .from(companies)
      .where(and(eq(companies.organisationId, admin.organisationId), eq(companies.externalId, 'E7')));
    expect(e7!.name).toBe('Multi\r\nline');
  });

  it('refuses a parent change that would make a cycle', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name,parentExternalId\nR,Root,\nK,Kid,R\n');
    const record = await runImport(t.app, org, 'externalId,parentExternalId\nR,K\n');
    expect(record.stats.failed).toBe(1);
    expect(record.stats.errors[0]).toMatchObject({ row: 2, column: 'parentExternalId' });
    expect(record.stats.errors[0].message).toContain('cycle');
  });
});

describe('contacts (type 17)', () => {
  it('matches by external id, else by e-mail, and replaces company links', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nCA,Company A\nCB,Company B\n');
    const first = await runImport(
      t.app,
      org,
      'externalId,email,firstName,lastName,companyExternalIds\nX1,ann@example.com,Ann,Lee,CA|CB\n,bob@example.com,Bob,,CA\n',
      { type: 'contacts' },
    );
    expect(first.type).toBe('17');
    expect(first.stats).toMatchObject({ created: 2, failed: 0 });
    // Bob gets an external id (matched by e-mail); Ann loses a link; Cid is new; an unknown company fails.
    const second = await runImport(
      t.app,
      org,
      'externalId,email,firstName,companyExternalIds\n' +
        'X1,ann@example.com,Ann,CB\n' +
        'X2,BOB@example.com,Bob,CA\n' +
        'X3,cid@example.com,Cid,\n' +
        'X4,dan@example.com,Dan,NOPE\n',
      { type: '17' },
    );
    expect(second.stats).toMatchObject({ created: 1, updated: 2, unchanged: 0, failed: 1 });
    expect(second.stats.errors).toEqual([
      { row: 5, column: 'companyExternalIds', message: 'no company has the external id "NOPE"' },
    ]);
    const contacts = await t.app.ctx.db
      .select({ id: users.id, externalId: users.externalId, email: users.email, role: users.role })
      .from(users)
      .where(and(eq(users.organisationId, org.organisationId), eq(users.role, 'contact')))
      .orderBy(users.externalId);
    expect(contacts.map((c) => [c.externalId, c.email])).toEqual([
      ['X1', 'ann@example.com'],
      ['X2', 'BOB@example.com'],
      ['X3', 'cid@example.com'],
    ]);
    const links = await t.app.ctx.db
      .select({ userId: companyUsers.userId, company: companies.externalId })
      .from(companyUsers)
      .innerJoin(companies, eq(companies.id, companyUsers.companyId))
      .where(eq(companyUsers.organisationId, org.organisationId));
    const linksOf = (externalId: string) =>
      links
        .filter((l) => l.userId === contacts.find((c) => c.externalId === externalId)!.id)
        .map((l) => l.company)
        .sort();
    expect(linksOf('X1')).toEqual(['CB']);
    expect(linksOf('X2')).toEqual(['CA']);
    expect(linksOf('X3')).toEqual([]);
    const contactEvents = await t.app.ctx.db
      .select({ name: events.eventName, relations: events.updatedRelations })
      .from(events)
      .where(and(eq(events.organisationId, org.organisationId), eq(events.entity, 'CONTACT')))
      .orderBy(events.code);
    // Within a batch the creations come first, then the updates.
    expect(contactEvents.map((e) => e.name)).toEqual([
      'event.contacts.created',
      'event.contacts.created',
      'event.contacts.created',
      'event.contacts.updated',
      'event.contacts.updated',
    ]);
    expect(contactEvents[3]!.relations).toEqual(['companies']);
  });

  it('refuses an e-mail that belongs to a user who is not a contact', async () => {
    const org = await makeOrganisation(t);
    const record = await runImport(t.app, org, `email,firstName\n${org.email},Me\n`, { type: 'contacts' });
    expect(record.stats.errors).toEqual([
      { row: 2, column: 'email', message: 'is the e-mail of a user who is not a contact' },
    ]);
  });
});

describe('articles (type 18)', () => {
  it('creates and updates articles by code (case-insensitive)', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nACME,Acme\n');
    const first = await runImport(
      t.app,
      org,
      'code,name,price,stocked,quantity,companyExternalId,enabled\nBOX-1,Box,1.23456,yes,10,ACME,true\nBOX-2,Big box,,no,0,ACME,\n',
      { type: 'articles' },
    );
    expect(first.type).toBe('18');
    expect(first.stats.errors).toEqual([{ row: 3, column: 'enabled', message: 'must not be empty' }]);
    expect(first.stats).toMatchObject({ created: 1, failed: 1 });
    const second = await runImport(t.app, org, 'code,price,quantity\nbox-1,2,-1\nBOX-1,2,5\nNEW,1,1\n', {
      type: '18',
    });
    expect(second.stats.errors).toEqual([
      { row: 2, column: 'quantity', message: 'must be at least 0' },
      { row: 4, column: 'name', message: 'is required to create an article' },
      { row: 4, column: 'companyExternalId', message: 'is required to create an article' },
    ]);
    expect(second.stats).toMatchObject({ created: 0, updated: 1, failed: 2 });
    const rows = await t.app.ctx.db
      .select()
      .from(articles)
      .where(eq(articles.organisationId, org.organisationId));
    expect(rows.map((r) => [r.code, r.price, r.stocked, r.quantity])).toEqual([['BOX-1', 2, true, 5]]);
  });
});

describe('orders (type 19)', () => {
  it('creates and updates orders by external id with status labels and dates', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nACME,Acme\n');
    const first = await runImport(
      t.app,
      org,
      'externalId,companyExternalId,billedAmount,orderDate,expectedDeliveryDate,status,trackingId\n' +
        'O1,ACME,100.005,2024-03-01,2024-03-10T12:00:00Z,,\n' +
        'O2,,50,2024-02-31,,Nope,\n',
      { type: 'orders' },
    );
    expect(first.stats.errors).toEqual([
      { row: 3, column: 'orderDate', message: 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp' },
      { row: 3, column: 'status', message: 'no order status has the internal label "Nope"' },
    ]);
    const second = await runImport(
      t.app,
      org,
      'externalId,status,trackingId,actualDeliveryDate\nO1,shipped,TRK,2024-03-09\n',
      {
        type: '19',
      },
    );
    expect(second.stats).toMatchObject({ updated: 1, failed: 0 });
    const rows = await t.app.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.organisationId, org.organisationId));
    expect(rows).toHaveLength(1);
    const order = rows[0]!;
    expect(order.billedAmount).toBe(100.01);
    expect(order.orderDate?.toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(order.expectedDeliveryDate?.toISOString()).toBe('2024-03-10T12:00:00.000Z');
    expect(order.actualDeliveryDate?.toISOString()).toBe('2024-03-09T00:00:00.000Z');
    expect(order.trackingId).toBe('TRK');
    const read = await http.get(org, `/api/orders/${order.id}`);
    expect(read.json().status.internalLabel).toBe('Shipped');
  });
});

describe('dry run and allowDelete', () => {
  it('a dry run writes nothing and records no event, but computes the stats', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nA,Alpha\nB,Beta\n');
    const eventsBefore = await eventCount(org);
    const companiesBefore = await liveCompanies(org);
    const record = await runImport(
      t.app,
      org,
      'externalId,name,parentExternalId\nA,Alpha 2,\nC,Gamma,\nD,Delta,C\nE,Bad,NOPE\n',
      { dryRun: true, allowDelete: true },
    );
    expect(record.dryRun).toBe(true);
    expect(record.status).toBe(IMPORT_STATUS.SENT);
    expect(record.stats).toMatchObject({ created: 2, updated: 1, deleted: 1, failed: 1 });
    expect(await liveCompanies(org)).toEqual(companiesBefore);
    // Only the file (created) and the import's own record change (created, in progress, done, sent).
    expect((await eventCount(org)) - eventsBefore).toBe(5);
    expect(await eventCount(org, 'FILE')).toBe(2);
    expect(await eventCount(org, 'COMPANY')).toBe(2);
    const keys = await t.app.ctx.db.execute(
      sql`select count(*)::int as n from import_keys where import_id = ${record.id}`,
    );
    expect((keys as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it('allowDelete archives the records absent from the file, keeping ancestors of those that stay', async () => {
    const org = await makeOrganisation(t);
    await runImport(
      t.app,
      org,
      'externalId,name,parentExternalId\nTOP,Top,\nMID,Mid,TOP\nLEAF,Leaf,MID\nGONE,Gone,\nGONE2,Gone too,GONE\n',
    );
    const before = await eventCount(org, 'COMPANY');
    const record = await runImport(t.app, org, 'externalId,name\nLEAF,Leaf\n', { allowDelete: true });
    expect(record.stats).toMatchObject({ unchanged: 1, deleted: 2 });
    expect((await liveCompanies(org)).map((c) => c.externalId)).toEqual(['LEAF', 'MID', 'TOP']);
    const deletes = await t.app.ctx.db
      .select({ name: events.eventName })
      .from(events)
      .where(and(eq(events.organisationId, org.organisationId), eq(events.entity, 'COMPANY')))
      .orderBy(events.code)
      .offset(before);
    expect(deletes.map((d) => d.name)).toEqual(['event.companies.deleted', 'event.companies.deleted']);
  });

  it('a row that failed still protects its record from deletion', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nK1,Keep\nK2,Other\n');
    const record = await runImport(t.app, org, 'externalId,email\nK1,bad\n', { allowDelete: true });
    expect(record.stats).toMatchObject({ failed: 1, deleted: 1 });
    expect((await liveCompanies(org)).map((c) => c.externalId)).toEqual(['K1']);
  });
});

describe('refusals', () => {
  it('answers 413 for a file over the limit, and stores nothing', async () => {
    const [before] = await t.app.ctx.db.select({ n: count() }).from(fileChunks);
    const big = `externalId,name\n${'X,'.padEnd(100, 'y')}\n`.repeat(1000);
    const response = await upload(t.app, admin, big);
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().code).toBe('file_too_large');
    const [after] = await t.app.ctx.db.select({ n: count() }).from(fileChunks);
    expect(after!.n).toBe(before!.n);
  });

  it('answers 400 with a pointer for an unknown type or delimiter, or a missing file', async () => {
    const badType = await upload(t.app, admin, 'externalId\nA\n', { type: '99' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().errors[0].pointer).toBe('/type');
    const badDelimiter = await upload(t.app, admin, 'externalId\nA\n', { delimiter: 'colon' });
    expect(badDelimiter.statusCode).toBe(400);
    expect(badDelimiter.json().errors[0].pointer).toBe('/delimiter');
    const noFile = await http.post(
      admin,
      '/api/imports',
      '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\n16\r\n--x--\r\n',
      { 'content-type': 'multipart/form-data; boundary=x' },
    );
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors[0].pointer).toBe('/csv');
    const notMultipart = await http.post(admin, '/api/imports', { type: '16' });
    expect(notMultipart.statusCode).toBe(415);
  });

  it('answers 400 not_csv for a binary file or text that is not UTF-8', async () => {
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ]);
    const binary = await upload(t.app, admin, png, { mime: 'image/png', filename: 'x.png' });
    expect(binary.statusCode).toBe(400);
    expect(binary.json().code).toBe('not_csv');
    const latin1 = await upload(t.app, admin, Buffer.from('externalId,name\nA,Caf\xe9\n', 'latin1'));
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json().detail).toContain('UTF-8');
  });

  it('fails (status 7, refused) with the reason when the header misses a required column or is not a header', async () => {
    const missing = await runImport(t.app, admin, 'name,email\nAcme,a@example.com\n');
    expect(missing.status).toBe(IMPORT_STATUS.CRASH);
    expect(missing.stats.refused).toBe(true);
    expect(missing.stats.reason).toContain('required column missing: externalId');
    expect(missing.stats.notification.status).toBe('stored');
    const noHeader = await runImport(t.app, admin, 'ACME-1,Acme Corp\nACME-2,Other\n');
    expect(noHeader.status).toBe(IMPORT_STATUS.CRASH);
    expect(noHeader.stats.reason).toContain('unknown columns: "ACME-1", "Acme Corp"');
    const unknownField = await runImport(t.app, admin, 'externalId,cf.nope\nA,1\n');
    expect(unknownField.stats.reason).toContain('"cf.nope"');
  });

  it('fails with a hint when the file is split by another delimiter', async () => {
    const record = await runImport(t.app, admin, 'externalId;name\nA;Alpha\n');
    expect(record.status).toBe(IMPORT_STATUS.CRASH);
    expect(record.stats.reason).toContain('delimited by semicolon');
    expect(record.stats.created).toBe(0);
  });

  it('fails without writing anything when a record further down is malformed', async () => {
    const org = await makeOrganisation(t);
    const rows = Array.from({ length: 20 }, (_, i) => `M${i},Name ${i}`).join('\n');
    const record = await runImport(t.app, org, `externalId,name\n${rows}\nBAD,"unclosed\n`);
    expect(record.status).toBe(IMPORT_STATUS.CRASH);
    expect(record.stats.reason).toContain('not valid CSV');
    expect(await liveCompanies(org)).toEqual([]);
  });
});

describe('the import record', () => {
  it('lists with filters, numbers imports per organisation, and serves the utils', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nA,Alpha\n');
    await runImport(t.app, org, 'name\nA\n');
    const list = await http.get(org, '/api/imports?limit=10');
    expect(list.statusCode).toBe(200);
    expect(list.json().meta).toMatchObject({ total: 2, page: 1, limit: 10, hasNextPage: false });
    expect(list.json().data.map((i: { code: number }) => i.code)).toEqual([2, 1]);
    const failed = await http.get(org, '/api/imports?status=7');
    expect(failed.json().data.map((i: { code: number }) => i.code)).toEqual([2]);
    const byName = await http.get(org, '/api/imports?status=SENT,CRASH&type=companies&sort=code,ASC');
    expect(byName.json().data.map((i: { code: number }) => i.code)).toEqual([1, 2]);
    const badStatus = await http.get(org, '/api/imports?status=9');
    expect(badStatus.statusCode).toBe(400);

    const types = await http.get(org, '/api/imports/utils/get-types');
    expect(types.json().map((x: { code: string }) => x.code)).toEqual(['16', '17', '18', '19']);
    const statuses = await http.get(org, '/api/imports/utils/get-status');
    expect(statuses.json().map((x: { code: number; name: string }) => `${x.code} ${x.name}`)).toEqual([
      '1 REQUESTED',
      '2 IN_PROGRESS',
      '3 ABORTED',
      '4 SENT',
      '5 DONE',
      '6 FAILED',
      '7 CRASH',
    ]);
    const delimiters = await http.get(org, '/api/imports/utils/get-delimiters');
    expect(delimiters.json().map((d: { name: string }) => d.name)).toEqual([
      'comma',
      'semicolon',
      'tab',
      'pipe',
    ]);
  });

  it('downloads the original file, then archives it (bytes released, record kept)', async () => {
    const csv = '\uFEFFexternalId\tname\nT1\tTab one\n';
    const record = await runImport(t.app, admin, csv, { delimiter: 'tab', filename: 'tabs.tsv' });
    expect(record.stats.created).toBe(1);
    const download = await http.get(admin, `/api/imports/${record.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(Buffer.from(csv))).toBe(true);
    expect(download.headers['content-disposition']).toContain('tabs.tsv');
    const archived = await http.patch(admin, `/api/imports/${record.id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ id: record.id, fileArchived: true, status: IMPORT_STATUS.SENT });
    const [chunks] = await t.app.ctx.db
      .select({ n: count() })
      .from(fileChunks)
      .where(eq(fileChunks.fileId, record.fileId));
    expect(chunks!.n).toBe(0);
    const gone = await http.get(admin, `/api/imports/${record.id}/download`);
    expect(gone.statusCode).toBe(410);
    const again = await http.get(admin, `/api/imports/${record.id}`);
    expect(again.json().fileArchived).toBe(true);
  });

  it('cancels a requested import (ABORTED); a cancelled import is not processed, and cannot be cancelled twice', async () => {
    const org = await makeOrganisation(t);
    const created = await upload(t.app, org, 'externalId,name\nZ,Zed\n');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      status: IMPORT_STATUS.REQUESTED,
      dryRun: false,
      allowDelete: false,
    });
    const id = created.json().id;
    const cancelled = await http.post(org, `/api/imports/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe(IMPORT_STATUS.ABORTED);
    const { importsModule } = await import('../../src/modules/imports/module.ts');
    await importsModule.services(t.app.ctx).processor.run(id);
    expect(await liveCompanies(org)).toEqual([]);
    const twice = await http.post(org, `/api/imports/${id}/cancel`);
    expect(twice.statusCode).toBe(409);
  });

  it('stops a running import at the next batch when cancelled', async () => {
    const org = await makeOrganisation(t);
    const created = await upload(
      t.app,
      org,
      `externalId,name\n${Array.from({ length: 2000 }, (_, i) => `R${i},Row ${i}`).join('\n')}\n`,
    );
    const id = created.json().id;
    const { importsModule } = await import('../../src/modules/imports/module.ts');
    // Cancel once a few batches (4 rows each) are committed: commits are the claim, then each batch.
    let commits = 0;
    t.app.ctx.change.onCommitted((organisationId) => {
      if (organisationId !== org.organisationId || ++commits !== 4) return;
      void http.post(org, `/api/imports/${id}/cancel`);
    });
    await importsModule.services(t.app.ctx).processor.run(id);
    const record = (await http.get(org, `/api/imports/${id}`)).json();
    expect(record.status).toBe(IMPORT_STATUS.ABORTED);
    const imported = (await liveCompanies(org)).length;
    expect(imported).toBeGreaterThan(0);
    expect(imported).toBeLessThan(2000);
    expect(record.stats.rowsRead).toBe(imported);
    expect(imported % 4).toBe(0);
  });

  it('refuses other roles (403) and hides other tenants’ imports (404)', async () => {
    const record = await runImport(t.app, admin, 'externalId,name\nQ,Q\n');
    const sales = await makeUser(t, admin, 'sales');
    for (const [method, url] of [
      ['GET', '/api/imports'],
      ['GET', `/api/imports/${record.id}`],
      ['GET', '/api/imports/utils/get-types'],
      ['PATCH', `/api/imports/${record.id}/archive`],
    ] as const) {
      const response = await http.send(method, sales, url);
      expect(response.statusCode, url).toBe(403);
    }
    const refused = await upload(t.app, sales, 'externalId,name\nQ,Q\n');
    expect(refused.statusCode).toBe(403);
    const other = await makeOrganisation(t);
    for (const [method, url] of [
      ['GET', `/api/imports/${record.id}`],
      ['GET', `/api/imports/${record.id}/download`],
      ['PATCH', `/api/imports/${record.id}/archive`],
      ['POST', `/api/imports/${record.id}/cancel`],
    ] as const) {
      const response = await http.send(method, other, url);
      expect(response.statusCode, url).toBe(404);
    }
    const anonymous = await http.get(null, '/api/imports');
    expect(anonymous.statusCode).toBe(401);
  });

  it('serves the import through the event resource endpoint', async () => {
    const org = await makeOrganisation(t);
    const record = await runImport(t.app, org, 'externalId,name\nEV,Event\n');
    const [event] = await t.app.ctx.db
      .select({ id: events.id })
      .from(events)
      .where(
        and(eq(events.organisationId, org.organisationId), eq(events.eventName, 'event.imports.created')),
      );
    const resource = await http.get(org, `/api/events/ressources/${event!.id}`);
    expect(resource.statusCode).toBe(200);
    expect(resource.json()).toMatchObject({ id: record.id, code: 1, status: IMPORT_STATUS.SENT });
  });
});

describe('more', () => {
  it('replays a batch row by row when the database refuses it, failing only the refused rows', async () => {
    const org = await makeOrganisation(t);
    const record = await runImport(
      t.app,
      org,
      'externalId,billedAmount,orderDate\nY1,1,2024-01-01\nY2,2,0000-01-01T00:00:00Z\nY3,3,2024-01-03\n',
      { type: 'orders' },
    );
    expect(record.stats).toMatchObject({ created: 2, failed: 1 });
    expect(record.stats.errors).toHaveLength(1);
    expect(record.stats.errors[0]).toMatchObject({ row: 3, column: null });
    expect(record.stats.errors[0].message).toMatch(/^could not be written: /);
    const rows = await t.app.ctx.db
      .select()
      .from(orders)
      .where(eq(orders.organisationId, org.organisationId));
    expect(rows.map((r) => r.externalId).sort()).toEqual(['Y1', 'Y3']);
  });

  it('allowDelete archives absent contacts, articles and orders (with their items)', async () => {
    const org = await makeOrganisation(t);
    await runImport(t.app, org, 'externalId,name\nACME,Acme\n');
    await runImport(t.app, org, 'externalId,email\nK1,k1@example.com\n,k2@example.com\nK3,\n', {
      type: 'contacts',
    });
    const contacts = await runImport(t.app, org, 'email\nk2@example.com\n', {
      type: 'contacts',
      allowDelete: true,
    });
    expect(contacts.stats).toMatchObject({ unchanged: 1, deleted: 2 });
    await runImport(t.app, org, 'code,name,companyExternalId\nA1,One,ACME\nA2,Two,ACME\n', {
      type: 'articles',
    });
    const articlesRun = await runImport(t.app, org, 'code\na2\n', { type: 'articles', allowDelete: true });
    // The code matches case-insensitively; the file's spelling is kept (an update).
    expect(articlesRun.stats).toMatchObject({ updated: 1, deleted: 1 });
    await runImport(t.app, org, 'externalId,billedAmount\nO1,1\nO2,2\n', { type: 'orders' });
    const [o1] = await t.app.ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.organisationId, org.organisationId), eq(orders.externalId, 'O1')));
    // Written directly: this test is about imports, not about the order-items API.
    await t.app.ctx.db.insert(orderItems).values({
      organisationId: org.organisationId,
      orderId: o1!.id,
      quantity: 2,
      unitPrice: 1.5,
      totalPrice: 3,
    });
    const ordersRun = await runImport(t.app, org, 'externalId\nO2\n', { type: 'orders', allowDelete: true });
    expect(ordersRun.stats).toMatchObject({ unchanged: 1, deleted: 1 });
    const live = await t.app.ctx.db
      .select({ externalId: orders.externalId })
      .from(orders)
      .where(and(eq(orders.organisationId, org.organisationId), isNull(orders.deletedAt)));
    expect(live).toEqual([{ externalId: 'O2' }]);
    const names = await t.app.ctx.db
      .select({ name: events.eventName })
      .from(events)
      .where(and(eq(events.organisationId, org.organisationId), eq(events.type, 'DELETE')))
      .orderBy(events.code);
    expect(names.map((n) => n.name)).toEqual([
      'event.contacts.deleted',
      'event.contacts.deleted',
      'event.articles.deleted',
      'event.orders.deleted',
      'event.order_items.deleted',
    ]);
  });

  it('refuses a type sent after the file, and keeps nothing of the file', async () => {
    const [before] = await t.app.ctx.db.select({ n: count() }).from(fileChunks);
    const body = multipart({}, { content: 'externalId\nA\n' });
    const withType = Buffer.concat([
      body.payload.subarray(0, body.payload.length - Buffer.byteLength(`--${body.boundary}--\r\n`)),
      Buffer.from(
        `--${body.boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nnope\r\n--${body.boundary}--\r\n`,
      ),
    ]);
    const response = await http.post(admin, '/api/imports', withType, body.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].pointer).toBe('/type');
    const [after] = await t.app.ctx.db.select({ n: count() }).from(fileChunks);
    expect(after!.n).toBe(before!.n);
  });
});
