/**
 * Replays every operation of HIPE's published n8n node (Packitoo/n8n-nodes-hipe, nodes/Hipe/*,
 * one file per operation under <Resource>/actions/) as the node builds it: method, path, query
 * string, JSON body or multipart fields, with the node's credential header. Each test is named
 * after its action file and checks what the node reads back from the answer.
 *
 * The tests run in order and share one tenant: currency, company, address, contact, project,
 * status, article, order with items, files, import, archive, deletes.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_STATUS } from '../../src/db/schema/imports.ts';
import { events } from '../../src/db/schema/platform.ts';
import { loadCatalogue } from '../../src/modules/catalogue/loader.ts';
import { exportsModule } from '../../src/modules/exports/module.ts';
import { importsModule } from '../../src/modules/imports/module.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';
import { expectProblem, type Json } from '../helpers/http.ts';

let t: TestApp;
let admin: Credentials;
let sales: Credentials;
let otherTenant: Credentials;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  otherTenant = await makeOrganisation(t);
});
afterAll(() => t.close());

type NodeRequest = {
  /** The node's `qs`: serialised like its HTTP client does (scalars; undefined dropped). */
  qs?: Record<string, string | number | boolean | undefined>;
  /** The node's `body` with `json: true`. */
  body?: unknown;
  /** The node's `formData`: strings, and files as {value, options: {filename, contentType}}. */
  formData?: Record<string, string | { value: Buffer; options: { filename: string; contentType: string } }>;
  /** Extra headers (e.g. `Prefer: respond-async` of the async mode). */
  headers?: Record<string, string>;
  as?: Credentials;
};

