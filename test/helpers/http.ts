import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { companyUsers, events } from '../../src/db/schema/platform.ts';
import { auth, type Credentials, type TestApp } from './app.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in tests
export type Json = Record<string, any>;

/** `call(who, method, url, payload?)` against the test app; `who` undefined sends no credential. */
export const caller =
  (app: () => TestApp) => (who: Credentials | undefined, method: string, url: string, payload?: unknown) =>
    app().app.inject({
      method: method as 'GET',
      url,
      headers: who ? auth(who) : {},
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });

/** The body of a 201 answer; anything else fails the test with the status and body. */
export async function created(response: { statusCode: number; body: string; json(): Json }) {
  if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json();
}

/** A problem+json answer with the given status (and code); returns its body. */
export function expectProblem(
  response: { statusCode: number; json(): Json; headers: Json },
  status: number,
  code?: string,
) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  if (code) expect(response.json().code).toBe(code);
  return response.json() as { errors?: { pointer: string; message: string }[]; code: string };
}

/** Links a user (contact, external sales) to a company, straight in the database. */
export const linker = (app: () => TestApp) => (user: Credentials, companyId: unknown) =>
  app()
    .app.ctx.db.insert(companyUsers)
    .values({ companyId: companyId as string, userId: user.userId, organisationId: user.organisationId });

/** The events recorded for an entity, oldest first. */
export const eventReader = (app: () => TestApp) => (entityId: unknown) =>
  app()
    .app.ctx.db.select()
    .from(events)
    .where(eq(events.entityId, entityId as string))
    .orderBy(asc(events.code));

/** `createCompany(who, name)` through the API. */
export const companyMaker = (call: ReturnType<typeof caller>) => async (who: Credentials, name: string) =>
  created(await call(who, 'POST', '/api/companies', { name }));
