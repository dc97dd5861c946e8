import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  briefElements,
  briefPredictions,
  briefs,
  companies,
  companyUsers,
  events,
  projects,
  statuses,
} from '../../src/db/schema/index.ts';
import { briefsModule } from '../../src/modules/briefs/module.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import type { Catalogue } from '../../src/pricing/index.ts';
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
let catalogue: Catalogue;
let acmeId: string;
let globexId: string;
let foreignCompanyId: string;
let acmeProjectId: string;
let globexProjectId: string;
let briefStatusIds: string[];

const idOf = (list: { id: string; code: string }[], code: string) => {
  const found = list.find((r) => r.code === code);
  if (!found) throw new Error(`no catalogue record ${code}`);
  return found.id;
};

/** A 4-colour straight tuck end 120 x 40 x 180 mm in GC1 350 g/m2 (the spec example). */
function carton(overrides: Record<string, unknown> = {}) {
  return {
    position: 0,
    productId: idOf(catalogue.products, 'STE'),
    lengthDimension: 120,
    widthDimension: 40,
    heightDimension: 180,
    materialReferenceId: idOf(catalogue.materialReferences, 'GC1-350'),
    decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
    wantDecoration: true,
    sidePrinted: 'RECTO',
    rectoColorCount: 4,
    versoColorCount: 0,
    ...overrides,
  };
}

function mailer(overrides: Record<string, unknown> = {}) {
  return {
    position: 1,
    productId: idOf(catalogue.products, '0201'),
    lengthDimension: 300,
    widthDimension: 200,
    heightDimension: 150,
    materialReferenceId: idOf(catalogue.materialReferences, 'CORR-B-KK'),
    decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
    wantDecoration: true,
    sidePrinted: 'RECTO',
    rectoColorCount: 1,
    ...overrides,
  };
}

const { post, put, get, del } = requests(() => t);