/** One request as the node sends it (`requestWithAuthentication`, base URL + /api/...). */
async function node(method: string, path: string, request: NodeRequest = {}) {
  const who = request.as ?? admin;
  let url = path;
  if (request.qs) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(request.qs)) {
      if (value !== undefined) params.append(key, String(value));
    }
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  const headers: Record<string, string> = { ...auth(who), ...request.headers };
  let payload: string | Buffer | undefined;
  if (request.formData) {
    const form = new FormData();
    for (const [name, value] of Object.entries(request.formData)) {
      if (typeof value === 'string') form.append(name, value);
      else
        form.append(
          name,
          new Blob([new Uint8Array(value.value)], { type: value.options.contentType }),
          value.options.filename,
        );
    }
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    payload = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type')!;
  } else if (request.body !== undefined) {
    payload = JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  return t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** The JSON answer of a 2xx (anything else fails with the status and body). */
async function ok(response: Awaited<ReturnType<typeof node>>, status?: number): Promise<Json> {
  if (response.statusCode >= 300 || (status && response.statusCode !== status)) {
    throw new Error(`${response.statusCode} ${response.body}`);
  }
  return response.body ? response.json() : {};
}

/** What `listWithPaginationFlat` reads: an array, or the `data` array of an object. */
const itemsOf = (answer: Json | Json[]): Json[] =>
  Array.isArray(answer) ? answer : Array.isArray(answer.data) ? answer.data : [answer];

const ids: Record<string, string> = {};

describe('Currencies', () => {
  it('create.ts: POST /api/currencies with every field, empty ones as ""', async () => {
    const currency = await ok(
      await node('POST', '/api/currencies', {
        body: {
          name: 'US Dollar',
          code: 'USD',
          symbol: '$',
          countryCode: 'us',
          externalId: 'ERP-USD',
          enable: true,
          default: false,
        },
      }),
      201,
    );
    expect(currency).toMatchObject({
      code: 'USD',
      countryCode: 'us',
      externalId: 'ERP-USD',
      enabled: true,
      enable: true,
      isDefault: false,
      default: false,
    });
    ids.currency = currency.id;
    const blank = await ok(
      await node('POST', '/api/currencies', {
        body: {
          name: 'Pound',
          code: 'GBP',
          symbol: '£',
          countryCode: '',
          externalId: '',
          enable: true,
          default: true,
        },
      }),
      201,
    );
    expect(blank).toMatchObject({ countryCode: null, externalId: null, default: true, isDefault: true });
    ids.gbp = blank.id;
  });

  it('get.ts: GET /api/currencies/{id}', async () => {
    const currency = await ok(await node('GET', `/api/currencies/${ids.currency}`));
    expect(currency).toMatchObject({ id: ids.currency, enable: true, default: false });
  });

  it('list.ts: GET /api/currencies?limit=50 and without limit (return all)', async () => {
    expect(itemsOf(await ok(await node('GET', '/api/currencies', { qs: { limit: 50 } }))).length).toBe(3);
    expect(itemsOf(await ok(await node('GET', '/api/currencies'))).map((c) => c.code)).toContain('USD');
  });

  it('search.ts: GET /api/currencies?search=&limit=', async () => {
    const found = itemsOf(
      await ok(await node('GET', '/api/currencies', { qs: { search: 'dollar', limit: 50 } })),
    );
    expect(found.map((c) => c.code)).toEqual(['USD']);
  });

  it('update.ts: PATCH /api/currencies/{id} with enable and default always sent', async () => {
    const updated = await ok(
      await node('PATCH', `/api/currencies/${ids.currency}`, {
        body: { symbol: 'US$', externalId: 'ERP-USD-2', enable: true, default: true },
      }),
    );
    expect(updated).toMatchObject({ symbol: 'US$', externalId: 'ERP-USD-2', default: true, isDefault: true });
    // One default per organisation: the pound is no longer the default.
    expect(await ok(await node('GET', `/api/currencies/${ids.gbp}`))).toMatchObject({ default: false });
    // HIPE's name and ours with different values: refused, nothing changes.
    expectProblem(
      await node('PATCH', `/api/currencies/${ids.currency}`, { body: { enable: false, enabled: true } }),
      400,
    );
    // A typo is still refused.
    expectProblem(await node('PATCH', `/api/currencies/${ids.currency}`, { body: { enabel: false } }), 400);
    // Another tenant's currency: 404; a sales user may not manage currencies: 403.
    expectProblem(
      await node('PATCH', `/api/currencies/${ids.currency}`, { body: { enable: false }, as: otherTenant }),
      404,
    );
    expectProblem(
      await node('PATCH', `/api/currencies/${ids.currency}`, { body: { enable: false }, as: sales }),
      403,
    );
  });
});

describe('Companies', () => {
  it('Create.ts: POST /api/companies with managedById, collaboratorIds and additional fields', async () => {
    const company = await ok(
      await node('POST', '/api/companies', {
        body: {
          currencyId: ids.currency,
          customFields: '{}',
          email: 'buyer@acme.test',
          phone: '+33 1 23 45 67 89',
          vat: 'FR40303265045',
          website: 'https://acme.test',
          name: 'Acme',
          managedById: sales.userId,
          externalId: 'ERP-ACME',
          collaboratorIds: [admin.userId, sales.userId],
        },
      }),
      201,
    );
    expect(company).toMatchObject({
      name: 'Acme',
      phone: '+33 1 23 45 67 89',
      phoneNumber: '+33 1 23 45 67 89',
      vat: 'FR40303265045',
      vatNumber: 'FR40303265045',
      managedById: sales.userId,
      collaboratorIds: [admin.userId, sales.userId],
      currencyId: ids.currency,
      externalId: 'ERP-ACME',
    });
    ids.company = company.id;
    const child = await ok(
      await node('POST', '/api/companies', {
        body: { parentId: ids.company, createdAt: '2020-01-02T03:04:05.000Z', name: 'Acme Lyon' },
      }),
      201,
    );
    expect(child).toMatchObject({ parentId: ids.company, createdAt: '2020-01-02T03:04:05.000Z' });
    ids.childCompany = child.id;
    // Another tenant's user as manager: 422 with a pointer; nothing is created.
    const refused = expectProblem(
      await node('POST', '/api/companies', { body: { name: 'X', managedById: otherTenant.userId } }),
      422,
    );
    expect(refused.errors?.[0]?.pointer).toBe('/managedById');
  });

  it('Get.ts: GET /api/companies/{id}', async () => {
    expect(await ok(await node('GET', `/api/companies/${ids.company}`))).toMatchObject({
      id: ids.company,
      vat: 'FR40303265045',
    });
    expectProblem(await node('GET', `/api/companies/${ids.company}`, { as: otherTenant }), 404);
  });

  it('Update.ts: PATCH /api/companies/{id} with phone, vat, managedById and collaboratorIds', async () => {
    const company = await ok(
      await node('PATCH', `/api/companies/${ids.company}`, {
        body: {
          phone: '+33 9 99',
          vat: 'FR83404833048',
          managedById: admin.userId,
          collaboratorIds: [sales.userId],
        },
      }),
    );
    expect(company).toMatchObject({
      phoneNumber: '+33 9 99',
      vatNumber: 'FR83404833048',
      managedById: admin.userId,
      collaboratorIds: [sales.userId],
    });
    expectProblem(await node('PATCH', `/api/companies/${ids.company}`, { body: { vta: 'x' } }), 400);
  });

  it('List.ts: GET /api/companies/pagination with the flat filters and sort', async () => {
    const answer = await ok(
      await node('GET', '/api/companies/pagination', {
        qs: {
          page: 1,
          limit: 50,
          search: 'acme',
          manager: admin.userId,
          createdBy: admin.userId,
          hierarchy: 'parent',
          createdAt: 'Today',
          type: 'CALL',
          sort: 'name,DESC',
        },
      }),
    );
    expect(answer.data.map((c: Json) => c.id)).toEqual([ids.company]);
    const range = await ok(
      await node('GET', '/api/companies/pagination', {
        qs: { page: 1, limit: 100, start: '2019-12-31T00:00:00.000Z', end: '2020-12-31T00:00:00.000Z' },
      }),
    );
    expect(range.data.map((c: Json) => c.id)).toEqual([ids.childCompany]);
  });

  it('Search.ts: GET /api/companies?limit=&s=<text>', async () => {
    const found = await ok(await node('GET', '/api/companies', { qs: { limit: 50, s: 'lyon' } }));
    expect(found.map((c: Json) => c.id)).toEqual([ids.childCompany]);
    const all = await ok(await node('GET', '/api/companies', { qs: { s: '' } }));
    expect(all).toHaveLength(2);
    const crud = await ok(
      await node('GET', '/api/companies', {
        qs: { limit: 1, s: JSON.stringify({ externalId: { $eq: 'ERP-ACME' } }) },
      }),
    );
    expect(crud.map((c: Json) => c.id)).toEqual([ids.company]);
  });
});

/** The address as the node's create.ts sends it: every field, empty ones as "". */
const hipeAddress = (overrides: Json = {}) => ({
  companyId: ids.company,
  address: '1 rue de la Paix',
  city: 'Paris',
  country: 'France',
  firstComplementaryAddress: 'Bâtiment B',
  name: 'Siège',
  position: 1,
  secondComplementaryAddress: '',
  state: '',
  zipCode: '75002',
  externalId: 'ERP-ADDR-1',
  ...overrides,
});

describe('Addresses', () => {
  it('create.ts: POST /api/addresses in HIPE’s shape (Prefer: respond-async is answered at once)', async () => {
    const address = await ok(
      await node('POST', '/api/addresses', { body: hipeAddress(), headers: { prefer: 'respond-async' } }),
      201,
    );
    expect(address).toMatchObject({
      companyId: ids.company,
      street1: '1 rue de la Paix',
      address: '1 rue de la Paix',
      street2: 'Bâtiment B',
      firstComplementaryAddress: 'Bâtiment B',
      street3: null,
      secondComplementaryAddress: null,
      postcode: '75002',
      zipCode: '75002',
      region: null,
      state: null,
      countryCode: 'FR',
      country: 'FR',
      position: 1,
      externalId: 'ERP-ADDR-1',
      name: 'Siège',
    });
    ids.address = address.id;
    const unknown = expectProblem(
      await node('POST', '/api/addresses', { body: hipeAddress({ country: 'Atlantis', externalId: '' }) }),
      400,
    );
    expect(unknown.errors?.[0]?.pointer).toBe('/country');
    const missing = expectProblem(
      await node('POST', '/api/addresses', { body: { ...hipeAddress(), address: undefined } }),
      400,
    );
    expect(missing.errors?.[0]?.pointer).toBe('/street1');
  });

  it('Companies/createAddress.ts: POST /api/addresses without externalId', async () => {
    const { externalId: _e, ...body } = hipeAddress({
      address: '2 quai Perrache',
      city: 'Lyon',
      zipCode: '69002',
    });
    const address = await ok(await node('POST', '/api/addresses', { body }), 201);
    expect(address).toMatchObject({ city: 'Lyon', country: 'FR', externalId: null });
    ids.address2 = address.id;
  });

  it('createBulk.ts: POST /api/addresses/bulk {bulk: [...]} answers the created array', async () => {
    const created = await ok(
      await node('POST', '/api/addresses/bulk', {
        body: {
          bulk: [
            hipeAddress({
              address: '3 Main St',
              city: 'Boston',
              country: 'US',
              zipCode: '02101',
              externalId: '',
            }),
            hipeAddress({
              address: '4 High St',
              city: 'London',
              country: 'Royaume-Uni',
              zipCode: 'W1',
              externalId: '',
            }),
          ],
        },
      }),
      201,
    );
    expect(created.map((a: Json) => a.countryCode)).toEqual(['US', 'GB']);
    ids.bulkAddress = created[0].id;
    // One bad item: nothing is created.
    const before = (await ok(await node('GET', `/api/companies/${ids.company}/addresses`))).length;
    const refused = expectProblem(
      await node('POST', '/api/addresses/bulk', {
        body: {
          bulk: [hipeAddress({ externalId: '' }), hipeAddress({ country: 'Nowhere', externalId: '' })],
        },
      }),
      400,
    );
    expect(refused.errors?.[0]?.pointer).toBe('/bulk/1/country');
    expect(await ok(await node('GET', `/api/companies/${ids.company}/addresses`))).toHaveLength(before);
  });

  it('get.ts: GET /api/addresses/{id}', async () => {
    expect(await ok(await node('GET', `/api/addresses/${ids.address}`))).toMatchObject({ zipCode: '75002' });
    expectProblem(await node('GET', `/api/addresses/${ids.address}`, { as: otherTenant }), 404);
  });

  it('list.ts: GET /api/addresses', async () => {
    expect(itemsOf(await ok(await node('GET', '/api/addresses'))).length).toBe(4);
  });

  it('search.ts: GET /api/addresses?limit=&s=', async () => {
    const text = await ok(await node('GET', '/api/addresses', { qs: { limit: 50, s: 'lyon' } }));
    expect(text.map((a: Json) => a.id)).toEqual([ids.address2]);
    const crud = await ok(
      await node('GET', '/api/addresses', {
        qs: { limit: 50, s: JSON.stringify({ zipCode: { $eq: '75002' } }) },
      }),
    );
    expect(crud.map((a: Json) => a.id)).toEqual([ids.address]);
    expect(await ok(await node('GET', '/api/addresses', { qs: { limit: 50, s: '' } }))).toHaveLength(4);
  });

  it('update.ts: PATCH /api/addresses/{id} with the non-empty fields', async () => {
    const address = await ok(
      await node('PATCH', `/api/addresses/${ids.address}`, {
        body: {
          companyId: ids.company,
          state: 'Île-de-France',
          position: 2,
          secondComplementaryAddress: '3e étage',
        },
      }),
    );
    expect(address).toMatchObject({
      region: 'Île-de-France',
      state: 'Île-de-France',
      position: 2,
      street3: '3e étage',
    });
    expectProblem(
      await node('PATCH', `/api/addresses/${ids.address}`, { body: { zipCode: '1', postcode: '2' } }),
      400,
    );
  });

  it('Companies/getAddresses.ts: GET /api/companies/{companyId}/addresses', async () => {
    const list = await ok(await node('GET', `/api/companies/${ids.company}/addresses`));
    expect(list.map((a: Json) => a.id)).toContain(ids.address);
    expect(list[0]).toHaveProperty('zipCode');
  });
});

describe('Users (contacts)', () => {
  it('CreateContact.ts: POST /api/users/contacts with mobilePhone, job, customFields and collaborationIds', async () => {
    const contact = await ok(
      await node('POST', '/api/users/contacts', {
        body: {
          firstName: 'Jeanne',
          lastName: 'Martin',
          email: 'jeanne.martin@acme.test',
          externalId: 'ERP-C-1',
          phoneNumber: '+33 1 00 00 00 00',
          mobilePhone: '+33 6 00 00 00 00',
          job: 'Buyer',
          customFields: {},
          collaborationIds: [ids.company],
        },
      }),
      201,
    );
    expect(contact).toMatchObject({
      role: 'contact',
      mobilePhone: '+33 6 00 00 00 00',
      job: 'Buyer',
      jobTitle: 'Buyer',
      collaborationIds: [ids.company],
    });
    ids.contact = contact.id;
    // The node sends the fields left empty as "".
    const blank = await ok(
      await node('POST', '/api/users/contacts', {
        body: {
          firstName: 'Paul',
          lastName: '',
          email: '',
          externalId: '',
          phoneNumber: '',
          mobilePhone: '',
          job: '',
          customFields: {},
        },
      }),
      201,
    );
    expect(blank).toMatchObject({
      firstName: 'Paul',
      email: null,
      externalId: null,
      mobilePhone: null,
      job: null,
    });
    ids.contact2 = blank.id;
  });

  it('Get.ts: GET /api/users/{id}', async () => {
    expect(await ok(await node('GET', `/api/users/${ids.contact}`))).toMatchObject({ job: 'Buyer' });
  });

  it('GetMe.ts: GET /api/users/me', async () => {
    expect(await ok(await node('GET', '/api/users/me'))).toMatchObject({ id: admin.userId });
  });

  it('List.ts: GET /api/users/pagination with search, role, filterId and sort', async () => {
    const page = await ok(
      await node('GET', '/api/users/pagination', {
        qs: { page: 1, limit: 50, search: 'jeanne', role: 'contact', filterId: 'saved-1', sort: 'name,ASC' },
      }),
    );
    expect(page.data.map((u: Json) => u.id)).toEqual([ids.contact]);
    const all = await ok(
      await node('GET', '/api/users/pagination', { qs: { page: 1, limit: 100, sort: 'status,DESC' } }),
    );
    expect(all.data.length).toBeGreaterThanOrEqual(4);
  });

  it('Search.ts: GET /api/users/search?s=&limit= answers an array', async () => {
    const found = await ok(
      await node('GET', '/api/users/search', {
        qs: { s: JSON.stringify({ name: { $contL: 'jeanne' } }), limit: 10 },
      }),
    );
    expect(found.map((u: Json) => u.id)).toEqual([ids.contact]);
    expectProblem(await node('GET', '/api/users/search', { qs: { s: '{"nope":1}', limit: 10 } }), 400);
  });

  it('Update.ts: PATCH /api/users/{id} with collaborationIds, customFields (JSON text) and mobilePhone', async () => {
    const updated = await ok(
      await node('PATCH', `/api/users/${ids.contact}`, {
        body: {
          collaborationIds: `["${ids.childCompany}"]`,
          customFields: '{}',
          mobilePhone: '+33 7 11',
          lastName: 'Martin-Durand',
        },
      }),
    );
    expect(updated).toMatchObject({
      mobilePhone: '+33 7 11',
      lastName: 'Martin-Durand',
      companyIds: [ids.childCompany],
      collaborationIds: [ids.childCompany],
    });
    // A staff user has no custom fields.
    expectProblem(
      await node('PATCH', `/api/users/${sales.userId}`, { body: { customFields: { a: 1 } } }),
      422,
    );
    expectProblem(
      await node('PATCH', `/api/users/${ids.contact}`, { body: { mobilePhone: 'x' }, as: sales }),
      403,
    );
  });

  it('Companies/linkContact.ts: POST /api/companies/{companyId}/contacts/{contactId}', async () => {
    await ok(await node('POST', `/api/companies/${ids.company}/contacts/${ids.contact}`));
    const contact = await ok(await node('GET', `/api/users/${ids.contact}`));
    expect(contact.companyIds.sort()).toEqual([ids.company, ids.childCompany].sort());
  });

  it('Companies/unlinkContact.ts: DELETE /api/companies/{companyId}/contacts/{contactId}', async () => {
    await ok(await node('DELETE', `/api/companies/${ids.childCompany}/contacts/${ids.contact}`));
    expect((await ok(await node('GET', `/api/users/${ids.contact}`))).companyIds).toEqual([ids.company]);
  });

  it('Archive.ts: DELETE /api/users/{id}/archived', async () => {
    expect(await ok(await node('DELETE', `/api/users/${ids.contact2}/archived`))).toMatchObject({
      id: ids.contact2,
    });
  });

  it('Unarchive.ts: GET /api/users/{id}/unarchived', async () => {
    const back = await ok(await node('GET', `/api/users/${ids.contact2}/unarchived`));
    expect(back).toMatchObject({ id: ids.contact2, deletedAt: null });
    expectProblem(await node('GET', `/api/users/${ids.contact2}/unarchived`), 409);
    expectProblem(await node('GET', `/api/users/${ids.contact2}/unarchived`, { as: sales }), 403);
  });
});

/** A file as the node's UploadFile actions send it: the binary in the multipart field `file`. */
const upload = (content: Buffer, filename: string, contentType: string) => ({
  formData: { file: { value: content, options: { filename, contentType } } },
});
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('Projects', () => {
  it('Create.ts: POST /api/projects with managerId, dueDate, estimatedValues and the pipeline', async () => {
    // The organisation's seeded sales pipeline (GET /api/pipelines, see Pipelines below).
    const [sales1] = (await ok(await node('GET', '/api/pipelines?type=opportunity'))) as unknown as Json[];
    const pipelineId = sales1!.id as string;
    const stepId = (sales1!.steps as Json[])[2]!.id as string;
    const project = await ok(
      await node('POST', '/api/projects', {
        body: {
          companyId: ids.company,
          name: 'Spring boxes',
          managerId: sales.userId,
          externalId: 'ERP-P-1',
          customFields: '',
          dueDate: '2027-03-01T00:00:00.000Z',
          estimatedValues: 12500,
          opportunityPipelineId: pipelineId,
          opportunityStepId: stepId,
        },
      }),
      201,
    );
    expect(project).toMatchObject({
      managerId: sales.userId,
      dueDate: '2027-03-01T00:00:00.000Z',
      estimatedValues: 12500,
      opportunityPipelineId: pipelineId,
      opportunityStepId: stepId,
    });
    ids.project = project.id;
    // Unknown ids, another tenant's pipeline, a step of no pipeline given: 422 with a pointer.
    const [theirs] = (await ok(
      await node('GET', '/api/pipelines', { as: otherTenant }),
    )) as unknown as Json[];
    const refused = async (body: Json, pointer: string) => {
      const response = await node('POST', '/api/projects', {
        body: { companyId: ids.company, name: 'Refused', ...body },
      });
      expectProblem(response, 422);
      expect(response.json().errors[0].pointer).toBe(pointer);
    };
    await refused({ opportunityPipelineId: 'pipeline-1' }, '/opportunityPipelineId');
    await refused({ opportunityPipelineId: theirs!.id }, '/opportunityPipelineId');
    await refused(
      { opportunityPipelineId: pipelineId, opportunityStepId: (theirs!.steps as Json[])[0]!.id },
      '/opportunityStepId',
    );
    await refused({ opportunityStepId: 'step-2' }, '/opportunityStepId');
    // A step sent alone brings its pipeline.
    const alone = await ok(
      await node('POST', '/api/projects', {
        body: { companyId: ids.company, name: 'Step only', opportunityStepId: stepId },
      }),
      201,
    );
    expect(alone).toMatchObject({ opportunityPipelineId: pipelineId, opportunityStepId: stepId });
    await ok(await node('DELETE', `/api/projects/${alone.id}`));
    expectProblem(
      await node('POST', '/api/projects', {
        body: { companyId: ids.company, name: 'X', managerId: ids.contact, externalId: 'ERP-P-2' },
      }),
      422,
    );
  });

  it('Get.ts: GET /api/projects/{id}', async () => {
    expect(await ok(await node('GET', `/api/projects/${ids.project}`))).toMatchObject({
      managerId: sales.userId,
    });
  });

  it('Update.ts: PATCH /api/projects/{id} (the node sends it without its credential: 401)', async () => {
    const body = {
      managerId: admin.userId,
      dueDate: '2027-04-01T00:00:00.000Z',
      estimatedValues: 9000,
      name: 'Spring boxes 2',
    };
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: `/api/projects/${ids.project}`,
      payload: body,
    });
    expect(anonymous.statusCode).toBe(401);
    const project = await ok(await node('PATCH', `/api/projects/${ids.project}`, { body }));
    expect(project).toMatchObject({
      managerId: admin.userId,
      dueDate: '2027-04-01T00:00:00.000Z',
      estimatedValues: 9000,
    });
    // Pipeline ids are checked on update too; a refused update changes nothing.
    for (const [patch, pointer] of [
      [{ opportunityStepId: '0190a0a0-0000-7000-8000-000000000000' }, '/opportunityStepId'],
      [{ opportunityPipelineId: 'pipeline-9', name: 'Never' }, '/opportunityPipelineId'],
    ] as const) {
      const refused = await node('PATCH', `/api/projects/${ids.project}`, { body: patch });
      expectProblem(refused, 422);
      expect(refused.json().errors[0].pointer).toBe(pointer);
    }
    expect(await ok(await node('GET', `/api/projects/${ids.project}`))).toMatchObject({
      name: 'Spring boxes 2',
      opportunityPipelineId: project.opportunityPipelineId,
    });
    // Clearing the pipeline clears its step.
    const cleared = await ok(
      await node('PATCH', `/api/projects/${ids.project}`, { body: { opportunityPipelineId: '' } }),
    );
    expect(cleared).toMatchObject({ opportunityPipelineId: null, opportunityStepId: null });
  });

  it('List.ts: GET /api/projects/pagination with manager, createdBy, status, start/end, search', async () => {
    const page = await ok(
      await node('GET', '/api/projects/pagination', {
        qs: {
          page: 1,
          limit: 50,
          manager: admin.userId,
          createdBy: admin.userId,
          search: 'spring',
          start: '2020-01-01T00:00:00.000Z',
          end: '2100-01-01T00:00:00.000Z',
          date: 'Today',
          pipeline: 'pipeline-1',
          sort: 'name,ASC',
        },
      }),
    );
    expect(page.data.map((p: Json) => p.id)).toEqual([ids.project]);
    expectProblem(await node('GET', '/api/projects/pagination', { qs: { status: 'nope' } }), 400);
  });

  it('UploadFile.ts: POST /api/projects/{projectId}/files (multipart field file)', async () => {
    const file = await ok(
      await node(
        'POST',
        `/api/projects/${ids.project}/files`,
        upload(Buffer.from('brief'), 'brief.txt', 'text/plain'),
      ),
      201,
    );
    expect(file).toMatchObject({ filename: 'brief.txt' });
  });

  it('GetFiles.ts: GET /api/projects/{projectId}/files', async () => {
    expect(
      itemsOf(await ok(await node('GET', `/api/projects/${ids.project}/files`))).map((f) => f.filename),
    ).toEqual(['brief.txt']);
  });
});

