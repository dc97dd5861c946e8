import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles, companies, companyUsers, quotes } from '../../src/db/schema/index.ts';
import { ROLES, type Role } from '../../src/db/schema/platform.ts';
import { QUOTE_STATES, type QuoteState } from '../../src/db/schema/quotes.ts';
import {
  allowedActions,
  assertQuoteEditable,
  type GuardQuote,
  may,
  QUOTE_ACTIONS,
  QUOTE_EFFECTS,
  QUOTE_LIFECYCLE,
  QUOTE_TRIGGERS,
  type QuoteTrigger,
  refusalOf,
  type Transition,
  transitionFor,
} from '../../src/modules/quotes/lifecycle.ts';
import { PERMISSIONS } from '../../src/platform/permissions.ts';
import { buildTestApp, type Credentials, makeOrganisation, makeUser, type TestApp } from '../helpers/app.ts';
import { requests, type Schemas } from '../helpers/http.ts';

/*
 * The quote lifecycle table (src/modules/quotes/lifecycle.ts): its shape (no duplicate or dead
 * row, the doc shows it), and the API executing it: every state x trigger answers as the table
 * says, and `allowedActions` tells each caller what the API would accept.
 */

const NOW = new Date('2026-06-01T12:00:00Z');
const FUTURE = new Date('2026-07-01T00:00:00Z');
const PAST = new Date('2026-05-01T00:00:00Z');

/** Quotes of every kind a guard can tell apart. */
const SAMPLES: GuardQuote[] = QUOTE_STATES.flatMap((state) =>
  [null, FUTURE, PAST].flatMap((validUntil) =>
    [null, '01a213bc-0000-7000-8000-000000000000'].map((orderId) => ({ state, validUntil, orderId })),
  ),
);