async function createBrief(payload: Record<string, unknown> = {}, who: Credentials = admin) {
  const response = await post(who, '/api/briefs', {
    name: 'Tea box',
    companyId: acmeId,
    briefElements: [carton()],
    ...payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function linkUser(user: Credentials, companyId: string) {
  await t.app.ctx.db
    .insert(companyUsers)
    .values({ companyId, userId: user.userId, organisationId: user.organisationId });
}

type Problem = { status: number; code: string; errors: { pointer: string; message: string }[] };

function expectProblem(
  response: { statusCode: number; headers: Record<string, unknown>; json: () => Problem },
  status: number,
  pointer?: string,
) {
  expect(response.statusCode).toBe(status);
  expect(String(response.headers['content-type'])).toContain('application/problem+json');
  const body = response.json();
  expect(body.status).toBe(status);
  if (pointer)
    expect(
      body.errors.map((e: { pointer: string }) => e.pointer),
      JSON.stringify(body),
    ).toContain(pointer);
  return body;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
  const db = t.app.ctx.db;
  const [acme, globex, foreign] = await db
    .insert(companies)
    .values([
      { organisationId: admin.organisationId, name: 'Acme' },
      { organisationId: admin.organisationId, name: 'Globex' },
      { organisationId: other.organisationId, name: 'Initech' },
    ])
    .returning();
  acmeId = acme!.id;
  globexId = globex!.id;
  foreignCompanyId = foreign!.id;
  const [p1, p2] = await db
    .insert(projects)
    .values([
      { organisationId: admin.organisationId, companyId: acmeId, name: 'Acme launch' },
      { organisationId: admin.organisationId, companyId: globexId, name: 'Globex relaunch' },
    ])
    .returning();
  acmeProjectId = p1!.id;
  globexProjectId = p2!.id;
  const rows = await db
    .insert(statuses)
    .values([
      {
        organisationId: admin.organisationId,
        entity: 'brief',
        internalLabel: 'T Draft',
        externalLabel: 'Draft',
      },
      {
        organisationId: admin.organisationId,
        entity: 'brief',
        internalLabel: 'T Sent',
        externalLabel: 'Sent',
      },
      { organisationId: admin.organisationId, entity: 'brief', internalLabel: 'T Won', externalLabel: 'Won' },
    ])
    .returning();
  briefStatusIds = rows.map((r) => r.id);
});
afterAll(() => t.close());

describe('the polling flow of the spec (synchronous POST /briefs)', () => {
  it('create, poll until COMPLETED with a price, then read details, process and value analysis', async () => {
    const created = await post(admin, '/briefs', {
      name: 'Tea box',
      projectId: acmeProjectId,
      briefElements: [carton()],
    });
    expect(created.statusCode, created.body).toBe(201);
    const brief = created.json();
    expect(brief).toMatchObject({
      name: 'Tea box',
      code: expect.stringMatching(/^B-\d{6}$/),
      predictionStatus: 'COMPLETED',
      hasPrice: true,
      projectId: acmeProjectId,
      companyId: acmeId,
      project: { id: acmeProjectId, name: 'Acme launch', companyId: acmeId },
      currentVersion: 1,
      currency: 'EUR',
      elementsCount: 1,
    });
    expect(brief.prediction).toMatchObject({ version: 1, currency: 'EUR', quantity: 5000 });
    expect(brief.prediction.totalPrice).toBeGreaterThan(0);
    expect(brief.totalPrice).toBe(brief.prediction.totalPrice);
    expect(brief.briefElementPrices).toEqual([
      { position: 0, unitPrice: expect.any(Number), quantity: 5000, totalPrice: expect.any(Number) },
    ]);

    // Poll GET /briefs/:id until COMPLETED and hasPrice.
    let polled = brief;
    for (let i = 0; i < 50; i++) {
      polled = (await get(admin, `/briefs/${brief.id}`)).json();
      if (polled.predictionStatus === 'COMPLETED' && polled.hasPrice) break;
    }
    expect(polled).toMatchObject({ predictionStatus: 'COMPLETED', hasPrice: true });
    expect(polled.project.companyId).toBe(acmeId);
    expect(polled.briefElements[0]).toMatchObject({
      position: 0,
      lengthDimension: 120,
      widthDimension: 40,
      heightDimension: 180,
      rectoColorCount: 4,
      decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
      briefElementPrice: { quantity: 5000, currency: 'EUR' },
    });

    const details = await get(admin, `/briefs/${brief.id}/details`);
    expect(details.statusCode).toBe(200);
    const d = details.json();
    expect(d.briefComputed.briefElements[0]).toMatchObject({ position: 0, productCode: 'STE' });
    expect(d.briefComputed.briefElements[0].flatPackSurface.width).toBeGreaterThan(0);
    expect(d.briefPrice.totalPrice).toBe(brief.prediction.totalPrice);
    expect(d.briefPrice.costBreakdown.marginPercentage).toBe(25);
    // One PredictionRequestComputed per element, the selected one; the alternatives on request.
    expect(d.briefPrice.predictionRequestsComputed).toHaveLength(1);
    expect(d.briefPrice.predictionRequestsComputed[0]).toMatchObject({ position: 0, selected: true });
    expect(d.briefElementPrices[0]).toMatchObject({ position: 0, quantity: 5000 });
    const all = (await get(admin, `/briefs/${brief.id}/details?include=alternatives`)).json();
    expect(all.briefPrice.predictionRequestsComputed.length).toBeGreaterThan(1);
    expect(
      all.briefPrice.predictionRequestsComputed.filter((v: { selected: boolean }) => v.selected),
    ).toEqual(d.briefPrice.predictionRequestsComputed);
    const unknown = await get(admin, `/briefs/${brief.id}/details?include=everything`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].pointer).toBe('/include');

    const process = await get(admin, `/briefs/${brief.id}/process/0`);
    expect(process.statusCode).toBe(200);
    const p = process.json();
    expect(p).toMatchObject({ position: 0, selected: true, briefId: brief.id, version: 1 });
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.predictionRequestId).toBe(brief.prediction.id);
    const positions = p.predictionOperationSequence.map((o: { position: number }) => o.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(positions[0]).toBe(0);
    for (const op of p.predictionOperationSequence) {
      expect(op.operation.name).toEqual(expect.any(String));
      expect(op.machine.name).toEqual(expect.any(String));
      expect(op.setupTime).toBeGreaterThanOrEqual(0);
      expect(op.rollingTime).toBeGreaterThanOrEqual(0);
      expect(op).toHaveProperty('sheetQuantity');
      expect(op).toHaveProperty('sheetWidth');
      expect(op).toHaveProperty('sheetHeight');
      expect(op.partNumber).toBe(1);
    }
    expect(p.operationsByPart).toEqual([{ partNumber: 1, operations: p.predictionOperationSequence }]);
    expect(p.unitPrice).toBe(polled.briefElements[0].briefElementPrice.unitPrice);

    const analysis = await get(admin, `/briefs/${brief.id}/value-analysis`);
    expect(analysis.statusCode).toBe(200);
    const a = analysis.json();
    expect(a).toMatchObject({ briefId: brief.id, version: 1, currency: 'EUR' });
    expect(a.elements[0].optimisations.map((o: { type: string }) => o.type)).toEqual([
      'INCREASE_QUANTITY',
      'CHANGE_MATERIAL',
      'SIMPLIFY_FINISHING',
      'ADJUST_DIMENSIONS',
      'BUNDLE_PACKING',
      'CHEAPER_TOTAL_ROUTE',
      'GANG_RUN',
    ]);
    expect(a.elements[0].quantityCurve.length).toBeGreaterThan(3);
    // Kept with the version: the second read is the stored one.
    const [stored] = await t.app.ctx.db
      .select({ valueAnalysis: briefPredictions.valueAnalysis })
      .from(briefPredictions)
      .where(eq(briefPredictions.id, brief.prediction.id));
    expect(stored!.valueAnalysis).not.toBeNull();
    expect((await get(admin, `/api/briefs/${brief.id}/value-analysis`)).json()).toEqual(a);
  });

  it('records events for the brief, its elements and its prediction (process PREDICTION)', async () => {
    const brief = await createBrief({ briefElements: [carton(), mailer()] });
    const rows = await t.app.ctx.db
      .select()
      .from(events)
      .where(eq(events.organisationId, admin.organisationId));
    const briefEvent = rows.find((e) => e.entityId === brief.id);
    expect(briefEvent).toMatchObject({ eventName: 'event.briefs.created', entity: 'BRIEF', type: 'CREATE' });
    for (const element of brief.briefElements) {
      expect(rows.find((e) => e.entityId === element.id)).toMatchObject({
        eventName: 'event.brief_elements.created',
        entity: 'BRIEF_ELEMENT',
        relation: 'BRIEF',
        relationId: brief.id,
      });
    }
    expect(rows.find((e) => e.entityId === brief.prediction.id)).toMatchObject({
      eventName: 'event.brief_predictions.created',
      relation: 'BRIEF',
      relationId: brief.id,
      process: 'PREDICTION',
    });
    // The event resource answers the brief.
    const resource = await get(admin, `/api/events/ressources/${briefEvent!.id}`);
    expect(resource.statusCode, resource.body).toBe(200);
    expect(JSON.stringify(resource.json())).toContain(brief.code);
  });

  it('numbers briefs sequentially per organisation', async () => {
    const a = await createBrief();
    // A refused brief uses no code.
    const refused = await post(admin, '/api/briefs', {
      companyId: acmeId,
      briefElements: [carton({ productId: '00000000-0000-4000-8000-000000000000' })],
    });
    expect(refused.statusCode).toBe(422);
    const b = await createBrief();
    expect(Number(b.code.slice(2))).toBe(Number(a.code.slice(2)) + 1);
    // Concurrent creations get distinct codes.
    const many = await Promise.all(Array.from({ length: 6 }, () => createBrief()));
    const numbers = many.map((brief) => Number(brief.code.slice(2))).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 6 }, (_, i) => Number(b.code.slice(2)) + 1 + i));
    const foreign = await post(other, '/api/briefs', {
      companyId: foreignCompanyId,
      briefElements: [
        {
          ...carton(),
          productId: idOf((await loadCatalogue(t.app.ctx.db, other.organisationId)).products, 'STE'),
          materialReferenceId: idOf(
            (await loadCatalogue(t.app.ctx.db, other.organisationId)).materialReferences,
            'GC1-350',
          ),
        },
      ],
    });
    expect(foreign.statusCode, foreign.body).toBe(201);
    expect(foreign.json().code).toBe('B-000001');
    expect(foreign.json().name).toBe('Brief B-000001');
  });

  it('prices every process variant: a short run has digital and offset, the process lists the other one', async () => {
    const brief = await createBrief({
      briefElements: [carton({ decorationsCount: [{ decorationIndex: 0, quantity: 300 }] })],
    });
    const p = (await get(admin, `/briefs/${brief.id}/process/0`)).json();
    expect(p.printingProcess).toBe('digital');
    expect(p.otherVariants.map((v: { printingProcess: string }) => v.printingProcess)).toEqual(['offset']);
    expect(p.otherVariants[0].selected).toBe(false);
    expect(p.otherVariants[0].unitPrice).toBeGreaterThan(p.unitPrice);
    expect(p.otherVariants[0].predictionOperationSequence.length).toBeGreaterThan(0);
  });

  it('prices a brief of several elements and several decoration variants, positions in any order', async () => {
    const brief = await createBrief({
      deliveryZoneId: idOf(catalogue.deliveryZones, 'FR-NATIONAL'),
      commercialMargin: 0.3,
      briefElements: [
        mailer({ position: 1 }),
        carton({
          position: 0,
          decorationsCount: [
            { decorationIndex: 0, quantity: 2000 },
            { decorationIndex: 3, quantity: 1500 },
          ],
          wantVarnishRecto: true,
        }),
      ],
    });
    expect(brief.briefElements.map((e: { position: number }) => e.position)).toEqual([0, 1]);
    expect(brief.briefElements[0].quantity).toBe(3500);
    expect(brief.prediction.deliveryCost).toBeGreaterThan(0);
    expect(brief.prediction.commercialMarginInitial).toBe(0.3);
    const d = (await get(admin, `/briefs/${brief.id}/details`)).json();
    expect(d.briefComputed.briefElements.map((e: { position: number }) => e.position)).toEqual([0, 1]);
    expect(d.briefComputed.briefElements[1].productCode).toBe('0201');
    const flexo = (await get(admin, `/briefs/${brief.id}/process/1`)).json();
    expect(flexo.printingProcess).toBe('flexo');
    expect((await get(admin, `/briefs/${brief.id}/process/2`)).statusCode).toBe(404);
  });
});

