import type { AddressInfo } from 'node:net';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { IMPORT_STATUS, imports } from '../../src/db/schema/imports.ts';
import { emailOutbox } from '../../src/db/schema/mail.ts';
import { companies } from '../../src/db/schema/platform.ts';
import { importsModule } from '../../src/modules/imports/module.ts';
import { organisationsModule } from '../../src/modules/organisations/module.ts';
import { until, upload } from '../fixtures/imports.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  SUPERADMIN,
  signIn,
  type TestApp,
  testConfig,
} from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';

const ROWS = 3000;
const bigCsv = () =>
  `externalId,name,parentExternalId\n${Array.from({ length: ROWS }, (_, i) => `D${i},Company ${i},${i % 10 === 0 || i === 0 ? '' : `D${i - (i % 10)}`}`).join('\n')}\n`;

async function readImport(app: App, who: Credentials, id: string) {
  return (await app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: auth(who) })).json();
}

async function liveCount(database: Database, organisationId: string) {
  const [row] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(companies)
    .where(and(eq(companies.organisationId, organisationId), isNull(companies.deletedAt)));
  return row!.n;
}

describe('an import interrupted by a restart', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let app: App | undefined;
  const config: Config = testConfig({
    imports: { sizeLimitBytes: 10 * 1024 * 1024, batchSize: 20, staleAfterSeconds: 60 },
  });

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(async () => {
    await app?.close();
    await drop();
  });

  const start = async (runWorkers: boolean) => {
    app = await buildApp({ config, database, runWorkers, logger: false, lazySchemas: true });
    return app;
  };

  it('resumes after a graceful stop from its last committed batch, and ends SENT with every row once', {
    timeout: 120_000,
  }, async () => {
    let current = await start(true);
    await organisationsModule.services(current.ctx).organisations.bootstrap();
    const root = await signIn(current, SUPERADMIN.email, SUPERADMIN.password);
    const admin = await makeOrganisation({ app: current, root, close: async () => {} } as TestApp);
    // Two companies the file does not name: allowDelete archives them once the file is done.
    await database.db.insert(companies).values([
      { organisationId: admin.organisationId, name: 'Old 1', externalId: 'OLD1' },
      { organisationId: admin.organisationId, name: 'Old 2', externalId: 'OLD2' },
    ]);
    const created = await upload(current, admin, bigCsv(), { allowDelete: true });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;

    await until(async () => (await readImport(current, admin, id)).stats.rowsRead >= 100);
    await current.close();
    app = undefined;
    const [stopped] = await database.db.select().from(imports).where(eq(imports.id, id));
    expect(stopped!.status).toBe(IMPORT_STATUS.IN_PROGRESS);
    expect(stopped!.workerId).toBeNull();
    expect(stopped!.processedRows).toBeGreaterThanOrEqual(100);
    expect(stopped!.processedRows).toBeLessThan(ROWS);
    expect(stopped!.processedRows % 20).toBe(0);
    expect(await liveCount(database, admin.organisationId)).toBe(stopped!.processedRows + 2);

    current = await start(true);
    const record = await until(async () => {
      const r = await readImport(current, admin, id);
      return r.status === IMPORT_STATUS.SENT && r;
    }, 60_000);
    expect(record.stats).toMatchObject({
      rowsTotal: ROWS,
      rowsRead: ROWS,
      created: ROWS,
      failed: 0,
      deleted: 2,
      resumed: 1,
    });
    expect(await liveCount(database, admin.organisationId)).toBe(ROWS);
    const [child] = await database.db
      .select()
      .from(companies)
      .where(and(eq(companies.organisationId, admin.organisationId), eq(companies.externalId, 'D1234')));
    const [parent] = await database.db
      .select()
      .from(companies)
      .where(and(eq(companies.organisationId, admin.organisationId), eq(companies.externalId, 'D1230')));
    expect(child!.parentId).toBe(parent!.id);
    await current.close();
    app = undefined;
  });

  it('is taken over when its worker died without a trace and its job is gone', {
    timeout: 120_000,
  }, async () => {
    let current = await start(false);
    const root = await signIn(current, SUPERADMIN.email, SUPERADMIN.password);
    const admin = await makeOrganisation({ app: current, root, close: async () => {} } as TestApp);
    const created = await upload(current, admin, bigCsv());
    const id = created.json().id as string;
    const { processor } = importsModule.services(current.ctx);
    // Process part of the file in this process, then stop it between two batches.
    const running = processor.run(id);
    await until(async () => (await readImport(current, admin, id)).stats.rowsRead >= 60);
    await processor.stop();
    await running;
    // What a killed process leaves: the import claimed by a worker that is gone, no job queued.
    await database.db
      .update(imports)
      .set({ workerId: 'dead-host:1:00000000', heartbeatAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(imports.id, id));
    await database.query(`delete from pgboss.job where name = 'imports.process'`);
    await current.close();
    app = undefined;

    current = await start(true);
    const record = await until(async () => {
      const r = await readImport(current, admin, id);
      return r.status === IMPORT_STATUS.SENT && r;
    }, 60_000);
    expect(record.stats).toMatchObject({ rowsRead: ROWS, created: ROWS, failed: 0, resumed: 1 });
    expect(await liveCount(database, admin.organisationId)).toBe(ROWS);
  });
});

describe('the result e-mail', () => {
  type Received = { from: string; to: string[]; data: string };
  let t: TestApp;
  let smtp: SMTPServer;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onRcptTo(address, _session, callback) {
        if (address.address.includes('refused')) return callback(new Error('550 mailbox unavailable'));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            // Unfolded headers, quoted-printable soft line breaks removed.
            data: Buffer.concat(chunks)
              .toString('utf8')
              .replace(/\r\n[ \t]+/g, ' ')
              .replace(/=\r\n/g, ''),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await buildTestApp({
      runWorkers: true,
      config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'imports@test.local' },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('is sent over SMTP to the creator, and the import becomes SENT', async () => {
    const admin = await makeOrganisation(t);
    const created = await upload(t.app, admin, 'externalId,name,email\nM1,Mail One,\nM2,Mail Two,broken\n');
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const record = await until(async () => {
      const r = await readImport(t.app, admin, id);
      return r.status === IMPORT_STATUS.SENT && r;
    });
    expect(record.stats.notification).toMatchObject({ status: 'sent' });
    const message = received.find((m) => m.to.includes(admin.email));
    expect(message).toBeDefined();
    expect(message!.from).toBe('imports@test.local');
    expect(message!.data).toContain(
      'Subject: Import #1 (companies) done: 1 created, 0 updated, 0 deleted, 1 failed',
    );
    expect(message!.data).toContain('row 3, column email: is not an e-mail address');
    expect(message!.data).toContain(`/api/imports/${id}`);
    const [outbox] = await t.app.ctx.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.id, record.stats.notification.emailId));
    expect(outbox).toMatchObject({ status: 'sent', kind: 'import_result', to: [admin.email] });
  });

  it('leaves the import DONE (5) when the SMTP server refuses the message', async () => {
    const admin = await makeOrganisation(t);
    await t.app.ctx.db.execute(
      sql`update users set email = ${'refused@test.local'} where id = ${admin.userId}`,
    );
    const created = await upload(t.app, admin, 'externalId,name\nR1,Refused\n');
    const id = created.json().id as string;
    const record = await until(async () => {
      const r = await readImport(t.app, admin, id);
      return r.stats.notification && r;
    });
    expect(record.status).toBe(IMPORT_STATUS.DONE);
    expect(record.stats.notification.status).toBe('failed');
    expect(record.stats.created).toBe(1);
  });
});
