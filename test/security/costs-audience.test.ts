import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, companyUsers } from '../../src/db/schema/index.ts';
import type { Role } from '../../src/db/schema/platform.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { isAllowed } from '../../src/platform/permissions.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';

/**
 * The seller's costs stay private (issue 23): every read operation of the OpenAPI document, walked
 * as each role, answers no internal field to a role without `costs:read`. The same walk as sales
 * must find those fields (else the walk could not fail), and the brief and catalogue reads a buyer
 * uses must answer 200 (else nothing was looked at).
 */

/** Field names that only ever carry the seller's costs, margins, rates, times or ranking. */
const INTERNAL_FIELDS = new Set([
  'productCost',
  'marginAmount',
  'marginPercentage',
  'commercialMargin',
  'commercialMarginInitial',
  'defaultCommercialMargin',
  'costBreakdown',
  'costSummary',
  'costShares',
  'breakdown',
  'natures',
  'cost',
  'totalCost',
  'rankingTotal',
  'amortisedToolingCost',
  'lostBy',
  'lostByPercent',
  'whyNotSelected',
  'hourlyRate',
  'setupHours',
  'setupHoursPerColour',
  'setupHoursPerTool',
  'setupTime',
  'rollingTime',
  'speedPerHour',
  'makeReady',
  'makeReadyPerColour',
  'runningWasteRate',
  'wasteByRunLength',
  'lineSpeedPerHour',
  'packagesPerHour',
  'pricePerTonne',
  'pricePerSquareMetre',
  'pricePerM2',
  'pricePerPallet',
  'pricePerMetre',
  'pricePerSquareCentimetre',
  'basePrice',
  'minimumPrice',
  'consumptionRate',
  'depthSurchargePerMm',
  // A quote line's engine price, cost and margin (beside a manual price): staff only.
  'engineCost',
  'engineAmount',
  'enginePrice',
  'margin',
]);

/** In the catalogue, `price` is a purchase price (cases, pallets, consumables, composition prices). */
const CATALOGUE_TAGS = new Set(['catalogue', 'corrugated']);

/** The engine's legacy per-part cost fields (`pliantPredis`, `caissePredis`...). */
const isInternal = (key: string, catalogue: boolean) =>
  INTERNAL_FIELDS.has(key) || /Predis$/.test(key) || (catalogue && key === 'price');

function internalPointers(value: unknown, catalogue: boolean, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => internalPointers(v, catalogue, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  // A null says nothing (HIPE's answers keep their keys, e.g. a composition's price for a buyer).
  return Object.entries(value).flatMap(([key, v]) => [
    ...(isInternal(key, catalogue) && v !== null ? [`${at}/${key}`] : []),
    ...internalPointers(v, catalogue, `${at}/${key}`),
  ]);
}

let t: TestApp;
let admin: Credentials;
let catalogue: Catalogue;
let companyId: string;
const users = {} as Record<'sales' | 'external_sales' | 'contact' | 'guest', Credentials>;
let briefId: string;

const idOf = (list: { id: string; code: string }[], code: string) => list.find((r) => r.code === code)!.id;

function brief(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Tea box',
    companyId,
    briefElements: [
      {
        position: 0,
        productId: idOf(catalogue.products, 'STE'),
        lengthDimension: 120,
        widthDimension: 40,
        heightDimension: 180,
        materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
        decorationsCount: [
          { decorationIndex: 0, quantity: 5000 },
          { decorationIndex: 1, quantity: 2000 },
        ],
        wantDecoration: true,
        sidePrinted: 'RECTO',
        rectoColorCount: 4,
        versoColorCount: 0,
        wantVarnishRecto: true,
      },
    ],
    ...overrides,
  };
}

const request = (
  who: Credentials,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  payload?: unknown,
) => t.app.inject({ method, url, headers: auth(who), ...(payload ? { payload: payload as object } : {}) });

type Operation = { path: string; tags: string[] };
let reads: Operation[] = [];
/** For each collection path, an id of a row in it (read as admin), for the walk's `{id}`. */
const idsByCollection = new Map<string, string>();