describe('Statuses', () => {
  it('Create.ts: POST /api/statuses with HIPE’s entity, labels per language and additionalFields', async () => {
    const status = await ok(
      await node('POST', '/api/statuses', {
        body: {
          entity: 'ORDERS',
          position: 5,
          internalLabel: { en: 'Handed over', fr: 'Remise au transporteur' },
          externalLabel: { en: 'On its way', fr: 'En route' },
          externalId: 'ERP-ST-1',
          isCompleted: true,
          isCreation: false,
          isOverdue: false,
          additionalFields: { fgColor: '#ffffff', bgColor: '#00aa00' },
        },
      }),
      201,
    );
    expect(status).toMatchObject({
      entity: 'order',
      internalLabel: 'Handed over',
      internalLabels: { en: 'Handed over', fr: 'Remise au transporteur' },
      externalLabel: 'On its way',
      externalLabels: { en: 'On its way', fr: 'En route' },
      color: '#00AA00',
      bgColor: '#00AA00',
      fgColor: '#FFFFFF',
      isCompleted: true,
      isCreation: false,
      isDefault: false,
      externalId: 'ERP-ST-1',
      position: 5,
    });
    ids.status = status.id;
    const quote = await ok(
      await node('POST', '/api/statuses', {
        body: {
          entity: 'quotes',
          position: 0,
          internalLabel: { en: '', fr: 'Envoyé' },
          externalLabel: { en: '', fr: 'Envoyé' },
          externalId: '',
          isCompleted: false,
          isCreation: false,
          isOverdue: true,
          additionalFields: {},
        },
      }),
      201,
    );
    expect(quote).toMatchObject({
      entity: 'quote',
      internalLabel: 'Envoyé',
      isOverdue: true,
      externalId: null,
    });
    const company = await ok(
      await node('POST', '/api/statuses', {
        body: {
          entity: 'COMPANIES',
          position: 0,
          internalLabel: { en: 'Prospect' },
          externalLabel: { en: 'Prospect' },
          externalId: '',
          isCompleted: false,
          isCreation: true,
          isOverdue: false,
          additionalFields: {},
        },
      }),
      201,
    );
    expect(company).toMatchObject({ entity: 'company', isDefault: true, isCreation: true });
    expectProblem(
      await node('POST', '/api/statuses', {
        body: { entity: 'ORDERS', internalLabel: { en: '', fr: '' }, additionalFields: {} },
      }),
      400,
    );
    expectProblem(
      await node('POST', '/api/statuses', { body: { entity: 'PLANETS', internalLabel: 'x' } }),
      400,
    );
    expectProblem(
      await node('POST', '/api/statuses', {
        body: { entity: 'ORDERS', internalLabel: 'x', additionalFields: { size: 1 } },
      }),
      400,
    );
  });

  it('List.ts: GET /api/statuses/entity?entity=ORDERS', async () => {
    const list = await ok(await node('GET', '/api/statuses/entity?entity=ORDERS'));
    expect(list.map((s: Json) => s.id)).toContain(ids.status);
    expect(list.every((s: Json) => s.entity === 'order')).toBe(true);
  });

  it('Update.ts: PATCH /api/statuses/{statusId} with the flat additional fields', async () => {
    const status = await ok(
      await node('PATCH', `/api/statuses/${ids.status}`, {
        body: {
          bgColor: '#112233',
          fgColor: '#000000',
          entity: 'ORDERS',
          internalLabel: { en: 'Dispatched', fr: 'Expédiée' },
          isOverdue: true,
          position: 6,
        },
      }),
    );
    expect(status).toMatchObject({
      color: '#112233',
      bgColor: '#112233',
      fgColor: '#000000',
      internalLabel: 'Dispatched',
      isOverdue: true,
      position: 6,
    });
    expectProblem(await node('PATCH', `/api/statuses/${ids.status}`, { body: { entity: 'QUOTES' } }), 400);
    expectProblem(
      await node('PATCH', `/api/statuses/${ids.status}`, { body: { isOverdue: false }, as: sales }),
      403,
    );
  });
});

describe('Articles', () => {
  it('Create.ts: POST /api/articles with name, code and the sanitised additional fields', async () => {
    const article = await ok(
      await node('POST', '/api/articles', {
        body: {
          name: 'Shipping box 30x20x10',
          code: 'BOX-302010',
          briefElementId: undefined,
          companyId: ids.company,
          createdAt: '2024-05-06T07:08:09.000Z',
          createdById: sales.userId,
          currencyId: ids.currency,
          customFields: {},
          description: 'Single wall',
          enabled: true,
          externalId: 'ERP-A-1',
          price: 1.2345,
          quantity: 500,
          stocked: true,
          unit: 'mm',
        },
      }),
      201,
    );
    expect(article).toMatchObject({
      code: 'BOX-302010',
      createdById: sales.userId,
      createdAt: '2024-05-06T07:08:09.000Z',
      currencyId: ids.currency,
      price: 1.2345,
      quantity: 500,
      stocked: true,
      unit: 'mm',
      previewId: null,
      previewFileId: null,
    });
    ids.article = article.id;
    const second = await ok(
      await node('POST', '/api/articles', {
        body: { name: 'Insert', code: 'INS-1', companyId: ids.company, price: 0.5 },
      }),
      201,
    );
    ids.article2 = second.id;
    expectProblem(
      await node('POST', '/api/articles', {
        body: { name: 'X', code: 'X-1', companyId: ids.company, createdById: otherTenant.userId },
      }),
      422,
    );
  });

  it('Get.ts: GET /api/articles/{id}', async () => {
    expect(await ok(await node('GET', `/api/articles/${ids.article}`))).toMatchObject({
      id: ids.article,
      previewId: null,
    });
  });

  it('Update.ts: PATCH /api/articles/{id} with createdById and the sanitised fields', async () => {
    const article = await ok(
      await node('PATCH', `/api/articles/${ids.article}`, {
        body: { createdById: admin.userId, description: 'Double wall', customFields: '{}' },
      }),
    );
    expect(article).toMatchObject({ createdById: admin.userId, description: 'Double wall' });
  });

  it('List.ts: GET /api/articles with createdBy, externalId, stocked, enabled, search and sort', async () => {
    const page = await ok(
      await node('GET', '/api/articles', {
        qs: {
          page: 1,
          limit: 50,
          companyId: ids.company,
          createdBy: admin.userId,
          enabled: true,
          externalId: 'ERP-A-1',
          search: 'box',
          stocked: true,
          sort: 'price,DESC',
        },
      }),
    );
    expect(page.data.map((a: Json) => a.id)).toEqual([ids.article]);
    const notStocked = await ok(
      await node('GET', '/api/articles', { qs: { page: 1, limit: 50, stocked: false } }),
    );
    expect(notStocked.data.map((a: Json) => a.id)).toEqual([ids.article2]);
  });

  it('UploadFile.ts: POST /api/articles/{articleId}/files', async () => {
    const file = await ok(
      await node('POST', `/api/articles/${ids.article}/files`, upload(PNG, 'box.png', 'image/png')),
      201,
    );
    ids.articleFile = file.id;
    const other = await ok(
      await node(
        'POST',
        `/api/articles/${ids.article}/files`,
        upload(Buffer.from('spec'), 'spec.txt', 'text/plain'),
      ),
      201,
    );
    ids.articleFile2 = other.id;
  });

  it('GetFiles.ts: GET /api/articles/{articleId}/files: the node reads the file ids', async () => {
    const files = itemsOf(await ok(await node('GET', `/api/articles/${ids.article}/files`)));
    expect(files.map((f) => f.id).sort()).toEqual([ids.articleFile, ids.articleFile2].sort());
  });

  it('SetPreview.ts: PATCH /api/articles/{articleId}/files/{fileId}/default', async () => {
    const article = await ok(
      await node('PATCH', `/api/articles/${ids.article}/files/${ids.articleFile}/default`),
    );
    expect(article).toMatchObject({ previewFileId: ids.articleFile, previewId: ids.articleFile });
    // A file of another article is refused.
    const otherFile = await ok(
      await node('POST', `/api/articles/${ids.article2}/files`, upload(PNG, 'insert.png', 'image/png')),
      201,
    );
    expectProblem(await node('PATCH', `/api/articles/${ids.article}/files/${otherFile.id}/default`), 422);
    // previewId on update: the same data.
    const back = await ok(
      await node('PATCH', `/api/articles/${ids.article2}`, { body: { previewId: otherFile.id } }),
    );
    expect(back).toMatchObject({ previewFileId: otherFile.id });
  });

  it('AddBriefElement.ts: POST /api/articles/{id}/brief-element with the dimensions and their alias', async () => {
    const article = await ok(
      await node('POST', `/api/articles/${ids.article}/brief-element`, {
        body: {
          lengthDimension: 300,
          widthDimension: 200,
          heightDimension: 100,
          alias: { length: 300, width: 200, height: 100 },
        },
      }),
    );
    expect(article.briefElementId).toEqual(expect.any(String));
    expectProblem(
      await node('POST', `/api/articles/${ids.article}/brief-element`, {
        body: { lengthDimension: 300, alias: { length: 301 } },
      }),
      400,
    );
  });

  it('DeleteFile.ts: DELETE /api/articles/{articleId}/files/{fileId}', async () => {
    await ok(await node('DELETE', `/api/articles/${ids.article}/files/${ids.articleFile2}`));
    expect(
      itemsOf(await ok(await node('GET', `/api/articles/${ids.article}/files`))).map((f) => f.id),
    ).toEqual([ids.articleFile]);
  });
});

