import { afterAll, beforeAll, expect } from 'vitest';
import { companies } from '../../src/db/schema/index.ts';
import { auth, buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';

/**
 * The set-up both hostile-input test files share: the app on a fresh database, an organisation's
 * superadmin and one company, and helpers to send raw requests (a string payload is sent as is,
 * so malformed JSON reaches the server) and read the answers' pointers.
 */
export function securityFixture() {
  const state = {
    t: undefined as unknown as TestApp,
    admin: undefined as unknown as Credentials,
    companyId: '',
  };
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, who?: Credentials) =>
    state.t.app.inject({
      method,
      url,
      headers: {
        ...auth(who ?? state.admin),
        ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const newOrder = async (): Promise<string> => {
    const response = await inject('POST', '/api/orders', { billedAmount: 10, companyId: state.companyId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  };
  const pointersOf = (response: { json(): { errors?: { pointer: string }[] } }): string[] =>
    (response.json().errors ?? []).map((e) => e.pointer);
  beforeAll(async () => {
    state.t = await buildTestApp();
    state.admin = await makeOrganisation(state.t);
    const [company] = await state.t.app.ctx.db
      .insert(companies)
      .values({ organisationId: state.admin.organisationId, name: 'Acme' })
      .returning();
    state.companyId = company!.id;
  });
  afterAll(() => state.t.close());
  return Object.assign(state, { inject, newOrder, pointersOf });
}
