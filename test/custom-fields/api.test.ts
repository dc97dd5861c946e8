import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCustomFields } from '../../src/modules/custom-fields/validate.ts';
import { AppError } from '../../src/platform/errors.ts';
import { CustomFieldValues } from '../../src/platform/schemas.ts';
import {
  auth,
  buildTestApp,
  type Credentials,
  makeOrganisation,
  makeUser,
  type TestApp,
} from '../helpers/app.ts';

let t: TestApp;
let admin: Credentials;
let other: Credentials;
let sales: Credentials;
let guest: Credentials;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await makeOrganisation(t);
  other = await makeOrganisation(t);
  sales = await makeUser(t, admin, 'sales');
  guest = await makeUser(t, admin, 'guest');
});
afterAll(() => t.close());

type Inject = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: unknown };
const as = (who: Credentials, { method = 'GET', url, payload }: Inject) =>
  t.app.inject({
    method,
    url,
    headers: auth(who),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const define = async (who: Credentials, payload: Record<string, unknown>) => {
  const response = await as(who, { method: 'POST', url: '/api/custom-fields', payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
};

const pointers = (body: { errors?: Array<{ pointer: string }> }) => (body.errors ?? []).map((e) => e.pointer);

describe('POST /api/custom-fields', () => {
  it('defines fields of each type', async () => {
    const select = await define(admin, {
      entity: 'order',
      key: 'priority',
      label: 'Priority',
      type: 'select',
      options: ['low', 'high'],
      required: true,
    });
    expect(select).toMatchObject({
      entity: 'order',
      key: 'priority',
      type: 'select',
      options: ['low', 'high'],
      required: true,
      position: 0,
    });
    const flag = await define(admin, { entity: 'order', key: 'urgent', label: 'Urgent', type: 'boolean' });
    expect(flag).toMatchObject({ options: null, required: false, position: 1 });
    await define(admin, { entity: 'company', key: 'segment', label: 'Segment', type: 'string' });
    await define(admin, { entity: 'article', key: 'weight_g', label: 'Weight (g)', type: 'number' });
    await define(admin, {
      entity: 'project',
      key: 'channels',
      label: 'Channels',
      type: 'multi-select',
      options: ['retail', 'web'],
    });
  });

  it('refuses invalid definitions with pointers', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ entity: 'order', key: '1st', label: 'X', type: 'string' }, '/key'],
      [{ entity: 'order', key: 'has-dash', label: 'X', type: 'string' }, '/key'],
      [{ entity: 'order', key: `k${'x'.repeat(64)}`, label: 'X', type: 'string' }, '/key'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'date' }, '/type'],
      [{ entity: 'invoice', key: 'ok', label: 'X', type: 'string' }, '/entity'],
      [{ entity: 'order', key: 'ok', label: '', type: 'string' }, '/label'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'select' }, '/options'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'select', options: [] }, '/options'],
      [
        { entity: 'order', key: 'ok', label: 'X', type: 'multi-select', options: ['a', 'b', 'a'] },
        '/options/2',
      ],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'select', options: ['a', ''] }, '/options/1'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'select', options: ['a', ' '] }, '/options/1'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'boolean', options: ['a'] }, '/options'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'string', options: [] }, '/options'],
      [{ entity: 'order', key: 'ok', label: 'X', type: 'string', default: 'a' }, '/default'],
    ];
    for (const [payload, pointer] of cases) {
      const response = await as(admin, { method: 'POST', url: '/api/custom-fields', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(pointers(response.json()), JSON.stringify(payload)).toContain(pointer);
    }
  });

  it('refuses a key already defined for the entity (409), but not for another entity or tenant', async () => {
    const duplicate = await as(admin, {
      method: 'POST',
      url: '/api/custom-fields',
      payload: { entity: 'order', key: 'urgent', label: 'Again', type: 'string' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe('duplicate_custom_field');
    await define(admin, { entity: 'quote', key: 'urgent', label: 'Urgent', type: 'boolean' });
    await define(other, { entity: 'order', key: 'urgent', label: 'Urgent', type: 'boolean' });
  });

  it('is refused to sales and guests (403)', async () => {
    for (const who of [sales, guest]) {
      const response = await as(who, {
        method: 'POST',
        url: '/api/custom-fields',
        payload: { entity: 'order', key: 'x', label: 'X', type: 'string' },
      });
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('GET /api/custom-fields', () => {
  it('lists definitions by entity in position order, readable by every role', async () => {
    const response = await as(guest, { url: '/api/custom-fields?entity=order' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((d: { key: string }) => d.key)).toEqual(['priority', 'urgent']);
    const all = (await as(sales, { url: '/api/custom-fields' })).json();
    expect(all.meta.total).toBe(6);
  });

  it('does not show another tenant’s definitions', async () => {
    const theirs = (await as(other, { url: '/api/custom-fields' })).json();
    expect(theirs.meta.total).toBe(1);
    const mine = (await as(admin, { url: '/api/custom-fields?entity=order' })).json().data[0];
    expect((await as(other, { url: `/api/custom-fields/${mine.id}` })).statusCode).toBe(404);
    expect((await as(admin, { url: `/api/custom-fields/${mine.id}` })).json().key).toBe('priority');
  });

  it('validates the filter', async () => {
    const response = await as(admin, { url: '/api/custom-fields?entity=user' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ pointer: '/entity', in: 'query' });
  });
});

describe('PATCH /api/custom-fields/:id', () => {
  it('changes label, options, required and position; never key, type or entity', async () => {
    const field = await define(admin, {
      entity: 'contact',
      key: 'language',
      label: 'Lang',
      type: 'select',
      options: ['fr', 'en'],
    });
    const url = `/api/custom-fields/${field.id}`;
    const response = await as(admin, {
      method: 'PATCH',
      url,
      payload: { label: 'Language', options: ['fr', 'en', 'de'], required: true, position: 3 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      key: 'language',
      label: 'Language',
      options: ['fr', 'en', 'de'],
      required: true,
      position: 3,
    });
    for (const payload of [{ key: 'lang' }, { type: 'string' }, { entity: 'company' }]) {
      const refused = await as(admin, { method: 'PATCH', url, payload });
      expect(refused.statusCode).toBe(400);
      expect(pointers(refused.json())).toContain(`/${Object.keys(payload)[0]}`);
    }
    const empty = await as(admin, { method: 'PATCH', url, payload: { options: [] } });
    expect(pointers(empty.json())).toContain('/options');
    expect((await as(sales, { method: 'PATCH', url, payload: { label: 'X' } })).statusCode).toBe(403);
    expect((await as(other, { method: 'PATCH', url, payload: { label: 'X' } })).statusCode).toBe(404);
  });

  it('refuses options on a field of another type', async () => {
    const field = (await as(admin, { url: '/api/custom-fields?entity=order' })).json().data[1];
    const response = await as(admin, {
      method: 'PATCH',
      url: `/api/custom-fields/${field.id}`,
      payload: { options: ['a'] },
    });
    expect(response.statusCode).toBe(400);
    expect(pointers(response.json())).toEqual(['/options']);
  });
});

describe('DELETE /api/custom-fields/:id', () => {
  it('soft-deletes; the key becomes free again', async () => {
    const field = await define(admin, { entity: 'company', key: 'tier', label: 'Tier', type: 'number' });
    const url = `/api/custom-fields/${field.id}`;
    expect((await as(other, { method: 'DELETE', url })).statusCode).toBe(404);
    expect((await as(guest, { method: 'DELETE', url })).statusCode).toBe(403);
    const response = await as(admin, { method: 'DELETE', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: field.id, deleted: true });
    expect((await as(admin, { url })).statusCode).toBe(404);
    const list = (await as(admin, { url: '/api/custom-fields?entity=company' })).json();
    expect(list.data.map((d: { key: string }) => d.key)).toEqual(['segment']);
    await define(admin, { entity: 'company', key: 'tier', label: 'Tier', type: 'string' });
  });
});

describe('validateCustomFields', () => {
  let org: Credentials;
  const validate = (
    entity: 'order' | 'company',
    incoming: Record<string, unknown> | undefined,
    current?: Record<string, unknown>,
  ) => validateCustomFields(t.app.ctx.db, org.organisationId, entity, incoming, current);

  /** The problems a call answers with, as pointer -> message. */
  const issues = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.status).toBe(400);
      expect(appError.code).toBe('invalid_custom_fields');
      return Object.fromEntries((appError.issues ?? []).map((i) => [i.pointer, i.message]));
    }
    throw new Error('expected the values to be refused');
  };

  beforeAll(async () => {
    org = await makeOrganisation(t);
    const fields = [
      { key: 'flag', type: 'boolean' },
      { key: 'note', type: 'string' },
      { key: 'count', type: 'number' },
      { key: 'size', type: 'select', options: ['S', 'M', 'L'] },
      { key: 'tags', type: 'multi-select', options: ['a', 'b', 'c'] },
      { key: 'ref', type: 'string', required: true },
    ];
    for (const field of fields) await define(org, { entity: 'order', label: field.key, ...field });
    await define(org, {
      entity: 'company',
      key: 'constructor',
      label: 'Builder',
      type: 'string',
      required: true,
    });
    await define(org, {
      entity: 'company',
      key: 'picks',
      label: 'Picks',
      type: 'multi-select',
      options: ['x'],
      required: true,
    });
  });

  it('accepts a valid value of every type', async () => {
    const values = { flag: false, note: 'hello', count: 0, size: 'M', tags: ['a', 'c'], ref: 'R1' };
    expect(await validate('order', values)).toEqual(values);
    expect(await validate('order', { ref: 'R1', count: -2.5, tags: [] })).toEqual({
      ref: 'R1',
      count: -2.5,
      tags: [],
    });
  });

  it('refuses a wrong value of every type with a pointer to the field', async () => {
    expect(
      await issues(
        validate('order', { ref: 'R', flag: 'true', note: 12, count: '5', size: 'XL', tags: ['a', 'z'] }),
      ),
    ).toEqual({
      '/customFields/flag': 'must be true or false',
      '/customFields/note': 'must be a string',
      '/customFields/count': 'must be a number',
      '/customFields/size': 'must be one of: S, M, L',
      '/customFields/tags': 'has unknown options: z; allowed: a, b, c',
    });
    const more = await issues(
      validate('order', {
        ref: 'R',
        flag: 1,
        size: ['S'],
        tags: 'a',
        note: 'x'.repeat(10_001),
        count: Number.NaN,
      }),
    );
    expect(Object.keys(more).sort()).toEqual(
      [
        '/customFields/count',
        '/customFields/flag',
        '/customFields/note',
        '/customFields/size',
        '/customFields/tags',
      ].sort(),
    );
    expect(await issues(validate('order', { ref: 'R', tags: ['a', 'a'] }))).toEqual({
      '/customFields/tags': 'must not repeat an option',
    });
    expect(await issues(validate('order', { ref: 'R', tags: ['a', 1] }))).toEqual({
      '/customFields/tags': 'must be an array of options',
    });
  });

  it('refuses unknown keys (other entity, deleted or misspelt), escaping the pointer', async () => {
    expect(await issues(validate('order', { ref: 'R', colour: 'red', 'a/b~c': 1 }))).toEqual({
      '/customFields/colour': 'is not a custom field of order',
      '/customFields/a~1b~0c': 'is not a custom field of order',
    });
    expect(await issues(validate('company', { constructor: 'x', picks: ['x'], flag: true }))).toEqual({
      '/customFields/flag': 'is not a custom field of company',
    });
  });

  it('requires required fields on create only, including keys named like Object members', async () => {
    expect(await issues(validate('order', { flag: true }))).toEqual({ '/customFields/ref': 'is required' });
    expect(await issues(validate('order', undefined))).toEqual({ '/customFields/ref': 'is required' });
    expect(await issues(validate('company', {}))).toEqual({
      '/customFields/constructor': 'is required',
      '/customFields/picks': 'is required',
    });
    expect(await issues(validate('order', { ref: '  ' }))).toEqual({ '/customFields/ref': 'is required' });
    expect(await issues(validate('company', { constructor: 'x', picks: [] }))).toEqual({
      '/customFields/picks': 'is required',
    });
    // An update that does not mention a required field keeps the stored value.
    expect(await validate('order', { flag: true }, { ref: 'R1' })).toEqual({ ref: 'R1', flag: true });
    // An update without customFields changes nothing.
    expect(await validate('order', undefined, { ref: 'R1' })).toEqual({ ref: 'R1' });
  });

  it('merges with the stored values; null removes a value, but not a required one', async () => {
    const current = { ref: 'R1', note: 'old', count: 3 };
    expect(await validate('order', { note: null, count: 4, size: 'S' }, current)).toEqual({
      ref: 'R1',
      count: 4,
      size: 'S',
    });
    expect(current).toEqual({ ref: 'R1', note: 'old', count: 3 });
    expect(await issues(validate('order', { ref: null }, current))).toEqual({
      '/customFields/ref': 'is required',
    });
    expect(await validate('order', { note: null, ref: 'R', flag: null })).toEqual({ ref: 'R' });
  });

  it('lets null remove a value left behind by a deleted definition', async () => {
    expect(await validate('order', { legacy: null }, { ref: 'R', legacy: 'x' })).toEqual({ ref: 'R' });
    expect(await issues(validate('order', { legacy: 'y' }, { ref: 'R', legacy: 'x' }))).toEqual({
      '/customFields/legacy': 'is not a custom field of order',
    });
  });

  it('only sees the definitions of the organisation', async () => {
    expect(
      await issues(validateCustomFields(t.app.ctx.db, other.organisationId, 'order', { flag: true })),
    ).toEqual({ '/customFields/flag': 'is not a custom field of order' });
  });
});

describe('CustomFieldValues request schema', () => {
  // The app validates with coerceTypes: values must reach validateCustomFields unchanged.
  it('passes values through without type coercion and refuses objects', async () => {
    const app = Fastify({
      ajv: {
        customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true },
      },
    });
    app.post(
      '/echo',
      { schema: { body: Type.Object({ customFields: CustomFieldValues }) } },
      async (r) => r.body,
    );
    const customFields = { a: null, b: 1, c: 'true', d: 0, e: '5', f: ['x'], g: false, h: 2.5, i: '' };
    const echoed = await app.inject({ method: 'POST', url: '/echo', payload: { customFields } });
    expect(echoed.json()).toEqual({ customFields });
    const object = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: { customFields: { a: { b: 1 } } },
    });
    expect(object.statusCode).toBe(400);
    await app.close();
  });
});