describe('Orders', () => {
  it('Create.ts: POST /api/orders with billedAmount and the sanitised additional fields', async () => {
    const order = await ok(
      await node('POST', '/api/orders', {
        body: {
          billedAmount: 0,
          actualDeliveryDate: '2027-02-10T00:00:00.000Z',
          companyId: ids.company,
          createdAt: '2026-01-02T00:00:00.000Z',
          createdById: sales.userId,
          currencyId: ids.currency,
          customFields: '{}',
          expectedDeliveryDate: '2027-02-01T00:00:00.000Z',
          externalId: 'ERP-O-1',
          orderDate: '2027-01-15T00:00:00.000Z',
          projectId: ids.project,
          shippingAddressId: ids.address,
          statusId: ids.status,
          trackingId: 'TRACK-1',
        },
      }),
      201,
    );
    expect(order).toMatchObject({
      createdById: sales.userId,
      createdAt: '2026-01-02T00:00:00.000Z',
      statusId: ids.status,
      externalId: 'ERP-O-1',
      trackingId: 'TRACK-1',
    });
    ids.order = order.id;
  });

  it('Get.ts: GET /api/orders/{id}', async () => {
    expect(await ok(await node('GET', `/api/orders/${ids.order}`))).toMatchObject({
      id: ids.order,
      items: [],
    });
    expectProblem(await node('GET', `/api/orders/${ids.order}`, { as: otherTenant }), 404);
  });

  it('Update.ts: PATCH /api/orders/{id} with createdById and billedAmount', async () => {
    const order = await ok(
      await node('PATCH', `/api/orders/${ids.order}`, {
        body: { createdById: admin.userId, billedAmount: 100, trackingId: 'TRACK-2' },
      }),
    );
    expect(order).toMatchObject({ createdById: admin.userId, billedAmount: 100, trackingId: 'TRACK-2' });
    expectProblem(
      await node('PATCH', `/api/orders/${ids.order}`, { body: { createdById: ids.contact } }),
      422,
    );
  });

  it('List.ts: GET /api/orders with createdBy, search and the flat filters', async () => {
    const page = await ok(
      await node('GET', '/api/orders', {
        qs: {
          page: 1,
          limit: 50,
          companyId: ids.company,
          createdBy: admin.userId,
          externalId: 'ERP-O-1',
          projectId: ids.project,
          search: 'track-2',
          statusId: ids.status,
          sort: 'billedAmount,DESC',
        },
      }),
    );
    expect(page.data.map((o: Json) => o.id)).toEqual([ids.order]);
  });

  it('AddItems.ts: POST /api/orders/{orderId}/order-items with [{articleId}] only', async () => {
    const items = await ok(
      await node('POST', `/api/orders/${ids.order}/order-items`, {
        body: [{ articleId: ids.article }, { articleId: ids.article2 }],
      }),
      201,
    );
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      articleId: ids.article,
      quantity: 1,
      unitPrice: 1.2345,
      unit: 'mm',
      totalPrice: 1.23,
    });
    expect(items[0].unitPricePerThousand).toBe(1234.5);
    ids.item = items[0].id;
    ids.item2 = items[1].id;
    expectProblem(
      await node('POST', `/api/orders/${ids.order}/order-items`, { body: [{ unit: 'pcs' }] }),
      400,
    );
  });

  it('UploadFile.ts: POST /api/orders/{orderId}/files', async () => {
    const file = await ok(
      await node(
        'POST',
        `/api/orders/${ids.order}/files`,
        upload(Buffer.from('%PDF-1.4'), 'po.pdf', 'application/pdf'),
      ),
      201,
    );
    ids.orderFile = file.id;
  });

  it('GetFiles.ts: GET /api/orders/{orderId}/files', async () => {
    expect(itemsOf(await ok(await node('GET', `/api/orders/${ids.order}/files`))).map((f) => f.id)).toEqual([
      ids.orderFile,
    ]);
  });

  it('DeleteFile.ts: DELETE /api/orders/{orderId}/files/{fileId}', async () => {
    await ok(await node('DELETE', `/api/orders/${ids.order}/files/${ids.orderFile}`));
    expect(itemsOf(await ok(await node('GET', `/api/orders/${ids.order}/files`)))).toEqual([]);
  });

  it('RemoveItem.ts: DELETE /api/orders/{orderId}/order-items/{itemId}', async () => {
    await ok(await node('DELETE', `/api/orders/${ids.order}/order-items/${ids.item2}`));
    expect((await ok(await node('GET', `/api/orders/${ids.order}`))).items.map((i: Json) => i.id)).toEqual([
      ids.item,
    ]);
  });
});

describe('OrderItems', () => {
  it('Create.ts: POST /api/order-items with orderId, quantity and the sanitised additional fields', async () => {
    const item = await ok(
      await node('POST', '/api/order-items', {
        body: {
          orderId: ids.order,
          quantity: 1000,
          articleId: ids.article2,
          createdAt: '2026-01-03T00:00:00.000Z',
          customFields: {},
          externalId: 'ERP-L-1',
          parentId: ids.item,
          position: 2,
          unit: 'pcs',
          unitPricePerThousand: 450,
        },
      }),
      201,
    );
    expect(item).toMatchObject({
      quantity: 1000,
      unitPrice: 0.45,
      unitPricePerThousand: 450,
      totalPrice: 450,
      externalId: 'ERP-L-1',
      parentId: ids.item,
      unit: 'pcs',
      createdAt: '2026-01-03T00:00:00.000Z',
    });
    ids.item3 = item.id;
  });

  it('Get.ts: GET /api/order-items/{id}', async () => {
    expect(await ok(await node('GET', `/api/order-items/${ids.item3}`))).toMatchObject({
      externalId: 'ERP-L-1',
    });
  });

  it('List.ts: GET /api/order-items with articleId, orderId, externalId (the order’s) and search', async () => {
    const page = await ok(
      await node('GET', '/api/order-items', {
        qs: {
          page: 1,
          limit: 50,
          articleId: ids.article2,
          orderId: ids.order,
          externalId: 'ERP-O-1',
          search: 'insert',
          sort: 'unitPrice,ASC',
        },
      }),
    );
    expect(page.data.map((i: Json) => i.id)).toEqual([ids.item3]);
  });

  it('Update.ts: PATCH /api/order-items/{id}', async () => {
    const item = await ok(
      await node('PATCH', `/api/order-items/${ids.item3}`, {
        body: { quantity: 2000, unitPricePerThousand: 400, externalId: 'ERP-L-2' },
      }),
    );
    expect(item).toMatchObject({ quantity: 2000, unitPrice: 0.4, totalPrice: 800, externalId: 'ERP-L-2' });
    expectProblem(
      await node('PATCH', `/api/order-items/${ids.item3}`, {
        body: { unitPrice: 1, unitPricePerThousand: 400 },
      }),
      400,
    );
  });

  it('Delete.ts: DELETE /api/order-items/{id}?hardDelete=true', async () => {
    expect(
      await ok(await node('DELETE', `/api/order-items/${ids.item3}`, { qs: { hardDelete: true } })),
    ).toMatchObject({
      id: ids.item3,
      deleted: true,
    });
  });
});

/** The node's Imports/Create.ts: multipart type (a number as text), delimiter, and the file in `csv`. */
const importForm = (type: number, delimiter: string, csv: string, filename = 'upload.csv') => ({
  formData: {
    type: String(type),
    delimiter,
    csv: { value: Buffer.from(csv), options: { filename, contentType: 'text/csv' } },
  },
});