describe('validation of a brief (400 for the shape, 422 for what the engine refuses)', () => {
  const base = () => ({ name: 'X', companyId: acmeId, briefElements: [carton()] });

  it('refuses a brief with no elements', async () => {
    expectProblem(await post(admin, '/api/briefs', { ...base(), briefElements: [] }), 400, '/briefElements');
    expectProblem(await post(admin, '/api/briefs', { name: 'X', companyId: acmeId }), 400, '/briefElements');
  });

  it('refuses an element without decorationsCount, or with an empty one', async () => {
    const { decorationsCount: _d, ...element } = carton();
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [element] }),
      400,
      '/briefElements/0/decorationsCount',
    );
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [carton({ decorationsCount: [] })] }),
      400,
      '/briefElements/0/decorationsCount',
    );
  });

  it('refuses a duplicate position, and positions that are not 0..n-1', async () => {
    const body = expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [carton(), mailer({ position: 0 })] }),
      400,
      '/briefElements/1/position',
    );
    expect(body.code).toBe('validation_failed');
    expectProblem(
      await post(admin, '/api/briefs', {
        ...base(),
        briefElements: [carton({ position: 0 }), mailer({ position: 5 })],
      }),
      400,
      '/briefElements/1/position',
    );
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [carton({ position: -1 })] }),
      400,
      '/briefElements/0/position',
    );
  });

  it('refuses a decorationIndex outside 0..11, a duplicate one, and a quantity that is not a positive integer', async () => {
    for (const decorationIndex of [12, -1]) {
      expectProblem(
        await post(admin, '/api/briefs', {
          ...base(),
          briefElements: [carton({ decorationsCount: [{ decorationIndex, quantity: 100 }] })],
        }),
        400,
        '/briefElements/0/decorationsCount/0/decorationIndex',
      );
    }
    expectProblem(
      await post(admin, '/api/briefs', {
        ...base(),
        briefElements: [
          carton({
            decorationsCount: [
              { decorationIndex: 2, quantity: 100 },
              { decorationIndex: 2, quantity: 200 },
            ],
          }),
        ],
      }),
      400,
      '/briefElements/0/decorationsCount/1/decorationIndex',
    );
    for (const quantity of [0, -5, 1.5]) {
      expectProblem(
        await post(admin, '/api/briefs', {
          ...base(),
          briefElements: [carton({ decorationsCount: [{ decorationIndex: 0, quantity }] })],
        }),
        400,
        '/briefElements/0/decorationsCount/0/quantity',
      );
    }
  });

  it('refuses a commercial margin outside 0..0.99, on the brief and on an element', async () => {
    for (const commercialMargin of [1, 1.2, -0.1]) {
      expectProblem(
        await post(admin, '/api/briefs', { ...base(), commercialMargin }),
        400,
        '/commercialMargin',
      );
    }
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [carton({ commercialMargin: 0.995 })] }),
      400,
      '/briefElements/0/commercialMargin',
    );
    const ok = await post(admin, '/api/briefs', { ...base(), commercialMargin: 0.99 });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().prediction.commercialMarginInitial).toBe(0.99);
  });

  it('refuses unknown properties and malformed values with a pointer', async () => {
    expectProblem(await post(admin, '/api/briefs', { ...base(), colour: 'red' }), 400, '/colour');
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [carton({ productId: 'STE' })] }),
      400,
      '/briefElements/0/productId',
    );
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), briefElements: [carton({ sidePrinted: 'BOTH' })] }),
      400,
      '/briefElements/0/sidePrinted',
    );
  });

  it('needs a project or a company', async () => {
    expectProblem(await post(admin, '/api/briefs', { briefElements: [carton()] }), 400, '/companyId');
  });

  it('answers 422 with the engine pointers, mapped to the request indexes', async () => {
    const unknownProduct = await post(admin, '/api/briefs', {
      ...base(),
      briefElements: [carton({ productId: '00000000-0000-4000-8000-000000000000' })],
    });
    expect(expectProblem(unknownProduct, 422, '/briefElements/0/productId').code).toBe('invalid_brief');
    // Colours without decoration, on the element sent second but at position 0.
    const colours = await post(admin, '/api/briefs', {
      ...base(),
      briefElements: [mailer({ position: 1 }), carton({ position: 0, wantDecoration: false })],
    });
    const body = expectProblem(colours, 422);
    expect(body.errors.every((e: { pointer: string }) => e.pointer.startsWith('/briefElements/1/'))).toBe(
      true,
    );
    // Dimensions beyond the machines.
    expectProblem(
      await post(admin, '/api/briefs', {
        ...base(),
        briefElements: [carton({ lengthDimension: 2000, heightDimension: 2000 })],
      }),
      422,
    );
    // A delivery zone the catalogue does not have.
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), deliveryZoneId: '00000000-0000-4000-8000-000000000000' }),
      422,
      '/deliveryZoneId',
    );
    // Nothing was written by the refused requests.
    const [count] = await t.app.ctx.db
      .select({ n: briefs.id })
      .from(briefs)
      .where(
        and(
          eq(briefs.organisationId, admin.organisationId),
          eq(briefs.name, 'X'),
          eq(briefs.commercialMargin, 0.5),
        ),
      );
    expect(count).toBeUndefined();
  });

  it('checks the project, company and status references (422) and their agreement', async () => {
    expect(
      expectProblem(
        await post(admin, '/api/briefs', { ...base(), companyId: foreignCompanyId }),
        422,
        '/companyId',
      ).code,
    ).toBe('invalid_reference');
    expectProblem(
      await post(admin, '/api/briefs', {
        briefElements: [carton()],
        projectId: '00000000-0000-4000-8000-000000000000',
      }),
      422,
      '/projectId',
    );
    expect(
      expectProblem(
        await post(admin, '/api/briefs', { ...base(), companyId: acmeId, projectId: globexProjectId }),
        422,
        '/projectId',
      ).code,
    ).toBe('project_company_mismatch');
    expectProblem(
      await post(admin, '/api/briefs', { ...base(), statusId: '00000000-0000-4000-8000-000000000000' }),
      422,
      '/statusId',
    );
    const withStatus = await createBrief({ statusId: briefStatusIds[0] });
    expect(withStatus).toMatchObject({ statusId: briefStatusIds[0], status: { internalLabel: 'T Draft' } });
  });
});

