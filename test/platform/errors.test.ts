import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.ts';
import { users } from '../../src/db/schema/platform.ts';
import { organisationsModule } from '../../src/modules/organisations/module.ts';
import { auth, type Credentials, SUPERADMIN, signIn, testConfig } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';

let app: App;
let drop: () => Promise<void>;
let root: Credentials;

beforeAll(async () => {
  const opened = await openTestDatabase();
  drop = opened.drop;
  app = await buildApp({
    config: testConfig({ bodyLimitBytes: 4096 }),
    database: opened.database,
    logger: false,
  });
  // Routes that exist only to exercise the error handler.
  app.get('/api/test/boom', { config: { public: true } }, async () => {
    throw new Error('secret connection string postgres://user:pw@db');
  });
  app.post(
    '/api/test/echo',
    {
      config: { permission: 'profile:read' },
      schema: {
        body: Type.Object(
          {
            id: Type.String({ format: 'uuid' }),
            kind: Type.Union([Type.Literal('carton'), Type.Literal('case')]),
            colour: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['red', 'blue'] })),
            count: Type.Integer({ minimum: 1 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => request.body,
  );
  // Inserts a second user with the superadmin's username: the unique index refuses it.
  app.post('/api/test/duplicate', { config: { permission: 'profile:read' } }, async (request) => {
    const actor = request.actorOrNull!;
    await app.ctx.db
      .insert(users)
      .values({ organisationId: actor.organisationId, role: 'guest', username: SUPERADMIN.email });
    return {};
  });
  await organisationsModule.services(app.ctx).organisations.bootstrap();
  root = await signIn(app, SUPERADMIN.email, SUPERADMIN.password);
});
afterAll(async () => {
  await app.close();
  await drop();
});

const post = (payload: string | object, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/test/echo',
    headers: { ...auth(root), 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

function expectProblem(response: Awaited<ReturnType<typeof post>>, status: number, code?: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  const body = response.json();
  expect(body).toMatchObject({
    status,
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(body.requestId).toBe(response.headers['x-request-id']);
  if (code) expect(body.code).toBe(code);
  return body;
}

describe('problem+json for every error class', () => {
  it('accepts a valid body', async () => {
    const response = await post({ id: '0190a0a0-0000-7000-8000-000000000000', kind: 'case', count: 2 });
    expect(response.statusCode).toBe(200);
  });

  it('malformed JSON -> 400', async () => {
    expectProblem(await post('{"id": '), 400);
  });

  it('wrong types, bad UUID, unknown enum value, unknown property -> 400 with a pointer for each', async () => {
    const body = expectProblem(
      await post({ id: 'not-a-uuid', kind: 'crate', colour: 'green', count: 'many', extra: 1 }),
      400,
      'validation_failed',
    );
    const pointers = body.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/id', '/kind', '/colour', '/count', '/extra']));
    expect(body.errors.find((e: { pointer: string }) => e.pointer === '/id').message).toBe('must be a UUID');
    expect(body.errors.find((e: { pointer: string }) => e.pointer === '/colour').message).toBe(
      'must be one of: red, blue',
    );
  });

  it('missing required property -> 400 pointing at it', async () => {
    const body = expectProblem(await post({ kind: 'case', count: 1 }), 400);
    expect(body.errors).toContainEqual({
      pointer: '/id',
      message: expect.any(String),
      in: 'body',
      keyword: 'required',
    });
  });

  it('schema issues carry the keyword and its parameters for clients to translate (issue 26)', async () => {
    const body = expectProblem(
      await post({ id: 'nope', kind: 'case', count: 0, colour: 'green', extra: 1 }),
      400,
      'validation_failed',
    );
    const at = (pointer: string) => body.errors.find((e: { pointer: string }) => e.pointer === pointer);
    // The English message is unchanged; keyword and params are added beside it.
    expect(at('/count')).toEqual({
      pointer: '/count',
      message: 'must be >= 1',
      in: 'body',
      keyword: 'minimum',
      params: { comparison: '>=', limit: 1 },
    });
    expect(at('/id')).toMatchObject({
      message: 'must be a UUID',
      keyword: 'format',
      params: { format: 'uuid' },
    });
    expect(at('/colour')).toMatchObject({ keyword: 'enum', params: { allowedValues: ['red', 'blue'] } });
    expect(at('/extra')).toEqual({
      pointer: '/extra',
      message: 'is not an accepted property',
      in: 'body',
      keyword: 'additionalProperties',
    });
    const typed = expectProblem(await post({ id: crypto.randomUUID(), kind: 'case', count: 1.5 }), 400);
    expect(typed.errors).toEqual([
      {
        pointer: '/count',
        message: 'must be integer',
        in: 'body',
        keyword: 'type',
        params: { type: 'integer' },
      },
    ]);
  });

  it('bad UUID in a path -> 400', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/access-token/user/123',
      headers: auth(root),
    });
    const body = expectProblem(response, 400);
    expect(body.errors[0]).toMatchObject({
      pointer: '/userId',
      in: 'params',
      keyword: 'format',
      params: { format: 'uuid' },
    });
  });

  it('oversized body -> 413', async () => {
    expectProblem(await post({ id: 'x'.repeat(10_000) }), 413);
  });

  it('unsupported media type -> 415', async () => {
    expectProblem(await post('id=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
  });

  it('unknown route -> 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expectProblem(response, 404, 'route_not_found');
  });

  it('a fault -> 500 that says only "internal error" and the request id', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/test/boom',
      headers: { 'x-request-id': 'req-42' },
    });
    const body = expectProblem(response, 500, 'internal_error');
    expect(body.detail).toBe('internal error');
    expect(body.requestId).toBe('req-42');
    expect(response.body).not.toContain('postgres://');
    expect(response.body).not.toContain('at ');
  });
});

describe('database constraint errors', () => {
  it('turn a unique violation that reaches the handler into 409, not 500', async () => {
    const route = '/api/test/duplicate';
    expect(app.hasRoute({ method: 'POST', url: route })).toBe(true);
    const first = await app.inject({ method: 'POST', url: route, headers: auth(root) });
    expect(first.statusCode).toBe(409);
    expect(first.json().code).toBe('duplicate');
  });
});