describe('Imports', () => {
  it('GetTypes.ts: GET /api/imports/utils/get-types', async () => {
    const types = await ok(await node('GET', '/api/imports/utils/get-types'));
    expect(JSON.stringify(types)).toContain('16');
  });

  it('GetDelimiters.ts: GET /api/imports/utils/get-delimiters', async () => {
    expect(JSON.stringify(await ok(await node('GET', '/api/imports/utils/get-delimiters')))).toContain(';');
  });

  it('GetStatus.ts: GET /api/imports/utils/get-status', async () => {
    expect(JSON.stringify(await ok(await node('GET', '/api/imports/utils/get-status')))).toContain('CRASH');
  });

  it('Create.ts: POST /api/imports (type "16", delimiter, file in csv), processed', async () => {
    const created = await ok(
      await node(
        'POST',
        '/api/imports',
        importForm(16, ';', 'externalId;name\nERP-IMP-1;Imported Co\n', 'companies.csv'),
      ),
      201,
    );
    expect(created).toMatchObject({ type: '16', status: IMPORT_STATUS.REQUESTED });
    ids.import = created.id;
    await importsModule.services(t.app.ctx).processor.run(created.id);
  });

  it('Get.ts: GET /api/imports/{id}', async () => {
    const record = await ok(await node('GET', `/api/imports/${ids.import}`));
    expect(record.status).toBeGreaterThanOrEqual(IMPORT_STATUS.SENT);
    expect(record.stats.created).toBe(1);
  });

  it('a refused file ends in 7 CRASH with the reason in stats (clients of the specification stop polling)', async () => {
    const created = await ok(
      await node('POST', '/api/imports', importForm(16, ',', 'name\nNo external id\n')),
      201,
    );
    await importsModule.services(t.app.ctx).processor.run(created.id);
    const record = await ok(await node('GET', `/api/imports/${created.id}`));
    expect(record).toMatchObject({ status: IMPORT_STATUS.CRASH, stats: { refused: true } });
    expect(record.stats.reason).toContain('externalId');
  });

  it('List.ts: GET /api/imports with delimiter, start/end, s, filterId, status, type and sort', async () => {
    const page = await ok(
      await node('GET', '/api/imports', {
        qs: {
          page: 1,
          limit: 50,
          delimiter: ';',
          start: '2020-01-01T00:00:00.000Z',
          end: '2100-01-01T00:00:00.000Z',
          s: 'companies',
          filterId: 'saved',
          type: '16',
          sort: 'createdAt,DESC',
        },
      }),
    );
    expect(page.data.map((i: Json) => i.id)).toEqual([ids.import]);
  });

  it('Download.ts: GET /api/imports/{id}/download answers the file', async () => {
    const response = await node('GET', `/api/imports/${ids.import}/download`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('ERP-IMP-1');
  });

  it('Archive.ts: PATCH /api/imports/{id}/archive, also at once after creating (status 1)', async () => {
    const archived = await ok(await node('PATCH', `/api/imports/${ids.import}/archive`));
    expect(archived).toMatchObject({ id: ids.import, fileArchived: true });
    const fresh = await ok(
      await node('POST', '/api/imports', importForm(16, ',', 'externalId,name\nERP-IMP-2,Later Co\n')),
      201,
    );
    const early = await ok(await node('PATCH', `/api/imports/${fresh.id}/archive`));
    expect(early).toMatchObject({ id: fresh.id, status: IMPORT_STATUS.REQUESTED, fileArchived: false });
    // Processing goes on; the archived imports have left the list.
    await importsModule.services(t.app.ctx).processor.run(fresh.id);
    expect((await ok(await node('GET', `/api/imports/${fresh.id}`))).stats.created).toBe(1);
    const listed = await ok(await node('GET', '/api/imports', { qs: { page: 1, limit: 50 } }));
    expect(listed.data.map((i: Json) => i.id)).not.toContain(ids.import);
    expect(listed.data.map((i: Json) => i.id)).not.toContain(fresh.id);
  });
});

describe('Exports', () => {
  const run = (id: string) => exportsModule.services(t.app.ctx).exports.run(id);

  it('GetTypes.ts: GET /api/exports/utils/get-types', async () => {
    const types = (await ok(await node('GET', '/api/exports/utils/get-types'))) as unknown as Json[];
    expect(types.map((t) => t.code)).toEqual(['16', '17', '18', '19']);
    expect(types[0]!.columns).toContain('externalId');
  });

  it('GetStatus.ts: GET /api/exports/utils/get-status', async () => {
    const statuses = (await ok(await node('GET', '/api/exports/utils/get-status'))) as unknown as Json[];
    expect(statuses.map((s) => s.code)).toEqual([1, 2, 5, 7]);
  });

  it('Create.ts: POST /api/exports {type, start_date, end_date, user_ids}, written by the job', async () => {
    const created = await ok(
      await node('POST', '/api/exports', { body: { type: 16, start_date: '', end_date: '', user_ids: [] } }),
      201,
    );
    expect(created).toMatchObject({ type: '16', status: IMPORT_STATUS.REQUESTED, user_ids: [] });
    ids.export = created.id;
    await run(created.id);
    // Articles created by the admin, in a date window.
    const articles = await ok(
      await node('POST', '/api/exports', {
        body: {
          type: 18,
          start_date: '2000-01-01T00:00:00.000Z',
          end_date: '2100-01-01T00:00:00.000Z',
          user_ids: [admin.userId],
        },
      }),
      201,
    );
    expect(articles.user_ids).toEqual([admin.userId]);
    await run(articles.id);
    ids.articleExport = articles.id;
    // Unhappy paths: unknown type, a user of another tenant, bad date, unknown property, role.
    expectProblem(await node('POST', '/api/exports', { body: { type: 99 } }), 400);
    expectProblem(
      await node('POST', '/api/exports', { body: { type: 16, user_ids: [otherTenant.userId] } }),
      422,
    );
    expectProblem(await node('POST', '/api/exports', { body: { type: 16, start_date: 'yesterday' } }), 400);
    expectProblem(await node('POST', '/api/exports', { body: { type: 16, userId: [] } }), 400);
    expectProblem(await node('POST', '/api/exports', { body: { type: 16 }, as: sales }), 403);
  });

  it('Get.ts: GET /api/exports/{id} (done, with its row count)', async () => {
    const record = await ok(await node('GET', `/api/exports/${ids.export}`));
    expect(record).toMatchObject({
      id: ids.export,
      status: 5,
      statusName: 'DONE',
      fileId: expect.any(String),
    });
    expect(record.stats.rows).toBeGreaterThanOrEqual(1);
    expectProblem(await node('GET', `/api/exports/${ids.export}`, { as: otherTenant }), 404);
  });

  it('List.ts: GET /api/exports with status, type, start/end, s, filterId and sort', async () => {
    const listed = itemsOf(
      await ok(
        await node('GET', '/api/exports', {
          qs: {
            page: 1,
            limit: 50,
            status: '5',
            type: '16',
            start: '2000-01-01',
            end: '2100-01-01',
            filterId: 'saved-1',
            sort: 'createdAt,DESC',
          },
        }),
      ),
    ).map((e) => e.id);
    expect(listed).toEqual([ids.export]);
    expect(
      itemsOf(await ok(await node('GET', '/api/exports', { qs: { s: '18' } }))).map((e) => e.id),
    ).toEqual([ids.articleExport]);
    // A date the database cannot compare is refused, never a 500 (found by the fuzz run).
    expectProblem(await node('GET', '/api/exports', { qs: { start: '99999-01-01' } }), 400);
    expectProblem(await node('GET', '/api/exports', { qs: { end: '0000-01-01' } }), 400);
  });

  it('Download.ts: GET /api/exports/{id}/download answers the CSV in the import’s columns', async () => {
    const response = await node('GET', `/api/exports/${ids.export}/download`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const [header, ...lines] = response.body.trim().split('\n');
    expect(header).toBe('externalId,name,parentExternalId,email,phoneNumber,website,vatNumber');
    expect(lines.some((l) => l.startsWith('ERP-IMP-1,Imported Co'))).toBe(true);
    const articles = await node('GET', `/api/exports/${ids.articleExport}/download`);
    expect(articles.body.split('\n')[0]).toBe(
      'code,name,description,price,stocked,quantity,unit,enabled,companyExternalId,externalId',
    );
    // Not written yet: 409.
    const pending = await ok(await node('POST', '/api/exports', { body: { type: '17' } }), 201);
    expectProblem(await node('GET', `/api/exports/${pending.id}/download`), 409);
    ids.pendingExport = pending.id;
  });

  it('Archive.ts: PATCH /api/exports/{id}/archive, at any status', async () => {
    expect(await ok(await node('PATCH', `/api/exports/${ids.export}/archive`))).toMatchObject({
      id: ids.export,
      archived: true,
    });
    expect(await ok(await node('PATCH', `/api/exports/${ids.pendingExport}/archive`))).toMatchObject({
      archived: true,
      status: 1,
    });
    const listed = itemsOf(await ok(await node('GET', '/api/exports'))).map((e) => e.id);
    expect(listed).not.toContain(ids.export);
    expect((await node('GET', `/api/exports/${ids.export}/download`)).statusCode).toBe(200);
    expectProblem(await node('PATCH', `/api/exports/${ids.export}/archive`, { as: otherTenant }), 404);
  });
});

describe('Pipelines', () => {
  it('List.ts: GET /api/pipelines?type=<entity> answers the seeded opportunity pipeline with its steps', async () => {
    const answer = await ok(await node('GET', '/api/pipelines?type=opportunity'));
    expect(Array.isArray(answer)).toBe(true);
    const pipelines = answer as unknown as Json[];
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0]).toMatchObject({
      id: expect.any(String),
      type: 'opportunity',
      entity: 'opportunity',
      name: 'Sales',
      isDefault: true,
    });
    const steps = pipelines[0]!.steps as Json[];
    expect(steps.map((s) => s.name)).toEqual(['Lead', 'Qualified', 'Proposal', 'Negotiation', 'Won', 'Lost']);
    ids.pipeline = pipelines[0]!.id;
    ids.pipelineStep = steps[1]!.id;
    // Any case; another type: none; the other tenant has its own.
    expect(await ok(await node('GET', '/api/pipelines?type=OPPORTUNITY'))).toHaveLength(1);
    expect(await ok(await node('GET', '/api/pipelines?type=task'))).toEqual([]);
    const theirs = (await ok(await node('GET', '/api/pipelines', { as: otherTenant }))) as unknown as Json[];
    expect(theirs.map((p) => p.id)).not.toContain(ids.pipeline);
    expect((await node('GET', '/api/pipelines?type=opportunity', { as: sales })).statusCode).toBe(200);
    expectProblem(await node('GET', '/api/pipelines?kind=opportunity'), 400);
  });

  it('Get.ts: GET /api/pipelines/{id}', async () => {
    const pipeline = await ok(await node('GET', `/api/pipelines/${ids.pipeline}`));
    expect(pipeline).toMatchObject({ id: ids.pipeline, entity: 'opportunity' });
    expect((pipeline.steps as Json[])[1]).toMatchObject({ id: ids.pipelineStep, pipelineId: ids.pipeline });
    expectProblem(await node('GET', `/api/pipelines/${ids.pipeline}`, { as: otherTenant }), 404);
    expectProblem(await node('GET', '/api/pipelines/not-an-id'), 400);
    // A project names its pipeline and step with these ids.
    const project = await ok(
      await node('PATCH', `/api/projects/${ids.project}`, {
        body: { opportunityPipelineId: ids.pipeline, opportunityStepId: ids.pipelineStep },
      }),
    );
    expect(project).toMatchObject({
      opportunityPipelineId: ids.pipeline,
      opportunityStepId: ids.pipelineStep,
    });
  });
});