describe('tenancy and roles', () => {
  it("answers 404 for another tenant's brief, everywhere", async () => {
    const brief = await createBrief();
    for (const url of [
      `/api/briefs/${brief.id}`,
      `/api/briefs/${brief.id}/details`,
      `/api/briefs/${brief.id}/process/0`,
      `/api/briefs/${brief.id}/value-analysis`,
      `/api/briefs/${brief.id}/prediction-panel`,
      `/api/briefs/${brief.id}/predictions`,
      `/api/briefs/${brief.id}/elements/0/die-line.svg`,
      `/api/brief-elements/${brief.briefElements[0].id}`,
    ]) {
      expectProblem(await get(other, url), 404);
    }
    expectProblem(await put(other, `/api/briefs/${brief.id}`, { name: 'Mine' }), 404);
    expectProblem(await del(other, `/api/briefs/${brief.id}`), 404);
    const list = (await get(other, '/api/briefs?limit=500')).json();
    expect(list.data.map((b: { id: string }) => b.id)).not.toContain(brief.id);
  });

  it('lets a guest read but not write (403)', async () => {
    const guest = await makeUser(t, admin, 'guest');
    const brief = await createBrief();
    expect((await get(guest, `/api/briefs/${brief.id}`)).statusCode).toBe(200);
    expectProblem(await post(guest, '/api/briefs', { companyId: acmeId, briefElements: [carton()] }), 403);
    expectProblem(
      await post(guest, '/api/briefs/async', { companyId: acmeId, briefElements: [carton()] }),
      403,
    );
    expectProblem(await put(guest, `/api/briefs/${brief.id}`, { name: 'x' }), 403);
    expectProblem(await del(guest, `/api/briefs/${brief.id}`), 403);
  });

  it('refuses an unauthenticated call (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/briefs' });
    expectProblem(response, 401);
  });

  it('limits a contact to its companies: creates briefs for them, sees only theirs', async () => {
    const contact = await makeUser(t, admin, 'contact');
    await linkUser(contact, acmeId);
    const globexBrief = await createBrief({ companyId: globexId });
    const own = await createBrief({}, contact);
    expect(own.createdById).toBe(contact.userId);
    const viaProject = await post(contact, '/api/briefs', {
      projectId: acmeProjectId,
      briefElements: [carton()],
    });
    expect(viaProject.statusCode, viaProject.body).toBe(201);
    expectProblem(
      await post(contact, '/api/briefs', { companyId: globexId, briefElements: [carton()] }),
      403,
    );
    expectProblem(
      await post(contact, '/api/briefs', { projectId: globexProjectId, briefElements: [carton()] }),
      403,
    );
    expectProblem(await get(contact, `/api/briefs/${globexBrief.id}`), 404);
    expectProblem(await get(contact, `/api/briefs/${globexBrief.id}/process/0`), 404);
    expectProblem(await get(contact, `/api/brief-elements/${globexBrief.briefElements[0].id}`), 404);
    expectProblem(await put(contact, `/api/briefs/${globexBrief.id}`, { name: 'x' }), 404);
    expectProblem(await put(contact, `/api/briefs/${own.id}`, { companyId: globexId }), 403);
    const list = (await get(contact, '/api/briefs?limit=500')).json();
    expect(list.data.length).toBeGreaterThanOrEqual(2);
    expect(list.data.every((b: { companyId: string }) => b.companyId === acmeId)).toBe(true);
    const renamed = await put(contact, `/api/briefs/${own.id}`, { name: 'Renamed by the client' });
    expect(renamed.statusCode).toBe(200);
  });

  it('limits an external sales user the same way; a contact without companies sees none', async () => {
    const sales = await makeUser(t, admin, 'external_sales');
    await linkUser(sales, globexId);
    const acmeBrief = await createBrief();
    expectProblem(await get(sales, `/api/briefs/${acmeBrief.id}`), 404);
    const list = (await get(sales, `/api/briefs?companyId=${acmeId}`)).json();
    expect(list.data).toEqual([]);
    const lonely = await makeUser(t, admin, 'contact');
    expect((await get(lonely, '/api/briefs')).json().data).toEqual([]);
  });
});