describe('the table', () => {
  it('has one row per state and trigger', () => {
    const keys = QUOTE_LIFECYCLE.map((row) => `${row.from}/${row.trigger}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has no dead row: each is reachable from draft and its guard lets someone through', () => {
    const reached = new Set<QuoteState>(['draft']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of QUOTE_LIFECYCLE) {
        if (reached.has(row.from) && !reached.has(row.to)) {
          reached.add(row.to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...QUOTE_STATES].sort());
    const actors = [...ROLES.map((role) => ({ role })), 'system' as const];
    for (const row of QUOTE_LIFECYCLE) {
      const passes = SAMPLES.filter((q) => q.state === row.from).some((quote) =>
        actors.some(
          (actor) =>
            row.guard(quote, actor, NOW) === null && refusalOf(row.trigger, quote, actor, NOW) === null,
        ),
      );
      expect(passes, `${row.from} --${row.trigger}-->`).toBe(true);
    }
  });

  it('uses every trigger and effect, and fires only with a permission of the matrix', () => {
    expect(new Set(QUOTE_LIFECYCLE.map((r) => r.trigger))).toEqual(new Set(QUOTE_TRIGGERS));
    expect(new Set(QUOTE_LIFECYCLE.flatMap((r) => r.effects))).toEqual(new Set(QUOTE_EFFECTS));
    for (const row of QUOTE_LIFECYCLE) {
      if (row.by !== 'system') expect(Object.keys(PERMISSIONS)).toContain(row.by);
      // A state change is recorded: every row that moves the quote ends with its event.
      if (row.from !== row.to) expect(row.effects.at(-1)).toBe('recordUpdate');
    }
    expect(QUOTE_LIFECYCLE.filter((r) => r.by === 'system').map((r) => r.trigger)).toEqual(['expire']);
    // Users are offered every trigger but the service's own.
    expect([...QUOTE_ACTIONS]).toEqual(QUOTE_TRIGGERS.filter((trigger) => trigger !== 'expire'));
  });

  it('is the table docs/quotes.md shows', () => {
    const doc = readFileSync(new URL('../../docs/quotes.md', import.meta.url), 'utf8');
    const rendered = renderTable(QUOTE_LIFECYCLE);
    expect(doc, `docs/quotes.md should contain:\n${rendered}`).toContain(rendered);
  });

  it('answers the refusals of the API when no row or guard allows', () => {
    const q = (state: QuoteState, extra: Partial<GuardQuote> = {}): GuardQuote => ({
      state,
      validUntil: FUTURE,
      orderId: null,
      ...extra,
    });
    const sales = { role: 'sales' as Role };
    expect(refusalOf('edit', q('published'), sales, NOW)?.code).toBe('quote_locked');
    expect(refusalOf('convert', q('published'), sales, NOW)?.code).toBe('quote_not_signed');
    expect(refusalOf('convert', q('signed', { orderId: 'x' }), sales, NOW)?.code).toBe('already_converted');
    expect(refusalOf('revise', q('signed', { orderId: 'x' }), sales, NOW)?.code).toBe('invalid_transition');
    expect(refusalOf('revise', q('draft'), sales, NOW)?.code).toBe('invalid_transition');
    expect(refusalOf('accept', q('published', { validUntil: PAST }), sales, NOW)?.code).toBe(
      'invalid_transition',
    );
    expect(refusalOf('expire', q('published', { validUntil: PAST }), sales, NOW)?.code).toBe(
      'invalid_transition',
    );
    expect(refusalOf('expire', q('published', { validUntil: PAST }), 'system', NOW)).toBeNull();
    expect(refusalOf('expire', q('published'), 'system', NOW)?.code).toBe('invalid_transition');
    expect(refusalOf('publish', q('draft'), { role: 'contact' }, NOW)?.code).toBe('forbidden');
    expect(refusalOf('accept', q('published'), { role: 'guest' }, NOW)?.code).toBe('forbidden');
    expect(may('accept', q('published'), { role: 'contact' }, NOW)).toBe(true);
    expect(() => assertQuoteEditable(q('draft'))).not.toThrow();
    expect(() => assertQuoteEditable(q('signed'))).toThrow(/signed and locked/);
  });

  it('offers each role its actions', () => {
    const offer = (role: Role, quote: Partial<GuardQuote> & { state: QuoteState }) =>
      allowedActions({ validUntil: FUTURE, orderId: null, ...quote }, { role }, NOW);
    expect(offer('sales', { state: 'draft' })).toEqual(['edit', 'publish']);
    expect(offer('guest', { state: 'draft' })).toEqual([]);
    expect(offer('admin', { state: 'published' })).toEqual(['accept', 'decline', 'revise']);
    expect(offer('contact', { state: 'published' })).toEqual(['accept', 'decline']);
    expect(offer('contact', { state: 'published', validUntil: PAST })).toEqual([]);
    expect(offer('sales', { state: 'published', validUntil: PAST })).toEqual(['revise']);
    expect(offer('external_sales', { state: 'signed' })).toEqual(['revise', 'convert']);
    expect(offer('contact', { state: 'signed' })).toEqual([]);
    expect(offer('sales', { state: 'signed', orderId: 'x' })).toEqual([]);
    expect(offer('superadmin', { state: 'rejected' })).toEqual(['revise']);
    expect(offer('contact', { state: 'expired' })).toEqual([]);
  });
});

/** The markdown table of docs/quotes.md, from the code. */
function renderTable(rows: readonly Transition[]) {
  const who = (row: Transition) =>
    row.by === 'system'
      ? 'the service'
      : `${PERMISSIONS[row.by].roles.filter((r) => r !== 'superadmin').join(', ')} (\`${row.by}\`)`;
  const lines = [
    '| From | Trigger | To | Who | Guard | Effects |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.from} | \`${row.trigger}\` | ${row.to} | ${who(row)} | ${row.when} | ${row.effects.map((e) => `\`${e}\``).join(', ')} |`,
    ),
  ];
  return lines.join('\n');
}

// --- The API executes the table -------------------------------------------------------------

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let guest: Credentials;
let contact: Credentials;
let globexContact: Credentials;
let externalSales: Credentials;
let acmeId: string;
let articleId: string;

type Quote = Schemas['Quote'];

const { send: call } = requests(() => t);

async function linkUser(user: Credentials, companyId: string) {
  await t.app.ctx.db
    .insert(companyUsers)
    .values({ companyId, userId: user.userId, organisationId: user.organisationId });
}

/** The kinds of quote the matrix starts from: the five states, and a signed quote made into an order. */
const KINDS = ['draft', 'published', 'signed', 'ordered', 'rejected', 'expired'] as const;
type Kind = (typeof KINDS)[number];

async function quoteIn(kind: Kind): Promise<Quote> {
  const created = await call('POST', admin, '/api/quotes', {
    companyId: acmeId,
    items: [{ articleId, quantity: 3 }],
  });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json().id;
  const step = async (method: 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await call(method, admin, url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
  };
  if (kind !== 'draft') await step('PUT', `/api/quotes/${id}`, { state: 'published' });
  if (kind === 'signed' || kind === 'ordered') await step('POST', `/api/quotes/${id}/accept`);
  if (kind === 'ordered') await step('POST', `/api/quotes/${id}/order`);
  if (kind === 'rejected') await step('POST', `/api/quotes/${id}/decline`);
  if (kind === 'expired') {
    await t.app.ctx.db
      .update(quotes)
      .set({ validUntil: new Date(Date.now() - 60_000) })
      .where(eq(quotes.id, id));
  }
  return (await call('GET', admin, `/api/quotes/${id}`)).json();
}

/** How each trigger is asked of the API. */
const REQUESTS: Record<QuoteTrigger, (id: string) => ['POST' | 'PUT', string, object?]> = {
  edit: (id) => ['PUT', `/api/quotes/${id}`, { name: 'Renamed' }],
  publish: (id) => ['PUT', `/api/quotes/${id}`, { state: 'published' }],
  accept: (id) => ['POST', `/api/quotes/${id}/accept`],
  decline: (id) => ['POST', `/api/quotes/${id}/decline`, { reason: 'No budget' }],
  expire: (id) => ['PUT', `/api/quotes/${id}`, { state: 'expired' }],
  revise: (id) => ['POST', `/api/quotes/${id}/revisions`],
  convert: (id) => ['POST', `/api/quotes/${id}/order`],
};

/** What the API answers (an admin asking): a status, or the refusal's 409 code; and the state after. */
const MATRIX: Record<Kind, Record<QuoteTrigger, number | string>> = {
  draft: {
    edit: 200,
    publish: 200,
    accept: 'invalid_transition',
    decline: 'invalid_transition',
    expire: 'invalid_transition',
    revise: 'invalid_transition',
    convert: 'quote_not_signed',
  },
  published: {
    edit: 'quote_locked',
    publish: 'invalid_transition',
    accept: 200,
    decline: 200,
    expire: 'invalid_transition',
    revise: 201,
    convert: 'quote_not_signed',
  },
  signed: {
    edit: 'quote_locked',
    publish: 'invalid_transition',
    accept: 'invalid_transition',
    decline: 'invalid_transition',
    expire: 'invalid_transition',
    revise: 201,
    convert: 201,
  },
  ordered: {
    edit: 'quote_locked',
    publish: 'invalid_transition',
    accept: 'invalid_transition',
    decline: 'invalid_transition',
    expire: 'invalid_transition',
    revise: 'invalid_transition',
    convert: 'already_converted',
  },
  rejected: {
    edit: 'quote_locked',
    publish: 'invalid_transition',
    accept: 'invalid_transition',
    decline: 'invalid_transition',
    expire: 'invalid_transition',
    revise: 201,
    convert: 'quote_not_signed',
  },
  expired: {
    edit: 'quote_locked',
    publish: 'invalid_transition',
    accept: 'invalid_transition',
    decline: 'invalid_transition',
    expire: 'invalid_transition',
    revise: 201,
    convert: 'quote_not_signed',
  },
};

const AFTER: Partial<Record<QuoteTrigger, QuoteState>> = {
  publish: 'published',
  accept: 'signed',
  decline: 'rejected',
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  const db = t.app.ctx.db;
  const [acme, globex] = await db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
    ])
    .returning();
  acmeId = acme!.id;
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
  contact = await makeUser(t, admin, 'contact');
  await linkUser(contact, acmeId);
  globexContact = await makeUser(t, admin, 'contact');
  await linkUser(globexContact, globex!.id);
  externalSales = await makeUser(t, admin, 'external_sales');
  await linkUser(externalSales, acmeId);
  const [article] = await db
    .insert(articles)
    .values({
      organisationId: admin.organisationId,
      companyId: acmeId,
      name: 'Label',
      code: 'LBL-1',
      price: 0.5,
    })
    .returning();
  articleId = article!.id;
});
afterAll(() => t.close());

describe('the API fires the table', () => {
  for (const kind of KINDS) {
    it(`from ${kind}: each trigger is allowed or refused as the table says, and allowedActions agrees`, async () => {
      for (const trigger of QUOTE_TRIGGERS) {
        const quote = await quoteIn(kind);
        const state = kind === 'ordered' ? 'signed' : kind;
        expect(quote.state).toBe(state);
        const expected = MATRIX[kind][trigger];
        // The quote offered the action exactly when the API accepts it.
        if (trigger !== 'expire') {
          expect(quote.allowedActions.includes(trigger), `${kind} offers ${trigger}`).toBe(
            typeof expected === 'number',
          );
        }
        const [method, url, payload] = REQUESTS[trigger](quote.id);
        const response = await call(method, admin, url, payload);
        const after: Quote = (await call('GET', admin, `/api/quotes/${quote.id}`)).json();
        if (typeof expected === 'number') {
          expect(response.statusCode, `${kind} ${trigger}: ${response.body}`).toBe(expected);
          expect(after.state).toBe(AFTER[trigger] ?? state);
        } else {
          expect(response.statusCode, `${kind} ${trigger}: ${response.body}`).toBe(409);
          expect(response.json().code, `${kind} ${trigger}`).toBe(expected);
          expect(after.state, 'a refusal changes nothing').toBe(state);
          expect(after.orderId).toBe(quote.orderId);
        }
      }
    });
  }

  it('a converted quote links its order; the conversion answer offers nothing more', async () => {
    const signed = await quoteIn('signed');
    const converted = await call('POST', admin, `/api/quotes/${signed.id}/order`);
    expect(converted.statusCode, converted.body).toBe(201);
    const { quote, order } = converted.json();
    expect(quote.order).toEqual({ id: order.id, code: order.code, externalId: null });
    expect(order.code).toEqual(expect.any(Number));
    expect(quote.allowedActions).toEqual([]);
    expect((await call('GET', contact, `/api/quotes/${signed.id}`)).json().order).toEqual({
      id: order.id,
      code: order.code,
      externalId: null,
    });
    // Not converted: no order.
    expect(signed.order).toBeNull();
  });
});

describe('the routes and the table', () => {
  it('each trigger’s route asks for the permission its row names (PUT asks quotes:write of all)', () => {
    const permissionOf = (method: string, path: string) => {
      const found = t.app.protectedRoutes.filter((r) => r.method === method && r.url === `/api${path}`);
      expect(found, `${method} ${path}`).toHaveLength(1);
      return found[0]!.permission;
    };
    const routeOf: Record<Exclude<QuoteTrigger, 'expire'>, [string, string]> = {
      edit: ['PUT', '/quotes/:id'],
      publish: ['PUT', '/quotes/:id'],
      accept: ['POST', '/quotes/:id/accept'],
      decline: ['POST', '/quotes/:id/decline'],
      revise: ['POST', '/quotes/:id/revisions'],
      convert: ['POST', '/quotes/:id/order'],
    };
    for (const row of QUOTE_LIFECYCLE) {
      if (row.trigger === 'expire') continue;
      expect(permissionOf(...routeOf[row.trigger]), `${row.from} ${row.trigger}`).toBe(row.by);
    }
    // Items change with `edit`'s permission too.
    expect(permissionOf('POST', '/quotes/:id/quote-items')).toBe(transitionFor('edit', 'draft')!.by);
  });
});

describe('allowedActions per caller', () => {
  it('tells each role what it may do, per state', async () => {
    const actionsOf = async (who: Credentials, id: string) => {
      const response = await call('GET', who, `/api/quotes/${id}`);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as Quote).allowedActions;
    };
    const draft = await quoteIn('draft');
    expect(await actionsOf(admin, draft.id)).toEqual(['edit', 'publish']);
    expect(await actionsOf(sales, draft.id)).toEqual(['edit', 'publish']);
    expect(await actionsOf(externalSales, draft.id)).toEqual(['edit', 'publish']);
    expect(await actionsOf(guest, draft.id)).toEqual([]);

    const published = await quoteIn('published');
    expect(await actionsOf(sales, published.id)).toEqual(['accept', 'decline', 'revise']);
    expect(await actionsOf(admin, published.id)).toEqual(['accept', 'decline', 'revise']);
    expect(await actionsOf(contact, published.id)).toEqual(['accept', 'decline']);
    expect(await actionsOf(guest, published.id)).toEqual([]);

    const signed = await quoteIn('signed');
    expect(await actionsOf(sales, signed.id)).toEqual(['revise', 'convert']);
    expect(await actionsOf(contact, signed.id)).toEqual([]);

    const ordered = await quoteIn('ordered');
    expect(await actionsOf(admin, ordered.id)).toEqual([]);
    expect(await actionsOf(sales, ordered.id)).toEqual([]);

    const expired = await quoteIn('expired');
    expect(await actionsOf(contact, expired.id)).toEqual([]);
    expect(await actionsOf(sales, expired.id)).toEqual(['revise']);

    // The list items carry them too, per caller.
    const listed = (await call('GET', contact, '/api/quotes?limit=100')).json().data as Quote[];
    expect(listed.find((q) => q.id === published.id)?.allowedActions).toEqual(['accept', 'decline']);
    const staffList = (await call('GET', sales, '/api/quotes?limit=100')).json().data as Quote[];
    expect(staffList.find((q) => q.id === draft.id)?.allowedActions).toEqual(['edit', 'publish']);
  });

  it('a contact acts as told: accepts what is offered, is refused the rest', async () => {
    const published = await quoteIn('published');
    expect((await call('POST', contact, `/api/quotes/${published.id}/revisions`)).statusCode).toBe(403);
    // A buyer signs with their typed name and an explicit confirmation (acceptances module).
    const accepted = await call('POST', contact, `/api/quotes/${published.id}/accept`, {
      typedName: 'Ada Buyer',
      confirm: true,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().allowedActions).toEqual([]);
  });

  it('a contact of another company, a contact on a draft and another tenant get 404', async () => {
    const published = await quoteIn('published');
    const draft = await quoteIn('draft');
    expect((await call('GET', globexContact, `/api/quotes/${published.id}`)).statusCode).toBe(404);
    expect((await call('POST', globexContact, `/api/quotes/${published.id}/accept`)).statusCode).toBe(404);
    expect((await call('GET', contact, `/api/quotes/${draft.id}`)).statusCode).toBe(404);
    expect((await call('GET', other, `/api/quotes/${published.id}`)).statusCode).toBe(404);
    expect((await call('POST', other, `/api/quotes/${published.id}/decline`)).statusCode).toBe(404);
    expect((await call('POST', other, `/api/quotes/${published.id}/revisions`)).statusCode).toBe(404);
    expect((await call('PUT', other, `/api/quotes/${draft.id}`, { state: 'published' })).statusCode).toBe(
      404,
    );
    expect((await call('GET', admin, `/api/quotes/${published.id}`)).json().state).toBe('published');
  });
});