describe('BriefElements', () => {
  const codeOf = (list: { id: string; code: string }[], code: string) =>
    list.find((r) => r.code === code)!.id;

  it('Create.ts: POST /api/brief-elements with the dimensions, their alias and the decoration variants (standalone)', async () => {
    const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    ids.product = codeOf(catalogue.products, 'STE');
    ids.board = codeOf(catalogue.materialReferences, 'GC1-350');
    const element = await ok(
      await node('POST', '/api/brief-elements', {
        body: {
          position: 1,
          productId: ids.product,
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
          lengthDimension: 120,
          widthDimension: 40,
          heightDimension: 180,
          alias: { length: 120, width: 40, height: 180 },
        },
      }),
      201,
    );
    expect(element).toMatchObject({
      id: expect.any(String),
      briefId: null,
      position: 0,
      productId: ids.product,
      lengthDimension: 120,
      heightDimension: 180,
      quantity: 5000,
    });
    // No board: stored unpriced.
    expect(element.briefElementPrice ?? null).toBeNull();
    ids.element = element.id;
    // With the board (our field), it is priced at once.
    const priced = await ok(
      await node('POST', '/api/brief-elements', {
        body: {
          productId: ids.product,
          lengthDimension: 120,
          widthDimension: 40,
          heightDimension: 180,
          materialReferenceId: ids.board,
          decorationsCount: [{ decorationIndex: 0, quantity: 5000 }],
          wantDecoration: true,
          sidePrinted: 'RECTO',
          rectoColorCount: 4,
        },
      }),
      201,
    );
    expect(priced.briefElementPrice).toMatchObject({ quantity: 5000, totalPrice: expect.any(Number) });
    ids.pricedElement = priced.id;
    // Unhappy paths: differing alias, unknown property, unknown catalogue record, a brief's element.
    expectProblem(
      await node('POST', '/api/brief-elements', { body: { lengthDimension: 120, alias: { length: 121 } } }),
      400,
    );
    expectProblem(await node('POST', '/api/brief-elements', { body: { lenghtDimension: 120 } }), 400);
    expectProblem(
      await node('POST', '/api/brief-elements', {
        body: { productId: '00000000-0000-4000-8000-000000000000' },
      }),
      422,
    );
    expectProblem(
      await node('POST', '/api/brief-elements', {
        body: { briefId: '00000000-0000-4000-8000-000000000000', lengthDimension: 120 },
      }),
      422,
    );
    expect(
      (await node('POST', '/api/brief-elements', { body: { lengthDimension: 120 }, as: otherTenant }))
        .statusCode,
    ).toBe(201);
  });

  it('Get.ts: GET /api/brief-elements/{id}', async () => {
    expect(await ok(await node('GET', `/api/brief-elements/${ids.pricedElement}`))).toMatchObject({
      id: ids.pricedElement,
      briefElementPrice: { quantity: 5000 },
    });
    expectProblem(await node('GET', `/api/brief-elements/${ids.element}`, { as: otherTenant }), 404);
  });

  it('List.ts: GET /api/brief-elements with page, limit, the filters and sort', async () => {
    const listed = itemsOf(
      await ok(
        await node('GET', '/api/brief-elements', {
          qs: { page: 1, limit: 50, productId: ids.product, sort: 'createdAt,DESC' },
        }),
      ),
    ).map((e) => e.id);
    expect(listed).toEqual([ids.pricedElement, ids.element]);
    const mine = itemsOf(await ok(await node('GET', '/api/brief-elements', { qs: { page: 1, limit: 100 } })));
    expect(mine.every((e) => e.id !== undefined)).toBe(true);
    const theirs = itemsOf(await ok(await node('GET', '/api/brief-elements', { as: otherTenant })));
    expect(theirs.map((e) => e.id)).not.toContain(ids.element);
    expectProblem(await node('GET', '/api/brief-elements', { qs: { sort: 'price,DESC' } }), 400);
  });

  it('Update.ts: PATCH /api/brief-elements/{id} with the dimensions, alias and update fields', async () => {
    const updated = await ok(
      await node('PATCH', `/api/brief-elements/${ids.element}`, {
        body: {
          externalId: 'EL-1',
          position: 2,
          decorationsCount: [{ decorationIndex: 0, quantity: 2000 }],
          lengthDimension: 130,
          alias: { length: 130 },
        },
      }),
    );
    expect(updated).toMatchObject({
      id: ids.element,
      externalId: 'EL-1',
      lengthDimension: 130,
      widthDimension: 40,
      productId: ids.product,
      quantity: 2000,
    });
    // Adding the board reprices it.
    const priced = await ok(
      await node('PATCH', `/api/brief-elements/${ids.element}`, { body: { materialReferenceId: ids.board } }),
    );
    expect(priced.briefElementPrice).toMatchObject({ quantity: 2000 });
    expectProblem(
      await node('PATCH', `/api/brief-elements/${ids.element}`, { body: { lengthDimension: -1 } }),
      400,
    );
    expectProblem(
      await node('PATCH', `/api/brief-elements/${ids.element}`, {
        body: { lengthDimension: 1 },
        as: otherTenant,
      }),
      404,
    );
    expect((await ok(await node('GET', `/api/brief-elements/${ids.element}`))).lengthDimension).toBe(130);
  });

  describe('elements of a brief: written through the brief update, same result as PUT /briefs/{id}', () => {
    // Two identical briefs: A is changed through /api/brief-elements as the node sends it, B through
    // PUT /api/briefs/{id} with the same change; both must end with the same elements and totals.
    const element = (position: number, length = 120) => ({
      position,
      productId: ids.product,
      lengthDimension: length,
      widthDimension: 40,
      heightDimension: 180,
      materialReferenceId: ids.board,
      decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
    });
    const briefs: { a: string; b: string } = { a: '', b: '' };
    const read = async (id: string) => ok(await node('GET', `/api/briefs/${id}`));
    const specsOf = (brief: Json) =>
      (brief.briefElements as Json[]).map((e) => ({
        id: e.id as string,
        position: e.position as number,
        productId: e.productId as string,
        lengthDimension: e.lengthDimension as number,
        widthDimension: e.widthDimension as number,
        heightDimension: e.heightDimension as number,
        materialReferenceId: e.materialReferenceId as string,
        decorationsCount: e.decorationsCount as Json[],
      }));
    /** Both briefs: same elements (but ids), same totals, same prediction version. */
    async function expectSame() {
      const [a, b] = [await read(briefs.a), await read(briefs.b)];
      const strip = (brief: Json) => specsOf(brief).map(({ id: _id, ...spec }) => spec);
      expect(strip(a)).toEqual(strip(b));
      expect(a.prediction).toMatchObject({
        version: (b.prediction as Json).version,
        totalPrice: (b.prediction as Json).totalPrice,
        quantity: (b.prediction as Json).quantity,
      });
      expect((a.briefElements as Json[]).map((e) => (e.briefElementPrice as Json)?.totalPrice)).toEqual(
        (b.briefElements as Json[]).map((e) => (e.briefElementPrice as Json)?.totalPrice),
      );
      return [a, b] as const;
    }

    it('Create.ts: POST /api/brief-elements with briefId adds the element to the brief and re-prices it', async () => {
      for (const key of ['a', 'b'] as const) {
        const brief = await ok(
          await node('POST', '/api/briefs', {
            body: { companyId: ids.company, briefElements: [element(0)] },
          }),
        );
        briefs[key] = brief.id;
      }
      const before = await read(briefs.a);
      // As the node builds it: no board field, position only when not 0, the dimensions and their alias.
      const created = await ok(
        await node('POST', '/api/brief-elements', {
          body: {
            briefId: briefs.a,
            position: 1,
            productId: ids.product,
            decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
            lengthDimension: 150,
            widthDimension: 40,
            heightDimension: 180,
            alias: { length: 150, width: 40, height: 180 },
          },
        }),
        201,
      );
      expect(created).toMatchObject({
        briefId: briefs.a,
        position: 1,
        lengthDimension: 150,
        materialReferenceId: ids.board,
        briefElementPrice: { quantity: 1000, totalPrice: expect.any(Number) },
      });
      const b = await read(briefs.b);
      await ok(
        await node('PUT', `/api/briefs/${briefs.b}`, {
          body: { briefElements: [...specsOf(b), element(1, 150)] },
        }),
      );
      const [a] = await expectSame();
      expect((a.prediction as Json).version).toBe((before.prediction as Json).version + 1);
      expect((a.briefElements as Json[]).map((e) => e.id)).toContain(created.id);
      ids.briefElementA = created.id;
      // In front: the others move down.
      const front = await ok(
        await node('POST', '/api/brief-elements', {
          body: { briefId: briefs.a, ...element(0, 90), externalId: 'EL-FRONT' },
        }),
        201,
      );
      expect(front).toMatchObject({ position: 0, externalId: 'EL-FRONT' });
      const b2 = await read(briefs.b);
      await ok(
        await node('PUT', `/api/briefs/${briefs.b}`, {
          body: {
            briefElements: [element(0, 90), ...specsOf(b2).map((e) => ({ ...e, position: e.position + 1 }))],
          },
        }),
      );
      await expectSame();
      ids.briefElementFront = front.id;
    });

    it('Create.ts with briefId: unhappy paths change nothing', async () => {
      const before = await read(briefs.a);
      // Another tenant's brief, an unknown one: 422 at /briefId.
      for (const who of [otherTenant, admin]) {
        const briefId = who === admin ? '00000000-0000-4000-8000-000000000000' : briefs.a;
        const response = await node('POST', '/api/brief-elements', {
          body: { briefId, ...element(0) },
          as: who,
        });
        expectProblem(response, 422);
        expect(response.json().errors[0].pointer).toBe('/briefId');
      }
      // What an element of a brief needs: 400 with the pointer.
      const missing = await node('POST', '/api/brief-elements', {
        body: { briefId: briefs.a, productId: ids.product, lengthDimension: 100, widthDimension: 40 },
      });
      expectProblem(missing, 400);
      expect(missing.json().errors.map((e: Json) => e.pointer)).toContain('/decorationsCount');
      // A product made of another matter: the engine refuses the brief (422).
      const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
      const corrugated = catalogue.materialReferences.find((r) => r.code === 'CORR-B-KK')!.id;
      expectProblem(
        await node('POST', '/api/brief-elements', {
          body: { briefId: briefs.a, ...element(0), materialReferenceId: corrugated },
        }),
        422,
      );
      const after = await read(briefs.a);
      expect(specsOf(after)).toEqual(specsOf(before));
      expect((after.prediction as Json).version).toBe((before.prediction as Json).version);
    });

    it('Update.ts: PATCH /api/brief-elements/{id} of an element of a brief re-prices the brief', async () => {
      const updated = await ok(
        await node('PATCH', `/api/brief-elements/${ids.briefElementA}`, {
          body: { lengthDimension: 160, alias: { length: 160 }, externalId: 'EL-A' },
        }),
      );
      expect(updated).toMatchObject({ id: ids.briefElementA, lengthDimension: 160, externalId: 'EL-A' });
      const b = await read(briefs.b);
      await ok(
        await node('PUT', `/api/briefs/${briefs.b}`, {
          body: {
            briefElements: specsOf(b).map((e) => (e.position === 2 ? { ...e, lengthDimension: 160 } : e)),
          },
        }),
      );
      await expectSame();
      // Moved to the front by position.
      await ok(await node('PATCH', `/api/brief-elements/${ids.briefElementA}`, { body: { position: 0 } }));
      const b2 = specsOf(await read(briefs.b));
      await ok(
        await node('PUT', `/api/briefs/${briefs.b}`, {
          body: { briefElements: [b2[2]!, b2[0]!, b2[1]!].map((e, position) => ({ ...e, position })) },
        }),
      );
      await expectSame();
      // Unhappy: invalid value (400), another brief (400), another tenant (404); nothing changed.
      const before = await read(briefs.a);
      expectProblem(
        await node('PATCH', `/api/brief-elements/${ids.briefElementA}`, { body: { lengthDimension: -1 } }),
        400,
      );
      expectProblem(
        await node('PATCH', `/api/brief-elements/${ids.briefElementA}`, { body: { briefId: briefs.b } }),
        400,
      );
      expectProblem(
        await node('PATCH', `/api/brief-elements/${ids.briefElementA}`, {
          body: { lengthDimension: 100 },
          as: otherTenant,
        }),
        404,
      );
      expect(await read(briefs.a)).toMatchObject({
        prediction: { version: (before.prediction as Json).version },
      });
    });

    it('Delete.ts: DELETE /api/brief-elements/{id} of an element of a brief removes it through the brief', async () => {
      expectProblem(
        await node('DELETE', `/api/brief-elements/${ids.briefElementA}`, { as: otherTenant }),
        404,
      );
      expect(await ok(await node('DELETE', `/api/brief-elements/${ids.briefElementA}`))).toMatchObject({
        id: ids.briefElementA,
        deleted: true,
      });
      expectProblem(await node('GET', `/api/brief-elements/${ids.briefElementA}`), 404);
      const b = specsOf(await read(briefs.b));
      await ok(
        await node('PUT', `/api/briefs/${briefs.b}`, {
          body: { briefElements: b.slice(1).map((e, position) => ({ ...e, position })) },
        }),
      );
      const [a] = await expectSame();
      expect((a.briefElements as Json[]).map((e) => e.position)).toEqual([0, 1]);
      await ok(await node('DELETE', `/api/brief-elements/${ids.briefElementFront}`));
      const last = ((await read(briefs.a)).briefElements as Json[])[0]!.id as string;
      expectProblem(await node('DELETE', `/api/brief-elements/${last}`), 409);
    });
  });

  it('Delete.ts: DELETE /api/brief-elements/{id}; refused while an article is made from it', async () => {
    expect(await ok(await node('DELETE', `/api/brief-elements/${ids.pricedElement}`))).toMatchObject({
      id: ids.pricedElement,
    });
    expectProblem(await node('GET', `/api/brief-elements/${ids.pricedElement}`), 404);
    const article = await ok(await node('GET', `/api/articles/${ids.article}`));
    expectProblem(await node('DELETE', `/api/brief-elements/${article.briefElementId}`), 409);
    expectProblem(await node('DELETE', `/api/brief-elements/${ids.element}`, { as: otherTenant }), 404);
  });
});