describe('PUT /briefs/:id: edits, re-pricing and versions', () => {
  it('re-prices a changed brief into a new version and keeps the previous one readable', async () => {
    const brief = await createBrief({ briefElements: [carton()] });
    const elementId = brief.briefElements[0].id;
    const v1Total = brief.prediction.totalPrice;
    const changed = await put(admin, `/briefs/${brief.id}`, {
      briefElements: [carton({ decorationsCount: [{ decorationIndex: 0, quantity: 20000 }] })],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const v2 = changed.json();
    expect(v2).toMatchObject({ currentVersion: 2, predictionStatus: 'COMPLETED', hasPrice: true });
    expect(v2.prediction.version).toBe(2);
    expect(v2.prediction.quantity).toBe(20000);
    expect(v2.prediction.totalPrice).not.toBe(v1Total);
    // Matched by position: the element keeps its id (articles and quote items point at it).
    expect(v2.briefElements[0].id).toBe(elementId);
    expect(v2.briefElements[0].quantity).toBe(20000);
    expect(v2.briefElements[0].briefElementPrice.predictionId).toBe(v2.prediction.id);

    const versions = (await get(admin, `/api/briefs/${brief.id}/predictions`)).json();
    expect(versions.currentVersion).toBe(2);
    expect(versions.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.data[1].totalPrice).toBe(v1Total);
    // Each version says who priced it and what it priced (the configurator shows and compares them).
    expect(versions.data[0].createdBy).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    expect(versions.data[1].input.briefElements[0].decorationsCount).toEqual([
      { decorationIndex: 0, quantity: 5000 },
    ]);
    expect(versions.data[0].input.briefElements[0].decorationsCount).toEqual([
      { decorationIndex: 0, quantity: 20000 },
    ]);
    expect(versions.data[0].input.briefElements[0].lengthDimension).toBe(carton().lengthDimension);
    const old = (await get(admin, `/api/briefs/${brief.id}/details?version=1`)).json();
    expect(old.prediction.version).toBe(1);
    expect(old.briefPrice.totalPrice).toBe(v1Total);
    expect(old.briefElementPrices[0].quantity).toBe(5000);
    expect((await get(admin, `/api/briefs/${brief.id}/process/0?version=1`)).json().version).toBe(1);
    expect((await get(admin, `/api/briefs/${brief.id}/details`)).json().briefPrice.totalPrice).toBe(
      v2.prediction.totalPrice,
    );
    expectProblem(await get(admin, `/api/briefs/${brief.id}/details?version=9`), 404);

    const updateEvent = await t.app.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.entityId, brief.id), eq(events.type, 'UPDATE')));
    expect(updateEvent[0]).toMatchObject({ process: 'PREDICTION', updatedRelations: ['briefElements'] });
  });

  it('does not re-price a change of name or status, and re-prices a change of margin', async () => {
    const brief = await createBrief();
    const renamed = (
      await put(admin, `/api/briefs/${brief.id}`, { name: 'Renamed', statusId: briefStatusIds[1] })
    ).json();
    expect(renamed).toMatchObject({ name: 'Renamed', statusId: briefStatusIds[1], currentVersion: 1 });
    const margin = (await put(admin, `/api/briefs/${brief.id}`, { commercialMargin: 0.4 })).json();
    expect(margin.currentVersion).toBe(2);
    expect(margin.prediction.commercialMarginInitial).toBe(0.4);
    expect(margin.prediction.totalPrice).toBeGreaterThan(brief.prediction.totalPrice);
    expectProblem(
      await put(admin, `/api/briefs/${brief.id}`, { commercialMargin: 1.5 }),
      400,
      '/commercialMargin',
    );
  });

  it('replaces elements: keeps by id, adds new ones, deletes the others (with events)', async () => {
    const brief = await createBrief({ briefElements: [carton(), mailer()] });
    const [first, second] = brief.briefElements;
    // The carton moves to position 1 (kept by id); the mailer is dropped; a new flat item at 0.
    const flat = {
      position: 0,
      productId: idOf(catalogue.products, 'FLAT'),
      lengthDimension: 148,
      widthDimension: 105,
      materialReferenceId: idOf(catalogue.materialReferences, 'ART-300'),
      decorationsCount: [{ decorationIndex: 0, quantity: 2500 }],
      wantDecoration: true,
      sidePrinted: 'RECTO_VERSO',
      rectoColorCount: 4,
      versoColorCount: 1,
    };
    const response = await put(admin, `/api/briefs/${brief.id}`, {
      briefElements: [flat, { ...carton({ position: 1 }), id: first.id }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json();
    expect(
      updated.briefElements.map((e: { id: string; position: number }) => [e.position, e.id === first.id]),
    ).toEqual([
      [0, false],
      [1, true],
    ]);
    expect(updated.elementsCount).toBe(2);
    expectProblem(await get(admin, `/api/brief-elements/${second.id}`), 404);
    const [deleted] = await t.app.ctx.db.select().from(briefElements).where(eq(briefElements.id, second.id));
    expect(deleted!.deletedAt).not.toBeNull();
    const elementEvents = await t.app.ctx.db
      .select({ type: events.type, entityId: events.entityId })
      .from(events)
      .where(
        and(eq(events.relationId, brief.id), eq(events.entity, 'BRIEF_ELEMENT'), eq(events.type, 'DELETE')),
      );
    expect(elementEvents).toEqual([{ type: 'DELETE', entityId: second.id }]);
    expect((await get(admin, `/api/briefs/${brief.id}/process/0`)).json().printingProcess).toEqual(
      expect.any(String),
    );

    expectProblem(
      await put(admin, `/api/briefs/${brief.id}`, {
        briefElements: [{ ...carton(), id: '00000000-0000-4000-8000-000000000000' }],
      }),
      422,
      '/briefElements/0/id',
    );
    expectProblem(
      await put(admin, `/api/briefs/${brief.id}`, { briefElements: [carton({ lengthDimension: 20000 })] }),
      400,
      '/briefElements/0/lengthDimension',
    );
    // A refused edit changes nothing.
    const after = (await get(admin, `/api/briefs/${brief.id}`)).json();
    expect(after.currentVersion).toBe(updated.currentVersion);
    expect(after.briefElements.length).toBe(2);
  });

  it('moves a brief to another project of the same company, and refuses a mismatch', async () => {
    const brief = await createBrief();
    const moved = (await put(admin, `/api/briefs/${brief.id}`, { projectId: acmeProjectId })).json();
    expect(moved).toMatchObject({
      projectId: acmeProjectId,
      companyId: acmeId,
      project: { companyId: acmeId },
    });
    expectProblem(await put(admin, `/api/briefs/${brief.id}`, { companyId: globexId }), 422, '/projectId');
    const detached = (
      await put(admin, `/api/briefs/${brief.id}`, { projectId: null, companyId: globexId })
    ).json();
    expect(detached).toMatchObject({ projectId: null, companyId: globexId, project: null });
  });
});

describe('DELETE /briefs/:id', () => {
  it('soft-deletes the brief and its elements; again -> 404', async () => {
    const brief = await createBrief();
    const response = await del(admin, `/briefs/${brief.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: brief.id, deleted: true });
    expectProblem(await get(admin, `/api/briefs/${brief.id}`), 404);
    expectProblem(await get(admin, `/api/briefs/${brief.id}/process/0`), 404);
    expectProblem(await get(admin, `/api/brief-elements/${brief.briefElements[0].id}`), 404);
    expectProblem(await del(admin, `/api/briefs/${brief.id}`), 404);
    const list = (await get(admin, '/api/briefs?limit=500')).json();
    expect(list.data.map((b: { id: string }) => b.id)).not.toContain(brief.id);
    const [row] = await t.app.ctx.db.select().from(briefs).where(eq(briefs.id, brief.id));
    expect(row!.deletedAt).not.toBeNull();
    const deleteEvents = await t.app.ctx.db
      .select({ entity: events.entity })
      .from(events)
      .where(and(eq(events.type, 'DELETE'), eq(events.organisationId, admin.organisationId)));
    expect(deleteEvents.map((e) => e.entity)).toEqual(expect.arrayContaining(['BRIEF', 'BRIEF_ELEMENT']));
  });
});

describe('GET /briefs: filters, sorting, pages', () => {
  let tenant: Credentials;
  let companyA: string;
  let companyB: string;
  let project: string;
  let created: { updatedAt: string; briefElements: { id: string }[] }[];
  let statusIds: string[];

  beforeAll(async () => {
    tenant = await makeOrganisation(t);
    const db = t.app.ctx.db;
    const [a, b] = await db
      .insert(companies)
      .values([
        { organisationId: tenant.organisationId, name: 'A' },
        { organisationId: tenant.organisationId, name: 'B' },
      ])
      .returning();
    companyA = a!.id;
    companyB = b!.id;
    const [p] = await db
      .insert(projects)
      .values({ organisationId: tenant.organisationId, companyId: companyA, name: 'P' })
      .returning();
    project = p!.id;
    statusIds = (
      await db
        .insert(statuses)
        .values([
          {
            organisationId: tenant.organisationId,
            entity: 'brief',
            internalLabel: 'L Open',
            externalLabel: 'Open',
          },
          {
            organisationId: tenant.organisationId,
            entity: 'brief',
            internalLabel: 'L Closed',
            externalLabel: 'Closed',
          },
        ])
        .returning()
    ).map((r) => r.id);
    const own = await loadCatalogue(db, tenant.organisationId);
    const element = {
      ...carton(),
      productId: idOf(own.products, 'STE'),
      materialReferenceId: idOf(own.materialReferences, 'GC1-350'),
    };
    created = [];
    const plan = [
      { name: 'Delta', companyId: companyA, statusId: statusIds[0] },
      { name: 'alpha', projectId: project, statusId: statusIds[1] },
      { name: 'Charlie', companyId: companyB },
      { name: 'Bravo', companyId: companyB, statusId: statusIds[0] },
      { name: 'Echo', companyId: companyA },
    ];
    for (const fields of plan) {
      const response = await post(tenant, '/api/briefs', { ...fields, briefElements: [element] });
      expect(response.statusCode, response.body).toBe(201);
      created.push(response.json());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  const names = (body: { data: { name: string }[] }) => body.data.map((b) => b.name);

  it('lists the newest update first by default, with meta', async () => {
    const body = (await get(tenant, '/briefs')).json();
    expect(names(body)).toEqual(['Echo', 'Bravo', 'Charlie', 'alpha', 'Delta']);
    expect(body.meta).toMatchObject({
      page: 1,
      limit: 25,
      total: 5,
      hasNextPage: false,
      totalIsExact: true,
      nextCursor: null,
    });
    expect(body.data[3].project).toEqual({ id: project, name: 'P', companyId: companyA });
    expect(body.data[0]).not.toHaveProperty('briefElements');
  });

  it('sorts with sort=field,DIRECTION and order=+updatedAt', async () => {
    expect(names((await get(tenant, '/api/briefs?sort=name,ASC')).json())).toEqual(
      ['alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].sort(),
    );
    expect(names((await get(tenant, '/api/briefs?order=%2BupdatedAt')).json())).toEqual([
      'Delta',
      'alpha',
      'Charlie',
      'Bravo',
      'Echo',
    ]);
    expect(names((await get(tenant, '/api/briefs?order=+updatedAt')).json())).toEqual([
      'Delta',
      'alpha',
      'Charlie',
      'Bravo',
      'Echo',
    ]);
    expect(names((await get(tenant, '/api/briefs?sort=code,DESC')).json())).toEqual([
      'Echo',
      'Bravo',
      'Charlie',
      'alpha',
      'Delta',
    ]);
    expectProblem(await get(tenant, '/api/briefs?sort=secret,ASC'), 400, '/sort');
    expectProblem(await get(tenant, '/api/briefs?limit=501'), 400, '/limit');
  });

  it('filters by companyId, projectId, status list, predictionStatus and lastupdate', async () => {
    expect(names((await get(tenant, `/api/briefs?companyId=${companyB}`)).json())).toEqual([
      'Bravo',
      'Charlie',
    ]);
    expect(names((await get(tenant, `/api/briefs?companyId=${companyA}`)).json())).toEqual([
      'Echo',
      'alpha',
      'Delta',
    ]);
    expect(names((await get(tenant, `/api/briefs?projectId=${project}`)).json())).toEqual(['alpha']);
    expect(names((await get(tenant, `/api/briefs?status=${statusIds[0]}`)).json())).toEqual([
      'Bravo',
      'Delta',
    ]);
    expect(names((await get(tenant, `/api/briefs?status=${statusIds[0]},${statusIds[1]}`)).json())).toEqual([
      'Bravo',
      'alpha',
      'Delta',
    ]);
    expectProblem(await get(tenant, '/api/briefs?status=nope'), 400, '/status');
    expect(names((await get(tenant, '/api/briefs?predictionStatus=COMPLETED')).json())).toHaveLength(5);
    expect(names((await get(tenant, '/api/briefs?predictionStatus=PENDING,FAILED')).json())).toEqual([]);
    expectProblem(await get(tenant, '/api/briefs?predictionStatus=DONE'), 400, '/predictionStatus');
    const since = created[2]!.updatedAt;
    expect(
      names(
        (await get(tenant, `/api/briefs?lastupdate=${encodeURIComponent(since)}&order=%2BupdatedAt`)).json(),
      ),
    ).toEqual(['Bravo', 'Echo']);
    expect(names((await get(tenant, '/api/briefs?search=harl')).json())).toEqual(['Charlie']);
  });

  it('pages with page/limit and hasNextPage, and with the keyset cursor', async () => {
    const first = (await get(tenant, '/api/briefs?limit=2')).json();
    expect(names(first)).toEqual(['Echo', 'Bravo']);
    expect(first.meta).toMatchObject({ page: 1, limit: 2, total: 5, hasNextPage: true });
    const third = (await get(tenant, '/api/briefs?limit=2&page=3')).json();
    expect(names(third)).toEqual(['Delta']);
    expect(third.meta.hasNextPage).toBe(false);
    const nextResponse = await get(tenant, `/api/briefs?limit=2&after=${first.meta.nextCursor}`);
    expect(nextResponse.statusCode, nextResponse.body).toBe(200);
    const next = nextResponse.json();
    expect(names(next)).toEqual(['Charlie', 'alpha']);
    const last = (await get(tenant, `/api/briefs?limit=2&after=${next.meta.nextCursor}`)).json();
    expect(names(last)).toEqual(['Delta']);
    expect(last.meta.nextCursor).toBeNull();
    const byName = (await get(tenant, '/api/briefs?limit=3&sort=name,ASC')).json();
    const rest = (
      await get(tenant, `/api/briefs?limit=3&sort=name,ASC&after=${byName.meta.nextCursor}`)
    ).json();
    expect([...names(byName), ...names(rest)]).toEqual(['alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].sort());
    expectProblem(await get(tenant, `/api/briefs?after=${created[0]!.briefElements[0]!.id}`), 400, '/after');
  });

  it('pages through the whole organisation in every sort, the pages past the middle read from the far end', async () => {
    for (const sort of [
      '',
      '&sort=name,ASC',
      '&order=+updatedAt',
      '&sort=code,DESC',
      '&sort=createdAt,ASC',
    ]) {
      const all = (await get(tenant, `/api/briefs?limit=500${sort}`)).json();
      expect(all.meta).toMatchObject({ total: 5, totalIsExact: true, hasNextPage: false });
      const paged: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = (await get(tenant, `/api/briefs?limit=2&page=${page}${sort}`)).json();
        expect(body.meta, `page ${page}${sort}`).toMatchObject({
          total: 5,
          totalIsExact: true,
          hasNextPage: page < 3,
        });
        paged.push(...body.data.map((b: { id: string }) => b.id));
      }
      expect(paged, sort).toEqual(all.data.map((b: { id: string }) => b.id));
      expect((await get(tenant, `/api/briefs?limit=2&page=4${sort}`)).json()).toMatchObject({
        data: [],
        meta: { total: 5, hasNextPage: false },
      });
    }
  });

  it('keeps the exact total of the organisation through creations, refused creations and deletes', async () => {
    const other = await makeOrganisation(t);
    const own = await loadCatalogue(t.app.ctx.db, other.organisationId);
    const [company] = await t.app.ctx.db
      .insert(companies)
      .values({ organisationId: other.organisationId, name: 'Counted' })
      .returning();
    const element = {
      ...carton(),
      productId: idOf(own.products, 'STE'),
      materialReferenceId: idOf(own.materialReferences, 'GC1-350'),
    };
    const total = async () => (await get(other, '/api/briefs?limit=1')).json().meta;
    expect(await total()).toMatchObject({ total: 0, totalIsExact: true, hasNextPage: false });
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      const response = await post(other, '/api/briefs', {
        name,
        companyId: company!.id,
        briefElements: [element],
      });
      expect(response.statusCode, response.body).toBe(201);
      ids.push(response.json().id);
    }
    // A refused creation writes nothing, so counts nothing.
    const refused = await post(other, '/api/briefs', {
      name: 'No',
      companyId: company!.id,
      briefElements: [],
    });
    expect(refused.statusCode).toBe(400);
    expect(await total()).toMatchObject({ total: 3, hasNextPage: true });
    expect((await del(other, `/api/briefs/${ids[1]}`)).statusCode).toBe(200);
    expect(await total()).toMatchObject({ total: 2, hasNextPage: true });
    const last = (await get(other, '/api/briefs?limit=1&page=2')).json();
    expect(last.data.map((b: { id: string }) => b.id)).toEqual([ids[0]]);
    expect(last.meta).toMatchObject({ total: 2, hasNextPage: false });
  });

  it('gives an estimated total above the count cap', async () => {
    const service = (await import('../../src/modules/briefs/service.ts')).createBriefService({
      db: t.app.ctx.db,
      change: t.app.ctx.change,
      enqueue: async () => {},
      countCap: 2,
    });
    const actor = {
      userId: tenant.userId,
      organisationId: tenant.organisationId,
      role: 'admin' as const,
      companyIds: [],
      credential: 'jwt' as const,
    };
    // A filter (every brief here is priced): the whole organisation's total is always exact.
    const page = await service.list(actor, { limit: 2, predictionStatus: 'COMPLETED' });
    expect(page.meta.totalIsExact).toBe(false);
    expect(page.meta.total).toBeGreaterThanOrEqual(3);
    expect(page.meta.hasNextPage).toBe(true);
  });
});

describe('prediction panel and drawings', () => {
  it('shows totals, unit price, lead time, a chart breakdown and a quantity curve', async () => {
    const brief = await createBrief({ briefElements: [carton(), mailer()] });
    const response = await get(admin, `/briefs/${brief.id}/prediction-panel`);
    expect(response.statusCode, response.body).toBe(200);
    const panel = response.json();
    expect(panel).toMatchObject({ briefId: brief.id, version: 1, currency: 'EUR', quantity: 6000 });
    expect(panel.totals.totalPrice).toBe(brief.prediction.totalPrice);
    expect(panel.unitPrice).toBeCloseTo(panel.totals.productPrice / 6000, 4);
    expect(panel.pricePerThousand).toBeCloseTo(panel.unitPrice * 1000, 2);
    // Issue 30: the lead time is a breakdown (board or tooling, queue, operations, transport), no
    // longer the machine hours in working days.
    const lead = panel.leadTime.steps;
    expect(panel.leadTime.workingDays).toBe(lead.workingDays);
    expect(lead.workingDays).toBe(
      lead.procurementDays + lead.queueDays + lead.productionDays + lead.transport.days,
    );
    // The brief's lead time is its longest element's (made side by side): its hours are part of
    // the brief's machine hours.
    const days = panel.elements.map(
      (e: { leadTime: { steps: { workingDays: number } } }) => e.leadTime.steps.workingDays,
    );
    expect(lead.workingDays).toBe(Math.max(...days));
    expect(lead.productionHours).toBeLessThanOrEqual(panel.leadTime.productionHours + 0.01);
    const sum = panel.breakdown.segments.reduce((s: number, g: { amount: number }) => s + g.amount, 0);
    expect(sum).toBeCloseTo(panel.breakdown.total, 2);
    expect(panel.elements.map((e: { productCode: string }) => e.productCode)).toEqual(['STE', '0201']);
    const curve = panel.quantityCurve as { quantity: number; unitPrice: number }[];
    expect(curve.length).toBeGreaterThan(3);
    for (let i = 1; i < curve.length; i++) {
      expect(curve[i]!.quantity).toBeGreaterThan(curve[i - 1]!.quantity);
      expect(curve[i]!.unitPrice).toBeLessThanOrEqual(curve[i - 1]!.unitPrice + 1e-9);
    }
  });

  it('renders the die-line and the imposition of an element as SVG', async () => {
    const brief = await createBrief({
      briefElements: [carton({ decorationsCount: [{ decorationIndex: 0, quantity: 300 }] })],
    });
    const dieLine = await get(admin, `/briefs/${brief.id}/elements/0/die-line.svg`);
    expect(dieLine.statusCode).toBe(200);
    expect(dieLine.headers['content-type']).toContain('image/svg+xml');
    expect(dieLine.body.startsWith('<svg')).toBe(true);
    expect(dieLine.body).toContain('class="cut"');
    expect(dieLine.body).toContain('class="crease"');
    const imposition = await get(admin, `/api/briefs/${brief.id}/elements/0/imposition.svg`);
    expect(imposition.statusCode).toBe(200);
    expect(imposition.headers['content-type']).toContain('image/svg+xml');
    expect(imposition.body).toContain('<svg');
    const p = (await get(admin, `/api/briefs/${brief.id}/process/0`)).json();
    const otherKey = p.otherVariants[0].variantKey;
    const otherSheet = await get(
      admin,
      `/api/briefs/${brief.id}/elements/0/imposition.svg?variant=${encodeURIComponent(otherKey)}`,
    );
    expect(otherSheet.statusCode).toBe(200);
    expect(otherSheet.body).toContain(
      `${p.otherVariants[0].sheetSizeWidth} x ${p.otherVariants[0].sheetSizeHeight}`,
    );
    expectProblem(await get(admin, `/api/briefs/${brief.id}/elements/0/imposition.svg?variant=nope`), 404);
    expectProblem(await get(admin, `/api/briefs/${brief.id}/elements/3/die-line.svg`), 404);
  });
});

describe('brief elements on their own, and the article link modes', () => {
  it('reads an element of a brief with its latest price', async () => {
    const brief = await createBrief();
    const element = await get(admin, `/api/brief-elements/${brief.briefElements[0].id}`);
    expect(element.statusCode).toBe(200);
    expect(element.json()).toMatchObject({
      id: brief.briefElements[0].id,
      briefId: brief.id,
      position: 0,
      briefElementPrice: { quantity: 5000, currency: 'EUR', predictionId: brief.prediction.id },
    });
    // Not served unprefixed (the spec names only /api/brief-elements).
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/brief-elements/${brief.briefElements[0].id}`,
          headers: auth(admin),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('creates an article linked to an existing element (briefElementId)', async () => {
    const brief = await createBrief();
    const elementId = brief.briefElements[0].id;
    const response = await post(admin, '/api/articles', {
      name: 'Tea box',
      code: 'TEA-1',
      companyId: acmeId,
      briefElementId: elementId,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().briefElementId).toBe(elementId);
    const missing = await post(admin, '/api/articles', {
      name: 'Ghost',
      code: 'GHOST-1',
      companyId: acmeId,
      briefElementId: '00000000-0000-4000-8000-000000000000',
    });
    expectProblem(missing, 422, '/briefElementId');
    await del(admin, `/api/briefs/${brief.id}`);
    expectProblem(
      await post(admin, '/api/articles', {
        name: 'Gone',
        code: 'GONE-1',
        companyId: acmeId,
        briefElementId: elementId,
      }),
      422,
      '/briefElementId',
    );
    const foreign = await createBrief();
    expectProblem(
      await post(other, '/api/articles', {
        name: 'Foreign',
        code: 'F-1',
        companyId: foreignCompanyId,
        briefElementId: foreign.briefElements[0].id,
      }),
      422,
      '/briefElementId',
    );
  });

  it('creates a standalone, priced element from a nested briefElement', async () => {
    const { position: _p, ...spec } = carton();
    const response = await post(admin, '/articles', {
      name: 'Nested',
      code: 'NEST-1',
      companyId: acmeId,
      briefElement: spec,
    });
    expect(response.statusCode, response.body).toBe(201);
    const article = response.json();
    expect(article.briefElementId).toEqual(expect.any(String));
    const element = (await get(admin, `/api/brief-elements/${article.briefElementId}`)).json();
    expect(element).toMatchObject({
      briefId: null,
      position: 0,
      lengthDimension: 120,
      briefElementPrice: { quantity: 5000, currency: 'EUR' },
    });
    expect(element.briefElementPrice.unitPrice).toBeGreaterThan(0);
    const [prediction] = await t.app.ctx.db
      .select()
      .from(briefPredictions)
      .where(eq(briefPredictions.briefElementId, article.briefElementId));
    expect(prediction).toMatchObject({ version: 1, briefId: null, quantity: 5000 });
    const elementEvents = await t.app.ctx.db
      .select()
      .from(events)
      .where(eq(events.entityId, article.briefElementId));
    expect(elementEvents.map((e) => e.eventName)).toEqual(['event.brief_elements.created']);
    // A contact linked to the article's company sees the standalone element; one of another company does not.
    const contact = await makeUser(t, admin, 'contact');
    await linkUser(contact, acmeId);
    expect((await get(contact, `/api/brief-elements/${article.briefElementId}`)).statusCode).toBe(200);
    const stranger = await makeUser(t, admin, 'contact');
    await linkUser(stranger, globexId);
    expectProblem(await get(stranger, `/api/brief-elements/${article.briefElementId}`), 404);
  });

  it('keeps a nested element without enough data unpriced, and validates it with the element schema', async () => {
    const partial = await post(admin, '/api/articles', {
      name: 'Partial',
      code: 'PART-1',
      companyId: acmeId,
      briefElement: {
        productId: idOf(catalogue.products, 'STE'),
        lengthDimension: 100,
        widthDimension: 50,
        heightDimension: 150,
      },
    });
    expect(partial.statusCode, partial.body).toBe(201);
    const element = (await get(admin, `/api/brief-elements/${partial.json().briefElementId}`)).json();
    expect(element).toMatchObject({
      briefId: null,
      lengthDimension: 100,
      briefElementPrice: null,
      decorationsCount: [],
    });

    const invalid = await post(admin, '/api/articles', {
      name: 'Bad',
      code: 'BAD-1',
      companyId: acmeId,
      briefElement: {
        productId: idOf(catalogue.products, 'STE'),
        sidePrinted: 'BOTH',
        decorationsCount: [{ decorationIndex: 14, quantity: 10 }],
      },
    });
    const body = expectProblem(invalid, 400);
    const pointers = body.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toContain('/briefElement/sidePrinted');
    expect(pointers).toContain('/briefElement/decorationsCount/0/decorationIndex');
    expectProblem(
      await post(admin, '/api/articles', {
        name: 'Bad',
        code: 'BAD-2',
        companyId: acmeId,
        briefElement: { ...carton(), position: 0 },
      }),
      400,
      '/briefElement/position',
    );
    expectProblem(
      await post(admin, '/api/articles', {
        name: 'Bad',
        code: 'BAD-4',
        companyId: acmeId,
        briefElement: { productId: '00000000-0000-4000-8000-000000000000', widthDimension: 80 },
      }),
      422,
      '/briefElement/productId',
    );
    const { position: _p, ...spec } = carton();
    const refused = await post(admin, '/api/articles', {
      name: 'Bad',
      code: 'BAD-3',
      companyId: acmeId,
      briefElement: { ...spec, productId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(expectProblem(refused, 422, '/briefElement/productId').code).toBe('invalid_brief');
    // Refused articles leave no element behind.
    const orphans = await t.app.ctx.db
      .select({ id: briefElements.id })
      .from(briefElements)
      .where(
        and(
          eq(briefElements.organisationId, admin.organisationId),
          eq(briefElements.productId, '00000000-0000-4000-8000-000000000000'),
        ),
      );
    expect(orphans).toEqual([]);
  });
});

describe('background pricing, driven by hand (no workers in this app)', () => {
  it('answers 202 PENDING, 409 on the prediction reads until the job has run, then COMPLETED', async () => {
    const response = await post(admin, '/briefs/async', { companyId: acmeId, briefElements: [carton()] });
    expect(response.statusCode, response.body).toBe(202);
    const brief = response.json();
    expect(brief).toMatchObject({
      predictionStatus: 'PENDING',
      hasPrice: false,
      prediction: null,
      currentVersion: null,
    });
    expect(expectProblem(await get(admin, `/api/briefs/${brief.id}/process/0`), 409).code).toBe(
      'prediction_not_available',
    );
    expect((await get(admin, `/api/briefs/${brief.id}/details`)).json()).toMatchObject({
      briefComputed: null,
      briefPrice: null,
    });
    const { predictor } = briefsModule.services(t.app.ctx);
    await predictor.run({
      id: 'j',
      name: 'briefs.predict',
      data: { briefId: brief.id, organisationId: admin.organisationId, revision: 1 },
      expireInSeconds: 60,
    });
    const done = (await get(admin, `/api/briefs/${brief.id}`)).json();
    expect(done).toMatchObject({ predictionStatus: 'COMPLETED', hasPrice: true, currentVersion: 1 });
    // A second run of the same job changes nothing.
    await predictor.run({
      id: 'j',
      name: 'briefs.predict',
      data: { briefId: brief.id, organisationId: admin.organisationId, revision: 1 },
      expireInSeconds: 60,
    });
    expect((await get(admin, `/api/briefs/${brief.id}/predictions`)).json().data).toHaveLength(1);
    const statusEvents = await t.app.ctx.db
      .select({ process: events.process, payload: events.payload })
      .from(events)
      .where(and(eq(events.entityId, brief.id), eq(events.type, 'UPDATE')))
      .orderBy(asc(events.code));
    expect(
      statusEvents.map((e) => [(e.payload as { predictionStatus: string }).predictionStatus, e.process]),
    ).toEqual([
      ['IN_PROGRESS', 'PREDICTION'],
      ['COMPLETED', 'PREDICTION'],
    ]);
  });

  it('refuses an invalid brief at once (422), like the synchronous variant', async () => {
    expectProblem(
      await post(admin, '/api/briefs/async', {
        companyId: acmeId,
        briefElements: [carton({ productId: '00000000-0000-4000-8000-000000000000' })],
      }),
      422,
      '/briefElements/0/productId',
    );
    expectProblem(
      await post(admin, '/api/briefs/async', { companyId: acmeId, briefElements: [] }),
      400,
      '/briefElements',
    );
  });

  it('ends FAILED with a reason when pricing fails, never stuck', async () => {
    const brief = (
      await post(admin, '/briefs/async', { companyId: acmeId, briefElements: [carton()] })
    ).json();
    // The catalogue changed under the brief: its board is gone.
    await t.app.ctx.db
      .update(briefElements)
      .set({ materialReferenceId: '00000000-0000-4000-8000-000000000000' })
      .where(eq(briefElements.briefId, brief.id));
    const { predictor } = briefsModule.services(t.app.ctx);
    await predictor.run({
      id: 'j',
      name: 'briefs.predict',
      data: { briefId: brief.id, organisationId: admin.organisationId, revision: 1 },
      expireInSeconds: 60,
    });
    const failed = (await get(admin, `/api/briefs/${brief.id}`)).json();
    expect(failed).toMatchObject({ predictionStatus: 'FAILED', hasPrice: false });
    expect(failed.failureReason).toContain('/briefElements/0/materialReferenceId');
    expect(expectProblem(await get(admin, `/api/briefs/${brief.id}/value-analysis`), 409).code).toBe(
      'prediction_not_available',
    );
    // A fixed brief (PUT) is priced again, synchronously.
    const fixed = await put(admin, `/api/briefs/${brief.id}`, { briefElements: [carton()] });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({
      predictionStatus: 'COMPLETED',
      hasPrice: true,
      failureReason: null,
      currentVersion: 1,
    });
  });

  it('gives up after repeated attempts, and drops a job of an older revision', async () => {
    const brief = (
      await post(admin, '/briefs/async', { companyId: acmeId, briefElements: [carton()] })
    ).json();
    await t.app.ctx.db
      .update(briefs)
      .set({ predictionStatus: 'IN_PROGRESS', predictionAttempts: 5 })
      .where(eq(briefs.id, brief.id));
    const { predictor } = briefsModule.services(t.app.ctx);
    await predictor.run({
      id: 'j',
      name: 'briefs.predict',
      data: { briefId: brief.id, organisationId: admin.organisationId, revision: 1 },
      expireInSeconds: 60,
    });
    const failed = (await get(admin, `/api/briefs/${brief.id}`)).json();
    expect(failed.predictionStatus).toBe('FAILED');
    expect(failed.failureReason).toContain('5 attempts');

    const pending = (
      await post(admin, '/briefs/async', { companyId: acmeId, briefElements: [carton()] })
    ).json();
    await predictor.run({
      id: 'j',
      name: 'briefs.predict',
      data: { briefId: pending.id, organisationId: admin.organisationId, revision: 7 },
      expireInSeconds: 60,
    });
    expect((await get(admin, `/api/briefs/${pending.id}`)).json().predictionStatus).toBe('PENDING');
  });

  it('marks FAILED when an unexpected error persists on the last retry', async () => {
    const brief = (
      await post(admin, '/briefs/async', { companyId: acmeId, briefElements: [carton()] })
    ).json();
    // The database refuses to store this brief's prediction (an error that is not the engine's).
    await t.app.ctx.database.query(`create or replace function test_refuse_prediction() returns trigger language plpgsql as $$
      begin if new.brief_id = '${brief.id}' then raise exception 'disk full'; end if; return new; end $$`);
    await t.app.ctx.database.query(
      'create trigger test_refuse_prediction before insert on brief_predictions for each row execute function test_refuse_prediction()',
    );
    try {
      const { predictor } = briefsModule.services(t.app.ctx);
      const job = {
        id: 'j',
        name: 'briefs.predict',
        data: { briefId: brief.id, organisationId: admin.organisationId, revision: 1 },
        expireInSeconds: 60,
      };
      await expect(predictor.run({ ...job, retryCount: 0, retryLimit: 2 } as never)).rejects.toThrow();
      expect((await get(admin, `/api/briefs/${brief.id}`)).json().predictionStatus).toBe('IN_PROGRESS');
      await predictor.run({ ...job, retryCount: 2, retryLimit: 2 } as never);
      const failed = (await get(admin, `/api/briefs/${brief.id}`)).json();
      expect(failed).toMatchObject({
        predictionStatus: 'FAILED',
        failureReason: 'internal error while pricing',
      });
    } finally {
      await t.app.ctx.database.query('drop trigger test_refuse_prediction on brief_predictions');
    }
  });
});