function firstId(body: unknown): string | undefined {
  const rows = Array.isArray(body) ? body : (body as { data?: unknown[] })?.data;
  const first = Array.isArray(rows) ? (rows[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : undefined;
}

/** The operation's URL with its parameters filled from the fixture, or null when it has none to use. */
function urlOf(path: string): string | null {
  const collection = path.replace(/\/\{[^}]+\}.*$/, '');
  let url = path;
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    let value: string | undefined;
    if (name === 'elementIndex') value = '0';
    else if (name === 'id') value = collection === '/api/briefs' ? briefId : idsByCollection.get(collection);
    if (value === undefined) return null;
    url = url.replace(`{${name}}`, value);
  }
  return url;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const [company] = await t.app.ctx.db
    .insert(companies)
    .values({ organisationId: admin.organisationId, name: 'Acme' })
    .returning();
  companyId = company!.id;
  for (const role of ['sales', 'external_sales', 'contact', 'guest'] as const) {
    users[role] = await makeUser(t, admin, role);
    await t.app.ctx.db
      .insert(companyUsers)
      .values({ companyId, userId: users[role].userId, organisationId: admin.organisationId });
  }
  const created = await request(admin, 'POST', '/api/briefs', brief());
  expect(created.statusCode, created.body).toBe(201);
  briefId = created.json().id;
  const quote = await request(admin, 'POST', '/api/quotes', { companyId, briefIds: [briefId] });
  expect(quote.statusCode, quote.body).toBe(201);
  // Price-break columns carry the engine's cost and margin per quantity (staff only); published,
  // so the contact reads the quote too.
  const quoteId = quote.json().id;
  const element = quote.json().items[0].children[0];
  const priced = await request(admin, 'PATCH', `/api/quotes/${quoteId}/quote-items/${element.id}`, {
    priceBreaks: [{ quantity: 1000 }, { quantity: 2500 }],
  });
  expect(priced.statusCode, priced.body).toBe(200);
  const published = await request(admin, 'PUT', `/api/quotes/${quoteId}`, { state: 'published' });
  expect(published.statusCode, published.body).toBe(200);
  const article = await request(admin, 'POST', '/api/articles', { name: 'Box', code: 'BOX-1', companyId });
  expect(article.statusCode, article.body).toBe(201);

  const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  reads = Object.entries(document.paths)
    .filter(([, methods]) => methods.get)
    .map(([path, methods]) => ({ path, tags: methods.get!.tags ?? [] }));
  for (const { path } of reads) {
    if (path.includes('{')) continue;
    const response = await request(admin, 'GET', path);
    const id = response.statusCode === 200 ? firstId(response.json()) : undefined;
    if (id) idsByCollection.set(path, id);
  }
});
afterAll(() => t.close());

/** Every read as `who`: the internal fields found per URL, and which URLs answered 200. */
async function walk(who: Credentials) {
  const leaks: string[] = [];
  const answered = new Set<string>();
  for (const { path, tags } of reads) {
    const url = urlOf(path);
    if (!url) continue;
    const response = await request(who, 'GET', url);
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(500);
    if (response.statusCode !== 200) continue;
    answered.add(path);
    if (!String(response.headers['content-type']).includes('json')) continue;
    const catalogueTagged = tags.some((tag) => CATALOGUE_TAGS.has(tag));
    for (const pointer of internalPointers(response.json(), catalogueTagged)) leaks.push(`${url} ${pointer}`);
  }
  return { leaks, answered };
}

/** The reads a buyer's screens use: each must have been looked at. */
const BUYER_READS = [
  '/api/briefs',
  '/api/briefs/{id}',
  '/api/briefs/{id}/details',
  '/api/briefs/{id}/predictions',
  '/api/briefs/{id}/process/{elementIndex}',
  '/api/briefs/{id}/value-analysis',
  '/api/briefs/{id}/prediction-panel',
  '/api/brief-elements',
  '/api/machines',
  '/api/material-references',
  '/api/packing-cases',
  '/api/pricing-settings',
  '/api/corrugated-material-compositions',
  // The buyer portal's header.
  '/api/organisation/brand',
  '/api/quotes/{id}',
];

describe('the seller’s costs stay private: every read operation walked as each role', () => {
  it('costs:read is the seller’s staff only', () => {
    const seeing = (['superadmin', 'admin', 'sales', 'external_sales', 'contact', 'guest'] as Role[]).filter(
      (r) => isAllowed(r, 'costs:read'),
    );
    expect(seeing).toEqual(['superadmin', 'admin', 'sales']);
  });

  it('sales see the costs (the walk finds what it looks for)', async () => {
    const { leaks } = await walk(users.sales);
    const found = leaks.join('\n');
    for (const field of [
      'productCost',
      'marginAmount',
      'costBreakdown',
      'hourlyRate',
      'pricePerTonne',
      'setupTime',
      'engineCost',
      'margin',
      'priceBreaks/0/engineCost',
      'priceBreaks/0/margin',
    ])
      expect(found, field).toContain(`/${field}`);
  });

  for (const role of ['contact', 'guest', 'external_sales'] as const) {
    it(`${role}: no read answers an internal field, and the buyer's reads answer`, async () => {
      const { leaks, answered } = await walk(users[role]);
      expect(leaks).toEqual([]);
      for (const path of BUYER_READS) expect(answered, path).toContain(path);
    });
  }
});