describe('Corrugated', () => {
  // The node's list helper (shared/pagination) sends page, limit, the filters and sortBy/sortOrder;
  // the bracketed forms (filters[x], order[x], itemsPerPage) are accepted too.
  const list = async (path: string, qs: NodeRequest['qs'] = {}) =>
    itemsOf(await ok(await node('GET', path, { qs: { page: 1, limit: 50, ...qs } })));
  const eventsOf = (entityId: string) =>
    t.app.ctx.db.select().from(events).where(eq(events.entityId, entityId)).orderBy(events.createdAt);

  it('CorrugatedSuppliers/Create.ts, List.ts, Update.ts', async () => {
    const supplier = await ok(
      await node('POST', '/api/corrugated-suppliers', {
        body: { name: 'Smurfit', contactInfo: 'sales@smurfit.example' },
      }),
      201,
    );
    expect(supplier).toMatchObject({
      id: expect.any(String),
      name: 'Smurfit',
      contactInfo: 'sales@smurfit.example',
    });
    ids.supplier = supplier.id;
    expect(
      (await list('/api/corrugated-suppliers', { name: 'smur', sortBy: 'name', sortOrder: 'asc' })).map(
        (x) => x.id,
      ),
    ).toEqual([supplier.id]);
    expect(await list('/api/corrugated-suppliers', { 'filters[name]': 'nobody' })).toEqual([]);
    expect(
      await ok(
        await node('PATCH', `/api/corrugated-suppliers/${supplier.id}`, { body: { contactInfo: '' } }),
      ),
    ).toMatchObject({ contactInfo: null, name: 'Smurfit' });
    expectProblem(await node('POST', '/api/corrugated-suppliers', { body: { name: '' } }), 400);
    expectProblem(
      await node('POST', '/api/corrugated-suppliers', { body: { name: 'X', contactinfo: 'typo' } }),
      400,
    );
    expectProblem(await node('POST', '/api/corrugated-suppliers', { body: { name: 'X' }, as: sales }), 403);
    expectProblem(await node('GET', `/api/corrugated-suppliers/${supplier.id}`, { as: otherTenant }), 404);
    expectProblem(await node('GET', '/api/corrugated-suppliers', { qs: { color: 'red' } }), 400);
  });

  it('CorrugatedFlutes/Create.ts, Get.ts, List.ts, Update.ts: the material types of the corrugated matter', async () => {
    const seeded = await list('/api/corrugated-flutes', { sortBy: 'name', sortOrder: 'asc' });
    expect(seeded.map((f) => f.code)).toEqual(expect.arrayContaining(['B-FLUTE', 'EB-FLUTE']));
    expect(seeded.map((f) => f.code)).not.toContain('GC1');
    const flute = await ok(
      await node('POST', '/api/corrugated-flutes', {
        body: { name: 'F', thickness: 0.8, outsideGain: 0, insideLoss: 0 },
      }),
      201,
    );
    expect(flute).toMatchObject({ name: 'F', thickness: 0.8, kind: 'materialTypes', flute: 'F' });
    expect(await ok(await node('GET', `/api/corrugated-flutes/${flute.id}`))).toMatchObject({ id: flute.id });
    expect(
      await ok(
        await node('PATCH', `/api/corrugated-flutes/${flute.id}`, {
          body: { thickness: 0.9, insideLoss: 0.1 },
        }),
      ),
    ).toMatchObject({ thickness: 0.9, insideLoss: 0.1 });
    expect(
      (await list('/api/corrugated-flutes', { name: 'F', sortBy: 'height', sortOrder: 'desc' })).length,
    ).toBeGreaterThan(0);
    ids.fluteB = seeded.find((f) => f.code === 'B-FLUTE')!.id as string;
    ids.fluteE = seeded.find((f) => f.code === 'E-FLUTE')!.id as string;
    expectProblem(await node('POST', '/api/corrugated-flutes', { body: { name: 'G', thickness: -1 } }), 400);
    // A material type of another matter is not a flute.
    const gc1 = (await loadCatalogue(t.app.ctx.db, admin.organisationId)).materialTypes.find(
      (m) => m.code === 'GC1',
    )!;
    expectProblem(await node('GET', `/api/corrugated-flutes/${gc1.id}`), 404);
  });

  it('CorrugatedLiners/Create.ts, Get.ts, List.ts, Update.ts', async () => {
    // Create.ts sends {name, weight, ...additionalFields} (see docs: it reads an undeclared `weight`).
    const made: Json[] = [];
    for (const [name, weight] of [
      ['K150', 150],
      ['T125', 125],
    ] as const) {
      made.push(await ok(await node('POST', '/api/corrugated-liners', { body: { name, weight } }), 201));
    }
    ids.linerK = made[0]!.id;
    ids.linerT = made[1]!.id;
    const updated = await ok(
      await node('PATCH', `/api/corrugated-liners/${ids.linerK}`, {
        body: {
          category: 'Kraft',
          inkPorosity: 12,
          label: { 'en-US': 'Kraft 150', 'fr-FR': 'Kraft 150' },
          name: 'K150',
          varnishPorosity: 3,
        },
      }),
    );
    expect(updated).toMatchObject({
      category: 'Kraft',
      inkPorosity: 12,
      weight: 150,
      label: { 'fr-FR': 'Kraft 150' },
    });
    expect(await ok(await node('GET', `/api/corrugated-liners/${ids.linerT}`))).toMatchObject({
      weight: 125,
    });
    expect((await list('/api/corrugated-liners', { weight: 125 })).map((l) => l.id)).toEqual([ids.linerT]);
    expect((await list('/api/corrugated-liners', { 'order[weight]': 'desc' })).map((l) => l.name)).toEqual([
      'K150',
      'T125',
    ]);
    expectProblem(await node('GET', '/api/corrugated-liners', { qs: { weight: 'heavy' } }), 400);
    expectProblem(
      await node('PATCH', `/api/corrugated-liners/${ids.linerK}`, { body: { category: 'Paper' } }),
      400,
    );
  });

  it('CorrugatedFormats/Create.ts, Get.ts, List.ts, Update.ts (Create, Get, Update are sent without the credential)', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/corrugated-formats',
      payload: { width: 1200, length: 800 },
    });
    expect(anonymous.statusCode).toBe(401);
    const format = await ok(
      await node('POST', '/api/corrugated-formats', { body: { width: 1200, length: 800 } }),
      201,
    );
    expect(format).toMatchObject({ width: 1200, length: 800, name: '1200 x 800 mm' });
    expect(await ok(await node('GET', `/api/corrugated-formats/${format.id}`))).toMatchObject({
      id: format.id,
    });
    expect(
      await ok(await node('PATCH', `/api/corrugated-formats/${format.id}`, { body: { length: 1000 } })),
    ).toMatchObject({
      width: 1200,
      length: 1000,
      name: '1200 x 1000 mm',
    });
    // A name given is kept when the size changes.
    await ok(await node('PATCH', `/api/corrugated-formats/${format.id}`, { body: { name: 'Pallet top' } }));
    expect(
      await ok(await node('PATCH', `/api/corrugated-formats/${format.id}`, { body: { width: 1100 } })),
    ).toMatchObject({ width: 1100, name: 'Pallet top' });
    expect(
      (await list('/api/corrugated-formats', { width: 1100, sortBy: 'width', sortOrder: 'desc' })).map(
        (f) => f.id,
      ),
    ).toEqual([format.id]);
    expectProblem(await node('POST', '/api/corrugated-formats', { body: { width: 1200 } }), 400);
    expectProblem(await node('POST', '/api/corrugated-formats', { body: { width: 0, length: 10 } }), 400);
  });

  it('CorrugatedMaterials/Create.ts, Get.ts, List.ts, Update.ts: the corrugated boards of the catalogue', async () => {
    const boards = await list('/api/corrugated-materials', { sortBy: 'name', sortOrder: 'asc' });
    expect(boards.map((b) => b.code)).toEqual(expect.arrayContaining(['CORR-B-KK', 'CORR-E-WK']));
    expect(boards.map((b) => b.code)).not.toContain('GC1-350');
    ids.boardB = boards.find((b) => b.code === 'CORR-B-KK')!.id as string;
    const created = await ok(
      await node('POST', '/api/corrugated-materials', {
        body: { name: 'Double wall kraft', description: 'EB, brown' },
      }),
      201,
    );
    // No grammage, caliper or price: kept out of pricing.
    expect(created).toMatchObject({ name: 'Double wall kraft', description: 'EB, brown', enabled: false });
    ids.hipeBoard = created.id;
    expect(await ok(await node('GET', `/api/corrugated-materials/${ids.boardB}`))).toMatchObject({
      code: 'CORR-B-KK',
      grammage: 520,
    });
    expect(
      await ok(
        await node('PATCH', `/api/corrugated-materials/${created.id}`, {
          body: { description: 'EB flute, brown' },
        }),
      ),
    ).toMatchObject({ description: 'EB flute, brown' });
    const stored = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(stored.materialReferences.map((r) => r.id)).not.toContain(created.id);
    expectProblem(
      await node('PATCH', `/api/corrugated-materials/${created.id}`, { body: { enabled: true } }),
      400,
    );
    expectProblem(await node('GET', `/api/corrugated-materials/${ids.boardB}`, { as: otherTenant }), 404);
  });

  it('CorrugatedMaterialCompositions/Create.ts, CreateBulk.ts, Get.ts, List.ts, Update.ts', async () => {
    const seeded = await list('/api/corrugated-material-compositions');
    expect(seeded.find((c) => c.code === 'B-K150-T125-K150')).toMatchObject({
      composition: 'K150/T125/K150',
      gsm: 545,
      reference: 'B-K150-T125-K150',
      materialId: ids.boardB,
      flute: ids.fluteB,
      pricePerSquareMetre: 0.47,
    });
    const composition = await ok(
      await node('POST', '/api/corrugated-material-compositions', {
        body: {
          corrugatedMaterial: ids.boardB,
          flute: ids.fluteB,
          liners: [ids.linerK, ids.linerT, ids.linerK],
        },
      }),
      201,
    );
    // Composition and grammage follow from the liners.
    expect(composition).toMatchObject({
      corrugatedMaterial: ids.boardB,
      materialReferenceId: ids.boardB,
      flute: ids.fluteB,
      liners: [ids.linerK, ids.linerT, ids.linerK],
      composition: 'K150/T125/K150',
      gsm: 425,
      enabled: true,
      pricePerSquareMetre: null,
    });
    ids.composition = composition.id;
    const [event] = await eventsOf(composition.id);
    expect(event).toMatchObject({ eventName: 'event.corrugated_material_compositions.created' });
    // Not priced yet: left out of the engine's catalogue.
    expect(
      (await loadCatalogue(t.app.ctx.db, admin.organisationId)).corrugatedMaterials.map((c) => c.id),
    ).not.toContain(composition.id);
    const bulk = (await ok(
      await node('POST', '/api/corrugated-material-compositions/bulk', {
        body: [
          {
            corrugatedMaterial: ids.boardB,
            flute: ids.fluteB,
            liners: [ids.linerT, ids.linerT, ids.linerT],
            reference: 'B-TTT',
          },
          {
            corrugatedMaterial: ids.boardB,
            flute: ids.fluteB,
            liners: [ids.linerK],
            gsm: 160,
            composition: 'K150 single face',
          },
        ],
      }),
      201,
    )) as unknown as Json[];
    expect(bulk.map((c) => c.reference)).toEqual(['B-TTT', expect.any(String)]);
    expect(bulk[1]).toMatchObject({ gsm: 160, composition: 'K150 single face' });
    ids.compositionBulk = bulk[0]!.id;
    // All or none: one bad item refuses the batch, with its index in the pointer.
    const refused = await node('POST', '/api/corrugated-material-compositions/bulk', {
      body: [
        { corrugatedMaterial: ids.boardB, flute: ids.fluteB, liners: [ids.linerK], reference: 'B-NEVER' },
        {
          corrugatedMaterial: ids.boardB,
          flute: ids.fluteB,
          liners: ['0190a0a0-0000-7000-8000-000000000000'],
        },
      ],
    });
    expectProblem(refused, 422);
    expect(refused.json().errors[0].pointer).toBe('/1/liners/0');
    expect(
      (
        await list('/api/corrugated-material-compositions', { 'filters[corrugatedMaterial]': ids.boardB })
      ).map((c) => c.reference),
    ).not.toContain('B-NEVER');
    expect(
      await ok(await node('GET', `/api/corrugated-material-compositions/${composition.id}`)),
    ).toMatchObject({
      id: composition.id,
    });
    expect(
      (
        await list('/api/corrugated-material-compositions', {
          corrugatedMaterial: ids.boardB,
          flute: ids.fluteB,
          sortBy: 'createdAt',
          sortOrder: 'asc',
        })
      ).map((c) => c.id),
    ).toEqual(expect.arrayContaining([composition.id, ids.compositionBulk]));
    const updated = await ok(
      await node('PATCH', `/api/corrugated-material-compositions/${composition.id}`, {
        body: { liners: [ids.linerK, ids.linerT, ids.linerT], supplierId: ids.supplier, reference: 'B-KTT' },
      }),
    );
    expect(updated).toMatchObject({
      composition: 'K150/T125/T125',
      gsm: 400,
      supplierId: ids.supplier,
      reference: 'B-KTT',
    });
    const events2 = await eventsOf(composition.id);
    // The spec's example of corrugated_material_compositions.updated: id, reference, composition,
    // enabled, gsm, supplierId, materialId.
    expect(events2.at(-1)).toMatchObject({
      eventName: 'event.corrugated_material_compositions.updated',
      payload: {
        id: composition.id,
        reference: 'B-KTT',
        composition: 'K150/T125/T125',
        enabled: true,
        gsm: 400,
        supplierId: ids.supplier,
        materialId: ids.boardB,
      },
    });
    // Unhappy paths.
    const missing = await node('POST', '/api/corrugated-material-compositions', {
      body: { flute: ids.fluteB },
    });
    expectProblem(missing, 400);
    expect(missing.json().errors.map((e: Json) => e.pointer)).toEqual(['/corrugatedMaterial', '/liners']);
    const wrongFlute = await node('POST', '/api/corrugated-material-compositions', {
      body: { corrugatedMaterial: ids.boardB, flute: ids.fluteE, liners: [ids.linerK] },
    });
    expectProblem(wrongFlute, 422);
    expect(wrongFlute.json().errors[0].pointer).toBe('/flute');
    const theirs = itemsOf(await ok(await node('GET', '/api/corrugated-materials', { as: otherTenant })))[0]!;
    const foreign = await node('POST', '/api/corrugated-material-compositions', {
      body: { corrugatedMaterial: theirs.id, flute: ids.fluteB, liners: [ids.linerK] },
    });
    expectProblem(foreign, 422);
    expect(foreign.json().errors[0].pointer).toBe('/corrugatedMaterial');
    expectProblem(
      await node('POST', '/api/corrugated-material-compositions', {
        body: {
          materialReferenceId: ids.boardB,
          corrugatedMaterial: ids.hipeBoard,
          flute: ids.fluteB,
          liners: [ids.linerK],
        },
      }),
      400,
    );
    expectProblem(
      await node('PATCH', `/api/corrugated-material-compositions/${composition.id}`, {
        body: { reference: 'B-TTT' },
      }),
      409,
    );
    expectProblem(
      await node('PATCH', `/api/corrugated-material-compositions/${composition.id}`, {
        body: { gsm: 400 },
        as: otherTenant,
      }),
      404,
    );
  });

  it('CorrugatedMaterialCompositionPrices/Create.ts, CreateBulk.ts, Get.ts, List.ts, Update.ts, Delete.ts', async () => {
    const price = await ok(
      await node('POST', '/api/corrugated-material-composition-prices', {
        body: {
          corrugatedMaterialComposition: ids.composition,
          price: 0.41,
          currency: 'EUR',
          validFrom: '2020-01-01T00:00:00',
          validTo: '',
        },
      }),
      201,
    );
    expect(price).toMatchObject({
      corrugatedMaterialComposition: ids.composition,
      price: 0.41,
      currency: 'EUR',
      validFrom: '2020-01-01T00:00:00.000Z',
      validTo: null,
    });
    // The price valid today in the base currency prices the composition, which the engine now uses.
    expect(
      await ok(await node('GET', `/api/corrugated-material-compositions/${ids.composition}`)),
    ).toMatchObject({
      pricePerSquareMetre: 0.41,
    });
    const engine = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    expect(engine.corrugatedMaterials.find((c) => c.id === ids.composition)).toMatchObject({
      grammage: 400,
      pricePerSquareMetre: 0.41,
      materialReferenceId: ids.boardB,
    });
    const bulk = (await ok(
      await node('POST', '/api/corrugated-material-composition-prices/bulk', {
        body: [
          {
            corrugatedMaterialComposition: ids.composition,
            price: 0.45,
            currency: 'EUR',
            validFrom: '2099-01-01',
          },
          { corrugatedMaterialComposition: ids.compositionBulk, price: 0.3, currency: 'eur' },
        ],
      }),
      201,
    )) as unknown as Json[];
    expect(bulk.map((p) => p.currency)).toEqual(['EUR', 'EUR']);
    // A future price does not change today's.
    expect(
      (await ok(await node('GET', `/api/corrugated-material-compositions/${ids.composition}`)))
        .pricePerSquareMetre,
    ).toBe(0.41);
    expect(
      await ok(await node('GET', `/api/corrugated-material-composition-prices/${price.id}`)),
    ).toMatchObject({ price: 0.41 });
    const valid = await list('/api/corrugated-material-composition-prices', {
      corrugatedMaterialComposition: ids.composition,
      validOnDate: '2026-06-01T00:00:00',
      sortBy: 'price',
      sortOrder: 'asc',
    });
    expect(valid.map((p) => p.id)).toEqual([price.id]);
    expect((await list('/api/corrugated-material-composition-prices', { currency: 'usd' })).length).toBe(0);
    expect(
      await ok(
        await node('PATCH', `/api/corrugated-material-composition-prices/${price.id}`, {
          body: { price: 0.43 },
        }),
      ),
    ).toMatchObject({ price: 0.43 });
    expect(
      (await ok(await node('GET', `/api/corrugated-material-compositions/${ids.composition}`)))
        .pricePerSquareMetre,
    ).toBe(0.43);
    // Unhappy paths: unknown currency (422), validTo before validFrom (400), not a date (400), another tenant's composition (422).
    const currency = await node('POST', '/api/corrugated-material-composition-prices', {
      body: { corrugatedMaterialComposition: ids.composition, price: 1, currency: 'XYZ' },
    });
    expectProblem(currency, 422);
    expect(currency.json().errors[0].pointer).toBe('/currency');
    expectProblem(
      await node('PATCH', `/api/corrugated-material-composition-prices/${price.id}`, {
        body: { validTo: '2019-01-01' },
      }),
      400,
      'dates_out_of_order',
    );
    expectProblem(
      await node('POST', '/api/corrugated-material-composition-prices', {
        body: {
          corrugatedMaterialComposition: ids.composition,
          price: 1,
          currency: 'EUR',
          validFrom: 'soon',
        },
      }),
      400,
    );
    expectProblem(
      await node('POST', '/api/corrugated-material-composition-prices', {
        body: { corrugatedMaterialComposition: ids.composition, price: 1, currency: 'EUR' },
        as: otherTenant,
      }),
      422,
    );
    // Delete.ts: the composition keeps the price it had when none valid is left.
    expect(
      await ok(await node('DELETE', `/api/corrugated-material-composition-prices/${bulk[0]!.id}`)),
    ).toMatchObject({
      deleted: true,
    });
    expectProblem(await node('DELETE', `/api/corrugated-material-composition-prices/${bulk[0]!.id}`), 404);
    expectProblem(await node('GET', `/api/corrugated-material-composition-prices/${bulk[0]!.id}`), 404);
    ids.price = price.id;
  });

  it('CorrugatedMaterialCompositions/Delete.ts: soft delete with its prices; refused while a brief is made of it', async () => {
    // A brief priced with the composition (our field corrugatedMaterialId).
    const catalogue = await loadCatalogue(t.app.ctx.db, admin.organisationId);
    const rsc = catalogue.products.find((p) => p.code === '0201')!;
    const brief = await node('POST', '/api/briefs', {
      body: {
        companyId: ids.company,
        briefElements: [
          {
            position: 0,
            productId: rsc.id,
            lengthDimension: 300,
            widthDimension: 200,
            heightDimension: 200,
            materialReferenceId: ids.boardB,
            corrugatedMaterialId: ids.composition,
            decorationsCount: [{ decorationIndex: 0, quantity: 1000 }],
          },
        ],
      },
    });
    expect(brief.statusCode).toBe(201);
    expectProblem(await node('DELETE', `/api/corrugated-material-compositions/${ids.composition}`), 409);
    expect(await ok(await node('DELETE', `/api/briefs/${brief.json().id}`))).toBeTruthy();
    expect(
      await ok(await node('DELETE', `/api/corrugated-material-compositions/${ids.composition}`)),
    ).toMatchObject({
      id: ids.composition,
      deleted: true,
    });
    expectProblem(await node('GET', `/api/corrugated-material-compositions/${ids.composition}`), 404);
    expectProblem(await node('GET', `/api/corrugated-material-composition-prices/${ids.price}`), 404);
    expect((await eventsOf(ids.price!)).at(-1)).toMatchObject({ type: 'DELETE' });
    expectProblem(await node('DELETE', `/api/corrugated-material-compositions/${ids.composition}`), 404);
    expectProblem(
      await node('DELETE', `/api/corrugated-material-compositions/${ids.compositionBulk}`, { as: sales }),
      403,
    );
  });
});

