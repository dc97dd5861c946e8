import { and, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles, events } from '../../src/db/schema/index.ts';
import { isAllowed, PERMISSIONS } from '../../src/platform/permissions.ts';
import {
  buildTestApp,
  type Credentials,
  makeOrganisation,
  PASSWORD,
  type TestApp,
  testConfig,
} from '../helpers/app.ts';
import { eventChecker } from '../helpers/event-schemas.ts';
import { requests } from '../helpers/http.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';

/*
 * What webhooks deliver as `entity`: the GET presenter's output for staff (docs/webhooks.md,
 * "Entity payloads"), each entity's schema in the OpenAPI document's `webhooks` section.
 */

type Json = Record<string, unknown>;
type Delivered = {
  eventName: string;
  event: { id: string; code: number; entity: string; type: string; entityId: string };
  entity: Json;
};

let t: TestApp;
let receiver: Receiver;
let admin: Credentials;

beforeAll(async () => {
  t = await buildTestApp({
    runWorkers: true,
    config: { webhooks: { ...testConfig().webhooks, pollIntervalMs: 100, retryDelaysMs: [150, 150] } },
  });
  receiver = await startReceiver();
  admin = await makeOrganisation(t);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const http = requests(() => t);
const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) => {
  const response = await http.send(method, admin, `/api${url}`, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json();
};

describe('the payloads are the staff’s', () => {
  it('only roles that read costs read events or manage webhooks', () => {
    for (const role of [...PERMISSIONS['events:read'].roles, ...PERMISSIONS['webhooks:manage'].roles])
      expect(isAllowed(role, 'costs:read'), role).toBe(true);
  });

  it('the document has a webhook per declared entity, its entity schema among the components', () => {
    const document = t.app.swagger() as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [...t.app.ctx.registry.entityPayloads().keys()].sort(),
    );
    for (const [entity, hook] of Object.entries(document.webhooks)) {
      const text = JSON.stringify(hook.post.requestBody.content['application/json']!.schema);
      for (const [, name] of text.matchAll(/#\/components\/schemas\/(\w+)/g))
        expect(document.components.schemas[name!], `${entity}: ${name}`).toBeDefined();
    }
  });
});

describe('a quote’s life delivered to a webhook', () => {
  it('delivers every entity as its schema says, quotes as GET shows them, without the stored columns', async () => {
    const hook = await call('POST', '/webhooks', {
      name: 'ERP',
      url: `${receiver.url}/all/`,
      events: ['event.**'],
    });
    const [since] = await t.app.ctx.db
      .select({ code: events.code })
      .from(events)
      .where(eq(events.entityId, hook.id));

    const company = await call('POST', '/companies', { name: 'Acme' });
    await call('POST', '/projects', { name: 'Boxes 2027', companyId: company.id });
    await call('POST', '/addresses', {
      companyId: company.id,
      type: 'shipping',
      name: 'Dock',
      street1: '1 Quay',
      city: 'Lyon',
      countryCode: 'FR',
    });
    const contact = await call('POST', '/users/contacts', {
      email: 'buyer@acme.test',
      firstName: 'Ann',
      collaborationIds: [company.id],
    });
    const [article] = await t.app.ctx.db
      .insert(articles)
      .values({
        organisationId: admin.organisationId,
        companyId: company.id as string,
        name: 'Mailer',
        code: 'M-1',
        price: 0.5,
      })
      .returning();
    const quote = await call('POST', '/quotes', {
      companyId: company.id,
      contactId: contact.id,
      items: [{ articleId: article!.id, quantity: 100 }],
    });
    await call('PATCH', `/quotes/${quote.id}/quote-items/${quote.items[0].id}`, { comment: 'Rush' });
    await call('PUT', `/quotes/${quote.id}`, { state: 'published' });
    await call('POST', `/quotes/${quote.id}/accept`);
    await call('POST', `/quotes/${quote.id}/order`);
    await call('POST', '/users', { email: 'seller@org.test', password: PASSWORD, role: 'sales' });

    const recorded = await t.app.ctx.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.organisationId, admin.organisationId), gte(events.code, since!.code)));
    const received = await receiver.waitFor(recorded.length, {
      timeoutMs: 60_000,
      filter: (request) => request.url.startsWith('/all/'),
    });
    // In the order of the changes (deliveries run concurrently).
    const delivered = received
      .map((request) => JSON.parse(request.body) as Delivered)
      .sort((a, b) => a.event.code - b.event.code);
    const kinds = new Set(delivered.map((body) => body.event.entity));
    for (const kind of [
      'COMPANY',
      'PROJECT',
      'ADDRESS',
      'CONTACT',
      'USER',
      'QUOTE',
      'QUOTE_ITEM',
      'ORDER',
      'ORDER_ITEM',
    ])
      expect([...kinds], kind).toContain(kind);

    // Every delivered entity matches its schema in the document.
    const check = eventChecker(t.app.swagger() as never);
    expect(delivered.flatMap(check)).toEqual([]);

    // The quote: GET's own fields (the presenter's VAT totals), none of the stored-only columns.
    const quoteEvents = delivered.filter((body) => body.event.entity === 'QUOTE');
    const last = quoteEvents.at(-1)!.entity;
    for (const column of ['codeYear', 'codeNumber', 'deletedAt', 'rootQuoteId', 'proofsPending'])
      for (const body of quoteEvents) expect(body.entity, column).not.toHaveProperty(column);
    const read = await call('GET', `/quotes/${quote.id}`);
    for (const [key, value] of Object.entries(last)) expect(read[key], key).toEqual(value);
    expect(last).toMatchObject({ state: 'signed', netTotal: read.netTotal, orderId: read.orderId });
    expect(last).not.toHaveProperty('items');
    expect(last).not.toHaveProperty('allowedActions');

    // A line as GET shows it to staff: its cost and margin included.
    const item = delivered.filter((body) => body.event.entity === 'QUOTE_ITEM').at(-1)!.entity;
    const shown = read.items.find((line: Json) => line.id === item.id);
    for (const [key, value] of Object.entries(item)) expect(shown[key], key).toEqual(value);
    expect(item).toHaveProperty('margin');

    // The contact as GET /users/contacts/{id} answers it (no password hash, its companies).
    const contactEvent = delivered.find((body) => body.event.entity === 'CONTACT')!.entity;
    expect(contactEvent).toMatchObject({ id: contact.id, collaborationIds: [company.id] });
    expect(JSON.stringify(delivered)).not.toMatch(/passwordHash|tokenHash/);

    // The event resources: the quote as GET answers it, a stored row as its events deliver it.
    const quoteResource = await call('GET', `/events/ressources/${quoteEvents.at(-1)!.event.id}`);
    // (GET's fields and values; the events route adds HIPE's names to what it answers, e.g. `phone`.)
    expect(quoteResource).toMatchObject(await call('GET', `/quotes/${quote.id}`));
    expect(quoteResource).not.toHaveProperty('codeYear');
    const companyEvent = delivered.find((body) => body.event.entity === 'COMPANY')!;
    const companyResource = await call('GET', `/events/ressources/${companyEvent.event.id}`);
    expect(companyResource).toMatchObject(companyEvent.entity);
    expect(companyResource).toMatchObject(await call('GET', `/companies/${company.id}`));

    // The event log serves the same documents.
    const listed = await call('GET', `/events?entity=QUOTE&sinceCode=${since!.code - 1}`);
    const byId = (bodies: Delivered[]) =>
      Object.fromEntries(bodies.map((body) => [body.event.id, body.entity]));
    expect(byId(listed.data)).toEqual(byId(quoteEvents));
  });
});
