/**
 * Several nodes on one PostgreSQL: three service processes (src/server.ts in child processes,
 * workers on two of them, one DATA_DIR for the shared secrets) under mixed load through all three
 * keep the invariants, and when one holding an import is killed (kill -9) the others finish its
 * jobs.
 * PostgreSQL only: an embedded PGlite database belongs to one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { multipart, until } from '../fixtures/imports.ts';
import { TEST_DATABASE_URL } from '../helpers/pg-admin.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import {
  ADMIN,
  client,
  createServiceStore,
  type ServiceProcess,
  type ServiceStore,
  signInOver,
  startService,
} from '../helpers/service-process.ts';

const env = {
  IMPORT_STALE_AFTER_SECONDS: '10',
  IMPORT_BATCH_SIZE: '50',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_RETRY_DELAYS: '1s,1s,2s',
  WEBHOOK_POLL_INTERVAL_MS: '200',
};
const PASSWORD = 'multi-node-password';

describe.skipIf(!TEST_DATABASE_URL)(
  'three nodes on one PostgreSQL (PostgreSQL only: PGlite is embedded in one process)',
  () => {
    let store: ServiceStore;
    let database: Database;
    let receiver: Receiver;
    let nodes: ServiceProcess[] = [];
    type Call = ReturnType<typeof client>;
    /** The admin of the test's organisation, signed in on each node (one token, shared secret). */
    let on: Call[] = [];
    let organisationId: string;
    let companyId: string;

    beforeAll(async () => {
      store = await createServiceStore();
      receiver = await startReceiver();
      // Started together: each runs the migrations (a no-op after the first) and pg-boss's.
      // Workers on two of them (RUN_WORKERS); the third only serves the API.
      const started = await Promise.allSettled(
        ['true', 'true', 'false'].map((workers) => startService(store, { ...env, RUN_WORKERS: workers })),
      );
      nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      database = await store.open();
      const first = () => nodes[0]!.url;
      const root = client(first, await signInOver(first, ADMIN.email, ADMIN.password));
      const email = `multi-${Date.now()}@fault.local`;
      const organisation = await root('POST', '/api/organisations', {
        name: 'Multi node',
        admin: { email, password: PASSWORD },
      });
      expect(organisation.status, organisation.text).toBe(201);
      organisationId = organisation.json.id;
      const token = await signInOver(first, email, PASSWORD);
      on = nodes.map((node) => client(() => node.url, token));
      const company = await on[1]!('POST', '/api/companies', { name: 'Acme' });
      expect(company.status, company.text).toBe(201);
      companyId = company.json.id;
    }, 180_000);

    afterAll(async () => {
      await Promise.all(nodes.map((node) => node.crash()));
      await database?.close();
      await receiver.close();
      await store.drop();
    });

    const node = (i: number) => on[i % on.length]!;

    async function carton() {
      const catalogue = await loadCatalogue(database.db, organisationId);
      const id = (list: { id: string; code: string }[], code: string) =>
        list.find((r) => r.code === code)!.id;
      return {
        position: 0,
        productId: id(catalogue.products, 'STE'),
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        materialReferenceId: id(catalogue.materialReferences, 'GC1-350'),
        decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
        versoColorCount: 0,
      };
    }

    async function uploadImport(call: Call, prefix: string, rows: number) {
      const csv = `externalId,name\n${Array.from({ length: rows }, (_, i) => `${prefix}${i},${prefix} company ${i}`).join('\n')}\n`;
      const body = multipart({ type: '16' }, { content: csv });
      const created = await call('POST', '/api/imports', body.payload, body.headers);
      expect(created.status, created.text).toBe(201);
      return created.json.id as string;
    }

    async function importedOnce(prefix: string) {
      const [row] = (
        await database.query<{ rows: number; keys: number; events: number }>(
          `select count(*)::int as rows, count(distinct c.external_id)::int as keys,
                (select count(*)::int from events e where e.organisation_id = $1 and e.entity = 'COMPANY'
                   and e.type = 'CREATE' and e.entity_id in (select id from companies where organisation_id = $1
                   and external_id like $2)) as events
           from companies c where c.organisation_id = $1 and c.external_id like $2 and c.deleted_at is null`,
          [organisationId, `${prefix}%`],
        )
      ).rows;
      return row!;
    }

    it('keeps every invariant under mixed load through all three', { timeout: 240_000 }, async () => {
      // Webhook deliveries: each event sent once, from whichever node dispatches it.
      const path = `/multi-${Date.now()}/`;
      const hook = await node(0)('POST', '/api/webhooks', {
        name: 'multi',
        url: `${receiver.url}${path}`,
        events: ['event.articles.created'],
      });
      expect(hook.status, hook.text).toBe(201);
      const element = await carton();
      const sync = await node(0)('POST', '/api/briefs', {
        name: 'Reference',
        companyId,
        briefElements: [element],
      });
      expect(sync.status, sync.text).toBe(201);
      const referenceTotal = sync.json.prediction.totalPrice as number;
      expect(referenceTotal).toBeGreaterThan(0);

      const articleIds: string[] = [];
      const [quoteCodes, briefIds, importIds] = await Promise.all([
        // Quotes: drafts made on every node, published at once across them.
        (async () => {
          const drafts: string[] = [];
          for (let i = 0; i < 15; i++) {
            const article = await node(i)('POST', '/api/articles', {
              name: `Box ${i}`,
              code: `MN-${i}`,
              companyId,
              price: 10 + i,
            });
            expect(article.status, article.text).toBe(201);
            articleIds.push(article.json.id);
            const quote = await node(i + 1)('POST', '/api/quotes', {
              companyId,
              items: [{ articleId: article.json.id, quantity: 3 }],
            });
            expect(quote.status, quote.text).toBe(201);
            drafts.push(quote.json.id);
          }
          const published = await Promise.all(
            drafts.map((id, i) => node(i)('PUT', `/api/quotes/${id}`, { state: 'published' })),
          );
          return published.map((answer) => {
            expect(answer.status, answer.text).toBe(200);
            return answer.json.code as string;
          });
        })(),
        // Briefs priced in the background by whichever node's worker takes the job.
        Promise.all(
          Array.from({ length: 12 }, async (_, i) => {
            const answer = await node(i)('POST', '/api/briefs/async', {
              name: `Async ${i}`,
              companyId,
              briefElements: [element],
            });
            expect(answer.status, answer.text).toBe(202);
            return answer.json.id as string;
          }),
        ),
        // One import uploaded on each node.
        Promise.all([0, 1, 2].map((i) => uploadImport(node(i), `MN${i}-`, 1500))),
      ]);

      const numbers = quoteCodes.map((code) => Number(/(\d+)$/.exec(code)![1])).sort((a, b) => a - b);
      expect(new Set(numbers).size).toBe(15);
      for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBe(numbers[i - 1]! + 1);

      for (const [i, id] of briefIds.entries()) {
        const brief = await until(async () => {
          const answer = await node(i + 2)('GET', `/api/briefs/${id}`);
          return answer.json.predictionStatus === 'COMPLETED' && answer.json;
        }, 60_000);
        expect(brief.prediction.totalPrice).toBe(referenceTotal);
      }

      for (const [i, id] of importIds.entries()) {
        const record = await until(async () => {
          const answer = await node(i + 1)('GET', `/api/imports/${id}`);
          return answer.json.status === IMPORT_STATUS.SENT && answer.json;
        }, 120_000);
        expect(record.stats).toMatchObject({ rowsTotal: 1500, created: 1500, failed: 0 });
        expect(record.stats.resumed ?? 0).toBe(0);
        expect(await importedOnce(`MN${i}-`)).toEqual({ rows: 1500, keys: 1500, events: 1500 });
      }

      const ours = (r: { url: string }) => r.url.startsWith(path);
      await receiver.waitFor(articleIds.length, { filter: ours, timeoutMs: 30_000 });
      // A moment for a stray second attempt to show, had one been sent.
      await until(async () => {
        const answer = await node(0)(
          'GET',
          `/api/webhooks/${hook.json.id}/deliveries?status=succeeded&limit=1`,
        );
        return answer.json.meta.total === articleIds.length;
      }, 30_000);
      const received = receiver.requests.filter(ours);
      const messageIds = received.map((r) => r.headers['webhook-id']);
      expect(received).toHaveLength(articleIds.length);
      expect(new Set(messageIds).size).toBe(articleIds.length);
      const delivered = received.map((r) => JSON.parse(r.body).event.entityId as string).sort();
      expect(delivered).toEqual([...articleIds].sort());
      const [attempts] = (
        await database.query<{ attempts: number; deliveries: number }>(
          `select count(*)::int as attempts, count(distinct delivery_id)::int as deliveries
           from webhook_delivery_attempts where webhook_id = $1`,
          [hook.json.id],
        )
      ).rows;
      expect(attempts).toEqual({ attempts: articleIds.length, deliveries: articleIds.length });
    });

    it('loses no job when one node is killed', { timeout: 240_000 }, async () => {
      const element = await carton();
      const importIds = await Promise.all([0, 1, 2].map((i) => uploadImport(node(i), `KN${i}-`, 3000)));
      const briefIds = await Promise.all(
        Array.from({ length: 9 }, async (_, i) => {
          const answer = await node(i)('POST', '/api/briefs/async', {
            name: `Killed ${i}`,
            companyId,
            briefElements: [element],
          });
          expect(answer.status, answer.text).toBe(202);
          return answer.json.id as string;
        }),
      );
      // Once the imports are under way, a node working on one of them dies without a word.
      const holder = await until(async () => {
        const { rows } = await database.query<{ id: string; worker_id: string }>(
          `select id, worker_id from imports where id = any($1::uuid[]) and status = $2
             and worker_id is not null and processed_rows > 0`,
          [importIds, IMPORT_STATUS.IN_PROGRESS],
        );
        return rows[0];
      }, 60_000);
      const victim = nodes.findIndex((n) => holder.worker_id.split(':')[1] === String(n.pid));
      expect(victim).toBeGreaterThanOrEqual(0);
      await nodes[victim]!.crash();
      const survivors = on.filter((_, i) => i !== victim);
      const ask = (i: number) => survivors[i % survivors.length]!;

      for (const [i, id] of importIds.entries()) {
        const record = await until(async () => {
          const answer = await ask(i)('GET', `/api/imports/${id}`);
          return answer.json.status === IMPORT_STATUS.SENT && answer.json;
        }, 150_000);
        expect(record.stats).toMatchObject({ rowsTotal: 3000, rowsRead: 3000, created: 3000, failed: 0 });
        expect(await importedOnce(`KN${i}-`)).toEqual({ rows: 3000, keys: 3000, events: 3000 });
        // The import the victim held was taken over by another node, from its checkpoint.
        if (id === holder.id) expect(record.stats.resumed).toBe(1);
      }
      for (const [i, id] of briefIds.entries()) {
        await until(async () => {
          const answer = await ask(i)('GET', `/api/briefs/${id}`);
          return answer.json.predictionStatus === 'COMPLETED';
        }, 90_000);
      }
    });
  },
);