describe('deletes', () => {
  it('Orders/Delete.ts: DELETE /api/orders/{id}', async () => {
    expect(await ok(await node('DELETE', `/api/orders/${ids.order}`))).toMatchObject({
      id: ids.order,
      deleted: true,
    });
    expectProblem(await node('GET', `/api/orders/${ids.order}`), 404);
  });

  it('Articles/Delete.ts: DELETE /api/articles/{id}', async () => {
    expect(await ok(await node('DELETE', `/api/articles/${ids.article2}`))).toMatchObject({
      id: ids.article2,
      deleted: true,
    });
  });

  it('Statuses/Delete.ts: DELETE /api/statuses/{statusId}', async () => {
    expect(await ok(await node('DELETE', `/api/statuses/${ids.status}`))).toMatchObject({ id: ids.status });
  });

  it('Users/HardDelete.ts: DELETE /api/users/{id} (contacts only)', async () => {
    expect(await ok(await node('DELETE', `/api/users/${ids.contact2}`))).toMatchObject({ id: ids.contact2 });
    expectProblem(await node('DELETE', `/api/users/${sales.userId}`), 409);
    expectProblem(await node('GET', `/api/users/${ids.contact2}`), 404);
  });

  it('Addresses/remove.ts: DELETE /api/addresses/{id}', async () => {
    expect(await ok(await node('DELETE', `/api/addresses/${ids.bulkAddress}`))).toMatchObject({
      deleted: true,
    });
  });

  it('Companies/HardDelete.ts: DELETE /api/companies/{id}', async () => {
    expectProblem(await node('DELETE', `/api/companies/${ids.company}`), 409); // it has a child company
    expect(await ok(await node('DELETE', `/api/companies/${ids.childCompany}`))).toMatchObject({
      id: ids.childCompany,
    });
    expectProblem(await node('GET', `/api/companies/${ids.childCompany}`), 404);
    expectProblem(await node('DELETE', `/api/companies/${ids.company}`, { as: otherTenant }), 404);
  });

  it('Currencies/remove.ts: DELETE /api/currencies/{id}', async () => {
    expect(await ok(await node('DELETE', `/api/currencies/${ids.gbp}`))).toMatchObject({
      id: ids.gbp,
      deleted: true,
    });
  });
});
