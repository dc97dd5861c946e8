import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema/platform.ts';
import { EVENT_PAGE, findOrganisationEvent, listEvents } from '../../src/modules/events/repository.ts';
import { resolvePage } from '../../src/platform/pagination.ts';
import { buildTestApp, type Credentials, makeOrganisation, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let a: Credentials;
let b: Credentials;
const db = () => t.app.ctx.db;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeOrganisation(t);
  b = await makeOrganisation(t);
});
afterAll(() => t?.close());

describe('events repository', () => {
  it("lists one organisation's events by entity (any case) and from a code, and finds one in it", async () => {
    const entityId = randomUUID();
    const event = (organisationId: string, entity: string) => ({
      organisationId,
      eventName: `${entity}.CREATE`,
      category: 'ENTITY',
      type: 'CREATE' as const,
      entity,
      tableName: entity.toLowerCase(),
      entityId,
      version: '1',
      payload: {},
    });
    const rows = await db()
      .insert(events)
      .values([
        event(a.organisationId, 'ORDER'),
        event(a.organisationId, 'ORDER'),
        event(a.organisationId, 'QUOTE'),
      ])
      .returning({ id: events.id, code: events.code });
    const [foreign] = await db().insert(events).values(event(b.organisationId, 'ORDER')).returning();
    const [first, second] = rows;

    const oldestFirst = resolvePage({ sort: 'code,ASC' }, EVENT_PAGE);
    const orders = await listEvents(db(), a.organisationId, { entity: 'order', entityId }, oldestFirst);
    expect(orders).toMatchObject({ total: 2, rows: [{ id: first!.id }, { id: second!.id }] });
    const since = await listEvents(db(), a.organisationId, { entityId, sinceCode: first!.code }, oldestFirst);
    expect(since.rows.map((row) => row.id)).toEqual([second!.id, rows[2]!.id]);

    expect((await findOrganisationEvent(db(), a.organisationId, first!.id))?.id).toBe(first!.id);
    expect(await findOrganisationEvent(db(), a.organisationId, foreign!.id)).toBeUndefined();
  });
});