describe('the buyer’s view of a brief', () => {
  it('keeps prices, tooling, delivery, lead time, specification and drawings', async () => {
    const contact = users.contact;
    const panel = (await request(contact, 'GET', `/api/briefs/${briefId}/prediction-panel`)).json();
    const seller = (await request(admin, 'GET', `/api/briefs/${briefId}/prediction-panel`)).json();
    expect(panel.totals).toEqual({
      totalPrice: seller.totals.totalPrice,
      productPrice: seller.totals.productPrice,
      toolingCost: seller.totals.toolingCost,
      deliveryCost: seller.totals.deliveryCost,
    });
    expect(panel.unitPrice).toBe(seller.unitPrice);
    expect(panel.leadTime).toEqual(seller.leadTime);
    expect(panel.quantityCurve).toEqual(seller.quantityCurve);
    expect(panel.breakdown).toBeUndefined();
    const details = (await request(contact, 'GET', `/api/briefs/${briefId}/details`)).json();
    expect(details.briefComputed.briefElements[0].dieLine).toBeDefined();
    expect(details.briefComputed.briefElements[0].material.caliperMm).toBeGreaterThan(0);
    expect(details.briefPrice.totalPrice).toBe(seller.totals.totalPrice);
    expect(details.briefElements[0].decorationsCount).toHaveLength(2);
    const process = (await request(contact, 'GET', `/api/briefs/${briefId}/process/0`)).json();
    expect(process.operations.length).toBeGreaterThan(0);
    expect(process.operations[0].operation.name).toEqual(expect.any(String));
    const svg = await request(contact, 'GET', `/api/briefs/${briefId}/elements/0/die-line.svg`);
    expect(svg.statusCode).toBe(200);
  });

  it('a buyer’s estimate has the price and the drawings, no cost shares, operation costs or breakdown', async () => {
    const response = await request(users.contact, 'POST', '/api/briefs/estimate?include=analysis', brief());
    expect(response.statusCode, response.body).toBe(200);
    const estimate = response.json();
    expect(internalPointers(estimate, false)).toEqual([]);
    expect(estimate.optimisations).toEqual(expect.any(Array));
    expect(estimate.totals.totalPrice).toBeGreaterThan(0);
    expect(estimate.elements[0].dieLineSvg).toContain('<svg');
    const seller = (await request(users.sales, 'POST', '/api/briefs/estimate', brief())).json();
    expect(seller.totals.totalPrice).toBe(estimate.totals.totalPrice);
    expect(seller.breakdown.segments.length).toBeGreaterThan(0);
  });

  it('a buyer may not set the commercial margin (403 with pointers), and nothing is written', async () => {
    const before = (await request(admin, 'GET', '/api/briefs')).json().meta.total;
    for (const [url, method, body, pointer] of [
      ['/api/briefs', 'POST', brief({ commercialMargin: 0 }), '/commercialMargin'],
      ['/api/briefs/estimate', 'POST', brief({ commercialMargin: 0.01 }), '/commercialMargin'],
      [
        '/api/briefs',
        'POST',
        brief({ briefElements: [{ ...brief().briefElements[0], commercialMargin: 0 }] }),
        '/briefElements/0/commercialMargin',
      ],
      [`/api/briefs/${briefId}`, 'PUT', { commercialMargin: 0 }, '/commercialMargin'],
      [
        '/api/brief-elements',
        'POST',
        { ...brief().briefElements[0], commercialMargin: 0 },
        '/commercialMargin',
      ],
    ] as const) {
      const response = await request(users.contact, method, url, body);
      expect(response.statusCode, `${method} ${url} ${response.body}`).toBe(403);
      expect(response.json().code).toBe('cost_field_forbidden');
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect((await request(admin, 'GET', '/api/briefs')).json().meta.total).toBe(before);
    const margin = await request(
      users.sales,
      'POST',
      '/api/briefs/estimate',
      brief({ commercialMargin: 0.3 }),
    );
    expect(margin.statusCode, margin.body).toBe(200);
  });

  it('purchasing data (corrugated suppliers and composition prices) is the seller’s only', async () => {
    for (const path of ['/api/corrugated-suppliers', '/api/corrugated-material-composition-prices']) {
      expect((await request(users.contact, 'GET', path)).statusCode).toBe(403);
      expect((await request(users.sales, 'GET', path)).statusCode).toBe(200);
    }
  });
});
